// The event-driven ensemble run (docs/ed.md): the same bits for any thread count and any
// ensemble size (packing r of a 3-packing run is packing r of a 1-packing run with the same
// seed, and of a Γ sweep), and observables of the MD run's kind from the same packings.
#include "granular/md/ed/ensemble.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace granular::md::ed {
namespace {

// The thesis' 60-disk packings (20 each of R = 1.5, 2, 2.5 cm) at kn = 1e4 (ch. 3 set), a
// short run: 0.2 s transient, 0.3 s measured.
EnsembleCase thesis_case(const std::vector<double>& gammas, int per_gamma) {
  EnsembleCase c;
  c.areal_density = 3.57;
  c.gamma_values = gammas;
  c.packings_per_gamma = per_gamma;
  c.schedule = {0.0, 0.2, 0.3, 0.05};
  std::vector<double> radii;
  for (double r : {0.015, 0.02, 0.025}) radii.insert(radii.end(), 20, r);
  for (double gamma : gammas) {
    PackingParams p{};
    p.box_width = 0.4;
    p.gravity = 9.8;
    p.drive_omega = 2.0 * M_PI * 80.0;
    p.drive_amplitude = drive_amplitude(gamma, p.gravity, p.drive_omega);
    p.gamma = gamma;
    p.disk_disk = {1e4, 7.7e3, 0.1, 0.1};
    p.disk_wall = p.disk_disk;
    for (int r = 0; r < per_gamma; ++r) {
      p.seed = packing_seed(1, static_cast<std::uint64_t>(r));
      c.model.add_packing(p, radii, c.areal_density);
    }
  }
  return c;
}

void expect_same_packing(const EdResult& a, int pa, const EdResult& b, int pb) {
  const PackingResult& x = a.ensemble.packings[pa];
  const PackingResult& y = b.ensemble.packings[pb];
  EXPECT_EQ(x.seed, y.seed);
  EXPECT_EQ(x.status, y.status);
  EXPECT_EQ(a.counts[pa].total(), b.counts[pb].total());
  EXPECT_EQ(a.counts[pa].rejections, b.counts[pb].rejections);
  ASSERT_EQ(x.omega_bar.size(), y.omega_bar.size());
  for (std::size_t i = 0; i < x.omega_bar.size(); ++i) {
    EXPECT_EQ(x.omega_bar[i], y.omega_bar[i]) << i;  // bitwise
    EXPECT_EQ(x.rho2[i], y.rho2[i]) << i;
    EXPECT_EQ(x.sigma_a[i], y.sigma_a[i]) << i;
  }
}

TEST(EdEnsemble, ResultsAreTheSameBitsForAnyThreadCountAndEnsembleSize) {
  EdOptions o;
  o.tangential = TangentialRule::large_kappa;  // the tables are tested elsewhere; this is cheaper
  const EnsembleCase three = thesis_case({3.0}, 3);
  const EdResult one_thread = run_ensemble_ed(three, o, 1);
  const EdResult two_threads = run_ensemble_ed(three, o, 2);
  for (int p = 0; p < 3; ++p) expect_same_packing(one_thread, p, two_threads, p);
  EXPECT_EQ(one_thread.ensemble.gammas[0].mean_sq_omega,
            two_threads.ensemble.gammas[0].mean_sq_omega);

  // packing 0 alone, and packing 1 of a Γ sweep's second Γ
  const EdResult alone = run_ensemble_ed(thesis_case({3.0}, 1), o, 2);
  expect_same_packing(one_thread, 0, alone, 0);
  const EdResult sweep = run_ensemble_ed(thesis_case({2.0, 3.0}, 2), o, 2);
  expect_same_packing(one_thread, 1, sweep, 3);

  // the packings were driven: every disk collided many times and none collapsed
  for (int p = 0; p < 3; ++p) {
    EXPECT_EQ(one_thread.ensemble.packings[p].status, 0u);
    EXPECT_GT(one_thread.counts[p].disk_disk, 60 * 50);
    EXPECT_GT(one_thread.counts[p].bottom, 100);
  }
  // θ was sampled at t = 0.2, 0.25, …, 0.5 (7 samples) into the MD run's accumulators
  const RotationStats& s = one_thread.ensemble.rotation[0];
  EXPECT_EQ(s.count, 7);
  EXPECT_DOUBLE_EQ(s.t_first, 0.2);
  EXPECT_DOUBLE_EQ(s.t_last, 0.5);
  EXPECT_GT(one_thread.ensemble.gammas[0].mean_sq_omega, 0.0);
}

TEST(EdEnsemble, TheRunStartsFromTheMdLayoutLifted) {
  const std::vector<double> radii(30, 0.02);
  const PackingLayout layout = advancing_front(radii, 0.3, 5);
  const std::vector<DiskSnapshot> start = lifted_start(layout, 0.01);
  ASSERT_EQ(start.size(), radii.size());
  for (std::size_t i = 0; i < start.size(); ++i) {
    EXPECT_EQ(start[i].x, layout.x[i]);
    EXPECT_DOUBLE_EQ(start[i].y, 1.01 * layout.y[i]);
    EXPECT_EQ(start[i].vx, 0.0);
    EXPECT_EQ(start[i].omega, 0.0);
    // no two disks overlap: stacked ones open a gap, side-by-side ones stay at contact
    for (std::size_t j = 0; j < i; ++j) {
      const double d = std::hypot(start[i].x - start[j].x, start[i].y - start[j].y);
      EXPECT_GT(d, 0.04 * (1.0 - 1e-12));
    }
  }
}

}  // namespace
}  // namespace granular::md::ed
