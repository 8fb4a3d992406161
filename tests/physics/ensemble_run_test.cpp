// Tests for md/ensemble/run.cpp and cases/packing_ensemble/run_md.cpp: a tiny vibrated ensemble (2
// Γ × 2 packings of 12 disks) runs through settle, transient and measurement, stays healthy, gives
// finite observables that do not depend on the thread count, and writes the documented outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "../support/run_context.hpp"
#include "../support/tiny_ensemble.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/ensemble/run.hpp"

namespace granular::md {
namespace {

constexpr int disks_per_packing = test::tiny_disks_per_packing;

EnsembleCase tiny_case() {
  return test::tiny_ensemble_case({0.3, 0.1, 0.2, 0.01});  // settle, transient, measure, sample [s]
}

TEST(EnsembleRun, TinyEnsembleIsHealthyAndFinite) {
  const EnsembleCase c = tiny_case();
  auto backend = make_cpu_backend(2);
  int energy_calls = 0, samples = 0;
  EnsembleObserver observer;
  observer.on_energy = [&](double, RunPhase, const std::vector<PackingEnergy>& e) {
    ASSERT_EQ(e.size(), 4u);
    for (const PackingEnergy& pe : e) EXPECT_TRUE(std::isfinite(pe.total()));
    ++energy_calls;
  };
  observer.on_sample = [&](double, const EnsembleModel&, const EnsembleState&) { ++samples; };
  std::ostringstream progress;
  EnsembleRunOptions options;
  options.on_progress = [&progress](const RunProgress& p) {
    progress << name_of(run_phase_names, p.phase) << " " << p.fraction << "\n";
  };
  const EnsembleResult r = run_ensemble(c, *backend, observer, options);

  // the schedule: 0.6 s in chunks of 1000 steps, θ sampled at 21 times
  EXPECT_EQ(r.sample_steps, 1000);
  EXPECT_EQ(r.steps, 60000);
  EXPECT_EQ(samples, 21);
  EXPECT_EQ(energy_calls, 61);
  EXPECT_DOUBLE_EQ(r.particle_steps, 4.0 * disks_per_packing * 60000);
  EXPECT_GT(r.particle_steps_per_s, 0.0);
  EXPECT_NE(progress.str().find("measure"), std::string::npos);

  // every packing healthy, every observable finite and in range
  ASSERT_EQ(r.packings.size(), 4u);
  for (const PackingResult& p : r.packings) {
    EXPECT_EQ(p.status, status_ok) << status_name(p.status);
    ASSERT_EQ(p.omega_bar.size(), static_cast<std::size_t>(disks_per_packing));
    for (int i = 0; i < disks_per_packing; ++i) {
      EXPECT_TRUE(std::isfinite(p.omega_bar[i]));
      EXPECT_GE(p.rho2[i], 0.0);
      EXPECT_LE(p.rho2[i], 1.0);
      EXPECT_GE(p.sigma_a[i], 0.0);
      EXPECT_LE(p.sigma_a[i], 1.0);
    }
  }
  ASSERT_EQ(r.gammas.size(), 2u);
  for (const GammaStats& g : r.gammas) {
    EXPECT_EQ(g.healthy_packings, 2);
    EXPECT_EQ(g.disks, 2 * disks_per_packing);
    EXPECT_TRUE(std::isfinite(g.mean_sq_omega));
    EXPECT_GE(g.mean_sq_omega, 0.0);
    EXPECT_NEAR(g.mean_sq_omega_rpm2, g.mean_sq_omega * 3600.0 / (4.0 * M_PI * M_PI), 1e-9);
    EXPECT_TRUE(std::isfinite(g.mean_sq_omega_stderr));
  }
}

TEST(EnsembleRun, ResultsDoNotDependOnThreadCount) {
  EnsembleCase c = tiny_case();
  c.schedule = {0.1, 0.05, 0.05, 0.01};
  auto one = make_cpu_backend(1);
  auto two = make_cpu_backend(2);
  const EnsembleResult a = run_ensemble(c, *one);
  const EnsembleResult b = run_ensemble(c, *two);
  for (std::size_t p = 0; p < a.packings.size(); ++p) {
    EXPECT_EQ(a.packings[p].omega_bar, b.packings[p].omega_bar);
  }
}

// A backend that keeps the state it advances to itself until download(), as the CUDA backend
// does: the host's arrays go stale (poisoned here) between advance_resident and download.
class LazyBackend final : public Backend {
 public:
  void initialize(const EnsembleModel& m, EnsembleState& s) override { cpu_->initialize(m, s); }
  void advance(const EnsembleModel& m, EnsembleState& s, std::int64_t steps) override {
    advance_resident(m, s, steps);
    download(s, Download::everything);
  }
  void advance_resident(const EnsembleModel& m, EnsembleState& s, std::int64_t steps) override {
    if (!own_) own_ = s;
    cpu_->advance(m, *own_, steps);
    s.step += steps;
    // whoever reads now reads garbage
    for (auto* a : {&s.x, &s.y, &s.theta, &s.vx, &s.vy, &s.omega, &s.ax, &s.gear_high}) {
      for (double& v : *a) v = std::nan("");
    }
  }
  void download(EnsembleState& s, Download what) override {
    if (!own_) return;
    if (what == Download::everything) {
      s = *own_;
      return;
    }
    // what the observers read, and nothing else
    s.x = own_->x;
    s.y = own_->y;
    s.theta = own_->theta;
    s.vx = own_->vx;
    s.vy = own_->vy;
    s.omega = own_->omega;
    s.contacts = own_->contacts;
    s.walls = own_->walls;
    s.status = own_->status;
  }
  std::string name() const override { return "cpu"; }

