#include "granular/reproduce/report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "granular/io/file.hpp"
#include "granular/io/output.hpp"
#include "granular/io/provenance.hpp"

namespace granular::reproduce {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string fmt(double x) { return Value::of(x).brief(); }

std::string escape_html(const std::string& s) {
  std::string out;
  for (char c : s) {
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
        out += c;
    }
  }
  return out;
}

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

// The axis of a plot: the data's range (positive only on a log axis) mapped to [a, b] pixels.
struct Axis {
  double lo = 0.0, hi = 1.0;
  bool log = false;
  double a = 0.0, b = 1.0;

  static Axis fit(const std::vector<double>& u, const std::vector<double>& v, bool log) {
    Axis ax;
    ax.log = log;
    bool any = false;
    for (const std::vector<double>* w : {&u, &v})
      for (double x : *w) {
        if (!std::isfinite(x) || (log && x <= 0.0)) continue;
        const double t = log ? std::log10(x) : x;
        ax.lo = any ? std::min(ax.lo, t) : t;
        ax.hi = any ? std::max(ax.hi, t) : t;
        any = true;
      }
    if (!any || ax.hi == ax.lo) {
      ax.lo -= 0.5;
      ax.hi += 0.5;
    }
    const double pad = 0.05 * (ax.hi - ax.lo);
    ax.lo -= pad;
    ax.hi += pad;
    return ax;
  }
  bool shows(double x) const { return std::isfinite(x) && (!log || x > 0.0); }
  double at(double x) const {
    const double t = log ? std::log10(x) : x;
    return a + (b - a) * (t - lo) / (hi - lo);
  }
  std::string tick(double t) const { return fmt(log ? std::pow(10.0, t) : t); }
};

}  // namespace

std::string svg_plot(const Figure& f) {
  const double width = 360, height = 240, left = 58, right = 12, top = 12, bottom = 40;
  std::vector<double> all_x = f.ref_x, all_y = f.ref_y;
  for (const Series& c : f.more) {
    all_x.insert(all_x.end(), c.x.begin(), c.x.end());
    all_y.insert(all_y.end(), c.y.begin(), c.y.end());
  }
  Axis x = Axis::fit(f.x, all_x, f.log_x);
  Axis y = Axis::fit(f.y, all_y, f.log_y);
  x.a = left;
  x.b = width - right;
  y.a = height - bottom;
  y.b = top;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
    << "\" viewBox=\"0 0 " << width << " " << height
    << "\" font-family=\"sans-serif\" font-size=\"10\">\n"
    << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << width - left - right
    << "\" height=\"" << height - top - bottom << "\" fill=\"none\" stroke=\"#444\"/>\n";
  for (int i = 0; i <= 4; ++i) {
    const double tx = x.lo + (x.hi - x.lo) * i / 4.0, ty = y.lo + (y.hi - y.lo) * i / 4.0;
    const double px = x.a + (x.b - x.a) * i / 4.0, py = y.a + (y.b - y.a) * i / 4.0;
    s << "<text x=\"" << px << "\" y=\"" << height - bottom + 13 << "\" text-anchor=\"middle\">"
      << x.tick(tx) << "</text>\n"
      << "<text x=\"" << left - 4 << "\" y=\"" << py + 3 << "\" text-anchor=\"end\">" << y.tick(ty)
      << "</text>\n";
  }
  s << "<text x=\"" << (left + width - right) / 2 << "\" y=\"" << height - 6
    << "\" text-anchor=\"middle\">" << escape_html(f.x_label) << (f.log_x ? " (log)" : "")
    << "</text>\n"
    << "<text transform=\"translate(12," << (top + height - bottom) / 2
    << ") rotate(-90)\" text-anchor=\"middle\">" << escape_html(f.y_label)
    << (f.log_y ? " (log)" : "") << "</text>\n";
  // the engine's curves, points joined in order, each in its colour with its legend line; the
  // paper's points as crosses
  std::vector<Series> curves = {{f.label, f.x, f.y}};
  curves.insert(curves.end(), f.more.begin(), f.more.end());
  const char* colours[] = {"#1f5fa8", "#2e8b57", "#8e44ad", "#d68910", "#555555"};
  for (std::size_t k = 0; k < curves.size(); ++k) {
    const Series& c = curves[k];
    const char* colour = colours[k % 5];
    std::string path;
    for (std::size_t i = 0; i < c.x.size() && i < c.y.size(); ++i) {
      if (!x.shows(c.x[i]) || !y.shows(c.y[i])) continue;
      path += (path.empty() ? "M" : " L") + fmt(x.at(c.x[i])) + "," + fmt(y.at(c.y[i]));
      s << "<circle cx=\"" << fmt(x.at(c.x[i])) << "\" cy=\"" << fmt(y.at(c.y[i]))
        << "\" r=\"2.5\" fill=\"" << colour << "\"/>\n";
    }
    if (!path.empty())
      s << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << colour
        << "\" stroke-width=\"1\"/>\n";
    if (curves.size() > 1 && !c.label.empty())
      s << "<text x=\"" << left + 6 << "\" y=\"" << top + 12 + 12 * static_cast<double>(k)
        << "\" fill=\"" << colour << "\">" << escape_html(c.label) << "</text>\n";
  }
  for (std::size_t i = 0; i < f.ref_x.size() && i < f.ref_y.size(); ++i) {
    if (!x.shows(f.ref_x[i]) || !y.shows(f.ref_y[i])) continue;
    const double px = x.at(f.ref_x[i]), py = y.at(f.ref_y[i]);
    s << "<path d=\"M" << fmt(px - 3) << "," << fmt(py - 3) << " L" << fmt(px + 3) << ","
      << fmt(py + 3) << " M" << fmt(px - 3) << "," << fmt(py + 3) << " L" << fmt(px + 3) << ","
      << fmt(py - 3) << "\" stroke=\"#c0392b\" stroke-width=\"1.5\"/>\n";
  }
  s << "</svg>\n";
  return s.str();
}

std::string tally_text(const std::vector<Result>& results) {
  std::map<Verdict, int> n;
  std::map<Disagreement, int> why;
  for (const Result& r : results) {
    ++n[r.verdict];
    if (r.verdict == Verdict::disagrees) ++why[r.disagreement];
  }
  std::string text = std::to_string(n[Verdict::reproduced]) + " reproduced; shown, not counted: " +
                     std::to_string(n[Verdict::construction]) + " consistent by construction, " +
                     std::to_string(n[Verdict::calibrated]) + " calibrated, " +
                     std::to_string(n[Verdict::erratum]) + " errata; " +
                     std::to_string(n[Verdict::disagrees]) + " disagree";
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
    const std::string verdict =
        std::string(verdict_name(r.verdict)) +
        (r.verdict == Verdict::disagrees ? std::string(" (") + disagreement_name(r.disagreement) + ")"
                                         : std::string());
    std::string figure_md, figure_html;
    if (r.figure) {
      const std::string svg = svg_plot(*r.figure);
      io::write_file_atomic(dir / "figures" / (r.id + ".svg"), svg);
      figure_md = " ![](figures/" + r.id + ".svg)";
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
