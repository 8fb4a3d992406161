#include "granular/reproduce/registry_schema.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

#include "granular/io/json_reader.hpp"
#include "granular/io/plain_name.hpp"
#include "granular/reproduce/expression.hpp"

namespace granular::reproduce {

namespace {

using io::Bound;
using io::JsonObject;
using nlohmann::json;

// Checks of optional keys: absent is fine, present must be of the type.
void optional_string(const JsonObject& o, const std::string& key) {
  if (o.has(key) && !o.value(key).is_string()) o.fail(key, "must be a string");
}

void optional_string_or_null(const JsonObject& o, const std::string& key) {
  if (o.has(key) && !o.value(key).is_string() && !o.value(key).is_null())
    o.fail(key, "must be a string or null");
}

void optional_bool(const JsonObject& o, const std::string& key) {
  if (o.has(key) && !o.value(key).is_boolean()) o.fail(key, "must be true or false");
}

void optional_number(const JsonObject& o, const std::string& key, Bound bound) {
  if (o.has(key)) o.number(key, bound);
}

void optional_object_or_null(const JsonObject& o, const std::string& key) {
  if (o.has(key) && !o.value(key).is_object() && !o.value(key).is_null())
    o.fail(key, "must be an object or null");
}

// An expression: parsed now, so that a typo fails the registry rather than its result.
void expression(const JsonObject& o, const std::string& key) {
  const json& v = o.value(key);
  if (!v.is_string()) o.fail(key, "must be an expression (a string)");
  try {
    check_expression(v.get<std::string>());
  } catch (const ExpressionError& e) {
    o.fail(key, e.what());
  }
}

void optional_expression(const JsonObject& o, const std::string& key) {
  if (o.has(key)) expression(o, key);
}

// A name the expressions use for a value or a run: a word of letters, digits and '_'.
bool is_word(const std::string& name) {
  if (name.empty() || name.size() > 100 || std::isdigit(static_cast<unsigned char>(name[0])))
    return false;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

class Checker {
 public:
  Checker(std::string file, std::filesystem::path root)
      : file_(std::move(file)), root_(std::move(root)) {}

  void registry(json& doc) {
    if (!doc.is_object())
      throw io::CaseError(file_, "", "a registry of stated results must be a JSON object");
    const JsonObject top(doc, file_, "");
    top.allow_only({"format", "about", "papers", "results"});
    if (top.has("format") && top.integer("format", 1) != 1)
      top.fail("format", "this build reads format 1");
    optional_string(top, "about");
    const JsonObject papers = top.object("papers");
    for (const auto& [name, citation] : top.value("papers").items())
      if (!citation.is_string()) papers.fail(name, "must be the paper's citation (a string)");
    json& results = top.value("results");
    if (!results.is_array()) top.fail("results", "must be an array");
    for (std::size_t i = 0; i < results.size(); ++i)
      result(JsonObject(results[i], file_, "/results/" + std::to_string(i)), top.value("papers"));
  }

 private:
  void result(const JsonObject& e, const json& papers) {
    e.allow_only({"id", "paper", "where", "statement", "quote", "quote_extra", "printed",
                  "plot_only", "compared", "measure", "tolerance", "cost", "engine_now", "evidence",
                  "known_disagreement", "quick_disagreement"});
    const std::string id = e.string("id");
    const std::string bad_id = id_defect(id);
    if (!bad_id.empty()) e.fail("id", bad_id);
    const auto [at, fresh] = ids_.emplace(id, e.pointer());
    if (!fresh) e.fail("id", "repeats the id of " + at->second);
    const std::string paper = e.string("paper");
    if (!papers.contains(paper)) {
      std::string known;
      for (const auto& [name, citation] : papers.items()) known += " " + name;
      e.fail("paper", "not a paper of the registry (papers:" + known + ")");
    }
    for (const char* key :
         {"where", "statement", "quote", "quote_extra", "compared", "quick_disagreement"})
      optional_string(e, key);
    if (e.has("evidence")) {
      // what a claim that holds shows: a reproduction, or a kind shown but not counted
      const JsonObject ev = e.object("evidence");
      ev.allow_only({"kind", "why"});
      const std::string kind = ev.choice(
          "kind", {"reproduction", "construction", "calibration", "erratum"}, "kind of evidence");
      if (kind != "reproduction") ev.string("why");
      optional_string(ev, "why");
    }
    if (e.has("known_disagreement")) {
      // why the engine disagrees with the paper: its own defect, a parameter the paper omits,
      // or the paper's inconsistency, with the evidence
      const JsonObject known = e.object("known_disagreement");
      known.allow_only({"class", "why"});
      known.choice("class", {"engine", "parameter", "paper"}, "class of disagreement");
      known.string("why");
    }
    optional_string_or_null(e, "engine_now");
    optional_bool(e, "plot_only");
    printed(e.object("printed"));
    tolerance(e.object("tolerance"));
    cost(e.object("cost"));
    measure(e.object("measure"));
  }

  static void printed(const JsonObject& p) {
    p.allow_only({"kind", "unit", "value", "low", "high", "relation", "sign", "trend", "expression",
                  "quantity", "note", "inclusive", "also", "values"});
    p.choice("kind",
             {"value", "count", "exponent", "range", "inequality", "closed_form", "sign", "trend"},
             "kind of printed result");
    for (const char* key : {"unit", "sign", "trend", "expression", "quantity", "note"})
      optional_string(p, key);
    if (p.has("value") && !p.value("value").is_null()) p.number("value");
    optional_number(p, "low", Bound::any);
    optional_number(p, "high", Bound::any);
    if (p.has("relation")) p.choice("relation", {"<", "<=", ">", ">="}, "relation");
    optional_bool(p, "inclusive");
    for (const char* key : {"also", "values"})
      if (p.has(key)) p.object(key);
  }

  static void tolerance(const JsonObject& t) {
    // the paper's precision, the same at every scale (a scale that cannot resolve it gives
    // "inconclusive", docs/reproduce.md)
    t.allow_only({"why", "absolute", "relative", "ratio_below", "relative_spread", "factor", "sign",
                  "trend", "inequality", "qualitative", "mode"});
    for (const char* key : {"why", "mode"}) optional_string(t, key);
    for (const char* key : {"absolute", "relative", "ratio_below", "relative_spread", "factor"})
      optional_number(t, key, Bound::non_negative);
    for (const char* key : {"sign", "trend", "inequality", "qualitative"}) optional_bool(t, key);
  }

  static void cost(const JsonObject& c) {
    c.allow_only({"quick_s", "full_s"});
    for (const char* key : {"quick_s", "full_s"})
      if (c.has(key) && !c.value(key).is_null()) c.number(key, Bound::non_negative);
  }

  void measure(const JsonObject& m) {
    m.allow_only({"case", "set", "quick_set", "output", "observable", "compute", "paired_cases",
                  "reference", "variants", "not_measurable"});
    // a claim no run can measure (it needs data the paper does not give) says why instead
    optional_string(m, "not_measurable");
    if (m.has("not_measurable") && m.has("compute"))
      m.fail("not_measurable", "a result with a compute is measurable");
    if (m.has("case") && !m.value("case").is_null()) case_path(m, "case");
    optional_object_or_null(m, "set");
    optional_object_or_null(m, "quick_set");
    optional_string_or_null(m, "output");
    optional_string(m, "observable");
    if (m.has("paired_cases")) {
      json& paired = m.value("paired_cases");
      if (!paired.is_array()) m.fail("paired_cases", "must be an array of case paths");
      for (std::size_t i = 0; i < paired.size(); ++i) {
        json holder = {{std::to_string(i), paired[i]}};
        case_path(JsonObject(holder, file_, m.pointer_of("paired_cases")), std::to_string(i));
      }
    }
    if (m.has("reference")) m.object("reference");
    if (m.has("variants") && !m.value("variants").is_array())
      m.fail("variants", "must be an array");
    if (m.has("compute")) compute(m.object("compute"));
  }

  void compute(const JsonObject& c) {
    c.allow_only({"runs", "let", "require", "value", "stderr", "pass", "decided", "figure",
                  "accept_status"});
    if (!c.has("value")) c.fail("value", "missing expression");
    expression(c, "value");
    optional_expression(c, "stderr");
    optional_expression(c, "pass");
    optional_expression(c, "decided");
    if (c.has("accept_status")) {
      // the run statuses the measurement accepts besides "completed" ("flagged": packings with
      // a status flag)
      json& statuses = c.value("accept_status");
      if (!statuses.is_array()) c.fail("accept_status", "must be an array of statuses");
      const std::vector<std::string> known = {"time_limit", "event_limit",       "zeno",
                                              "non_finite", "integrator_failed", "model_stop",
                                              "flagged"};
      for (std::size_t i = 0; i < statuses.size(); ++i)
        if (!statuses[i].is_string() ||
            std::find(known.begin(), known.end(), statuses[i].get<std::string>()) == known.end())
          c.fail("accept_status", "holds " + statuses[i].dump() +
                                      ", not a run status (time_limit, event_limit, zeno, "
                                      "non_finite, integrator_failed, model_stop, flagged)");
    }
    if (c.has("let")) {
      const JsonObject let = c.object("let");
      for (const auto& [name, expr] : c.value("let").items()) {
        if (!is_word(name)) let.fail(name, "a name of letters, digits and '_' only");
        expression(let, name);
      }
    }
    if (c.has("require")) {
      json& require = c.value("require");
      if (!require.is_array()) c.fail("require", "must be an array of expressions");
      json holder = json::object();
      for (std::size_t i = 0; i < require.size(); ++i) holder[std::to_string(i)] = require[i];
      const JsonObject items(holder, file_, c.pointer_of("require"));
      for (std::size_t i = 0; i < require.size(); ++i) expression(items, std::to_string(i));
    }
    if (c.has("figure")) figure(c.object("figure"));
    if (c.has("runs")) {
      const JsonObject runs = c.object("runs");
      if (c.value("runs").empty()) c.fail("runs", "must be an object of runs");
      for (const auto& [name, r] : c.value("runs").items()) {
        // "name/file" in an expression reads the run's folder
        if (!is_word(name)) runs.fail(name, "a run's name of letters, digits and '_' only");
        run(runs.object(name));
      }
    }
  }

  void run(const JsonObject& r) {
    r.allow_only({"case", "set", "quick_set", "also", "validate"});
    if (r.has("case")) case_path(r, "case");
    if (r.has("set")) r.object("set");
    optional_object_or_null(r, "quick_set");
    if (r.has("also")) r.object("also");
    optional_bool(r, "validate");
  }

  static void figure(const JsonObject& f) {
    f.allow_only({"x", "y", "y_err", "x_label", "y_label", "label", "log_x", "log_y", "ref_x",
                  "ref_y", "series", "fit", "ref_line", "ref_band", "ref_hline"});
    expression(f, "x");
    expression(f, "y");
    optional_expression(f, "y_err");
    for (const char* key : {"x_label", "y_label", "label"}) optional_string(f, key);
    for (const char* key : {"log_x", "log_y"}) optional_bool(f, key);
    if (f.has("ref_x") != f.has("ref_y")) f.fail(f.has("ref_x") ? "ref_y" : "ref_x", "missing");
    if (f.has("ref_x")) {
      for (const char* key : {"ref_x", "ref_y"}) {
        json& points = f.value(key);
        if (!points.is_array()) f.fail(key, "must be an array of numbers");
        for (std::size_t i = 0; i < points.size(); ++i)
          io::as_number(points[i], f.file(), f.pointer_of(key) + "/" + std::to_string(i),
                        Bound::any);
      }
      if (f.value("ref_x").size() != f.value("ref_y").size())
        f.fail("ref_y", "must have as many points as ref_x");
    }
    if (f.has("series")) {
      json& series = f.value("series");
      if (!series.is_array()) f.fail("series", "must be an array of curves");
      for (std::size_t i = 0; i < series.size(); ++i) {
        const JsonObject s(series[i], f.file(), f.pointer_of("series") + "/" + std::to_string(i));
        s.allow_only({"label", "x", "y", "y_err"});
        optional_string(s, "label");
        expression(s, "x");
        expression(s, "y");
        optional_expression(s, "y_err");
      }
    }
    // the engine's least-squares line, from the same expressions as its value
    if (f.has("fit")) line(f.object("fit"), false);
    // the paper's line, band and value: numbers, or expressions where they hang on the data (a
    // paper's slope drawn through the data's mean point)
    if (f.has("ref_line")) line(f.object("ref_line"), true);
    if (f.has("ref_band")) {
      const JsonObject band = f.object("ref_band");
      band.allow_only({"low", "high", "label"});
      number_or_expression(band, "low");
      number_or_expression(band, "high");
      optional_string(band, "label");
    }
    if (f.has("ref_hline")) number_or_expression(f, "ref_hline");
  }

  // A line of a figure: slope and intercept in the axes' own coordinates, expressions (numbers
  // too when `numbers`), the x its range spans and its label in the legend.
  static void line(const JsonObject& l, bool numbers) {
    l.allow_only({"slope", "intercept", "x", "label"});
    for (const char* key : {"slope", "intercept"}) {
      if (numbers) {
        number_or_expression(l, key);
      } else {
        expression(l, key);
      }
    }
    optional_expression(l, "x");
    optional_string(l, "label");
  }

  static void number_or_expression(const JsonObject& o, const std::string& key) {
    if (o.has(key) && o.value(key).is_number()) {
      o.number(key);
    } else if (o.has(key) && !o.value(key).is_string()) {
      o.fail(key, "must be a number or an expression (a string)");
    } else {
      expression(o, key);
    }
  }

  // A shipped case: a JSON file inside the project, named as a plain relative path.
  void case_path(const JsonObject& o, const std::string& key) const {
    const std::string path = o.string(key);
    const std::string outside = io::outside_folder(root_, path);
    if (!outside.empty()) o.fail(key, "not a case inside the project: " + outside);
    if (path.size() < 5 || path.compare(path.size() - 5, 5, ".json") != 0)
      o.fail(key, "not a case (a .json file)");
  }

  std::string file_;
  std::filesystem::path root_;
  std::map<std::string, std::string> ids_;  // id -> the pointer of its entry
};

}  // namespace

std::string id_defect(const std::string& id) {
  if (id.empty() || id.size() > 100) return "an id of 1 to 100 characters";
  if (!std::isalnum(static_cast<unsigned char>(id[0])))
    return "an id starts with a letter or a digit";
  for (const char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
      return "an id of letters, digits, '.', '_' and '-' only (it names a file)";
  return "";
}

void check_registry(const nlohmann::ordered_json& doc, const std::string& file,
                    const std::filesystem::path& root) {
  json copy = doc;  // the checks need no order; JsonObject reads the unordered kind
  Checker(file, root).registry(copy);
}

}  // namespace granular::reproduce
