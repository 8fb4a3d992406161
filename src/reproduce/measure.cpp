#include "granular/reproduce/measure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "granular/cases/output_folder.hpp"
#include "granular/io/input_file.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/io/plain_name.hpp"
#include "granular/names.hpp"

namespace granular::reproduce {

namespace fs = std::filesystem;
using nlohmann::json;

const char* verdict_name(Verdict v) {
  static constexpr Named<Verdict> kNames[] = {
      {Verdict::reproduced, "reproduced"}, {Verdict::construction, "consistent by construction"},
      {Verdict::calibrated, "calibrated"}, {Verdict::erratum, "erratum"},
      {Verdict::disagrees, "disagrees"},   {Verdict::inconclusive, "inconclusive"},
      {Verdict::failed, "failed"},         {Verdict::not_measured, "not measured"}};
  return name_of(kNames, v);
}

const char* disagreement_name(Disagreement d) {
  static constexpr Named<Disagreement> kNames[] = {
      {Disagreement::unexplained, "unexplained"},
      {Disagreement::engine, "engine defect"},
      {Disagreement::parameter, "a parameter the paper omits"},
      {Disagreement::paper, "the paper's inconsistency"}};
  return name_of(kNames, d);
}

namespace {

std::string number_text(double x) { return Value::of(x).brief(); }

// The bytes of a file a run wrote, read as every input is (a regular file of bounded size).
std::string run_output(const fs::path& file) {
  try {
    return io::read_input_file(file);
  } catch (const io::CaseError& e) {
    throw ExpressionError(e.what());
  }
}

// A CSV column: numbers where every field reads as one, else words.
Value read_column(const fs::path& file, const std::string& column) {
  std::istringstream in(run_output(file));
  std::string line;
  std::getline(in, line);
  const auto split = [](const std::string& l) {
    std::vector<std::string> f;
    std::stringstream s(l);
    std::string field;
    while (std::getline(s, field, ',')) f.push_back(field);
    if (!l.empty() && l.back() == ',') f.emplace_back();
    return f;
  };
  const std::vector<std::string> header = split(line);
  std::size_t k = header.size();
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == column) k = i;
  if (k == header.size()) throw ExpressionError(file.string() + ": no column '" + column + "'");
  std::vector<std::string> fields;
  while (std::getline(in, line))
    if (!line.empty()) {
      const std::vector<std::string> f = split(line);
      fields.push_back(k < f.size() ? f[k] : "");
    }
  std::vector<Value> items;
  bool numeric = true;
  for (const std::string& f : fields) {
    char* end = nullptr;
    const double x = std::strtod(f.c_str(), &end);
    numeric = numeric && !f.empty() && end == f.c_str() + f.size();
    items.push_back(Value::of(x));
  }
  if (!numeric)
    for (std::size_t i = 0; i < fields.size(); ++i) items[i] = Value::of_text(fields[i]);
  return Value::of_array(std::move(items));
}

// The value at `pointer`; a "*" step takes every element of an array ("/packings/*/rho2").
Value at_pointer(const json& doc, const std::string& pointer) {
  const std::size_t star = pointer.find("/*");
  if (star == std::string::npos || (star + 2 < pointer.size() && pointer[star + 2] != '/'))
    return Value::of_json(doc.at(json::json_pointer(pointer)));
  const json& array = doc.at(json::json_pointer(pointer.substr(0, star)));
  if (!array.is_array()) throw ExpressionError(pointer.substr(0, star) + " is not an array");
  std::vector<Value> items;
  for (const json& e : array) items.push_back(at_pointer(e, pointer.substr(star + 2)));
  return Value::of_array(std::move(items));
}

// The files of an entry's runs: "run/file" or "file" (the run "main").
class RunFiles {
 public:
  RunFiles(const Entry& e, const fs::path& dir) {
    for (const Run& r : e.runs) folders_[r.name] = dir / "runs" / r.folder;
  }

