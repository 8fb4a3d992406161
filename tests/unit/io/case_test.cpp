// Tests for io/case.cpp and io/json_reader.cpp: derived values, defaults, and the exact
// file + JSON pointer of every kind of bad input.
#include "granular/cases/case.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "granular/cases/collision.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/contact_law.hpp"
#include "granular/md/ensemble/case.hpp"

namespace granular::cases {
namespace {

using io::CaseError;
using io::format_at_most;
using io::format_number;
using io::read_json_file;
using md::packing_seed;

namespace fs = std::filesystem;
using nlohmann::json;

const double kPi = 3.141592653589793238462643383280;

std::string data_path(const std::string& name) {
  return std::string(GRANULAR_SOURCE_DIR) + "/tests/data/" + name;
}

json data(const std::string& name) { return read_json_file(data_path(name)); }

const md::EnsembleCase& ensemble(const LoadedCase& c) {
  return dynamic_cast<const PackingEnsemble&>(*c.spec).ensemble();
}
const md::CollisionCase& collision(const LoadedCase& c) {
  return dynamic_cast<const Collision&>(*c.spec).collision();
}

// The message of the CaseError that loading `doc` as "cases/x.json" throws ("" if none).
std::string load_error(const json& doc, const std::vector<std::string>& overrides = {}) {
  try {
    load_case_json(doc, "cases/x.json", overrides);
  } catch (const CaseError& e) {
    return e.what();
  }
  return "";
}

json with(json doc, const std::function<void(json&)>& change) {
  change(doc);
  return doc;
}

TEST(CaseEnsemble, DerivedValues) {
  const LoadedCase lc = load_case(data_path("good_ensemble.json"));
  EXPECT_EQ(lc.model, "packing_ensemble");
  const md::EnsembleCase& c = ensemble(lc);
  const md::EnsembleModel& m = c.model;

  // packings: |Γ list| × packings_per_gamma, Γ-major
  ASSERT_EQ(m.n_packings(), 3 * 2);
  EXPECT_EQ(c.packings_per_gamma, 2);
  EXPECT_EQ(c.gamma_values, (std::vector<double>{0.5, 1.0, 2.0}));
  for (int p = 0; p < m.n_packings(); ++p) EXPECT_EQ(m.packings[p].gamma, c.gamma_values[p / 2]);

  // A = Γ g / (2π f)², ω = 2π f
  const double omega = 2.0 * kPi * 80.0;
  EXPECT_DOUBLE_EQ(m.packings[2].drive_amplitude, 9.8 / (omega * omega));
  EXPECT_DOUBLE_EQ(m.packings[5].drive_amplitude, 2.0 * 9.8 / (omega * omega));
  EXPECT_DOUBLE_EQ(m.packings[0].drive_omega, omega);
  EXPECT_EQ(m.packings[0].box_width, 0.2);
  EXPECT_EQ(m.packings[0].gravity, 9.8);
  EXPECT_EQ(m.packings[0].disk_disk.k_n, 1e4);
  EXPECT_EQ(m.packings[0].disk_wall.k_n, 1.5e4);
  EXPECT_EQ(m.packings[0].disk_wall.mu, 0.2);

  // radii: species expanded in order, in every packing
  const std::vector<double> radii = {0.015, 0.015, 0.015, 0.025, 0.025};
  ASSERT_EQ(m.n_disks(), 6 * 5);
  for (int p = 0; p < m.n_packings(); ++p) {
    ASSERT_EQ(m.packing_size(p), 5);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(m.radius[m.offset[p] + i], radii[i]);
  }
  EXPECT_DOUBLE_EQ(m.mass[0], 3.57 * kPi * 0.015 * 0.015);

  // packing r has the same seed for every Γ, different seeds for different r
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(m.packings[2 * k].seed, packing_seed(1, 0));
    EXPECT_EQ(m.packings[2 * k + 1].seed, packing_seed(1, 1));
  }
  EXPECT_NE(packing_seed(1, 0), packing_seed(1, 1));
  EXPECT_NE(packing_seed(1, 0), packing_seed(2, 0));

  // dt = shortest t_c / 50; here the lightest disk–disk pair collides fastest
  const double m_light = 3.57 * kPi * 0.015 * 0.015;
  const double t_c = linear_dashpot_restitution(1e4, 0.1, m_light / 2.0).t_c;
  EXPECT_LT(t_c, linear_dashpot_restitution(1.5e4, 0.2, m_light).t_c);
  EXPECT_DOUBLE_EQ(m.dt, t_c / 50.0);
  EXPECT_EQ(m.integrator, md::Integrator::gear5);

