// Every shipped case, through the real `granular` binary (issue 11, item 7): each file in
// cases/ validates; a shortened run of each writes summary.json with its model's documented
// keys and a status; for each model an unknown key, a missing required key and an
// out-of-range value give the one-line "<file>: <pointer>: <what>" error with exit 2 and
// nothing written; keys of earlier versions name their new key.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"
#include "support/cli_scratch.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path cases_dir = fs::path(GRANULAR_SOURCE_DIR) / "cases";

using granular::test::file_text;
using Result = granular::test::CliResult;

// Overrides that make a run of each model short (a fraction of a second of simulated time).
const std::map<std::string, std::vector<std::string>> shortened = {
    {"packing_ensemble",
     {"/drive/gamma=[1]", "/ensemble/packings_per_gamma=1", "/run/settle_time=0.002",
      "/run/transient_time=0", "/run/measure_time=0.004", "/run/sample_interval=0.002"}},
    {"collision", {}},
    {"pendulum", {"/run/t_end=0.3"}},
    {"prism", {"/run/t_end=0.3"}},
    {"billiard", {"/run/collisions=20"}},
    {"dimer", {"/run/t_end=0.04", "/run/average_from=0.02"}},
    {"wedge", {"/run/collisions=2000"}},
    {"three_disk",
     {"/run/settle_time=0.001", "/run/transient_time=0", "/run/measure_time=0.002",
      "/run/sample_interval=0.001"}},
    {"wedge_md",
     {"/run/settle_time=0.0002", "/run/transient_time=0", "/run/measure_time=0.0004",
      "/run/sample_interval=0.0002"}},
};

// What summary.json of each model must hold (docs/outputs.md and the model's own page).
const std::map<std::string, std::vector<std::string>> documented_keys = {
    {"packing_ensemble",
     {"gamma_values", "packings_per_gamma", "mean_sq_omega", "mean_sq_omega_stderr", "packings",
      "dt", "steps", "particle_steps_per_s"}},
    {"collision", {"status", "m_eff", "damping_ratio", "t_c", "e_n", "e_t"}},
    {"pendulum",
     {"status", "reason", "detail", "t_end", "t_final", "impact_count", "impacts", "final_state",
      "zeno", "time_series"}},
    {"prism",
     {"status", "reason", "detail", "impacts_file", "impact_count", "mean_kappa", "kappa_model",
      "kappa_classic", "termination", "admissibility"}},
    {"billiard", {"status", "reason", "detail", "t_end", "counts", "zeno", "contact"}},
    {"dimer",
     {"status", "reason", "detail", "t_final", "mean_drift", "mean_drift_right", "motion",
      "impact_count"}},
    {"wedge",
     {"status", "reason", "detail", "collisions", "rejections", "scaled_rotation", "omega_bar",
      "flight_time"}},
    {"three_disk",
     {"status", "omega_bar", "rho2", "samples", "contact_openings", "sliding_fraction_1",
      "sliding_fraction_2", "A0", "A_S1", "A_S2", "detachment_tilt"}},
    {"wedge_md",
     {"status", "omega_bar", "rho2", "samples", "contact_openings", "wall_speed",
      "scaled_rotation"}},
};

// The MD models report the engine's status (md::status_name).
const std::set<std::string> md_models = {"collision", "three_disk", "wedge_md"};

// The statuses a run may end with (docs/outputs.md).
const std::set<std::string> impact_statuses = {"completed", "time_limit", "event_limit",
                                               "zeno",      "non_finite", "integrator_failed",
                                               "model_stop"};