  // The file `path` names: "run/name" in that run's folder, else "name" in the run "main"'s;
  // a name from the registry reads only a file its run wrote, inside its folder.
  fs::path locate(const std::string& path) const {
    const std::size_t slash = path.find('/');
    if (slash != std::string::npos) {
      const auto it = folders_.find(path.substr(0, slash));
      if (it != folders_.end()) return inside(it->second, path.substr(slash + 1), path);
    }
    const auto main = folders_.find("main");
    if (main == folders_.end()) throw ExpressionError("'" + path + "' names no run");
    return inside(main->second, path, path);
  }

  static fs::path inside(const fs::path& folder, const std::string& name, const std::string& path) {
    std::string why = io::outside_folder(folder, name);
    const std::string first = name.substr(0, name.find('/'));
    if (why.empty() && first != "validate.json" && !cases::is_run_output(first))
      why = "not a file a run writes";
    if (!why.empty()) throw ExpressionError("'" + path + "': " + why);
    return folder / name;
  }

  FileReader reader() {
    FileReader r;
    r.json = [this](const std::string& path, const std::string& pointer) {
      const fs::path file = locate(path);
      auto it = json_.find(file.string());
      if (it == json_.end()) {
        try {
          it = json_.emplace(file.string(), io::read_json_file(file.string())).first;
        } catch (const io::CaseError& e) {
          throw ExpressionError(e.what());
        }
      }
      try {
        return at_pointer(it->second, pointer);
      } catch (const json::exception&) {
        throw ExpressionError(path + ": nothing at " + pointer);
      }
    };
    r.column = [this](const std::string& path, const std::string& column) {
      return read_column(locate(path), column);
    };
    return r;
  }