  // schedule
  EXPECT_EQ(c.schedule.settle_time, 0.05);
  EXPECT_EQ(c.schedule.measure_time, 0.1);
  EXPECT_EQ(c.schedule.sample_interval, 0.01);
  EXPECT_EQ(c.areal_density, 3.57);
}

TEST(CaseEnsemble, StiffWallSetsTheTimeStep) {
  const json doc =
      with(data("good_ensemble.json"), [](json& d) { d["contact"]["disk_wall"]["k_n"] = 1e5; });
  const LoadedCase lc = load_case_json(doc, "x.json");
  const double m_light = 3.57 * kPi * 0.015 * 0.015;
  EXPECT_DOUBLE_EQ(ensemble(lc).model.dt, linear_dashpot_restitution(1e5, 0.2, m_light).t_c / 50.0);
}

TEST(CaseEnsemble, SingleGammaPackingEqualsSweepPacking) {
  const LoadedCase sweep = load_case(data_path("good_ensemble.json"));
  const LoadedCase single = load_case(data_path("good_ensemble.json"), {"/drive/gamma=1"});
  const md::EnsembleModel& s = ensemble(single).model;
  ASSERT_EQ(s.n_packings(), 2);
  EXPECT_EQ(ensemble(single).gamma_values, std::vector<double>{1.0});
  for (int r = 0; r < 2; ++r) {
    const md::PackingParams& a = s.packings[r];
    const md::PackingParams& b = ensemble(sweep).model.packings[2 + r];
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.drive_amplitude, b.drive_amplitude);
    EXPECT_EQ(a.gamma, b.gamma);
  }
  // another case seed gives other packings
  const LoadedCase reseeded = load_case(data_path("good_ensemble.json"), {"/seed=7"});
  EXPECT_NE(ensemble(reseeded).model.packings[0].seed, ensemble(sweep).model.packings[0].seed);
  EXPECT_EQ(ensemble(reseeded).model.packings[0].seed, packing_seed(7, 0));
}

TEST(CaseEnsemble, DefaultsFilledIntoEcho) {
  const LoadedCase lc = load_case(data_path("good_ensemble.json"));
  const json& e = lc.echo;
  EXPECT_EQ(e["seed"], 1);
  EXPECT_EQ(e["gravity"], 9.8);
  EXPECT_EQ(e["integrator"]["scheme"], "gear5");
  EXPECT_EQ(e["integrator"]["steps_per_collision"], 50.0);
  EXPECT_FALSE(e["integrator"].contains("dt"));
  EXPECT_DOUBLE_EQ(e["neighbor"]["skin"].get<double>(), 0.2 * 0.015);
  EXPECT_EQ(e["neighbor"]["max_neighbors"], 24);
  EXPECT_EQ(e["neighbor"]["max_contacts"], 10);
  EXPECT_EQ(e["ensemble"]["packings_per_gamma"], 2);
  const md::EnsembleModel& m = ensemble(lc).model;
  EXPECT_DOUBLE_EQ(m.neighbor.skin, 0.2 * 0.015);
  EXPECT_EQ(m.neighbor.max_neighbors, 24);
  EXPECT_EQ(m.neighbor.max_contacts, 10);

  // the echo reproduces the run: loading it again gives the same echo and model
  const LoadedCase again = load_case_json(lc.echo, "echo.json");
  EXPECT_EQ(again.echo, lc.echo);
  EXPECT_EQ(ensemble(again).model.dt, m.dt);
  EXPECT_EQ(ensemble(again).model.packings[3].seed, m.packings[3].seed);

  // an omitted ensemble means one packing per Γ
  const json bare = with(data("good_ensemble.json"), [](json& d) { d.erase("ensemble"); });
  const LoadedCase one = load_case_json(bare, "x.json");
  EXPECT_EQ(one.echo["ensemble"]["packings_per_gamma"], 1);
  EXPECT_EQ(ensemble(one).model.n_packings(), 3);
}

