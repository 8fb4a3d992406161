// The registry of the papers' stated results (papers/stated_results.json, docs/reproduce.md):
// every entry is complete (where the paper states it, its words, its number as printed, what is
// compared, a tolerance and why, the cost), cites one of the five papers, and names a shipped
// case whose full-scale and quick-scale overrides `granular validate` accepts.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/cli_scratch.hpp"

namespace {

namespace fs = std::filesystem;
using granular::test::file_text;
using json = nlohmann::ordered_json;  // the registry is read in order: a `let` names the ones before it

const fs::path registry = fs::path(GRANULAR_SOURCE_DIR) / "papers" / "stated_results.json";

json load_registry() { return json::parse(file_text(registry)); }

// "--set /a/b=<json>" words for the shell, one per override
std::string set_words(const json& set) {
  std::string words;
  if (!set.is_object()) return words;
  for (const auto& [pointer, value] : set.items())
    words += " --set '" + pointer + "=" + value.dump() + "'";
  return words;
}

TEST(StatedResults, EveryEntryIsCompleteAndCitesAPaper) {
  const json r = load_registry();
  ASSERT_TRUE(r.contains("papers") && r["papers"].is_object());
  ASSERT_TRUE(r.contains("results") && r["results"].is_array());
  const std::set<std::string> kinds = {"value", "range",      "sign",  "exponent",
                                       "count", "inequality", "trend", "closed_form"};
  std::set<std::string> ids;
  std::set<std::string> papers_with_results;
  for (const json& e : r["results"]) {
    const std::string id = e.value("id", "");
    SCOPED_TRACE(id);
    EXPECT_FALSE(id.empty());
    EXPECT_TRUE(ids.insert(id).second) << "id repeated";
    const std::string paper = e.value("paper", "");
    EXPECT_TRUE(r["papers"].contains(paper)) << "unknown paper " << paper;
    papers_with_results.insert(paper);
    for (const char* key : {"where", "statement", "quote", "compared"})
      EXPECT_FALSE(e.value(key, std::string()).empty()) << key;
    ASSERT_TRUE(e.contains("printed") && e["printed"].is_object());
    EXPECT_TRUE(kinds.count(e["printed"].value("kind", ""))) << e["printed"].dump();
    EXPECT_TRUE(e.contains("plot_only") && e["plot_only"].is_boolean());
    ASSERT_TRUE(e.contains("tolerance") && e["tolerance"].is_object());
    EXPECT_FALSE(e["tolerance"].value("why", std::string()).empty());
    ASSERT_TRUE(e.contains("measure") && e["measure"].is_object());
    EXPECT_FALSE(e["measure"].value("observable", std::string()).empty());
    ASSERT_TRUE(e.contains("cost") && e["cost"].is_object());
  }
  for (const auto& [paper, citation] : r["papers"].items()) {
    EXPECT_TRUE(papers_with_results.count(paper)) << "no result of " << paper;
    EXPECT_FALSE(citation.get<std::string>().empty());
  }
}

class StatedResultsCli : public granular::test::CliScratch {
 protected:
  StatedResultsCli() : CliScratch("stated_results") {}
};

// Each result's case, at its full and its quick scale, is a valid case.
TEST_F(StatedResultsCli, EveryCaseAndItsOverridesValidate) {
  const json r = load_registry();
  std::set<std::string> validated;  // results often share a case and its overrides
  for (const json& e : r["results"]) {
    const json& m = e["measure"];
    if (!m.contains("case") || m["case"].is_null()) continue;
    const std::string path = std::string(GRANULAR_SOURCE_DIR) + "/" + m["case"].get<std::string>();
    ASSERT_TRUE(fs::exists(path)) << e["id"] << ": no " << path;
    for (const char* scale : {"set", "quick_set"}) {
      if (!m.contains(scale) || m[scale].is_null()) continue;
      const std::string command = "validate '" + path + "'" + set_words(m[scale]);
      if (!validated.insert(command).second) continue;
      const auto run = granular(command);
      EXPECT_EQ(run.code, 0) << e["id"] << " " << scale << ": " << run.err;
    }
  }
  EXPECT_GT(validated.size(), 0u);
}

// Every compute block parses at both scales: `granular reproduce --dry-run` plans them all.
TEST_F(StatedResultsCli, EveryComputeBlockPlansAtBothScales) {
  for (const char* scale : {"--quick", "--full"}) {
    const auto run = granular("reproduce --dry-run " + std::string(scale) + " --registry '" +
                              registry.string() + "'");
    EXPECT_EQ(run.code, 0) << scale << ": " << run.err;
  }
}

// The quick scale of a paper's results that cost at most 30 s on one core (docs/reproduce.md,
// "granular reproduce"; the others are listed as not measured): each result's verdict is the one
// pinned in tests/data/stated_verdicts_quick.json (tools/pin_verdicts.py), and so is the set of
// results measured. The expected verdicts are data of the test, not read from the registry: a
// regression is not turned green by explaining it there, and a change that moves a verdict
// changes the pin in its own commit.
class StatedResultsQuick : public granular::test::CliScratch {
 protected:
  StatedResultsQuick() : CliScratch("stated_quick") {}