 private:
  std::map<std::string, fs::path> folders_;
  std::map<std::string, json> json_;
};

// True when every number in `v` (an array's too) is finite.
bool finite(const Value& v) {
  if (v.is_number()) return std::isfinite(v.number);
  if (!v.is_array()) return true;
  for (const Value& e : v.items)
    if (!finite(e)) return false;
  return true;
}

std::vector<double> number_array(const Value& v, const std::string& what) {
  std::vector<double> x;
  if (!v.is_array()) throw ExpressionError(what + ": expected an array, got " + v.brief());
  for (const Value& e : v.items) x.push_back(as_number(e, what));
  return x;
}

// What a measured value says of the paper's claim: it holds, fails, or this scale cannot tell.
enum class Outcome { holds, fails, undecided };

// The outcome of `v` ± `se` (its standard error; NaN: none, an exact result) against the paper's
// printed claim and the tolerance, and why. A claim is decided only when the measurement
// resolves it: it holds when v satisfies it with 2 SE inside the margin, fails when v misses it
// by more than 2 SE, and is undecided between (docs/reproduce.md, "Verdicts"). An undecided
// result says how much more sampling would decide it (the SE falls as one over the square root
// of the samples).
Outcome compare_printed(const nlohmann::ordered_json& printed, const nlohmann::ordered_json& tol,
                        double v, double se, std::string& why) {
  const std::string kind = printed.value("kind", "");
  const double two_se = std::isfinite(se) ? 2.0 * se : 0.0;
  // the paper's precision, the same at every scale: a smaller scale gives a larger standard
  // error, never a wider tolerance
  const auto tolerance_of = [&](double reference) -> double {
    if (tol.contains("absolute") && tol["absolute"].is_number())
      return tol["absolute"].get<double>();
    if (tol.contains("relative") && tol["relative"].is_number())
      return tol["relative"].get<double>() * std::fabs(reference);
    return NAN;
  };
  const std::string pm = two_se > 0.0 ? " ± " + number_text(se) : "";
  // decided when v's distance `margin` from the claim's boundary (> 0: on the claim's side)
  // exceeds 2 SE and `spread` (the width the claim allows) holds 2 SE
  const auto decide = [&](bool on_side, double margin, double spread) {
    if (two_se == 0.0) return on_side ? Outcome::holds : Outcome::fails;
    if (on_side && two_se <= spread) return Outcome::holds;
    if (!on_side && margin > two_se) return Outcome::fails;
    const double need = on_side ? spread : margin;
    const double factor = need > 0.0 ? (two_se / need) * (two_se / need) : INFINITY;
    why +=
        "; inconclusive at this scale: 2 SE = " + number_text(two_se) +
        (std::isfinite(factor) ? " (about " + number_text(factor) + "x the samples would decide it)"
                               : " (no scale decides a value on the claim's boundary)");
    return Outcome::undecided;
  };
  if (kind == "sign") {
    const std::string s = printed.value("sign", "");
    const double sign = s == "positive" || s == "+"   ? 1.0
                        : s == "negative" || s == "-" ? -1.0
                                                      : 0.0;
    why = number_text(v) + pm + " against the paper's sign " + s;
    if (sign == 0.0) return decide(v == 0.0, std::fabs(v), 0.0);
    return decide(sign * v > 0.0, std::fabs(v), std::fabs(v));
  }
  if (kind == "range") {
    const double lo = printed.value("low", NAN), hi = printed.value("high", NAN);
    double t = tolerance_of(std::fmax(std::fabs(lo), std::fabs(hi)));
    if (std::isnan(t)) t = 0.0;
    why = number_text(v) + pm + " in the range [" + number_text(lo) + ", " + number_text(hi) +
          "] ± " + number_text(t);
    const bool inside = v >= lo - t && v <= hi + t;
    const double outside = std::fmax(lo - t - v, v - hi - t);
    return decide(inside, outside, 0.5 * (hi - lo) + t);
  }
  if (kind == "inequality" && printed.contains("relation") && printed.contains("value") &&
      printed["value"].is_number()) {
    const std::string rel = printed["relation"].get<std::string>();
    const double p = printed["value"].get<double>();
    const bool ok = rel == "<"    ? v < p
                    : rel == "<=" ? v <= p
                    : rel == ">"  ? v > p
                    : rel == ">=" ? v >= p
                                  : false;
    why = number_text(v) + pm + " " + rel + " " + number_text(p) + (ok ? "" : " does not hold");
    return decide(ok, std::fabs(v - p), std::fabs(v - p));
  }
  if (!printed.contains("value") || !printed["value"].is_number())
    throw ExpressionError(
        "the paper prints no number to compare with (a pass expression is needed)");
  const double p = printed["value"].get<double>();
  if (tol.contains("sign") && !tol.contains("absolute") && !tol.contains("relative")) {
    why = "the sign of " + number_text(v) + pm + " against the paper's " + number_text(p);
    return decide((v > 0) == (p > 0) && (v < 0) == (p < 0), std::fabs(v), std::fabs(v));
  }
  const double t = tolerance_of(p);
  if (std::isnan(t)) throw ExpressionError("the tolerance gives no absolute or relative bound");
  const double d = std::fabs(v - p);
  why = "|" + number_text(v) + pm + " - " + number_text(p) + "| = " + number_text(d) +
        (d <= t ? " <= " : " > ") + number_text(t);
  return decide(d <= t, d - t, t);
}

}  // namespace

std::string printed_text(const nlohmann::ordered_json& printed) {
  const std::string kind = printed.value("kind", "");
  const std::string unit = printed.value("unit", "");
  const std::string u = unit.empty() || unit == "-" ? "" : " " + unit;
  const auto num = [&](const char* key) {
    const nlohmann::ordered_json v = printed.value(key, nlohmann::ordered_json());
    return v.is_number()   ? number_text(v.get<double>())
           : v.is_string() ? v.get<std::string>()
                           : std::string("?");
  };
  if (kind == "range") return "[" + num("low") + ", " + num("high") + "]" + u;
  if (kind == "sign") return printed.value("sign", "?") + u;
  if (kind == "closed_form") return printed.value("expression", "closed form");
  if (kind == "trend" && printed.contains("trend")) return printed["trend"].get<std::string>();
  if (kind == "inequality" && printed.contains("relation"))
    return printed["relation"].get<std::string>() +
           (printed.contains("value") ? " " + num("value") : std::string()) + u;
  if (printed.contains("value")) return num("value") + u;
  return kind;
}

