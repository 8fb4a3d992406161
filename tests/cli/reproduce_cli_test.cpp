// granular reproduce (docs/reproduce.md) on a small registry of its own: the report and its
// verdicts, the runs shared and not rerun, a figure, the exit status, and bad input refused
// before anything runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/cli_scratch.hpp"

namespace {

namespace fs = std::filesystem;
using granular::test::file_text;
using nlohmann::json;

class ReproduceCli : public granular::test::CliScratch {
 protected:
  ReproduceCli() : CliScratch("reproduce") {}

  // A registry of `results` in the scratch folder, beside a copy of the shipped cases (a
  // registry reads no case through a link that leads out of its project).
  void write_registry(const json& results) {
    fs::create_directories(dir_ / "papers");
    fs::copy(fs::path(GRANULAR_SOURCE_DIR) / "cases", dir_ / "cases", fs::copy_options::recursive);
    const json registry = {{"format", 1},
                           {"papers", {{"pendulum", "the double pendulum paper"}}},
                           {"results", results}};
    std::ofstream(dir_ / "papers" / "stated_results.json") << registry.dump(2);
  }

  // A result of the pendulum paper measured by `compute` on cases/pendulum_mu0.json (6 impacts
  // in 6 s, docs/pendulum.md), the paper's number `printed`.
  static json result(const std::string& id, const json& printed, const json& compute) {
    return {{"id", id},
            {"paper", "pendulum"},
            {"where", "§4"},
            {"statement", id},
            {"printed", printed},
            {"tolerance", {{"absolute", 0}, {"why", "a count"}}},
            {"cost", {{"quick_s", 0.2}, {"full_s", 0.2}}},
            {"measure",
             {{"case", "cases/pendulum_mu0.json"},
              {"set", {{"/run/t_end", 6.0}}},
              {"quick_set", {{"/run/t_end", 6.0}}},
              {"compute", compute}}}};
  }