 private:
  std::unique_ptr<Backend> cpu_ = make_cpu_backend(1);
  std::optional<EnsembleState> own_;
};

// The run downloads before every observer call, checkpoint and return: with a backend that
// keeps its state to itself it gives the CPU's observables and energies bitwise.
TEST(EnsembleRun, ReadsTheStateOnlyAfterADownload) {
  EnsembleCase c = tiny_case();
  c.schedule = {0.05, 0.03, 0.05, 0.01};
  std::vector<double> energies[2];
  EnsembleResult results[2];
  for (int lazy = 0; lazy < 2; ++lazy) {
    std::unique_ptr<Backend> backend =
        lazy ? std::unique_ptr<Backend>(new LazyBackend) : make_cpu_backend(1);
    EnsembleObserver observer;
    observer.on_energy = [&](double, RunPhase, const std::vector<PackingEnergy>& e) {
      for (const PackingEnergy& pe : e) energies[lazy].push_back(pe.total());
    };
    EnsembleRunOptions options;
    options.control.slice_steps = 300;  // several slices per chunk of 1 000 steps
    results[lazy] = run_ensemble(c, *backend, observer, options);
  }
  EXPECT_EQ(energies[1], energies[0]);
  for (std::size_t p = 0; p < results[0].packings.size(); ++p) {
    EXPECT_EQ(results[1].packings[p].omega_bar, results[0].packings[p].omega_bar);
  }
  EXPECT_EQ(results[1].particle_steps, results[0].particle_steps);
}

// A case of three packings of two free disks, for average_by_gamma.
EnsembleCase three_pairs() {
  EnsembleCase c;
  c.gamma_values = {1.0};
  c.packings_per_gamma = 3;
  for (int p = 0; p < 3; ++p) c.model.add_packing(PackingParams{}, {0.01, 0.01}, c.areal_density);
  return c;
}

TEST(EnsembleRun, AveragesSkipUnhealthyPackings) {
  const EnsembleCase c = three_pairs();
  const std::vector<PackingResult> packings = {
      {0, 0, 1.0, 1, status_ok, {1.0, 3.0}, {0.5, 1.0}, {0.2, 0.4}},
      {1, 0, 1.0, 2, status_non_finite, {100.0, 100.0}, {0.0, 0.0}, {1.0, 1.0}},
      {2, 0, 1.0, 3, status_ok, {2.0, 0.0}, {0.0, 0.5}, {0.6, 0.8}},
  };
  const GammaStats g = average_by_gamma(c, packings).at(0);
  EXPECT_EQ(g.healthy_packings, 2);
  EXPECT_EQ(g.disks, 4);
  EXPECT_DOUBLE_EQ(g.mean_sq_omega, (1.0 + 9.0 + 4.0 + 0.0) / 4.0);
  EXPECT_DOUBLE_EQ(g.mean_rho2, 2.0 / 4.0);
  EXPECT_DOUBLE_EQ(g.mean_sigma_a, 2.0 / 4.0);
  // per-packing means 5 and 2: sample standard deviation 3/√2, over √2 packings
  EXPECT_NEAR(g.mean_sq_omega_stderr, 1.5, 1e-12);
}

// A prescribed disk (a bottom layer's, inv_inertia 0) turns as its drive says: it is no result.
TEST(EnsembleRun, AveragesSkipPrescribedDisks) {
  EnsembleCase c = three_pairs();
  c.model.inv_mass[5] = c.model.inv_inertia[5] = 0.0;  // packing 2's second disk
  const std::vector<PackingResult> packings = {
      {0, 0, 1.0, 1, status_ok, {1.0, 3.0}, {0.5, 1.0}, {0.2, 0.4}},
      {1, 0, 1.0, 2, status_ok, {1.0, 1.0}, {0.0, 0.0}, {1.0, 1.0}},
      {2, 0, 1.0, 3, status_ok, {2.0, 0.0}, {0.5, 0.0}, {0.6, 1.0}},
  };
  const GammaStats g = average_by_gamma(c, packings).at(0);
  EXPECT_EQ(g.healthy_packings, 3);
  EXPECT_EQ(g.disks, 5);
  EXPECT_DOUBLE_EQ(g.mean_sq_omega, (1.0 + 9.0 + 1.0 + 1.0 + 4.0) / 5.0);
  EXPECT_DOUBLE_EQ(g.mean_rho2, 2.0 / 5.0);
  // per-packing means over their free disks: 5, 1, 4
  EXPECT_NEAR(g.mean_sq_omega_stderr, std::sqrt(13.0 / 9.0), 1e-12);
}

TEST(EnsembleRun, StatusNames) {
  EXPECT_EQ(status_name(status_ok), "ok");
  EXPECT_EQ(status_name(status_neighbor_overflow | status_non_finite),
            "neighbor_overflow,non_finite");
  EXPECT_EQ(status_name(status_contact_overflow), "contact_overflow");
}

TEST(EnsembleRun, RejectsInconsistentCase) {
  EnsembleCase c = tiny_case();
  c.packings_per_gamma = 3;
  auto backend = make_cpu_backend(1);
  EXPECT_THROW(run_ensemble(c, *backend), std::invalid_argument);
}

TEST(EnsembleRun, RunEnsembleCaseWritesDocumentedOutputs) {
  EnsembleCase c = tiny_case();
  c.schedule = {0.1, 0.05, 0.05, 0.01};
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / "granular_ensemble_run_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ostringstream progress;
  cases::run_packing_ensemble(
      c, test::run_context(dir, {{"model", "packing_ensemble"}, {"seed", 7}}, 2, progress));
  EXPECT_NE(progress.str().find("Gamma"), std::string::npos);

  // summary.json: the keys of docs/outputs.md
  std::ifstream in(dir / "summary.json");
  ASSERT_TRUE(in.good());
  const nlohmann::json j = nlohmann::json::parse(in);
  for (const char* key : {"model",
                          "granular_version",
                          "case",
                          "seed",
                          "gamma_values",
                          "packings_per_gamma",
                          "mean_sq_omega",
                          "mean_sq_omega_rpm2",
                          "mean_sq_omega_stderr",
                          "mean_rho2",
                          "mean_sigma_a",
                          "packings",
                          "dt",
                          "sample_interval",
                          "steps",
                          "particle_steps",
                          "wall_time_s",
                          "advance_time_s",
                          "particle_steps_per_s",
                          "threads",
                          "backend"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["model"], "packing_ensemble");
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_EQ(j["threads"], 2);
  ASSERT_EQ(j["mean_sq_omega"].size(), 2u);
  for (const auto& v : j["mean_sq_omega"]) EXPECT_GE(v.get<double>(), 0.0);
  ASSERT_EQ(j["packings"].size(), 4u);
  for (const auto& p : j["packings"]) {
    for (const char* key : {"index", "gamma", "seed", "status", "omega_bar", "rho2", "sigma_a"}) {
      EXPECT_TRUE(p.contains(key)) << key;
    }
    EXPECT_EQ(p["status"], "ok");
    EXPECT_EQ(p["omega_bar"].size(), static_cast<std::size_t>(disks_per_packing));
  }

  // the CSV files: headers and row counts
  const auto lines = [&](const char* name, std::string& header) {
    std::ifstream f(dir / name);
    std::getline(f, header);
    int n = 0;
    for (std::string line; std::getline(f, line);) ++n;
    return n;
  };
  std::string header;
  EXPECT_EQ(lines("energy.csv", header), 4 * 21);
  EXPECT_EQ(header,
            "t,packing,gamma,kinetic,rotational,gravitational,elastic,skin,total,disk_contacts,"
            "wall_contacts");
  // θ of the first packing of each Γ at 6 samples
  EXPECT_EQ(lines("angles.csv", header), 2 * disks_per_packing * 6);
  EXPECT_EQ(header, "t,gamma,packing,disk,theta");
  EXPECT_EQ(lines("disks.csv", header), 4 * disks_per_packing);
  EXPECT_EQ(header, "packing,gamma,disk,radius,omega_bar,rho2,sigma_a");
}

}  // namespace
}  // namespace granular::md