TEST(CaseEnsemble, OverridesApplyBeforeValidation) {
  const LoadedCase lc = load_case(data_path("good_ensemble.json"),
                                  {"/integrator/scheme=velocity_verlet", "/integrator/dt=1e-5",
                                   "/contact/disk_disk/mu=0.3", "/drive/gamma=[4, 8]"});
  const md::EnsembleCase& c = ensemble(lc);
  EXPECT_EQ(c.model.integrator, md::Integrator::velocity_verlet);
  EXPECT_EQ(c.model.dt, 1e-5);
  EXPECT_EQ(c.model.packings[0].disk_disk.mu, 0.3);
  EXPECT_EQ(c.gamma_values, (std::vector<double>{4.0, 8.0}));
  EXPECT_EQ(lc.echo["integrator"]["scheme"], "velocity_verlet");
  EXPECT_FALSE(lc.echo["integrator"].contains("steps_per_collision"));
}

TEST(CaseEnsemble, ZeroGravityGivesZeroAmplitudeAndANote) {
  const LoadedCase lc = load_case(data_path("good_ensemble.json"), {"/gravity=0"});
  EXPECT_EQ(ensemble(lc).model.packings[5].drive_amplitude, 0.0);
  EXPECT_EQ(lc.notes.size(), 1u);
}

TEST(CaseCollision, LoadsWithDefaults) {
  const LoadedCase lc = load_case(data_path("good_collision.json"));
  EXPECT_EQ(lc.model, "collision");
  const auto& c = collision(lc);
  EXPECT_EQ(c.kind, md::CollisionKind::disk_wall);
  EXPECT_EQ(c.radius_a, 0.02);
  EXPECT_EQ(c.contact.k_t, 7.7e3);
  EXPECT_EQ(c.u_n, 0.1);
  EXPECT_EQ(c.u_t, 0.05);
  EXPECT_EQ(c.dt, 0.0);
  EXPECT_EQ(c.steps_per_collision, 200.0);
  EXPECT_EQ(lc.echo["impact"]["omega_a"], 0.0);
  EXPECT_FALSE(lc.echo["impact"].contains("omega_b"));

  // disk–disk: radius_b defaults to radius_a, omega_b to 0
  const LoadedCase pair = load_case(data_path("good_collision.json"), {"/kind=disk_disk"});
  const auto& p = collision(pair);
  EXPECT_EQ(p.kind, md::CollisionKind::disk_disk);
  EXPECT_EQ(p.radius_b, 0.02);
  EXPECT_EQ(pair.echo["disks"]["radius_b"], 0.02);
  EXPECT_EQ(pair.echo["impact"]["omega_b"], 0.0);
}