  static json impact_count() { return {{"value", "json('summary.json', '/impact_count')"}}; }
};

TEST_F(ReproduceCli, WritesTheReportAndRunsNothingTwice) {
  json wrong = result("wrong", {{"kind", "count"}, {"value", 7}}, impact_count());
  wrong["known_disagreement"] = {{"class", "engine"}, {"why", "a planted wrong number"}};
  json words = result("words", {{"kind", "value"}, {"value", 1}}, impact_count());
  words["measure"].erase("compute");
  words["cost"]["full_s"] = nullptr;  // no case measures it: no cost either
  json curve =
      result("curve", {{"kind", "trend"}, {"trend", "rising"}},
             {{"runs", {{"main", json::object()}, {"longer", {{"also", {{"/run/t_end", 8.0}}}}}}},
              {"let",
               {{"n6", "json('summary.json', '/impact_count')"},
                {"n8", "json('longer/summary.json', '/impact_count')"}}},
              {"value", "n8 - n6"},
              {"pass", "value >= 0"},
              {"figure",
               {{"x", "[6, 8]"},
                {"y", "[n6, n8]"},
                {"x_label", "t_end"},
                {"y_label", "impacts"},
                {"ref_x", {6}},
                {"ref_y", {6}}}}});
  write_registry(
      {result("count", {{"kind", "count"}, {"value", 6}}, impact_count()), wrong, words, curve});
  const auto first = granular("reproduce --out rep --threads 1");
  // one disagreement: the report is written, the exit status says so
  ASSERT_EQ(first.code, 3) << first.out << first.err;
  EXPECT_NE(first.out.find("4 results at the quick scale: 3 measured by 2 runs"), std::string::npos)
      << first.out;
  const json report = json::parse(file_text(dir_ / "rep" / "results.json"));
  ASSERT_EQ(report["results"].size(), 4u);
  EXPECT_EQ(report["results"][0]["verdict"], "reproduced");
  EXPECT_EQ(report["results"][0]["value"], 6);
  EXPECT_EQ(report["results"][1]["verdict"], "disagrees");
  EXPECT_NE(report["results"][1]["message"].get<std::string>().find("engine defect: a planted"),
            std::string::npos);
  EXPECT_EQ(report["results"][1]["class"], "engine defect");
  EXPECT_EQ(report["results"][2]["verdict"], "not measured");
  EXPECT_EQ(report["results"][3]["verdict"], "reproduced");
  const std::string md = file_text(dir_ / "rep" / "report.md");
  EXPECT_NE(md.find("| count | §4 | count | 6 | 6 | **reproduced** |"), std::string::npos) << md;
  // the figure with its scale and verdict
  EXPECT_NE(md.find("![quick scale — reproduced](figures/curve.svg)"), std::string::npos) << md;
  EXPECT_NE(md.find("| 0.2 / - |"), std::string::npos);  // the cost column
  const std::string html = file_text(dir_ / "rep" / "report.html");
  EXPECT_NE(html.find("<svg"), std::string::npos);  // the figure inline: one self-contained page
  EXPECT_NE(html.find("class=\"disagrees\""), std::string::npos);

  // finished runs are kept: the second call runs nothing and reports the same
  const auto second = granular("reproduce --out rep --threads 1");
  EXPECT_EQ(second.code, 3);
  EXPECT_NE(second.out.find("0 still to run"), std::string::npos) << second.out;
  EXPECT_EQ(second.err.find("run cases/"), std::string::npos) << second.err;
  EXPECT_EQ(json::parse(file_text(dir_ / "rep" / "results.json")), report);

  // only the results that agree: exit 0
  const auto agreeing = granular("reproduce pendulum --result count --result curve --out rep");
  EXPECT_EQ(agreeing.code, 0) << agreeing.out << agreeing.err;
}

TEST_F(ReproduceCli, RefusesBadInputBeforeRunningAnything) {
  json typo = result("typo", {{"kind", "count"}, {"value", 6}}, {{"valu", "1"}});
  write_registry(json::array({typo}));
  const auto unknown_key = granular("reproduce --out rep");
  EXPECT_EQ(unknown_key.code, 2);
  EXPECT_NE(unknown_key.err.find("papers/stated_results.json: /results/0/measure/compute/valu: "
                                 "unknown key"),
            std::string::npos)
      << unknown_key.err;
  EXPECT_FALSE(fs::exists(dir_ / "rep"));
  fs::remove_all(dir_ / "papers");
  fs::remove_all(dir_ / "cases");
  write_registry(json::array({result("count", {{"kind", "count"}, {"value", 6}}, impact_count())}));
  const auto paper = granular("reproduce nosuch --out rep");
  EXPECT_EQ(paper.code, 2);
  EXPECT_NE(paper.err.find("not a paper of the registry (papers: pendulum)"), std::string::npos)
      << paper.err;
  // each part of a compute block has its type
  for (const json& compute :
       {json{{"value", 1}}, json{{"value", "1"}, {"let", {{"a", 2}}}},
        json{{"value", "1"}, {"require", "true"}}, json{{"value", "1"}, {"figure", {{"x", "[1]"}}}},
        json{{"value", "1"}, {"runs", {{"main", {{"validate", "yes"}}}}}}}) {
    fs::remove_all(dir_ / "papers");
    fs::remove_all(dir_ / "cases");
    write_registry(json::array({result("typed", {{"kind", "count"}, {"value", 6}}, compute)}));
    const auto typed = granular("reproduce --out rep");
    EXPECT_EQ(typed.code, 2) << compute.dump();
    EXPECT_NE(typed.err.find("/results/0/measure/compute/"), std::string::npos) << typed.err;
  }
  EXPECT_EQ(granular("reproduce --registry nowhere.json --out rep").code, 2);
  EXPECT_EQ(granular("reproduce").code, 2);  // no --out
  EXPECT_EQ(granular("reproduce --out rep --quick --full").code, 2);
  EXPECT_FALSE(fs::exists(dir_ / "rep"));
}

// An expression that cannot be evaluated is a failed result, named with its expression; the
// other results are still measured.
TEST_F(ReproduceCli, AFailedExpressionFailsItsResultOnly) {
  write_registry({result("broken", {{"kind", "count"}, {"value", 6}},
                         {{"value", "json('summary.json', '/no_such_key')"}}),
                  result("count", {{"kind", "count"}, {"value", 6}}, impact_count())});
  const auto r = granular("reproduce --out rep --threads 1");
  EXPECT_EQ(r.code, 3);
  const json report = json::parse(file_text(dir_ / "rep" / "results.json"));
  EXPECT_EQ(report["results"][0]["verdict"], "failed");
  EXPECT_NE(report["results"][0]["message"].get<std::string>().find("nothing at /no_such_key"),
            std::string::npos);
  EXPECT_EQ(report["results"][1]["verdict"], "reproduced");
}

// Issue 33, item 1: a verdict uses the standard error. A claim holds when the value meets the
// tolerance and 2 SE fits in it, fails when it misses by more than 2 SE, and is inconclusive at
// this scale between; what holds is a reproduction only when the entry's evidence is one.
TEST_F(ReproduceCli, VerdictsSayHowSureTheyAre) {
  const json exponent = {{"kind", "exponent"}, {"value", 3.85}};
  const auto measured = [&](const std::string& id, const std::string& value,
                            const std::string& se) {
    json r = result(id, exponent, {{"value", value}, {"stderr", se}});
    r["tolerance"] = {{"absolute", 0.3}, {"why", "the paper reads exponents to a few tenths"}};
    return r;
  };
  json construction = result("construction", {{"kind", "count"}, {"value", 6}}, impact_count());
  construction["evidence"] = {{"kind", "construction"}, {"why", "by the model"}};
  json calibrated = result("calibrated", {{"kind", "count"}, {"value", 6}}, impact_count());
  calibrated["evidence"] = {{"kind", "calibration"}, {"why", "t_end chosen to give 6"}};
  json erratum = result("erratum", {{"kind", "count"}, {"value", 6}}, impact_count());
  erratum["evidence"] = {{"kind", "erratum"}, {"why", "the derivation"}};
  json known = result("known", {{"kind", "count"}, {"value", 7}}, impact_count());
  known["known_disagreement"] = {{"class", "parameter"}, {"why", "the paper omits it"}};
  json quick = result("quick", {{"kind", "count"}, {"value", 7}}, impact_count());
  quick["quick_disagreement"] = "four packings cannot resolve it";
  json undecided = result("undecided", {{"kind", "trend"}, {"trend", "up"}},
                          {{"value", "1"}, {"pass", "value > 0"}, {"decided", "1 > 2"}});
  json required = result("required", {{"kind", "count"}, {"value", 6}},
                         {{"value", "json('summary.json', '/impact_count')"},
                          {"require", {"json('summary.json', '/impact_count') > 100"}}});
  json empty = result("empty", {{"kind", "trend"}, {"trend", "up"}},
                      {{"value", "1"}, {"pass", "all(where([1, 2], [false, false]) > 0)"}});
  // a value the tolerance would call reproduced, from a scale its `decided` rules out
  json window = measured("window", "3.7", "0.1");
  window["measure"]["compute"]["decided"] = "1 > 2";
  json off = measured("off", "3.4", "0.07");
  off["engine_now"] = "measured at 200 s: 3.4";
  write_registry({measured("resolved", "3.7", "0.1"), measured("wide", "3.7", "0.2"), off,
                  measured("near", "3.4", "0.1"), window, construction, calibrated, erratum,
                  known, quick, undecided, required, empty});
  const auto run = granular("reproduce --out rep --threads 1");
  EXPECT_EQ(run.code, 3) << run.err;
  EXPECT_NE(run.out.find("1 reproduced; shown, not counted: 1 consistent by construction, 1 "
                         "calibrated, 1 errata; 2 disagree (a parameter the paper omits 1, "
                         "unexplained 1), 5 inconclusive, 2 failed, 0 not measured"),
            std::string::npos)
      << run.out;
  const json report = json::parse(file_text(dir_ / "rep" / "results.json"));
  std::map<std::string, json> by_id;
  for (const json& r : report["results"]) by_id[r["id"]] = r;
  const auto verdict = [&](const std::string& id) { return by_id.at(id)["verdict"]; };
  const auto message = [&](const std::string& id) {
    return by_id.at(id)["message"].get<std::string>();
  };
  // |3.7 - 3.85| = 0.15 <= 0.3 with 2 SE = 0.2 inside: reproduced
  EXPECT_EQ(verdict("resolved"), "reproduced");
  // the same value with 2 SE = 0.4 wider than the tolerance: this scale cannot tell
  EXPECT_EQ(verdict("wide"), "inconclusive");
  EXPECT_NE(message("wide").find("about 1.778x the samples would decide it"), std::string::npos)
      << message("wide");
  // 0.45 misses 0.3 by 0.15, more than 2 SE = 0.14: disagrees; by less than 2 SE = 0.2: not yet
  EXPECT_EQ(verdict("off"), "disagrees");
  EXPECT_EQ(by_id.at("off")["class"], "unexplained");
  EXPECT_NE(message("off").find("; unexplained: measured at 200 s: 3.4"), std::string::npos)
      << message("off");
  EXPECT_EQ(verdict("window"), "inconclusive");
  EXPECT_NE(message("window").find("inconclusive at this scale: 1 > 2 does not hold"),
            std::string::npos)
      << message("window");
  EXPECT_EQ(verdict("near"), "inconclusive");
  EXPECT_EQ(verdict("construction"), "consistent by construction");
  EXPECT_EQ(verdict("calibrated"), "calibrated");
  EXPECT_EQ(verdict("erratum"), "erratum");
  EXPECT_EQ(verdict("known"), "disagrees");
  EXPECT_EQ(by_id.at("known")["class"], "a parameter the paper omits");
  EXPECT_EQ(verdict("quick"), "inconclusive");
  EXPECT_NE(message("quick").find("the quick scale cannot resolve it"), std::string::npos);
  EXPECT_EQ(verdict("undecided"), "inconclusive");
  // a requirement of the measurement that does not hold, an empty selection: failed
  EXPECT_EQ(verdict("required"), "failed");
  EXPECT_NE(message("required").find("does not hold"), std::string::npos) << message("required");
  EXPECT_EQ(verdict("empty"), "failed");
  EXPECT_NE(message("empty").find("all(): of an empty array"), std::string::npos);
}

// A mistyped option is bad input that names the option meant (issue 35, item 5).
TEST_F(ReproduceCli, AMistypedOptionNamesTheOneMeant) {
  const auto r = granular("reproduce --max-cots 5 --out rep");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--max-cots: unknown option for reproduce (did you mean \"--max-cost\"?)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "rep"));
}

// Issue 33, item 2: a run that did not complete measures nothing unless the entry accepts its
// status; a reused run folder is checked against the case and the build that made it.
TEST_F(ReproduceCli, RunsMustCompleteAndBeThisBuilds) {
  json stopped = result("stopped", {{"kind", "count"}, {"value", 2}},
                        {{"value", "json('summary.json', '/impact_count')"}});
  stopped["measure"]["quick_set"] = {{"/run/t_end", 6.0}, {"/run/max_events", 2}};
  json accepted = stopped;
  accepted["id"] = "accepted";
  accepted["measure"]["compute"]["accept_status"] = {"event_limit"};
  accepted["measure"]["compute"]["pass"] = "value >= 1";
  write_registry({stopped, accepted});
  granular("reproduce --out rep --threads 1");
  json report = json::parse(file_text(dir_ / "rep" / "results.json"));
  EXPECT_EQ(report["results"][0]["verdict"], "failed");
  EXPECT_NE(report["results"][0]["message"].get<std::string>().find("ended event_limit"),
            std::string::npos)
      << report["results"][0]["message"];
  EXPECT_EQ(report["results"][1]["verdict"], "reproduced") << report["results"][1]["message"];
  // a folder another build made is run again
  const fs::path folder = fs::directory_iterator(dir_ / "rep" / "runs")->path();
  json summary = json::parse(file_text(folder / "summary.json"));
  summary["provenance"]["commit"] = "0000000";
  std::ofstream(folder / "summary.json") << summary.dump();
  const auto again = granular("reproduce --out rep --threads 1");
  EXPECT_NE(again.err.find("run cases/pendulum_mu0.json"), std::string::npos) << again.err;
  EXPECT_NE(json::parse(file_text(folder / "summary.json"))["provenance"]["commit"], "0000000");
}

// Issue 33, item 7: a figure shows what a referee checks: the points' standard errors as bars,
// the engine's fitted line and the paper's line, band or value, and the scale and verdict.
TEST_F(ReproduceCli, FiguresShowErrorsFitsAndThePapersValue) {
  // (the test's json sorts `let` by name, and names are evaluated in order)
  const json power_law = {
      {"let",
       {{"data_x", "[1, 2, 4, 8]"},
        {"data_y", "[2, 4.1, 7.9, 16.5]"},
        {"fit_b", "slope(log(data_x), log(data_y))"},
        {"fit_c", "(mean(log(data_y)) - fit_b * mean(log(data_x))) / log(10)"}}},
      {"value", "fit_b"},
      {"stderr", "slope_se(log(data_x), log(data_y))"},
      {"figure",
       {{"x", "data_x"},
        {"y", "data_y"},
        {"y_err", "[0.2, 0.3, 0.5, 1]"},
        {"log_x", true},
        {"log_y", true},
        {"fit", {{"slope", "fit_b"}, {"intercept", "fit_c"}}},
        {"ref_line",
         {{"slope", 1},
          {"intercept", "(mean(log(data_y)) - mean(log(data_x))) / log(10)"},
          {"label", "paper: exponent 1, through the data's mean"}}},
        {"ref_band", {{"low", 1}, {"high", 20}}},
        {"ref_hline", "mean(data_y)"}}}};
  json exponent = result("exponent", {{"kind", "exponent"}, {"value", 1.0}}, power_law);
  exponent["tolerance"] = {{"absolute", 0.2}, {"why", "a planted law"}};
  json mismatched = exponent;
  mismatched["id"] = "mismatched";
  mismatched["measure"]["compute"]["figure"]["y_err"] = "[0.2, 0.3]";
  write_registry({exponent, mismatched});
  granular("reproduce --out rep --threads 1");
  const json report = json::parse(file_text(dir_ / "rep" / "results.json"));
  EXPECT_EQ(report["results"][0]["verdict"], "reproduced") << report["results"][0]["message"];
  EXPECT_EQ(report["results"][1]["verdict"], "failed");
  EXPECT_NE(report["results"][1]["message"].get<std::string>().find(
                "figure: figure y_err: 2 standard errors for 4 points"),
            std::string::npos)
      << report["results"][1]["message"];
  const std::string svg = file_text(dir_ / "rep" / "figures" / "exponent.svg");
  for (const char* element : {"class=\"fit\"", "class=\"ref-line\"", "class=\"ref-band\"",
                              "class=\"ref-hline\"", "bars: ±1 standard error",
                              "quick scale — reproduced", "paper: exponent 1, through the data"})
    EXPECT_NE(svg.find(element), std::string::npos) << element << "\n" << svg;
  std::size_t bars = 0;
  for (std::size_t at = svg.find("class=\"error-bar\""); at != std::string::npos;
       at = svg.find("class=\"error-bar\"", at + 1))
    ++bars;
  EXPECT_EQ(bars, 4u);
  // the same drawing inline in the page, the caption in the Markdown's alt text
  EXPECT_NE(file_text(dir_ / "rep" / "report.html").find(svg), std::string::npos);
  EXPECT_NE(file_text(dir_ / "rep" / "report.md")
                .find("![quick scale — reproduced](figures/exponent.svg)"),
            std::string::npos);
}

// A figure's new keys are checked with the registry: one line naming the pointer, nothing run.
TEST_F(ReproduceCli, RefusesBadFigureKeys) {
  const json base = {{"x", "[1, 2]"}, {"y", "[1, 2]"}};
  const std::vector<std::pair<json, std::string>> cases = {
      {{{"y_err", 3}}, "/figure/y_err: must be an expression (a string)"},
      {{{"y_err", "[1, 2"}}, "/figure/y_err: "},
      {{{"fit", {{"slope", "1"}}}}, "/figure/fit/intercept: required key is missing"},
      {{{"fit", {{"slope", 1}, {"intercept", "0"}}}}, "/figure/fit/slope: must be an expression"},
      {{{"fit", "1"}}, "/figure/fit: "},
      {{{"ref_line", {{"slope", true}, {"intercept", 0}}}},
       "/figure/ref_line/slope: must be a number or an expression (a string)"},
      {{{"ref_line", {{"slope", 1}, {"intercept", 0}, {"colour", "red"}}}},
       "/figure/ref_line/colour: unknown key"},
      {{{"ref_band", {{"low", 1}}}}, "/figure/ref_band/high: required key is missing"},
      {{{"ref_hline", "nosuch(1)"}}, "/figure/ref_hline: "},
      {{{"ref_hline", {1}}}, "/figure/ref_hline: must be a number or an expression"},
      {{{"series", {{{"x", "[1]"}, {"y", "[1]"}, {"y_err", false}}}}},
       "/figure/series/0/y_err: must be an expression"},
      {{{"error_bars", "[1, 1]"}}, "/figure/error_bars: unknown key"}};
  for (const auto& [keys, expected] : cases) {
    json figure = base;
    figure.update(keys);
    fs::remove_all(dir_ / "papers");
    fs::remove_all(dir_ / "cases");
    write_registry(json::array(
        {result("bad", {{"kind", "count"}, {"value", 6}}, {{"value", "1"}, {"figure", figure}})}));
    const auto r = granular("reproduce --out rep");
    EXPECT_EQ(r.code, 2) << keys.dump();
    EXPECT_NE(r.err.find("papers/stated_results.json: /results/0/measure/compute" + expected),
              std::string::npos)
        << keys.dump() << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "rep"));
  }
}
}  // namespace
