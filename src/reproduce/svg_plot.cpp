#include "granular/reproduce/svg_plot.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <sstream>

#include "granular/reproduce/plot_axis.hpp"
#include "granular/reproduce/plot_text.hpp"

namespace granular::reproduce {

namespace {

constexpr double kWidth = 380.0;
constexpr double kFont = 10.0;
// A line of text's box reaches 0.93 em above its baseline and 0.24 em below (DejaVu Sans; other
// fonts less): lines kPitch apart never touch.
constexpr double kAscent = 0.95 * kFont;
constexpr double kDescent = 0.25 * kFont;
constexpr double kPitch = 13.0;
constexpr double kPlotHeight = 170.0;
constexpr double kEdge = 4.0;  // left blank at the drawing's edges
constexpr double kTickLength = 3.0;
constexpr double kMinRight = 12.0;
const char* const kPaperColour = "#c0392b";
const char* const kColours[] = {"#1f5fa8", "#2e8b57", "#8e44ad", "#d68910", "#555555"};

// A pixel coordinate, to a tenth.
std::string px(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", v);
  std::string s = text;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s == "-0" ? "0" : s;
}

// A number in the legend, to three significant digits, its exponent bare ("3.15e3", not
// "3.15e+03").
std::string short_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  std::string s = text;
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  const std::string sign = s[e + 1] == '-' ? "-" : "";
  std::size_t digits = e + 2;  // past the exponent's sign, which %g always writes
  while (digits + 1 < s.size() && s[digits] == '0') ++digits;
  return s.substr(0, e + 1) + sign + s.substr(digits);
}

std::string text_element(double x, double y, const char* anchor, const std::string& s,
                         const std::string& attributes = "") {
  return "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\" text-anchor=\"" + anchor + "\"" +
         attributes + ">" + escape_xml(s) + "</text>\n";
}

std::string segment(double x0, double y0, double x1, double y1) {
  return "M" + px(x0) + "," + px(y0) + " L" + px(x1) + "," + px(y1);
}

double widest(const std::vector<Tick>& ticks) {
  double w = 0.0;
  for (const Tick& t : ticks) w = std::max(w, text_width(t.label, kFont));
  return w;
}

// The most ticks (up to 7) whose labels keep a line apart on the vertical axis.
std::vector<Tick> y_ticks(const Axis& y) {
  for (int n = 7; n > 2; --n) {
    const std::vector<Tick> ticks = axis_ticks(y.data_lo(), y.data_hi(), y.log, n);
    bool apart = true;
    for (std::size_t i = 1; i < ticks.size(); ++i)
      apart = apart && std::fabs(y.at(ticks[i].value) - y.at(ticks[i - 1].value)) >= kPitch + 2;
    if (apart) return ticks;
  }
  return axis_ticks(y.data_lo(), y.data_hi(), y.log, 2);
}

// The most ticks (up to 7) whose labels, centred under them, leave a gap between neighbours.
std::vector<Tick> x_ticks(const Axis& x) {
  for (int n = 7; n > 2; --n) {
    const std::vector<Tick> ticks = axis_ticks(x.data_lo(), x.data_hi(), x.log, n);
    bool apart = true;
    for (std::size_t i = 1; i < ticks.size(); ++i)
      apart = apart && x.at(ticks[i].value) - x.at(ticks[i - 1].value) >=
                           0.5 * (text_width(ticks[i].label, kFont) +
                                  text_width(ticks[i - 1].label, kFont)) +
                               8.0;
    if (apart) return ticks;
  }
  return axis_ticks(x.data_lo(), x.data_hi(), x.log, 2);
}

// The pixels of the part of `line` inside the frame: u within the line's x range and the x axis,
// v = intercept + slope · u within the y axis; none when nothing of it shows.
std::optional<std::array<double, 4>> visible_segment(const Line& line, const Axis& x,
                                                     const Axis& y) {
  const double s = line.slope, c = line.intercept;
  if (!std::isfinite(s) || !std::isfinite(c)) return std::nullopt;
  double u0 = x.shows(line.x_from) ? x.coordinate(line.x_from) : x.lo;
  double u1 = x.shows(line.x_to) ? x.coordinate(line.x_to) : x.hi;
  if (u0 > u1) std::swap(u0, u1);
  u0 = std::max(u0, x.lo);
  u1 = std::min(u1, x.hi);
  if (s != 0.0) {
    double a = (y.lo - c) / s, b = (y.hi - c) / s;
    if (a > b) std::swap(a, b);
    u0 = std::max(u0, a);
    u1 = std::min(u1, b);
  } else if (c < y.lo || c > y.hi) {
    return std::nullopt;
  }
  if (!(u0 < u1)) return std::nullopt;
  return std::array<double, 4>{x.at_coordinate(u0), y.at_coordinate(c + s * u0),
                               x.at_coordinate(u1), y.at_coordinate(c + s * u1)};
}

// An entry of the legend: its swatch drawn at (x, centre line y), and its text.
struct LegendEntry {
  std::function<std::string(double x, double y)> swatch;
  std::string text;
};

// Point i's standard error in c, or NaN where it has none to draw.
double error_of(const Series& c, std::size_t i) {
  return i < c.y_err.size() && std::isfinite(c.y_err[i]) && c.y_err[i] > 0.0 ? c.y_err[i] : NAN;
}

// The axes' ranges: every point, its error bar (on a log axis down to a tenth of the point: a
// bar reaching zero runs to the frame), and the paper's points, band and value.
std::array<Axis, 2> covering_axes(const Figure& f, const std::vector<Series>& curves) {
  std::vector<double> xs = f.ref_x, ys = f.ref_y;
  for (const Series& c : curves)
    for (std::size_t i = 0; i < c.x.size() && i < c.y.size(); ++i) {
      xs.push_back(c.x[i]);
      ys.push_back(c.y[i]);
      const double e = error_of(c, i);
      const bool drawn = std::isfinite(c.x[i]) && std::isfinite(c.y[i]) &&
                         (!f.log_x || c.x[i] > 0.0) && (!f.log_y || c.y[i] > 0.0);
      if (std::isnan(e) || !drawn) continue;
      ys.push_back(c.y[i] + e);
      if (!f.log_y || c.y[i] - e >= 0.1 * c.y[i]) ys.push_back(c.y[i] - e);
    }
  for (const std::optional<Line>& line : {f.fit, f.ref_line})
    if (line) xs.insert(xs.end(), {line->x_from, line->x_to});
  if (f.ref_band) ys.insert(ys.end(), {f.ref_band->low, f.ref_band->high});
  if (f.ref_hline) ys.push_back(*f.ref_hline);
  return {Axis::covering(xs, f.log_x), Axis::covering(ys, f.log_y)};
}

// Where the frame lies in the drawing: top to bottom the caption, the frame, the x ticks, the x
// label, the legend; left to right the y label, the y ticks, the frame. The axes map data to
// pixels: the frame's edges are the axes' pixel ends.
struct Frame {
  Axis x, y;
  std::vector<Tick> xt, yt;
  std::vector<std::string> caption, y_lines;
  double left() const { return x.a; }
  double top() const { return y.b; }
  double bottom() const { return y.a; }
};

Frame place_frame(const Figure& f, const std::array<Axis, 2>& axes) {
  Frame fr{axes[0], axes[1], {}, {}, {}, {}};
  if (!f.caption.empty()) fr.caption = wrap_text(f.caption, kWidth - 2 * kEdge, kFont);
  // the top tick's label reaches 6 px above the frame
  fr.y.b = fr.caption.empty() ? kEdge + 8.0
                              : kEdge + kAscent + (fr.caption.size() - 1) * kPitch + kDescent + 9.0;
  fr.y.a = fr.y.b + kPlotHeight;
  fr.yt = y_ticks(fr.y);
  const std::string y_title = f.y_label + (f.log_y ? (f.y_label.empty() ? "(log)" : " (log)") : "");
  if (!y_title.empty()) fr.y_lines = wrap_text(y_title, kPlotHeight, kFont);
  const double left_of_ticks =
      kEdge + fr.y_lines.size() * kPitch + 4.0 + widest(fr.yt) + 3.0 + kTickLength;
  // the outermost x tick labels, centred on the frame's corners, stay inside the drawing
  double left = left_of_ticks, right = kMinRight;
  for (int pass = 0; pass < 4; ++pass) {
    fr.x.a = left;
    fr.x.b = kWidth - right;
    fr.xt = x_ticks(fr.x);
    const double half = 0.5 * widest(fr.xt) + kEdge;
    const double l = std::max(left_of_ticks, half), r = std::max(kMinRight, half);
    if (l == left && r == right) break;
    left = l;
    right = r;
  }
  fr.x.a = left;
  fr.x.b = kWidth - right;
  fr.xt = x_ticks(fr.x);
  return fr;
}

// The paper's band behind the frame, the frame with its ticks, the paper's value and line, and
// the engine's fit.
void draw_frame_and_lines(const Figure& f, const Frame& fr, std::ostream& body) {
  const Axis &x = fr.x, &y = fr.y;
  if (f.ref_band) {
    // inside the frame; on a log axis an end at or below zero lies below it
    const auto pixel = [&](double v) {
      return std::clamp(y.shows(v) ? y.at(v) : fr.bottom(), fr.top(), fr.bottom());
    };
    const double upper = std::min(pixel(f.ref_band->low), pixel(f.ref_band->high));
    const double lower = std::max(pixel(f.ref_band->low), pixel(f.ref_band->high));
    if (lower > upper)
      body << "<rect class=\"ref-band\" x=\"" << px(fr.left()) << "\" y=\"" << px(upper)
           << "\" width=\"" << px(x.b - fr.left()) << "\" height=\"" << px(lower - upper)
           << "\" fill=\"" << kPaperColour << "\" fill-opacity=\"0.15\"/>\n";
  }
  body << "<rect x=\"" << px(fr.left()) << "\" y=\"" << px(fr.top()) << "\" width=\""
       << px(x.b - fr.left()) << "\" height=\"" << px(kPlotHeight)
       << "\" fill=\"none\" stroke=\"#444\"/>\n";
  std::string marks;
  for (const Tick& t : fr.xt) {
    const double p = x.at(t.value);
    marks += (marks.empty() ? "" : " ") + segment(p, fr.bottom(), p, fr.bottom() + kTickLength);
    body << text_element(p, fr.bottom() + kTickLength + 14.0, "middle", t.label);
  }
  for (const Tick& t : fr.yt) {
    const double p = y.at(t.value);
    marks += (marks.empty() ? "" : " ") + segment(fr.left() - kTickLength, p, fr.left(), p);
    body << text_element(fr.left() - kTickLength - 3.0, p + 3.5, "end", t.label);
  }
  if (!marks.empty()) body << "<path d=\"" << marks << "\" stroke=\"#444\"/>\n";

  if (f.ref_hline && y.shows(*f.ref_hline)) {
    const double p = y.at(*f.ref_hline);
    body << "<path class=\"ref-hline\" d=\"" << segment(fr.left(), p, x.b, p) << "\" stroke=\""
         << kPaperColour << "\" stroke-width=\"1.2\"/>\n";
  }
  if (f.ref_line)
    if (const auto seg = visible_segment(*f.ref_line, x, y))
      body << "<path class=\"ref-line\" d=\"" << segment((*seg)[0], (*seg)[1], (*seg)[2], (*seg)[3])
           << "\" stroke=\"" << kPaperColour << "\" stroke-width=\"1.5\"/>\n";
  if (f.fit)
    if (const auto seg = visible_segment(*f.fit, x, y))
      body << "<path class=\"fit\" d=\"" << segment((*seg)[0], (*seg)[1], (*seg)[2], (*seg)[3])
           << "\" stroke=\"" << kColours[0]
           << "\" stroke-width=\"1.5\" stroke-dasharray=\"6,3\"/>\n";
}

// What the data drew, for the legend.
struct Drawn {
  bool bar = false;        // some error bar
  bool ref_point = false;  // some point of the paper's
};

// The engine's curves, each in its colour: bars of ±1 SE, then the points joined in order (a
// legend entry for each labelled one); then the paper's points as crosses.
Drawn draw_data(const Figure& f, const std::vector<Series>& curves, const Frame& fr,
                std::ostream& body, std::vector<LegendEntry>& legend) {
  const Axis &x = fr.x, &y = fr.y;
  Drawn drawn;
  for (std::size_t k = 0; k < curves.size(); ++k) {
    const Series& c = curves[k];
    const char* colour = kColours[k % 5];
    for (std::size_t i = 0; i < c.x.size() && i < c.y.size(); ++i) {
      const double e = error_of(c, i);
      if (std::isnan(e) || !x.shows(c.x[i]) || !y.shows(c.y[i])) continue;
      const double p = x.at(c.x[i]);
      // above the point: a smaller pixel; past the doubles' range, to the frame
      const double high = y.shows(c.y[i] + e) ? y.at(c.y[i] + e) : -INFINITY;
      const double low = y.shows(c.y[i] - e) ? y.at(c.y[i] - e) : INFINITY;
      std::string d = segment(p, std::max(high, fr.top()), p, std::min(low, fr.bottom()));
      if (high >= fr.top()) d += " " + segment(p - 2.5, high, p + 2.5, high);
      if (low <= fr.bottom()) d += " " + segment(p - 2.5, low, p + 2.5, low);
      body << "<path class=\"error-bar\" d=\"" << d << "\" stroke=\"" << colour << "\"/>\n";
      drawn.bar = true;
    }
    std::string path;
    for (std::size_t i = 0; i < c.x.size() && i < c.y.size(); ++i) {
      if (!x.shows(c.x[i]) || !y.shows(c.y[i])) continue;
      const double px_x = x.at(c.x[i]), px_y = y.at(c.y[i]);
      path += (path.empty() ? "M" : " L") + px(px_x) + "," + px(px_y);
      body << "<circle cx=\"" << px(px_x) << "\" cy=\"" << px(px_y) << "\" r=\"2.5\" fill=\""
           << colour << "\"/>\n";
    }
    if (!path.empty())
      body << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << colour
           << "\" stroke-width=\"1\"/>\n";
    if (!c.label.empty())
      legend.push_back({[colour](double sx, double sy) {
                          return "<path d=\"" + segment(sx, sy, sx + 20, sy) + "\" stroke=\"" +
                                 colour + "\"/><circle cx=\"" + px(sx + 10) + "\" cy=\"" + px(sy) +
                                 "\" r=\"2.5\" fill=\"" + colour + "\"/>";
                        },
                        c.label});
  }
  for (std::size_t i = 0; i < f.ref_x.size() && i < f.ref_y.size(); ++i) {
    if (!x.shows(f.ref_x[i]) || !y.shows(f.ref_y[i])) continue;
    const double p = x.at(f.ref_x[i]), q = y.at(f.ref_y[i]);
    body << "<path class=\"ref-point\" d=\"" << segment(p - 3, q - 3, p + 3, q + 3) << " "
         << segment(p - 3, q + 3, p + 3, q - 3) << "\" stroke=\"" << kPaperColour
         << "\" stroke-width=\"1.5\"/>\n";
    drawn.ref_point = true;
  }
  return drawn;
}

// The legend's entries after the curves': the bars, the fit, and the paper's line, band, value
// and points.
void add_reference_legend(const Figure& f, const Drawn& drawn, std::vector<LegendEntry>& legend) {
  const bool log_log = f.log_x && f.log_y;
  const std::string slope_word = log_log ? "exponent " : "slope ";
  if (drawn.bar)
    legend.push_back({[](double sx, double sy) {
                        return "<path d=\"" + segment(sx + 10, sy - 5, sx + 10, sy + 5) + " " +
                               segment(sx + 7.5, sy - 5, sx + 12.5, sy - 5) + " " +
                               segment(sx + 7.5, sy + 5, sx + 12.5, sy + 5) +
                               "\" stroke=\"#444\"/>";
                      },
                      "bars: ±1 standard error"});
  if (f.fit)
    legend.push_back({[](double sx, double sy) {
                        return "<path d=\"" + segment(sx, sy, sx + 20, sy) + "\" stroke=\"" +
                               kColours[0] + "\" stroke-width=\"1.5\" stroke-dasharray=\"6,3\"/>";
                      },
                      (f.fit->label.empty() ? std::string("least-squares fit") : f.fit->label) +
                          ", " + slope_word + short_number(f.fit->slope)});
  const auto paper_line = [](double sx, double sy) {
    return "<path d=\"" + segment(sx, sy, sx + 20, sy) + "\" stroke=\"" + kPaperColour +
           "\" stroke-width=\"1.5\"/>";
  };
  if (f.ref_line)
    legend.push_back({paper_line, f.ref_line->label.empty()
                                      ? "paper: " + std::string(log_log ? "power law, " : "") +
                                            slope_word + short_number(f.ref_line->slope)
                                      : f.ref_line->label});
  if (f.ref_band)
    legend.push_back({[](double sx, double sy) {
                        return "<rect x=\"" + px(sx) + "\" y=\"" + px(sy - 4) +
                               "\" width=\"20\" height=\"8\" fill=\"" + kPaperColour +
                               "\" fill-opacity=\"0.15\"/>";
                      },
                      f.ref_band->label.empty() ? "paper: " + short_number(f.ref_band->low) +
                                                      " to " + short_number(f.ref_band->high)
                                                : f.ref_band->label});
  if (f.ref_hline) legend.push_back({paper_line, "paper: " + short_number(*f.ref_hline)});
  if (drawn.ref_point)
    legend.push_back({[](double sx, double sy) {
                        return "<path d=\"" + segment(sx + 7, sy - 3, sx + 13, sy + 3) + " " +
                               segment(sx + 7, sy + 3, sx + 13, sy - 3) + "\" stroke=\"" +
                               kPaperColour + "\" stroke-width=\"1.5\"/>";
                      },
                      "the paper's points"});
}

// The texts around the frame, each line a pitch below the one before: the caption, the y label,
// the x label and the legend. Returns the drawing's height.
double draw_texts(const Figure& f, const Frame& fr, const std::vector<LegendEntry>& legend,
                  std::ostream& body) {
  for (std::size_t i = 0; i < fr.caption.size(); ++i)
    body << text_element(kEdge, kEdge + kAscent + i * kPitch, "start", fr.caption[i],
                         " class=\"caption\" fill=\"#222\"");
  for (std::size_t i = 0; i < fr.y_lines.size(); ++i)
    body << "<text transform=\"translate(" << px(kEdge + kAscent + i * kPitch) << ","
         << px(fr.top() + 0.5 * kPlotHeight) << ") rotate(-90)\" text-anchor=\"middle\">"
         << escape_xml(fr.y_lines[i]) << "</text>\n";
  double baseline = fr.bottom() + kTickLength + 14.0;
  const double centre = 0.5 * (fr.left() + fr.x.b);
  const std::string x_title = f.x_label + (f.log_x ? (f.x_label.empty() ? "(log)" : " (log)") : "");
  if (!x_title.empty()) {
    baseline += 2.0;
    for (const std::string& line :
         wrap_text(x_title, 2.0 * std::min(centre - kEdge, kWidth - kEdge - centre), kFont)) {
      baseline += kPitch;
      body << text_element(centre, baseline, "middle", line);
    }
  }
  if (!legend.empty()) baseline += 4.0;
  for (const LegendEntry& entry : legend) {
    const double text_x = kEdge + 26.0;
    const std::vector<std::string> lines = wrap_text(entry.text, kWidth - kEdge - text_x, kFont);
    body << entry.swatch(kEdge + 2.0, baseline + kPitch - 3.5) << "\n";
    for (const std::string& line : lines) {
      baseline += kPitch;
      body << text_element(text_x, baseline, "start", line, " class=\"legend\"");
    }
  }
  return std::ceil(baseline + kDescent + kEdge);
}

}  // namespace

std::string svg_plot(const Figure& f) {
  std::vector<Series> curves = {{f.label, f.x, f.y, f.y_err}};
  curves.insert(curves.end(), f.more.begin(), f.more.end());
  const Frame fr = place_frame(f, covering_axes(f, curves));
  std::ostringstream body;
  draw_frame_and_lines(f, fr, body);
  std::vector<LegendEntry> legend;
  const Drawn drawn = draw_data(f, curves, fr, body, legend);
  add_reference_legend(f, drawn, legend);
  const double height = draw_texts(f, fr, legend, body);

  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(kWidth) << "\" height=\""
    << px(height) << "\" viewBox=\"0 0 " << px(kWidth) << " " << px(height)
    << "\" font-family=\"sans-serif\" font-size=\"" << px(kFont) << "\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << body.str() << "</svg>\n";
  return s.str();
}

}  // namespace granular::reproduce