// For each model: a shipped case, a key it requires and an out-of-range value.
struct BadInput {
  std::string model, file, required, out_of_range, pointer_of_range;
};
const BadInput bad_inputs[] = {
    {"packing_ensemble", "demo_sweep", "/packing/box_width", "/drive/frequency=-80",
     "/drive/frequency"},
    {"collision", "collision_disk_disk", "/disks/radius_a", "/contact/k_n=0", "/contact/k_n"},
    {"pendulum", "pendulum_mu0", "/initial/psi1_deg", "/obstacle/k=-0.5", "/obstacle/k"},
    {"prism", "prism_fig5_n22", "/prism/n_sides", "/ramp/mu_s=-1", "/ramp/mu_s"},
    {"billiard", "billiard_parabola_4p5hz", "/drive/frequency", "/ball/radius=-1", "/ball/radius"},
    {"dimer", "dimer_fig3_ar39_mu012", "/run/t_end", "/contact/kappa=-0.5", "/contact/kappa"},
    {"wedge", "wedge_fig6_ed_tilt10", "/drive/gamma", "/contact/e_n=2", "/contact/e_n"},
    {"three_disk", "three_disk_fig5_6_hysteresis", "/contact/k_n", "/supports/drive=\"shaken\"",
     "/supports/drive"},
    {"wedge_md", "wedge_fig6_md_tilt_scan", "/drive/frequency", "/wedge/aperture_deg=180",
     "/wedge/aperture_deg"},
};

class EveryCase : public granular::test::CliScratch {
 protected:
  EveryCase() : CliScratch("every_case") {}

  // `granular <command> cases/<name>.json [--out <out>] --set ...` from the scratch folder.
  Result granular(const std::string& command, const std::string& name,
                  const std::vector<std::string>& sets, const fs::path& out = {}) const {
    std::string args = command + " '" + (cases_dir / (name + ".json")).string() + "'";
    if (!out.empty()) args += " --out '" + out.string() + "' --threads 2";
    for (const std::string& s : sets) args += " --set '" + s + "'";
    return CliScratch::granular(args);
  }

  // A bad input: exit 2, one line "<file>: <pointer>: ...", and no output folder written.
  void expect_refused(const std::string& name, const std::vector<std::string>& sets,
                      const std::string& pointer, const std::string& what = "") {
    const fs::path out = dir_ / ("out_" + name);
    const Result r = granular("run", name, sets, out);
    const std::string where = name + " " + (sets.empty() ? "" : sets.front());
    EXPECT_EQ(r.code, 2) << where << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << where << "\n" << r.err;
    EXPECT_EQ(r.err.rfind((cases_dir / (name + ".json")).string() + ": " + pointer + ": ", 0), 0u)
        << where << "\n"
        << r.err;
    if (!what.empty()) {
      EXPECT_NE(r.err.find(what), std::string::npos) << where << "\n" << r.err;
    }
    EXPECT_FALSE(fs::exists(out)) << where << ": wrote " << out;
  }
};

std::vector<fs::path> shipped_cases() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(cases_dir))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST_F(EveryCase, EveryShippedCaseValidatesAndEveryModelHasOne) {
  std::set<std::string> models;
  for (const fs::path& file : shipped_cases()) {
    const std::string name = file.stem().string();
    const Result r = granular("validate", name, {});
    EXPECT_EQ(r.code, 0) << name << "\n" << r.err;
    models.insert(json::parse(file_text(file))["model"].get<std::string>());
  }
  for (const auto& [model, keys] : documented_keys)
    EXPECT_TRUE(models.count(model)) << "no shipped case of " << model;
  EXPECT_EQ(models.size(), documented_keys.size());
}

