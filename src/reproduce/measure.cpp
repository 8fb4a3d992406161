#include "granular/reproduce/measure.hpp"

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
  static constexpr Named<Verdict> kNames[] = {{Verdict::agrees, "agrees"},
                                              {Verdict::disagrees, "disagrees"},
                                              {Verdict::failed, "failed"},
                                              {Verdict::not_measured, "not measured"}};
  return name_of(kNames, v);
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

// The verdict of `value` against the paper's printed number and the tolerance, and why.
Verdict compare_printed(const nlohmann::ordered_json& printed, const nlohmann::ordered_json& tol,
                        Scale scale, double v, std::string& why) {
  const std::string kind = printed.value("kind", "");
  const auto tolerance_of = [&](double reference) -> double {
    const char* a =
        scale == Scale::quick && tol.contains("quick_absolute") ? "quick_absolute" : "absolute";
    const char* r =
        scale == Scale::quick && tol.contains("quick_relative") ? "quick_relative" : "relative";
    if (tol.contains(a) && tol[a].is_number()) return tol[a].get<double>();
    if (tol.contains(r) && tol[r].is_number()) return tol[r].get<double>() * std::fabs(reference);
    return NAN;
  };
  if (kind == "sign") {
    const std::string s = printed.value("sign", "");
    const bool ok = s == "positive" || s == "+"   ? v > 0
                    : s == "negative" || s == "-" ? v < 0
                                                  : v == 0;
    why = "the paper's sign is " + s;
    return ok ? Verdict::agrees : Verdict::disagrees;
  }
  if (kind == "range") {
    const double lo = printed.value("low", NAN), hi = printed.value("high", NAN);
    double t = tolerance_of(std::fmax(std::fabs(lo), std::fabs(hi)));
    if (std::isnan(t)) t = 0.0;
    why = "range [" + number_text(lo) + ", " + number_text(hi) + "] +- " + number_text(t);
    return v >= lo - t && v <= hi + t ? Verdict::agrees : Verdict::disagrees;
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
    why = number_text(v) + " " + rel + " " + number_text(p) + (ok ? "" : " does not hold");
    return ok ? Verdict::agrees : Verdict::disagrees;
  }
  if (!printed.contains("value") || !printed["value"].is_number()) {
    why = "the paper prints no number to compare with (a pass expression is needed)";
    return Verdict::failed;
  }
  const double p = printed["value"].get<double>();
  if (tol.contains("sign") && !tol.contains("absolute") && !tol.contains("relative")) {
    why = "the sign of " + number_text(v) + " against the paper's " + number_text(p);
    return (v > 0) == (p > 0) && (v < 0) == (p < 0) ? Verdict::agrees : Verdict::disagrees;
  }
  const double t = tolerance_of(p);
  if (std::isnan(t)) {
    why = "the tolerance gives no absolute or relative bound";
    return Verdict::failed;
  }
  why = "|" + number_text(v) + " - " + number_text(p) + "| = " + number_text(std::fabs(v - p)) +
        (std::fabs(v - p) <= t ? " <= " : " > ") + number_text(t);
  return std::fabs(v - p) <= t ? Verdict::agrees : Verdict::disagrees;
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

Result measure_compute(const Plan& plan, const Entry& entry, const fs::path& dir) {
  Result r;
  r.id = entry.id;
  if (!entry.not_measured.empty()) {
    r.message = entry.not_measured;
    return r;
  }
  for (const Run& run : entry.runs)
    if (!run_done(plan, run, dir)) {
      r.verdict = Verdict::failed;
      r.message = "its run " + run.name + " (runs/" + run.folder + ") did not finish";
      return r;
    }
  const nlohmann::ordered_json& c = entry.spec["measure"]["compute"];
  RunFiles files(entry, dir);
  const FileReader reader = files.reader();
  Names names{{"quick", Value::of_bool(plan.scale == Scale::quick)}};
  std::string step = "let";
  try {
    if (c.contains("let"))
      for (const auto& [name, expr] : c["let"].items()) {
        step = "let " + name;
        names[name] = evaluate(expr.get<std::string>(), names, reader);
      }
    if (c.contains("figure")) {
      step = "figure";
      const nlohmann::ordered_json& f = c["figure"];
      Figure fig;
      fig.x = number_array(evaluate(f.at("x").get<std::string>(), names, reader), "figure x");
      fig.y = number_array(evaluate(f.at("y").get<std::string>(), names, reader), "figure y");
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
        fig.more.push_back(c);
      }
      fig.x_label = f.value("x_label", "");
      fig.y_label = f.value("y_label", "");
      fig.log_x = f.value("log_x", false);
      fig.log_y = f.value("log_y", false);
      r.figure = fig;
    }
    step = "value";
    r.value = evaluate(c["value"].get<std::string>(), names, reader);
    // a value that is no finite number gets no verdict, whatever a pass or require says
    if (!finite(r.value)) throw ExpressionError("not a finite number: " + r.value.brief());
    names["value"] = r.value;
    if (c.contains("stderr")) {
      step = "stderr";
      r.stderr_value = as_number(evaluate(c["stderr"].get<std::string>(), names, reader), step);
    }
    for (const auto& req : c.value("require", nlohmann::ordered_json::array())) {
      step = "require";
      if (!as_bool(evaluate(req.get<std::string>(), names, reader), "require")) {
        r.verdict = Verdict::disagrees;
        r.message = "requires " + req.get<std::string>();
        return r;
      }
    }
    if (c.contains("pass")) {
      step = "pass";
      const bool ok = as_bool(evaluate(c["pass"].get<std::string>(), names, reader), "pass");
      r.verdict = ok ? Verdict::agrees : Verdict::disagrees;
      r.message = (ok ? "holds: " : "fails: ") + c["pass"].get<std::string>();
      return r;
    }
    step = "verdict";
    r.verdict = compare_printed(entry.spec["printed"], entry.spec["tolerance"], plan.scale,
                                as_number(r.value, "value"), r.message);
  } catch (const std::exception& e) {
    r.verdict = Verdict::failed;
    r.message = step + ": " + e.what();
  }
  return r;
}

}  // namespace

Result measure(const Plan& plan, const Entry& entry, const fs::path& dir) {
  Result r = measure_compute(plan, entry, dir);
  // a disagreement the registry explains says so: one of the engine with the paper, or one the
  // quick scale's statistics or grid leave
  if (r.verdict != Verdict::disagrees) return r;
  if (entry.spec.contains("known_disagreement")) {
    r.message += "; known: " + entry.spec["known_disagreement"].get<std::string>();
  } else if (plan.scale == Scale::quick && entry.spec.contains("quick_disagreement")) {
    r.message +=
        "; known at the quick scale: " + entry.spec["quick_disagreement"].get<std::string>();
  }
  return r;
}

}  // namespace granular::reproduce