namespace {

// A number of a figure block: the number itself, or an expression giving one.
double figure_number(const nlohmann::ordered_json& v, const Names& names, const FileReader& reader,
                     const std::string& what) {
  if (v.is_number()) return v.get<double>();
  return as_number(evaluate(v.get<std::string>(), names, reader), what);
}

// The standard errors `key` of a curve's n points, or none when the block gives none.
std::vector<double> errors(const nlohmann::ordered_json& block, const char* key, std::size_t n,
                           const Names& names, const FileReader& reader, const std::string& what) {
  if (!block.contains(key)) return {};
  // NaN (a null read) stays: that point gets no bar
  std::vector<double> e;
  const Value v = evaluate(block[key].get<std::string>(), names, reader);
  if (!v.is_array()) throw ExpressionError(what + ": expected an array, got " + v.brief());
  for (const Value& item : v.items) e.push_back(item.is_number() ? item.number : NAN);
  if (e.size() != n)
    throw ExpressionError(what + ": " + std::to_string(e.size()) + " standard errors for " +
                          std::to_string(n) + " points");
  return e;
}

// A line of a figure block (fit, ref_line), over the range of its `x` or else `default_x`; none
// when its slope or intercept is not a finite number (the fit of too few points, say).
std::optional<Line> figure_line(const nlohmann::ordered_json& l,
                                const std::vector<double>& default_x, bool log_x,
                                const Names& names, const FileReader& reader,
                                const std::string& what) {
  Line line;
  line.slope = figure_number(l.at("slope"), names, reader, what + " slope");
  line.intercept = figure_number(l.at("intercept"), names, reader, what + " intercept");
  if (!std::isfinite(line.slope) || !std::isfinite(line.intercept)) return std::nullopt;
  const std::vector<double> x =
      l.contains("x")
          ? number_array(evaluate(l["x"].get<std::string>(), names, reader), what + " x")
          : default_x;
  for (const double u : x)
    if (std::isfinite(u) && (!log_x || u > 0.0)) {
      line.x_from = std::isnan(line.x_from) ? u : std::min(line.x_from, u);
      line.x_to = std::isnan(line.x_to) ? u : std::max(line.x_to, u);
    }
  line.label = l.value("label", "");
  return line;
}

// The figure block of a compute: the engine's curves evaluated, with their standard errors and
// fitted line; the paper's points, line, band and value as given or computed.
Figure figure(const nlohmann::ordered_json& f, const Names& names, const FileReader& reader) {
  Figure fig;
  fig.x = number_array(evaluate(f.at("x").get<std::string>(), names, reader), "figure x");
  fig.y = number_array(evaluate(f.at("y").get<std::string>(), names, reader), "figure y");
  fig.y_err = errors(f, "y_err", fig.y.size(), names, reader, "figure y_err");
  if (f.contains("ref_x") && f.contains("ref_y")) {
    fig.ref_x = f["ref_x"].get<std::vector<double>>();
    fig.ref_y = f["ref_y"].get<std::vector<double>>();
  }
  fig.label = f.value("label", "");
  for (const auto& more : f.value("series", nlohmann::ordered_json::array())) {
    Series c;
    c.label = more.value("label", "");
    c.x = number_array(evaluate(more.at("x").get<std::string>(), names, reader), "series x");
    c.y = number_array(evaluate(more.at("y").get<std::string>(), names, reader), "series y");
    c.y_err = errors(more, "y_err", c.y.size(), names, reader, "series y_err");
    fig.more.push_back(c);
  }
  fig.x_label = f.value("x_label", "");
  fig.y_label = f.value("y_label", "");
  fig.log_x = f.value("log_x", false);
  fig.log_y = f.value("log_y", false);
  // the fit spans the points it fits (its x, else the figure's); the paper's line, the axes
  if (f.contains("fit"))
    fig.fit = figure_line(f["fit"], fig.x, fig.log_x, names, reader, "figure fit");
  if (f.contains("ref_line"))
    fig.ref_line = figure_line(f["ref_line"], {}, fig.log_x, names, reader, "figure ref_line");
  // a band or value that is no number (a NaN read) is left out, as a point that is none
  if (f.contains("ref_band")) {
    const nlohmann::ordered_json& b = f["ref_band"];
    const Band band{figure_number(b.at("low"), names, reader, "figure ref_band low"),
                    figure_number(b.at("high"), names, reader, "figure ref_band high"),
                    b.value("label", "")};
    if (std::isfinite(band.low) && std::isfinite(band.high)) fig.ref_band = band;
  }
  if (f.contains("ref_hline")) {
    const double v = figure_number(f["ref_hline"], names, reader, "figure ref_hline");
    if (std::isfinite(v)) fig.ref_hline = v;
  }
  return fig;
}

// Why a finished run's outcome cannot be measured: its status is not one the entry accepts (by
// default "completed", or every packing "ok"); "" when it can. `accept` lists the statuses the
// entry accepts besides, "flagged" letting packings with a status flag through.
std::string run_status_defect(const Run& run, const fs::path& folder,
                              const std::vector<std::string>& accept) {
  if (run.validate) return "";
  const json summary = io::read_json_file((folder / "summary.json").string());
  const auto accepted = [&](const std::string& s) {
    return s == "completed" || s == "ok" ||
           std::find(accept.begin(), accept.end(), s) != accept.end();
  };
  if (summary.contains("status") && summary["status"].is_string() &&
      !accepted(summary["status"].get<std::string>()))
    return "its run " + run.name + " ended " + summary["status"].get<std::string>() +
           (summary.value("detail", json()).is_string()
                ? " (" + summary["detail"].get<std::string>() + ")"
                : std::string());
  int flagged = 0;
  if (summary.contains("packings") && summary["packings"].is_array())
    for (const json& p : summary["packings"])
      flagged += p.is_object() && p.value("status", std::string("ok")) != "ok";
  if (flagged > 0 && !accepted("flagged"))
    return "its run " + run.name + " has " + std::to_string(flagged) +
           " packing(s) flagged (their disks drop out of every average)";
  return "";
}

Evidence evidence_of(const Entry& entry) {
  const std::string kind = entry.spec.contains("evidence")
                               ? entry.spec["evidence"].value("kind", "reproduction")
                               : "reproduction";
  return kind == "construction"  ? Evidence::construction
         : kind == "calibration" ? Evidence::calibration
         : kind == "erratum"     ? Evidence::erratum
                                 : Evidence::reproduction;
}

// What a claim that holds is, by the entry's evidence.
Verdict holding(Evidence e) {
  switch (e) {
    case Evidence::construction:
      return Verdict::construction;
    case Evidence::calibration:
      return Verdict::calibrated;
    case Evidence::erratum:
      return Verdict::erratum;
    default:
      return Verdict::reproduced;
  }
}

// Measures `entry` and decides: the outcome of its value against the claim (pass, or the printed
// number with the tolerance and the standard error), before the registry's explanations.
Result measure_compute(const Plan& plan, const Entry& entry, const fs::path& dir,
                       Outcome& outcome) {
  Result r;
  r.id = entry.id;
  if (!entry.not_measured.empty()) {
    r.message = entry.not_measured;
    return r;
  }
  const nlohmann::ordered_json& c = entry.spec["measure"]["compute"];
  const std::vector<std::string> accept =
      c.value("accept_status", nlohmann::ordered_json::array()).get<std::vector<std::string>>();
  r.verdict = Verdict::failed;
  for (const Run& run : entry.runs) {
    if (!run_done(plan, run, dir)) {
      r.message = "its run " + run.name + " (runs/" + run.folder + ") did not finish";
      return r;
    }
    try {
      r.message = run_status_defect(run, dir / "runs" / run.folder, accept);
    } catch (const std::exception& e) {
      r.message = "its run " + run.name + ": " + e.what();
    }
    if (!r.message.empty()) return r;
  }
  RunFiles files(entry, dir);
  const FileReader reader = files.reader();
  Names names{{"quick", Value::of_bool(plan.scale == Scale::quick)},
              {"full", Value::of_bool(plan.scale == Scale::full)}};
  std::string step = "let";
  try {
    if (c.contains("let"))
      for (const auto& [name, expr] : c["let"].items()) {
        step = "let " + name;
        names[name] = evaluate(expr.get<std::string>(), names, reader);
      }
    if (c.contains("figure")) {
      step = "figure";
      r.figure = figure(c["figure"], names, reader);
    }
    step = "value";
    r.value = evaluate(c["value"].get<std::string>(), names, reader);
    // a value that is no finite number gets no verdict, whatever a pass or require says
    if (!finite(r.value)) throw ExpressionError("not a finite number: " + r.value.brief());
    names["value"] = r.value;
    if (c.contains("stderr")) {
      step = "stderr";
      r.stderr_value = as_number(evaluate(c["stderr"].get<std::string>(), names, reader), step);
      if (!(r.stderr_value >= 0.0) || !std::isfinite(r.stderr_value))
        throw ExpressionError("not a standard error (a finite number >= 0): " +
                              number_text(r.stderr_value));
    }
    // a requirement of the measurement that does not hold leaves it without meaning: failed,
    // not a disagreement
    for (const auto& req : c.value("require", nlohmann::ordered_json::array())) {
      step = "require";
      if (!as_bool(evaluate(req.get<std::string>(), names, reader), "require"))
        throw ExpressionError(req.get<std::string>() + " does not hold");
    }
    if (c.contains("pass")) {
      step = "pass";
      const bool ok = as_bool(evaluate(c["pass"].get<std::string>(), names, reader), "pass");
      r.message = (ok ? "holds: " : "fails: ") + c["pass"].get<std::string>();
      outcome = ok ? Outcome::holds : Outcome::fails;
    } else {
      step = "verdict";
      outcome = compare_printed(entry.spec["printed"], entry.spec["tolerance"],
                                as_number(r.value, "value"), r.stderr_value, r.message);
    }
    // a scale that cannot decide (a window the diffusion dominates, a quick run) decides nothing,
    // whatever the pass or the tolerance says
    if (c.contains("decided") && outcome != Outcome::undecided) {
      step = "decided";
      if (!as_bool(evaluate(c["decided"].get<std::string>(), names, reader), "decided")) {
        r.message +=
            "; inconclusive at this scale: " + c["decided"].get<std::string>() + " does not hold";
        outcome = Outcome::undecided;
      }
    }
    r.verdict = Verdict::not_measured;  // decided below
  } catch (const std::exception& e) {
    r.verdict = Verdict::failed;
    r.message = step + ": " + e.what();
  }
  return r;
}

}  // namespace

