// The report's figures (issue 33, item 7): ticks at round values with compact labels, text kept
// inside the drawing, error bars, the engine's fit and the paper's line, band and value drawn,
// the caption escaped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "granular/reproduce/plot_axis.hpp"
#include "granular/reproduce/plot_text.hpp"
#include "granular/reproduce/svg_plot.hpp"

namespace {

using granular::reproduce::axis_ticks;
using granular::reproduce::Figure;
using granular::reproduce::Line;
using granular::reproduce::svg_plot;
using granular::reproduce::text_width;
using granular::reproduce::Tick;
using granular::reproduce::tick_label;
using granular::reproduce::wrap_text;

std::vector<std::string> labels(const std::vector<Tick>& ticks) {
  std::vector<std::string> out;
  for (const Tick& t : ticks) out.push_back(t.label);
  return out;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The texts of an SVG's <text> elements.
std::vector<std::string> texts(const std::string& svg) {
  std::vector<std::string> out;
  const std::regex text("<text[^>]*>([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text); it != std::sregex_iterator();
       ++it)
    out.push_back((*it)[1]);
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(PlotTicks, LogAxisTicksAtDecades) {
  // the (Γ − 1) exponent's data, whose old ticks were 0.008333, 0.03033, ... 8.362
  const std::vector<Tick> ticks = axis_ticks(0.008333, 8.362, true, 6);
  EXPECT_EQ(labels(ticks), (std::vector<std::string>{"0.01", "0.1", "1"}));
  EXPECT_DOUBLE_EQ(ticks[0].value, 0.01);
  // too many decades: every third, all in one notation
  EXPECT_EQ(labels(axis_ticks(1e-6, 1e6, true, 6)),
            (std::vector<std::string>{"1e-6", "1e-3", "1e0", "1e3", "1e6"}));
}

TEST(PlotTicks, FewDecadesGetTwoAndFive) {
  EXPECT_EQ(labels(axis_ticks(0.3, 8.0, true, 8)),
            (std::vector<std::string>{"0.5", "1", "2", "5"}));
  // within a decade, round linear steps placed on the log scale, with the step's decimals
  EXPECT_EQ(labels(axis_ticks(5.0, 7.0, true, 6)),
            (std::vector<std::string>{"5.0", "5.5", "6.0", "6.5", "7.0"}));
  EXPECT_EQ(labels(axis_ticks(5.5, 33.0, true, 4)),
            (std::vector<std::string>{"10", "20", "30"}));  // not 10, 20 alone
}

TEST(PlotTicks, LinearAxisTicksInStepsOfOneTwoFive) {
  EXPECT_EQ(labels(axis_ticks(0.0, 37.0, false, 6)),
            (std::vector<std::string>{"0", "10", "20", "30"}));
  EXPECT_EQ(labels(axis_ticks(0.0, 37.0, false, 8)),
            (std::vector<std::string>{"0", "5", "10", "15", "20", "25", "30", "35"}));
  // no 0.30000000000000004, no -0
  EXPECT_EQ(labels(axis_ticks(-0.25, 0.35, false, 7)),
            (std::vector<std::string>{"-0.2", "-0.1", "0", "0.1", "0.2", "0.3"}));
  EXPECT_EQ(labels(axis_ticks(0.00011, 0.00049, false, 5)),
            (std::vector<std::string>{"2e-4", "3e-4", "4e-4"}));
}

TEST(PlotTicks, LabelsAreCompact) {
  EXPECT_EQ(tick_label(0.0, -3), "0");
  EXPECT_EQ(tick_label(-0.0, 0), "0");
  EXPECT_EQ(tick_label(250.0, 1), "250");
  EXPECT_EQ(tick_label(2.5, -1), "2.5");
  EXPECT_EQ(tick_label(2e-5, -5), "2e-5");
  EXPECT_EQ(tick_label(1.5e6, 5), "1.5e6");
}

TEST(PlotText, WidthErrsWideAndWrapsAtSpaces) {
  // DejaVu Sans sets a digit at 0.636 em: the estimate must not fall short of it
  EXPECT_GE(text_width("0.008333", 10.0), 8 * 6.36 * 0.9);
  EXPECT_GE(text_width("12345", 10.0), 5 * 6.36);
  // the bar of ω̄ is a combining mark: no width
  EXPECT_DOUBLE_EQ(text_width("ω̄", 10.0), text_width("ω", 10.0));
  const std::vector<std::string> lines = wrap_text("one two three four five six", 60.0, 10.0);
  EXPECT_GT(lines.size(), 1u);
  for (const std::string& l : lines) EXPECT_LE(text_width(l, 10.0), 60.0) << l;
  // a word longer than a line is cut
  for (const std::string& l : wrap_text(std::string(40, 'x'), 50.0, 10.0))
    EXPECT_LE(text_width(l, 10.0), 50.0);
}

// The exponent's figure: points with standard errors (one unknown), the engine's fit and the
// paper's slope through the data's mean point, on log-log axes.
Figure exponent_figure() {
  Figure f;
  f.x = {0.2, 0.5, 1, 2, 3, 5, 7};
  f.y = {0.0083, 0.043, 0.097, 0.32, 0.42, 0.85, 0.96};
  f.y_err = {0.01, 0.0095, NAN, 0.1, 0.16, 0.13, 0.13};
  f.x_label = "Γ − 1";
  f.y_label = "⟨ω̄²⟩ − ω_c [rad²/s²]";
  f.log_x = f.log_y = true;
  f.fit = Line{1.34, -1.0, 0.2, 7.0, ""};
  f.ref_line = Line{0.99, -0.9, NAN, NAN, "thesis: exponent 0.99, through the data's mean"};
  f.caption = "quick scale — <inconclusive> & co";
  return f;
}

TEST(PlotSvg, DrawsErrorBarsTheFitAndThePapersLine) {
  const std::string svg = svg_plot(exponent_figure());
  // one bar per point with a finite standard error
  EXPECT_EQ(count(svg, "class=\"error-bar\""), 6);
  EXPECT_EQ(count(svg, "class=\"fit\""), 1);
  EXPECT_EQ(count(svg, "class=\"ref-line\""), 1);
  const std::vector<std::string> t = texts(svg);
  EXPECT_TRUE(contains(t, "bars: ±1 standard error"));
  EXPECT_TRUE(contains(t, "least-squares fit, exponent 1.34"));
  EXPECT_TRUE(contains(t, "quick scale — &lt;inconclusive&gt; &amp; co"));
  // round ticks only: decades, or 1, 2, 5 times one
  const std::regex round_tick("^(0\\.0*[125]|[125]0*|0)$");
  for (const std::string& s : t) {
    if (std::regex_match(s, std::regex("^[0-9.e-]+$"))) {
      EXPECT_TRUE(std::regex_match(s, round_tick)) << s;
    }
  }
  EXPECT_TRUE(contains(t, "0.01"));
  EXPECT_TRUE(contains(t, "1"));
}

TEST(PlotSvg, DrawsThePapersBandValueAndPoints) {
  Figure f;
  f.x = {0, 10, 20, 37};
  f.y = {1.1, 1.3, 1.2, 1.25};
  f.ref_band = granular::reproduce::Band{0.79, 1.19, ""};
  f.ref_hline = 0.99;
  f.ref_x = {5};
  f.ref_y = {1.0};
  const std::string svg = svg_plot(f);
  EXPECT_EQ(count(svg, "class=\"ref-band\""), 1);
  EXPECT_EQ(count(svg, "class=\"ref-hline\""), 1);
  EXPECT_EQ(count(svg, "class=\"ref-point\""), 1);
  EXPECT_EQ(count(svg, "class=\"error-bar\""), 0);
  const std::vector<std::string> t = texts(svg);
  EXPECT_TRUE(contains(t, "paper: 0.79 to 1.19"));
  EXPECT_TRUE(contains(t, "paper: 0.99"));
  EXPECT_TRUE(contains(t, "the paper's points"));
  EXPECT_FALSE(contains(t, "bars: ±1 standard error"));
  for (const char* tick : {"0", "10", "20", "30"}) EXPECT_TRUE(contains(t, tick)) << tick;
}

// Every text's estimated box lies inside the drawing: the viewBox grows with the legend, the
// left margin with the widest y tick label and the y label's lines.
TEST(PlotSvg, TextStaysInsideTheDrawing) {
  Figure f = exponent_figure();
  f.y_label =
      "e_t at |u_t/u_n| = 1e-5 (e_t_sticking_limit: cos(ω_t t_c)), a label far longer "
      "than the frame is high";
  f.y = {1e-7, 2e-7, 5e-7, 1e-6, 2.2e-6, 3e-6, 4.5e-6};
  f.y_err.clear();
  const std::string svg = svg_plot(f);
  std::smatch box;
  ASSERT_TRUE(std::regex_search(svg, box, std::regex("viewBox=\"0 0 ([0-9.]+) ([0-9.]+)\"")));
  const double width = std::stod(box[1]), height = std::stod(box[2]);
  const std::regex text(
      "<text x=\"([-0-9.]+)\" y=\"([-0-9.]+)\" text-anchor=\"(start|middle|end)\"[^>]*>([^<]*)<");
  int n = 0;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), text); it != std::sregex_iterator();
       ++it, ++n) {
    const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
    const double w = text_width((*it)[4], 10.0);
    const std::string anchor = (*it)[3];
    const double x0 = anchor == "start" ? x : anchor == "middle" ? x - w / 2 : x - w;
    EXPECT_GE(x0, 0.0) << (*it)[4];
    EXPECT_LE(x0 + w, width) << (*it)[4];
    EXPECT_GE(y - 10.0, 0.0) << (*it)[4];
    EXPECT_LE(y + 3.0, height) << (*it)[4];
  }
  EXPECT_GT(n, 10);
  // the long y label is wrapped: more than one rotated line
  EXPECT_GE(count(svg, "rotate(-90)"), 2);
}

