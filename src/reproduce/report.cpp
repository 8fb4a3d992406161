#include "granular/reproduce/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "granular/io/file.hpp"
#include "granular/io/output.hpp"
#include "granular/io/provenance.hpp"
#include "granular/reproduce/plot_text.hpp"

namespace granular::reproduce {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string fmt(double x) { return Value::of(x).brief(); }

std::string escape_html(const std::string& s) { return escape_xml(s); }

// A Markdown table cell: no line breaks, no bare pipes.
std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// Text with Markdown's brackets escaped (an image's alt text).
std::string markdown_text(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '[' || c == ']' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

// The row's colour: reproductions, what is shown but not counted, and the rest by verdict.
const char* css_class(Verdict v) {
  switch (v) {
    case Verdict::reproduced:
      return "reproduced";
    case Verdict::construction:
    case Verdict::calibrated:
    case Verdict::erratum:
      return "shown";
    case Verdict::disagrees:
      return "disagrees";
    case Verdict::inconclusive:
      return "inconclusive";
    case Verdict::failed:
      return "failed";
    default:
      return "not";
  }
}

std::string engine_text(const Result& r) {
  if (r.verdict == Verdict::not_measured) return "-";
  if (r.verdict == Verdict::failed && r.value.is_number() && r.value.number == 0.0 &&
      std::isnan(r.stderr_value))
    return "-";
  std::string s = r.value.brief();
  if (std::isfinite(r.stderr_value)) s += " ± " + fmt(r.stderr_value);
  return s;
}

// The registry's cost of a result on one core, "quick / full" [s].
std::string cost_text(const nlohmann::ordered_json& cost) {
  const auto one = [&](const char* key) {
    const nlohmann::ordered_json v = cost.value(key, nlohmann::ordered_json());
    return v.is_number() ? fmt(v.get<double>()) : std::string("-");
  };
  return one("quick_s") + " / " + one("full_s");
}

}  // namespace

std::string tally_text(const std::vector<Result>& results) {
  std::map<Verdict, int> n;
  std::map<Disagreement, int> why;
  for (const Result& r : results) {
    ++n[r.verdict];
    if (r.verdict == Verdict::disagrees) ++why[r.disagreement];
  }
  std::string text =
      std::to_string(n[Verdict::reproduced]) +
      " reproduced; shown, not counted: " + std::to_string(n[Verdict::construction]) +
      " consistent by construction, " + std::to_string(n[Verdict::calibrated]) + " calibrated, " +
      std::to_string(n[Verdict::erratum]) + " errata; " + std::to_string(n[Verdict::disagrees]) +
      " disagree";
  std::string classes;
  for (const Disagreement d : {Disagreement::engine, Disagreement::parameter, Disagreement::paper,
                               Disagreement::unexplained})
    if (why[d] > 0)
      classes += (classes.empty() ? "" : ", ") + std::string(disagreement_name(d)) + " " +
                 std::to_string(why[d]);
  if (!classes.empty()) text += " (" + classes + ")";
  return text + ", " + std::to_string(n[Verdict::inconclusive]) + " inconclusive, " +
         std::to_string(n[Verdict::failed]) + " failed, " +
         std::to_string(n[Verdict::not_measured]) + " not measured";
}

void write_report(const fs::path& dir, const Plan& plan, const std::vector<Result>& results) {
  const char* scale = plan.scale == Scale::quick ? "quick" : "full";
  const std::string counts = tally_text(results);
  std::map<std::string, const Entry*> entries;
  double full_cost = 0.0;  // the registry's, which counts a shared run once per result
  for (const Entry& e : plan.entries) {
    entries[e.id] = &e;
    const nlohmann::ordered_json full = e.spec["cost"].value("full_s", nlohmann::ordered_json());
    if (full.is_number()) full_cost += full.get<double>();
  }
  char cost_line[200];
  std::snprintf(cost_line, sizeof cost_line,
                "The full scale of these results costs at most %.0f core-hours (the registry's "
                "costs, which count a shared run once per result); its plan is in "
                "docs/reproduce.md.",
                full_cost / 3600.0);

  std::filesystem::create_directories(dir / "figures");
  std::ostringstream md, html;
  md << "# The papers reproduced (" << scale << " scale)\n\n"
     << io::version_line() << "\n\n"
     << "Registry: `" << plan.registry.filename().string() << "`; " << results.size()
     << " results: " << counts << ". What each column means: docs/reproduce.md. " << cost_line
     << "\n";
  html << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>granular: the papers "
          "reproduced</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1400px}"
          "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;"
          "vertical-align:top;font-size:13px}.reproduced{background:#e3f4e1}.shown{background:"
          "#eef4fb}.disagrees{background:#f9dcdc}.inconclusive{background:#f4f1d0}.failed{"
          "background:#fbe9c7}.not{background:#eee}</style></head><body>\n"
       << "<h1>The papers reproduced (" << scale << " scale)</h1>\n<p>"
       << escape_html(io::version_line()) << "</p>\n<p>" << results.size() << " results: " << counts
       << ". " << escape_html(cost_line) << "</p>\n";

  json data = json::object();
  data["scale"] = scale;
  data["granular"] = io::version_line();
  data["results"] = json::array();
  std::string paper;
  for (const Result& r : results) {
    const Entry& e = *entries.at(r.id);
    if (e.paper != paper) {
      paper = e.paper;
      const std::string citation = plan.papers.value(paper, "");
      md << "\n## " << paper << "\n\n"
         << citation << "\n\n"
         << "| result | where | statement | paper | engine | verdict | why | cost [s] quick / full "
            "|\n"
         << "|---|---|---|---|---|---|---|---|\n";
      html << (&r == &results.front() ? "" : "</table>\n") << "<h2>" << escape_html(paper)
           << "</h2>\n<p>" << escape_html(citation)
           << "</p>\n<table><tr><th>result</th><th>where</th><th>statement</th><th>paper</th>"
              "<th>engine</th><th>verdict</th><th>why</th><th>figure</th><th>cost [s] quick / full"
              "</th></tr>\n";
    }
    const std::string statement = e.spec.value("statement", "");
    const std::string where = e.spec.value("where", "");
    const std::string printed = printed_text(e.spec["printed"]);
    const std::string verdict = std::string(verdict_name(r.verdict)) +
                                (r.verdict == Verdict::disagrees
                                     ? std::string(" (") + disagreement_name(r.disagreement) + ")"
                                     : std::string());
    std::string figure_md, figure_html;
    if (r.figure) {
      // the figure says what it shows without the row beside it: the scale and the verdict
      Figure figure = *r.figure;
      figure.caption = std::string(scale) + " scale — " + verdict;
      const std::string svg = svg_plot(figure);
      io::write_file_atomic(dir / "figures" / (r.id + ".svg"), svg);
      figure_md = " ![" + cell(markdown_text(figure.caption)) + "](figures/" + r.id + ".svg)";
      figure_html = svg;
    }
    md << "| " << cell(r.id) << " | " << cell(where) << " | " << cell(statement) << " | "
       << cell(printed) << " | " << cell(engine_text(r)) << " | **" << verdict << "** | "
       << cell(r.message) << figure_md << " | " << cost_text(e.spec["cost"]) << " |\n";
    const std::string css = css_class(r.verdict);
    html << "<tr class=\"" << css << "\"><td>" << escape_html(r.id) << "</td><td>"
         << escape_html(where) << "</td><td>" << escape_html(statement) << "</td><td>"
         << escape_html(printed) << "</td><td>" << escape_html(engine_text(r)) << "</td><td><b>"
         << verdict << "</b></td><td>" << escape_html(r.message) << "</td><td>" << figure_html
         << "</td><td>" << cost_text(e.spec["cost"]) << "</td></tr>\n";
    json row = {{"id", r.id},
                {"paper", e.paper},
                {"verdict", verdict_name(r.verdict)},
                {"evidence", e.spec.contains("evidence") ? e.spec["evidence"].value("kind", "")
                                                         : std::string("reproduction")},
                {"value", r.value.to_json()},
                {"stderr", io::json_number(r.stderr_value)},
                {"printed", e.spec["printed"]},
                {"message", r.message}};
    if (r.verdict == Verdict::disagrees) row["class"] = disagreement_name(r.disagreement);
    if (r.verdict == Verdict::not_measured) row["value"] = nullptr;
    data["results"].push_back(row);
  }
  if (!results.empty()) html << "</table>\n";
  html << "</body></html>\n";
  io::write_file_atomic(dir / "report.md", md.str());
  io::write_file_atomic(dir / "report.html", html.str());
  io::write_json_atomic(dir / "results.json", data);
}

}  // namespace granular::reproduce
