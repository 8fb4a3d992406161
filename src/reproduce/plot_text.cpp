#include "granular/reproduce/plot_text.hpp"

#include <cstring>

namespace granular::reproduce {

namespace {

// The code points of UTF-8 `text`, each as its bytes; a stray byte counts as one character.
std::vector<std::string> characters(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    std::size_t n = lead < 0x80           ? 1
                    : (lead >> 5) == 0x6  ? 2
                    : (lead >> 4) == 0xE  ? 3
                    : (lead >> 3) == 0x1E ? 4
                                          : 1;
    if (i + n > text.size()) n = 1;
    out.push_back(text.substr(i, n));
    i += n;
  }
  return out;
}

char32_t code_point(const std::string& c) {
  const auto b = [&](std::size_t i) {
    return static_cast<char32_t>(static_cast<unsigned char>(c[i]));
  };
  switch (c.size()) {
    case 2:
      return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
    case 3:
      return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
    case 4:
      return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
    default:
      return b(0);
  }
}

// The width of one character in em, erring wide.
double em_width(const std::string& c) {
  const char32_t u = code_point(c);
  const bool combining = (u >= 0x300 && u <= 0x36F) || (u >= 0x1DC0 && u <= 0x1DFF) ||
                         (u >= 0x20D0 && u <= 0x20FF) || (u >= 0xFE20 && u <= 0xFE2F);
  if (combining) return 0.0;
  if (u >= 0x80) return u == 0x2014 || u == 0x2026 ? 1.05 : 0.9;  // em dash, ellipsis
  const char a = static_cast<char>(u);
  if (std::strchr("mwMW@%", a)) return 1.05;
  if (a >= 'A' && a <= 'Z') return 0.82;
  if (std::strchr(" .,:;!|'il", a)) return 0.4;
  return 0.66;
}

}  // namespace

double text_width(const std::string& text, double font_size) {
  double em = 0.0;
  for (const std::string& c : characters(text)) em += em_width(c);
  return em * font_size;
}

std::vector<std::string> wrap_text(const std::string& text, double max_width, double font_size) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : text + ' ') {
    if (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
      word += c;
    } else if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  }
  std::vector<std::string> lines;
  std::string line;
  const auto fits = [&](const std::string& s) { return text_width(s, font_size) <= max_width; };
  for (const std::string& w : words) {
    if (!line.empty() && fits(line + ' ' + w)) {
      line += ' ' + w;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line.clear();
    // a word longer than a line is cut where it must be
    for (const std::string& c : characters(w)) {
      if (!line.empty() && !fits(line + c)) {
        lines.push_back(line);
        line.clear();
      }
      line += c;
    }
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::string escape_xml(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // XML 1.0 has no other control characters: a registry's text cannot break the page
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
    }
  }
  return out;
}

}  // namespace granular::reproduce