// Values at the ends of the doubles' range still draw: no NaN or infinity in the drawing.
TEST(PlotSvg, ExtremeValuesDrawFinitePixels) {
  Figure f;
  f.x = {0, 1, 2};
  f.y = {-1e308, 0, 1.7e308};
  f.y_err = {1e308, 1, 1e308};
  f.fit = Line{1e300, 0, NAN, NAN, ""};
  const std::string svg = svg_plot(f);
  EXPECT_EQ(svg.find("nan"), std::string::npos) << svg;
  EXPECT_EQ(svg.find("inf"), std::string::npos) << svg;
  f.log_y = true;
  f.y = {1e-320, 1, 1e300};
  EXPECT_EQ(svg_plot(f).find("nan"), std::string::npos);
}

// A band from zero on a log axis (no slip below μ_s, say) runs from the frame's bottom.
TEST(PlotSvg, ABandFromZeroOnALogAxisRunsToTheFrame) {
  Figure f;
  f.x = {22, 24, 30};
  f.y = {0.097, 0.089, 0.072};
  f.log_y = true;
  f.ref_band = granular::reproduce::Band{0, 0.08, "no slip"};
  const std::string svg = svg_plot(f);
  std::smatch band;
  ASSERT_TRUE(std::regex_search(
      svg, band,
      std::regex("class=\"ref-band\" x=\"[0-9.]+\" y=\"([0-9.]+)\" width=\"[0-9.]+\" "
                 "height=\"([0-9.]+)\"")))
      << svg;
  EXPECT_GT(std::stod(band[2]), 10.0);
}

}  // namespace
