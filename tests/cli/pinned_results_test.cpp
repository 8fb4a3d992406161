// The results a restructuring must not change (issue 11, step 0), pinned by
// tools/pin_results.py in tests/data/pins/: the pendulum impact lists of both paper cases, the
// prism κ of every shipped case, the dimer ⟨u⟩ of the figure-8 cases, the billiard's first 200
// collisions of each shipped case, the wedge map's rotation (large-κ and tabulated e_t) and the
// event-driven packings' ⟨ω̄²⟩ (issue 22: the thesis' collision rules move), and a shortened
// demo ensemble's disks.csv and angles.csv.
// Every run is repeated through the binary and must give the same values: bitwise, or, where
// a pin states a relative tolerance and its reason, numbers within that tolerance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/cli_scratch.hpp"
#include "support/csv.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using granular::test::file_text;

const fs::path pins_dir = fs::path(GRANULAR_SOURCE_DIR) / "tests" / "data" / "pins";

// True when the number `now` prints as `pinned` with 10 or 12 significant digits (the former
// CSV formats), or the texts are equal.
bool prints_as(const std::string& now, const std::string& pinned) {
  if (now == pinned) return true;
  char* end = nullptr;
  const double x = std::strtod(now.c_str(), &end);
  if (end == now.c_str()) return false;
  for (const char* format : {"%.10g", "%.12g"}) {
    char text[40];
    std::snprintf(text, sizeof text, format, x);
    if (pinned == text) return true;
  }
  return false;
}

class PinnedResults : public granular::test::CliScratch {
 protected:
  PinnedResults() : CliScratch("pins") {}
  void SetUp() override {
    CliScratch::SetUp();
    pins_ = json::parse(file_text(pins_dir / "pins.json"));
  }

  // `granular run cases/<case>.json --out <out> --threads 2 --set ...`; true on exit 0.
  bool run_case(const std::string& name, const std::vector<std::string>& sets,
                const fs::path& out) const {
    std::string args = "run '" + std::string(GRANULAR_SOURCE_DIR) + "/cases/" + name +
                       ".json' --out '" + out.string() + "' --threads 2";
    for (const std::string& s : sets) args += " --set '" + s + "'";
    return granular(args).code == 0;
  }

  // Every pinned run of `model` repeated: the kept values of its summary.json are unchanged.
  void expect_model_unchanged(const std::string& model) {
    int runs = 0;
    for (const json& pin : pins_["runs"]) {
      if (pin["model"] != model) continue;
      ++runs;
      const std::string name = pin["case"];
      const fs::path out = dir_ / name;
      ASSERT_TRUE(run_case(name, pin["set"].get<std::vector<std::string>>(), out)) << name;
      const json summary = json::parse(file_text(out / "summary.json"));
      const double tol =
          pin.contains("tolerance") ? pin["tolerance"]["relative"].get<double>() : 0.0;
      for (const auto& [key, value] : pin["values"].items())
        expect_same(pinned_view(model, key, summary, out), value, tol, name + ": " + key);
      fs::remove_all(out);
    }
    EXPECT_GT(runs, 0) << model;
  }

  // a == b, numbers within the relative tolerance tol (0: bitwise), recursively
  static void expect_same(const json& now, const json& pinned, double tol,
                          const std::string& where) {
    if (tol > 0.0 && now.is_number() && pinned.is_number()) {
      const double a = now.get<double>(), b = pinned.get<double>();
      EXPECT_LE(std::fabs(a - b), tol * std::fabs(b)) << where << ": " << a << " vs " << b;
    } else if (tol > 0.0 && now.is_structured() && now.type() == pinned.type() &&
               now.size() == pinned.size()) {
      if (now.is_array()) {
        for (std::size_t i = 0; i < now.size(); ++i)
          expect_same(now[i], pinned[i], tol, where + "/" + std::to_string(i));
      } else {
        for (const auto& [key, value] : pinned.items())
          expect_same(now.contains(key) ? now[key] : json(), value, tol, where + "/" + key);
      }
    } else {
      EXPECT_EQ(now, pinned) << where;
    }
  }

  // Where a pinned value lives in today's outputs (the same place it was pinned from).
  static json pinned_view(const std::string& model, const std::string& key, const json& summary,
                          const fs::path& out) {
    // the billiard's collisions are no longer repeated in summary.json: collisions.csv has them
    // at round-trip precision
    if (model == "billiard" && key == "collisions") {
      json list = json::array();
      for (const auto& row : granular::test::read_csv((out / "collisions.csv").string())) {
        json c;
        for (const char* k : {"t", "q1", "height", "flight_time", "u_n_before", "u_t_after",
                              "spin_after", "e_used"})
          c[k] = std::stod(row.at(k));
        c["surface"] = row.at("surface");
        c["sticking"] = row.at("sticking") == "1";
        list.push_back(c);
        if (list.size() == 200) break;
      }
      return list;
    }
    return summary.contains(key) ? summary[key] : json();
  }

  json pins_;
};

TEST_F(PinnedResults, PendulumImpactLists) { expect_model_unchanged("pendulum"); }
TEST_F(PinnedResults, PrismKappa) { expect_model_unchanged("prism"); }
TEST_F(PinnedResults, DimerDrift) { expect_model_unchanged("dimer"); }
TEST_F(PinnedResults, BilliardFirst200Collisions) { expect_model_unchanged("billiard"); }
TEST_F(PinnedResults, WedgeMapRotation) { expect_model_unchanged("wedge"); }
TEST_F(PinnedResults, EventDrivenPackings) { expect_model_unchanged("ed"); }

TEST_F(PinnedResults, DemoEnsembleCsvs) {
  const json& demo = pins_["demo"];
  const fs::path out = dir_ / "demo";
  ASSERT_TRUE(run_case(demo["case"], demo["set"].get<std::vector<std::string>>(), out));
  // the CSVs now write every number at round-trip precision; the pinned files have 10 or 12
  // significant digits: each number must print as its pinned text at one of those
  for (const json& file : demo["files"]) {
    const std::string f = file;
    const auto now = granular::test::read_csv((out / f).string());
    const auto pinned = granular::test::read_csv((pins_dir / ("demo_" + f)).string());
    ASSERT_EQ(now.size(), pinned.size()) << f;
    ASSERT_GT(now.size(), 0u) << f;
    for (std::size_t i = 0; i < now.size(); ++i) {
      ASSERT_EQ(now[i].size(), pinned[i].size()) << f << " row " << i;
      for (const auto& [column, text] : pinned[i])
        EXPECT_TRUE(prints_as(now[i].at(column), text))
            << f << " row " << i << " " << column << ": " << now[i].at(column) << " vs " << text;
    }
  }
}

}  // namespace
