// A stated result measured: its `measure.compute` evaluated on the outputs of its runs, and the
// verdict against the paper's number and tolerance (docs/reproduce.md).
#pragma once

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "granular/reproduce/expression.hpp"
#include "granular/reproduce/plan.hpp"

namespace granular::reproduce {

// What a result says of the paper's claim (docs/reproduce.md, "Verdicts"). A claim that holds is
// a reproduction only when the entry's evidence is one; the other kinds are shown, not counted.
enum class Verdict {
  reproduced,    // the claim holds, measured at a scale that resolves it
  construction,  // holds by construction (a model identity, arithmetic on the inputs)
  calibrated,    // holds with an input the project set from the paper's own result
  erratum,       // the printed claim is contradicted; the engine follows the derivation
  disagrees,     // the claim does not hold at a scale that resolves it
  inconclusive,  // this scale cannot decide (Result::message says which scale would)
  failed,        // a run, an expression or a requirement of the measurement failed
  not_measured
};
const char* verdict_name(Verdict v);

// Why a result disagrees (the registry's known_disagreement), or that nobody knows.
enum class Disagreement { unexplained, engine, parameter, paper };
const char* disagreement_name(Disagreement d);

// The evidence an entry's check gives when the claim holds (the registry's evidence.kind).
enum class Evidence { reproduction, construction, calibration, erratum };

// A curve of a figure and its name in the legend; y_err, when given, the standard error of each
// y (NaN: none), drawn as a bar of ±1 SE.
struct Series {
  std::string label;
  std::vector<double> x, y, y_err;
};

// A straight line in the axes' own coordinates, v = intercept + slope · u, where u and v are x
// and y, or log10 of them on a log axis (on log-log axes a power law), drawn over the data
// [x_from, x_to] (NaN: the axis' whole width).
struct Line {
  double slope = NAN, intercept = NAN;
  double x_from = NAN, x_to = NAN;
  std::string label;  // its name in the legend; "" for the default one
};

// A horizontal band [low, high]: the paper's value and its tolerance, say.
struct Band {
  double low = NAN, high = NAN;
  std::string label;
};

// The points of a figure: the engine's (x, y) with their standard errors, more of the engine's
// curves (another law, say), the engine's fitted line, and the paper's: its points (ref_x,
// ref_y), line, band or value, as printed.
struct Figure {
  std::vector<double> x, y, y_err, ref_x, ref_y;
  std::string label;  // of (x, y) in the legend, when there are more curves
  std::vector<Series> more;
  std::string x_label, y_label;
  bool log_x = false, log_y = false;
  std::optional<Line> fit;       // the engine's least-squares line, dashed
  std::optional<Line> ref_line;  // the paper's line
  std::optional<Band> ref_band;
  std::optional<double> ref_hline;
  std::string caption;  // a title line: the scale and the verdict (the report writer sets it)
};

struct Result {
  std::string id;
  Verdict verdict = Verdict::not_measured;
  Disagreement disagreement = Disagreement::unexplained;  // when it disagrees
  Value value;
  double stderr_value = NAN;  // of `value`; NaN when unknown
  std::string message;        // how the verdict was reached, or why there is none
  std::optional<Figure> figure;
};

// The paper's number as the report prints it ("3.85", "[0.2, 0.3]", "< 0", ...).
std::string printed_text(const nlohmann::ordered_json& printed);

// Measures one entry from the runs in DIR/runs/ (run_missing ran them).
Result measure(const Plan& plan, const Entry& entry, const std::filesystem::path& dir);

}  // namespace granular::reproduce
