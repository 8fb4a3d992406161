// Text in the report's SVG figures: its width estimated without a font at hand, lines wrapped to
// a width, and the characters XML reserves escaped. The estimate errs wide (DejaVu Sans, the
// usual sans-serif on Linux, sets digits at 0.64 em), so that a margin computed from it holds
// the text in any common font.
#pragma once

#include <string>
#include <vector>

namespace granular::reproduce {

// The width in pixels of UTF-8 `text` at `font_size` pixels, overestimated: 0.65 em a
// character, wider for capitals, m, w and symbols, narrower for spaces and dots; combining marks
// (the bar of ω̄) take none.
double text_width(const std::string& text, double font_size);

// `text` broken into lines of at most `max_width` pixels, at spaces where it can, inside a word
// that is longer than a line; no line is empty unless `text` is.
std::vector<std::string> wrap_text(const std::string& text, double max_width, double font_size);

// `text` with &, <, > and " as XML entities (SVG text and attributes, HTML).
std::string escape_xml(const std::string& text);

}  // namespace granular::reproduce