TEST_F(EveryCase, AShortenedRunOfEveryShippedCaseWritesItsSummary) {
  for (const fs::path& file : shipped_cases()) {
    const std::string name = file.stem().string();
    const std::string model = json::parse(file_text(file))["model"];
    ASSERT_TRUE(shortened.count(model)) << model;
    const fs::path out = dir_ / name;
    const Result r = granular("run", name, shortened.at(model), out);
    ASSERT_EQ(r.code, 0) << name << "\n" << r.err;
    const json s = json::parse(file_text(out / "summary.json"));
    EXPECT_EQ(s["model"], model) << name;
    for (const char* key : {"granular_version", "case"}) EXPECT_TRUE(s.contains(key)) << name;
    // a dimer sweep (Fig. 11) has the results of one run per point
    const bool sweep = model == "dimer" && s.contains("sweep");
    // a scan (docs/cases.md, "Scans"): each point's summary.json in its folder
    json runs = sweep ? s["sweep"] : json::array({s});
    if (s.contains("scan")) {
      runs = json::array();
      for (int k = 0; k < s["scan"]["points"].get<int>(); ++k)
        runs.push_back(
            json::parse(file_text(out / ("point_" + std::to_string(k)) / "summary.json")));
    }
    for (const json& run : runs) {
      for (const std::string& key : documented_keys.at(model)) {
        if (sweep && key == "impact_count") continue;  // per point: the drift and the mode
        EXPECT_TRUE(run.contains(key)) << name << ": no " << key;
      }
      if (model == "packing_ensemble") {
        for (const json& p : run["packings"]) EXPECT_TRUE(p.contains("status")) << name;
      } else if (!md_models.count(model)) {
        EXPECT_TRUE(impact_statuses.count(run["status"].get<std::string>()))
            << name << ": " << run["status"];
        EXPECT_EQ(run["status"] == "model_stop", run["reason"].is_string()) << name;
      }
    }
    // every CSV written is a table the model declares (docs/outputs.md, "Tables"), its header
    // the declared columns in order (some may be left out, e.g. the prism's gauges)
    for (const auto& e : fs::directory_iterator(out)) {
      if (e.path().extension() != ".csv") continue;
      const std::string file = e.path().filename().string();
      if (file == "scan.csv") continue;  // a scan's table: its columns follow the case (scan_test)
      const granular::cases::Model* m = nullptr;
      for (const granular::cases::Model& x : granular::cases::models())
        if (model == x.name) m = &x;
      ASSERT_NE(m, nullptr) << model;
      bool declared = false;
      for (const granular::io::TableSpec& t : m->tables()) {
        if (t.file != file) continue;
        declared = true;
        std::string header = file_text(e.path());
        header = header.substr(0, header.find('\n'));
        std::size_t next = 0;  // the header's columns are a subsequence of the declared ones
        std::stringstream fields(header);
        std::string name;
        while (std::getline(fields, name, ',')) {
          while (next < t.columns.size() && t.columns[next].name != name) ++next;
          EXPECT_LT(next, t.columns.size())
              << file << ": column " << name << " not declared (in order)";
          ++next;
        }
      }
      EXPECT_TRUE(declared) << name << " wrote " << file << ", which " << model
                            << " does not declare";
    }
    fs::remove_all(out);
  }
}

// Issue 11, item 3: an integrator failure ends in summary.json with that status and the
// outputs so far, never in an exit without outputs (dopri5 at tolerances no step can meet).
TEST_F(EveryCase, AnIntegratorFailureEndsInASummaryWithThatStatus) {
  for (const char* name :
       {"pendulum_mu0", "prism_fig5_n22", "billiard_parabola_4p5hz", "dimer_fig3_ar39_mu012"}) {
    const fs::path out = dir_ / name;
    const Result r = granular(
        "run", name,
        {"/integrator/scheme=dopri5", "/integrator/rtol=1e-300", "/integrator/atol=1e-300"}, out);
    ASSERT_EQ(r.code, 0) << name << "\n" << r.err;
    const json s = json::parse(file_text(out / "summary.json"));
    EXPECT_EQ(s["status"], "integrator_failed") << name;
    EXPECT_NE(s["detail"].get<std::string>().find("step size underflow"), std::string::npos)
        << name;
  }
}