TEST(CaseErrors, ExactPointers) {
  const json good = data("good_ensemble.json");
  const std::string f = "cases/x.json: ";
  EXPECT_EQ(load_error(good), "");
  // an unknown key near a known one names it (issue 35: "did you mean")
  EXPECT_EQ(load_error(with(good, [](json& d) { d["gravty"] = 9.8; })),
            f + "/gravty: unknown key (did you mean \"gravity\"?)");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["contact"]["disk_disk"]["k_m"] = 1; })),
            f + "/contact/disk_disk/k_m: unknown key (did you mean \"k_n\"?)");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["zzz"] = 1; })), f + "/zzz: unknown key");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["run"]["measure_time"] = "20"; })),
            f + "/run/measure_time: must be a number");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["contact"]["disk_wall"] = 3; })),
            f + "/contact/disk_wall: must be an object, not a number");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["drive"].erase("frequency"); })),
            f + "/drive/frequency: required key is missing");
  EXPECT_EQ(load_error(with(good, [](json& d) { d.erase("run"); })),
            f + "/run: required key is missing");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["packing"]["species"][1]["radius"] = -0.02; })),
            f + "/packing/species/1/radius: must be > 0");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["packing"]["species"][0]["count"] = 0; })),
            f + "/packing/species/0/count: must be >= 1");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["packing"]["species"][0]["count"] = 2.5; })),
            f + "/packing/species/0/count: must be an integer");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["contact"]["disk_wall"]["k_n"] = -1; })),
            f + "/contact/disk_wall/k_n: must be > 0");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["contact"]["disk_disk"]["k_t"] = -1; })),
            f + "/contact/disk_disk/k_t: must be >= 0");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["contact"]["disk_disk"]["mu"] = -0.1; })),
            f + "/contact/disk_disk/mu: must be >= 0");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["drive"]["gamma"][1] = -1; })),
            f + "/drive/gamma/1: must be >= 0");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["drive"]["gamma"] = -1; })),
            f + "/drive/gamma: must be >= 0");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["drive"]["gamma"] = json::array(); })),
            f + "/drive/gamma: must not be empty");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["packing"]["box_width"] = 0.04; })),
            f + "/packing/box_width: 0.04 m is narrower than the largest disk (diameter 0.05 m)");
  EXPECT_EQ(load_error(with(good,
                            [](json& d) {
                              d["integrator"] = {{"dt", 1e-5}, {"steps_per_collision", 50}};
                            })),
            f + "/integrator: give either dt or steps_per_collision, not both");
  EXPECT_EQ(
      load_error(with(good,
                      [](json& d) {
                        d["integrator"] = {{"scheme", "rk4"}};
                      })),
      f + "/integrator/scheme: unknown scheme \"rk4\" (expected one of: gear5, velocity_verlet)");
  EXPECT_EQ(
      load_error(with(good, [](json& d) { d["model"] = "x"; })),
      f + "/model: unknown model \"x\" (expected one of: packing_ensemble, collision, billiard, "
          "dimer, pendulum, prism, wedge, three_disk, wedge_md)");
  EXPECT_EQ(load_error(with(good, [](json& d) { d.erase("model"); })),
            f + "/model: required key is missing");
  EXPECT_EQ(
      load_error(with(good, [](json& d) { d["packing"]["species"][0]["count"] = 200000000; })),
      f + "/packing/species/0/count: the species hold 200000000 disks so far, more than "
          "100000000");
  EXPECT_NE(load_error(with(good, [](json& d) { d["ensemble"]["packings_per_gamma"] = 10000000; }))
                .find(f + "/ensemble/packings_per_gamma: the run would hold "),
            std::string::npos);
  EXPECT_EQ(load_error(with(good, [](json& d) { d["run"]["sample_interval"] = 1.0; })),
            f + "/run/sample_interval: 1 s is longer than measure_time (0.1 s)");
  EXPECT_EQ(load_error(json::array()), "cases/x.json: the case must be a JSON object");
}

TEST(CaseErrors, TimeStepTooLarge) {
  const json good = data("good_ensemble.json");
  // the limit: 10 steps per period of the fastest mode of the lightest disk–disk pair
  const double m_light = 3.57 * kPi * 0.015 * 0.015;
  const double limit =
      2.0 * kPi / (10.0 * fastest_contact_rate({1e4, 7.7e3, 0.1, 0.1}, m_light / 2.0));
  const std::string message = load_error(with(good, [](json& d) {
    d["integrator"] = {{"dt", 1e-3}};
  }));
  EXPECT_EQ(message,
            "cases/x.json: /integrator/dt: 0.001 s is too large for the stiffness: at most " +
                format_at_most(limit, 1e-3) +
                " s (10 steps per period of the fastest contact mode)");
  // the limit printed is never above the value it rejects, nor printed the same
  const double just_above = limit * (1.0 + 1e-9);
  const std::string close = load_error(with(good, [&](json& d) {
    d["integrator"] = {{"dt", just_above}};
  }));
  const std::size_t at = close.find("at most ") + 8;
  const std::string printed = close.substr(at, close.find(" s (") - at);
  EXPECT_LE(std::stod(printed), limit) << close;
  EXPECT_NE(printed, format_number(just_above)) << close;
  EXPECT_EQ(load_error(with(good, [&](json& d) { d["integrator"] = {{"dt", 0.99 * limit}}; })), "");
  EXPECT_NE(load_error(with(good, [&](json& d) { d["integrator"] = {{"dt", 1.01 * limit}}; })), "");
  // a derived dt is checked too, and blamed on steps_per_collision
  const std::string derived = load_error(with(good, [](json& d) {
    d["integrator"] = {{"steps_per_collision", 2}};
  }));
  EXPECT_EQ(
      derived.rfind("cases/x.json: /integrator/steps_per_collision: 2 steps per collision", 0), 0u)
      << derived;
}