  void expect_quick_verdicts(const std::string& paper) {
    const auto run =
        granular("reproduce " + paper + " --quick --max-cost 30 --threads 1 --out rep" +
                 " --registry '" + registry.string() + "'");
    ASSERT_TRUE(run.code == 0 || run.code == 3) << run.out << run.err;
    const json pins = json::parse(
        file_text(fs::path(GRANULAR_SOURCE_DIR) / "tests" / "data" / "stated_verdicts_quick.json"));
    const json report = json::parse(file_text(dir_ / "rep" / "results.json"));
    std::set<std::string> seen;
    int measured = 0;
    for (const json& r : report["results"]) {
      const std::string id = r["id"].get<std::string>();
      seen.insert(id);
      std::string verdict = r["verdict"].get<std::string>();
      if (verdict == "disagrees") verdict += " (" + r["class"].get<std::string>() + ")";
      measured += verdict != "not measured";
      ASSERT_TRUE(pins.contains(id)) << id << ": a result with no pinned verdict";
      EXPECT_EQ(verdict, pins[id].get<std::string>()) << id << ": " << r["message"];
    }
    for (const auto& [id, verdict] : pins.items()) {
      const json& entry = registry_entry(id);
      if (entry.is_null()) {
        ADD_FAILURE() << id << ": pinned but not in the registry";
      } else if (entry["paper"] == paper) {
        EXPECT_TRUE(seen.count(id)) << id << ": pinned but not reported";
      }
    }
    EXPECT_GT(measured, 0);
  }

  static json registry_entry(const std::string& id) {
    static const json r = load_registry();
    for (const json& e : r["results"])
      if (e["id"] == id) return e;
    return nullptr;
  }
};

// Chapter 3 in CI (issue 33, item 6): the (Γ − 1) exponent of fig. 3.6 (the thesis' 0.99 ± 0.2),
// measured by the registry's own compute at a scale CI affords: Γ = 1, 1.5, 3, 6, 16 packings
// per Γ over 10 s (about 80 s on two threads). At Γ ≥ 1 the drift dominates ⟨ω̄²⟩ from a few
// seconds on (the diffusion is ≤ 5 % of it at 20 s), so a short window measures what the
// thesis' 1 000 s do; the low-Γ branch is not checked here because below Γ = 0.3 it does not
// (its entry decides only from 200 s windows). A GPU run resolved the exponent at 1.082 ±
// 0.025 (3 × 58 packings per Γ, the thesis' Γ grid; 1.09 on this test's grid: docs/reproduce.md,
// "Chapter 3: which scale decides what"). Here the standard error must resolve the tolerance
// (2 SE ≤ 0.2), the value must agree with the resolved one within 3 combined SE (a change of the
// physics that moves the exponent by ~0.25 fails), and the verdict is pinned: this sample's
// 1.23 lies just outside 0.99 ± 0.2 by less than 2 SE, inconclusive, and a change that moves it
// fails here, whichever way.
class StatedResultsChapter3 : public granular::test::CliScratch {
 protected:
  StatedResultsChapter3() : CliScratch("stated_ch3") {}
};

TEST_F(StatedResultsChapter3, GammaMinusOneExponentAgreesWithItsResolvedValue) {
  const std::string id = "thesis-ch3-md-high-gamma-exponent";
  json r = load_registry();
  json entry;
  for (const json& e : r["results"])
    if (e["id"] == id) entry = e;
  ASSERT_FALSE(entry.is_null()) << id << ": not in the registry";
  entry["measure"]["quick_set"]["/drive/gamma"] = json::array({1, 1.5, 3, 6});
  entry["measure"]["quick_set"]["/ensemble/packings_per_gamma"] = 16;
  entry["measure"]["quick_set"]["/run/measure_time"] = 10.0;
  r["results"] = json::array({entry});
  // the registry's folder is papers/ under the project root its cases are read from
  const std::string case_path = entry["measure"]["case"].get<std::string>();
  fs::create_directories(dir_ / "papers");
  fs::create_directories((dir_ / case_path).parent_path());
  fs::copy_file(fs::path(GRANULAR_SOURCE_DIR) / case_path, dir_ / case_path);
  std::ofstream(dir_ / "papers" / "ch3.json") << r.dump(1);

  const auto run = granular("reproduce thesis --quick --threads 2 --out rep --registry papers/ch3.json");
  ASSERT_TRUE(run.code == 0 || run.code == 3) << run.out << run.err;
  const json report = json::parse(file_text(dir_ / "rep" / "results.json"));
  ASSERT_EQ(report["results"].size(), 1u);
  const json& row = report["results"][0];
  ASSERT_TRUE(row.contains("value") && row["value"].is_number() && row.contains("stderr") &&
              row["stderr"].is_number())
      << row.dump();
  const double value = row["value"].get<double>(), se = row["stderr"].get<double>();
  EXPECT_LE(2.0 * se, 0.2) << "this scale no longer resolves the tolerance ±0.2";
  const double resolved = 1.09, resolved_se = 0.025;
  EXPECT_LE(std::fabs(value - resolved), 3.0 * std::hypot(se, resolved_se))
      << "exponent " << value << " ± " << se << " against the resolved " << resolved;
  EXPECT_EQ(row["verdict"], "inconclusive") << "exponent " << value << " ± " << se << ": "
                                            << row["message"];
}

TEST_F(StatedResultsQuick, Thesis) { expect_quick_verdicts("thesis"); }
TEST_F(StatedResultsQuick, Pendulum) { expect_quick_verdicts("pendulum"); }
TEST_F(StatedResultsQuick, Billiard) { expect_quick_verdicts("billiard"); }
TEST_F(StatedResultsQuick, Prism) { expect_quick_verdicts("prism"); }
TEST_F(StatedResultsQuick, Dimer) { expect_quick_verdicts("dimer"); }

}  // namespace