TEST_F(EveryCase, BadInputOfEveryModelIsOneLineWithThePointerAndWritesNothing) {
  for (const BadInput& b : bad_inputs) {
    expect_refused(b.file, {"/no_such_key=1"}, "/no_such_key", "unknown key");
    expect_refused(b.file, {b.required + "=null"}, b.required);
    expect_refused(b.file, {b.out_of_range}, b.pointer_of_range);
  }
}

// A held upper centre keeps the normal forces constant only on supports that stay put.
TEST_F(EveryCase, ThreeDiskHeldCentreNeedsFixedSupports) {
  expect_refused("three_disk_ch6_sine_supports", {"/disks/upper_centre=\"held\""},
                 "/disks/upper_centre", "needs fixed supports");
  expect_refused("three_disk_fig5_2_torque_scan", {"/disks/upper_centre=\"pinned\""},
                 "/disks/upper_centre", "expected one of: free, held");
}

// The random bottom layer: an MD drive, its damping read with it only and underdamped.
TEST_F(EveryCase, RandomBottomLayerKeysAreChecked) {
  expect_refused("demo_sweep", {"/drive/damping=0.5"}, "/drive/damping",
                 "is read only with \"bottom\": \"random_layer\"");
  expect_refused("demo_sweep", {"/drive/bottom=\"random_layer\"", "/drive/damping=1"},
                 "/drive/damping", "must be < 1");
  expect_refused("thesis_fig3_11_ed", {"/drive/bottom=\"random_layer\""}, "/drive/bottom",
                 "MD method only");
  expect_refused("demo_sweep", {"/drive/bottom=\"shaken\""}, "/drive/bottom", "wall, random_layer");
  expect_refused("demo_sweep",
                 {"/drive/bottom=\"random_layer\"", "/ensemble/packings_per_gamma=2000"},
                 "/drive/bottom", "at most 10000 packings");
}

// A collision record: MD only, no snapshots, no shards, resumes or checkpoints; a short one
// writes its counts per Γ and one row per isolated collision.
TEST_F(EveryCase, CollisionRecordIsCheckedAndWritesItsCounts) {
  expect_refused("thesis_fig3_11_ed", {"/collisions={}"}, "/collisions", "MD method");
  expect_refused("demo_sweep", {"/collisions={}"}, "/snapshots", "collision record");
  expect_refused("demo_sweep", {"/collisions={\"tolerance\":0}"}, "/collisions/tolerance",
                 "must be > 0");
  expect_refused("demo_sweep",
                 {"/collisions={}", "/snapshots=null", "/drive/bottom=\"random_layer\""},
                 "/collisions", "random bottom layer");
  expect_refused("demo_sweep", {"/collisions={}", "/snapshots=null", "/run/measure_time=100"},
                 "/collisions", "at most 1000 packing-seconds");
  const std::vector<std::string> record = {"/collisions={}",       "/snapshots=null",
                                           "/drive/gamma=[4]",     "/ensemble/packings_per_gamma=1",
                                           "/run/settle_time=0.2", "/run/transient_time=0.2",
                                           "/run/measure_time=0.3"};
  for (const char* option : {"--resume", "--packings 0:1", "--checkpoint-interval 5"}) {
    std::string args =
        "run '" + (cases_dir / "demo_sweep.json").string() + "' --out refused " + option;
    for (const std::string& s : record) args += " --set '" + s + "'";
    const Result refused = CliScratch::granular(args);
    EXPECT_EQ(refused.code, 2) << option << "\n" << refused.err;
    EXPECT_NE(refused.err.find("a collision record"), std::string::npos) << refused.err;
  }
  const fs::path out = dir_ / "collisions";
  const Result r = granular("run", "demo_sweep", record, out);
  ASSERT_EQ(r.code, 0) << r.err;
  const json s = json::parse(file_text(out / "summary.json"));
  EXPECT_GT(s["contacts_ended"][0].get<double>(), 0.0);
  const std::string csv = file_text(out / "collisions.csv");
  const auto rows = std::count(csv.begin(), csv.end(), '\n') - 1;
  EXPECT_EQ(s["isolated_collisions"][0].get<double>(), static_cast<double>(rows));
  EXPECT_EQ(s["packings"][0]["status"], "ok");
  EXPECT_EQ(s["files"].size(), 1u);
}