Result measure(const Plan& plan, const Entry& entry, const fs::path& dir) {
  Outcome outcome = Outcome::undecided;
  Result r = measure_compute(plan, entry, dir, outcome);
  if (r.verdict != Verdict::not_measured || !entry.not_measured.empty()) return r;
  const nlohmann::ordered_json& spec = entry.spec;
  if (outcome == Outcome::holds) {
    r.verdict = holding(evidence_of(entry));
    if (spec.contains("evidence") && spec["evidence"].contains("why"))
      r.message += "; " + spec["evidence"]["why"].get<std::string>();
  } else if (outcome == Outcome::undecided) {
    r.verdict = Verdict::inconclusive;
  } else if (plan.scale == Scale::quick && spec.contains("quick_disagreement") &&
             !spec.contains("known_disagreement")) {
    // a failure the registry says the quick scale cannot resolve is no disagreement
    r.verdict = Verdict::inconclusive;
    r.message +=
        "; the quick scale cannot resolve it: " + spec["quick_disagreement"].get<std::string>();
  } else {
    r.verdict = Verdict::disagrees;
    if (spec.contains("known_disagreement")) {
      const nlohmann::ordered_json& known = spec["known_disagreement"];
      const std::string kind = known.value("class", "");
      r.disagreement = kind == "engine"      ? Disagreement::engine
                       : kind == "parameter" ? Disagreement::parameter
                                             : Disagreement::paper;
      r.message += std::string("; ") + disagreement_name(r.disagreement) + ": " +
                   known.value("why", std::string());
    } else if (spec.contains("engine_now") && spec["engine_now"].is_string()) {
      // no class fits: what was measured about it still belongs beside the verdict
      r.message += "; unexplained: " + spec["engine_now"].get<std::string>();
    }
  }
  return r;
}

}  // namespace granular::reproduce