TEST(CaseErrors, Collision) {
  const json good = data("good_collision.json");
  const std::string f = "cases/x.json: ";
  EXPECT_EQ(load_error(good), "");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["disks"]["radius_b"] = 0.02; })),
            f + "/disks/radius_b: only for \"kind\": \"disk_disk\"");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["impact"]["u_n"] = 0; })),
            f + "/impact/u_n: must be > 0");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["kind"] = "wall"; })),
            f + "/kind: unknown collision kind \"wall\" (expected one of: disk_wall, disk_disk)");
  EXPECT_EQ(load_error(with(good, [](json& d) { d["contact"]["gamma_n"] = -1; })),
            f + "/contact/gamma_n: must be >= 0");
  EXPECT_EQ(load_error(with(good,
                            [](json& d) {
                              d["integrator"] = {{"dt", 1e-3}};
                            }))
                .rfind(f + "/integrator/dt: 0.001 s is too large for the stiffness", 0),
            0u);
}

TEST(CaseErrors, BadOverrides) {
  const json good = data("good_ensemble.json");
  EXPECT_EQ(load_error(good, {"drive/gamma=1"}),
            "--set drive/gamma=1: the pointer must start with \"/\" and name a key");
  EXPECT_EQ(load_error(good, {"/drive/gamma"}), "--set /drive/gamma: expected /json/pointer=value");
  EXPECT_EQ(load_error(good, {"/drive/gama=1"}),
            "cases/x.json: /drive/gama: unknown key (did you mean \"gamma\"?) (--set /drive/gama=1)");
  EXPECT_EQ(load_error(good, {"/nope/deeper=1"}),
            "cases/x.json: /nope: unknown key (--set /nope/deeper=1)");
  EXPECT_EQ(load_error(good, {"/drive/gamma=-2"}),
            "cases/x.json: /drive/gamma: must be >= 0 (--set /drive/gamma=-2)");
  EXPECT_EQ(load_error(good, {"/drive/frequency/x=1"}),
            "cases/x.json: /drive/frequency: is not an object or array, cannot hold \"x\" "
            "(--set /drive/frequency/x=1)");
  EXPECT_EQ(load_error(good, {"/packing/species/7/radius=1"}),
            "cases/x.json: /packing/species/7: no such array element (--set "
            "/packing/species/7/radius=1)");
  // a value that is not JSON is a string, so a number key rejects it
  EXPECT_EQ(load_error(good, {"/gravity=fast"}),
            "cases/x.json: /gravity: must be a number (--set /gravity=fast)");
  // optional sections can be created by --set
  EXPECT_EQ(load_error(good, {"/neighbor/skin=0.001"}), "");
}

TEST(CaseErrors, FileProblems) {
  const fs::path dir =
      fs::temp_directory_path() / ("granular_case_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string bad = (dir / "bad.json").string();
  std::ofstream(bad) << "{\n  \"model\": \"collision\",\n  \"kind\": x\n}\n";
  try {
    load_case(bad);
    ADD_FAILURE() << "no error";
  } catch (const CaseError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(bad + ": invalid JSON at line 3, column ", 0), 0u)
        << e.what();
  }
  const std::string missing = (dir / "missing.json").string();
  try {
    load_case(missing);
    ADD_FAILURE() << "no error";
  } catch (const CaseError& e) {
    EXPECT_EQ(std::string(e.what()), missing + ": cannot open: No such file or directory");
  }
  fs::remove_all(dir);

  try {
    load_case("tests/../does/not/exist.json");
    ADD_FAILURE() << "no error";
  } catch (const CaseError& e) {
    EXPECT_EQ(std::string(e.what()),
              "tests/../does/not/exist.json: cannot open: No such file or directory");
  }
}

// every case shipped in cases/ validates
TEST(CaseShipped, AllCasesLoad) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator(std::string(GRANULAR_SOURCE_DIR) + "/cases")) {
    if (entry.path().extension() != ".json") continue;
    ++n;
    EXPECT_NO_THROW(load_case(entry.path().string())) << entry.path();
  }
  EXPECT_GE(n, 7);
}

TEST(CaseShipped, ThesisCh6CollisionGivesAboutPointNine) {
  const LoadedCase lc =
      load_case(std::string(GRANULAR_SOURCE_DIR) + "/cases/collision_thesis_ch6.json");
  const auto& c = collision(lc);
  const double m = c.areal_density * kPi * c.radius_a * c.radius_a;
  EXPECT_NEAR(m, 4.5e-3, 0.02e-3);
  EXPECT_NEAR(linear_dashpot_restitution(c.contact.k_n, c.contact.gamma_n, m).e_n, 0.9, 0.005);
}

}  // namespace
}  // namespace granular::cases