TEST_F(EveryCase, KeysOfEarlierVersionsNameTheirNewKey) {
  const std::pair<std::string, std::string> renamed[] = {
      {"pendulum_mu0", "/run/output_interval"},
      {"dimer_fig3_ar39_mu012", "/run/output_interval"},
      {"prism_fig5_n22", "/run/sample_dt"},
      {"billiard_wedge_6p6hz", "/run/trajectory_interval"},
      {"billiard_wedge_6p6hz", "/run/max_time"},
      {"prism_fig5_n22", "/run/max_impacts"},
      {"prism_fig5_n22", "/run/zeno_min_speed"},
      {"prism_fig5_n22", "/integrator/first_step"},
      {"prism_fig5_n22", "/integrator/event_tol"},
      {"dimer_fig3_ar39_mu012", "/numerics/max_events"},
      {"dimer_fig3_ar39_mu012", "/numerics/impact_to_contact"},
      {"pendulum_mu0", "/zeno/baumgarte_rate"},
  };
  const std::map<std::string, std::string> new_key = {
      {"/run/output_interval", "/run/sample_interval"},
      {"/run/sample_dt", "/run/sample_interval"},
      {"/run/trajectory_interval", "/run/sample_interval"},
      {"/run/max_time", "/run/t_end"},
      {"/run/max_impacts", "/run/max_events"},
      {"/run/zeno_min_speed", "/zeno/min_speed"},
      {"/integrator/first_step", "/integrator/step"},
      {"/integrator/event_tol", "/integrator/event_time_tol"},
      {"/numerics/max_events", "/run/max_events"},
      {"/numerics/impact_to_contact", "/zeno/min_speed"},
      {"/zeno/baumgarte_rate", "/obstacle/baumgarte_rate"},
  };
  for (const auto& [name, old_key] : renamed)
    expect_refused(name, {old_key + "=1"}, old_key, "renamed: use " + new_key.at(old_key));
}

// What those messages tell a user to write loads (the dimer and the prism refused `zeno` until
// 2026-11-28, although docs/cases.md lists `zeno/min_speed` for every impact model), and the
// dimer's threshold is the one set.
TEST_F(EveryCase, TheNewNamesOfRenamedKeysAreRead) {
  const std::pair<std::string, std::string> written[] = {
      {"pendulum_mu0", "/run/sample_interval=0.01"},
      {"dimer_fig3_ar39_mu012", "/run/sample_interval=0.001"},
      {"prism_fig5_n22", "/run/sample_interval=0.01"},
      {"billiard_wedge_6p6hz", "/run/sample_interval=0.01"},
      {"billiard_wedge_6p6hz", "/run/t_end=10"},
      {"prism_fig5_n22", "/run/max_events=1000"},
      {"prism_fig5_n22", "/zeno/min_speed=0.01"},
      {"prism_fig5_n22", "/integrator/step=0.0001"},
      {"prism_fig5_n22", "/integrator/event_time_tol=1e-12"},
      {"dimer_fig3_ar39_mu012", "/run/max_events=100000"},
      {"dimer_fig3_ar39_mu012", "/zeno/min_speed=0.002"},
      {"pendulum_mu0", "/obstacle/baumgarte_rate=10"},
  };
  for (const auto& [name, set] : written) {
    const Result r = granular("validate", name, {set});
    EXPECT_EQ(r.code, 0) << name << " " << set << "\n" << r.err;
  }
  const Result dimer = granular("validate", "dimer_fig3_ar39_mu012", {"/zeno/min_speed=0.002"});
  EXPECT_NE(dimer.out.find("impact -> contact below 0.002 m/s"), std::string::npos) << dimer.out;
}

}  // namespace
