// The report of `granular reproduce` (docs/reproduce.md): report.html, one self-contained page
// with the figures inline, its Markdown twin report.md (figures in figures/), and results.json,
// the verdicts as data; each written atomically.
#pragma once

#include <filesystem>
#include <vector>

#include "granular/reproduce/measure.hpp"
#include "granular/reproduce/plan.hpp"
#include "granular/reproduce/svg_plot.hpp"

namespace granular::reproduce {

// The verdicts counted: "N reproduced; shown, not counted: ...; D disagree (classes), ...".
std::string tally_text(const std::vector<Result>& results);

void write_report(const std::filesystem::path& dir, const Plan& plan,
                  const std::vector<Result>& results);

}  // namespace granular::reproduce
