// A stated result measured: its `measure.compute` evaluated on the outputs of its runs, and the
// verdict against the paper's number and tolerance (docs/reproduce.md).
#pragma once

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

// A curve of a figure and its name in the legend.
struct Series {
  std::string label;
  std::vector<double> x, y;
};

// The points of a figure: the engine's (x, y), more of the engine's curves (another law, say)
// and the paper's (ref_x, ref_y), if printed.
struct Figure {
  std::vector<double> x, y, ref_x, ref_y;
  std::string label;  // of (x, y) in the legend, when there are more curves
  std::vector<Series> more;
  std::string x_label, y_label;
  bool log_x = false, log_y = false;
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
