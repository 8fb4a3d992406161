// The randomly vibrated bottom layer (md/bottom_layer.hpp, thesis §1.3): the disks resting on
// the floor of each packing's bed become prescribed bodies that vibrate about their places with
// the random vibration's statistics; the rest are free, and only they enter the averages; a
// shard's model carries its packings' layers (EnsembleModel::add_packing_of).
#include "granular/md/bottom_layer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "../support/tiny_ensemble.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/ensemble/run.hpp"
#include "granular/md/packing.hpp"

namespace granular::md {
namespace {

constexpr double omega_b = 2.0 * M_PI * 80.0;

// The tiny ensemble with a random layer of RMS A_b = Γ g / ω² on a resting floor.
EnsembleCase layered_case(const RunSchedule& schedule) {
  const EnsembleCase tiny = test::tiny_ensemble_case(schedule);
  EnsembleCase c = tiny;
  c.model = EnsembleModel{};
  c.model.integrator = tiny.model.integrator;
  c.model.dt = tiny.model.dt;
  c.model.neighbor = tiny.model.neighbor;
  for (int p = 0; p < tiny.model.n_packings(); ++p) {
    PackingParams pp = tiny.model.packings[p];
    const double amplitude = pp.drive_amplitude;
    pp.drive_amplitude = 0.0;
    const std::vector<double> radii(tiny.model.radius.begin() + tiny.model.offset[p],
                                    tiny.model.radius.begin() + tiny.model.offset[p + 1]);
    c.model.add_packing(pp, radii, c.areal_density);
    add_random_bottom_layer(c.model, {amplitude, omega_b, 0.5});
  }
  return c;
}

bool prescribed(const EnsembleModel& m, int i) { return m.inv_inertia[i] == 0.0; }

TEST(BottomLayer, IsTheBedsFloorRowInItsPlaces) {
  const EnsembleCase c = layered_case({0.1, 0.1, 0.1, 0.01});
  const EnsembleModel& m = c.model;
  for (int p = 0; p < m.n_packings(); ++p) {
    const PackingParams& pp = m.packings[p];
    const std::vector<double> radii(m.radius.begin() + m.offset[p],
                                    m.radius.begin() + m.offset[p + 1]);
    const PackingLayout bed = build_bed(radii, pp.box_width, pp.seed);
    int on_floor = 0;
    for (std::size_t k = 0; k < radii.size(); ++k) {
      const int i = m.offset[p] + static_cast<int>(k);
      const bool floor = std::fabs(bed.y[k] - radii[k]) < 1e-12;
      on_floor += floor ? 1 : 0;
      EXPECT_EQ(prescribed(m, i), floor) << p << " " << k;
      EXPECT_EQ(m.inv_mass[i] == 0.0, floor) << p << " " << k;
    }
    // the floor row of a 15 cm box of 3–5 cm disks: a few disks, not all
    EXPECT_GE(on_floor, 2) << p;
    EXPECT_LT(on_floor, m.packing_size(p)) << p;
    ASSERT_EQ(pp.body_count, on_floor);
    for (int b = pp.body_first; b < pp.body_first + pp.body_count; ++b) {
      const Body& body = m.bodies[b];
      const int k = body.disk - m.offset[p];
      EXPECT_EQ(body.x0, bed.x[k]);
      EXPECT_EQ(body.y0, bed.y[k]);
      EXPECT_EQ(body.axis[0].drive, AxisDrive::random);
      EXPECT_EQ(body.axis[1].drive, AxisDrive::random);
      EXPECT_EQ(body.axis[2].drive, AxisDrive::fixed);  // θ stays put
      EXPECT_EQ(body.axis[0].amplitude, pp.gamma * pp.gravity / (omega_b * omega_b));
    }
  }
}

// Over a run the layer's disks deviate from their places by A_b RMS in x and y (thesis §5.3.1;
// from rest, 1 s ≫ the correlation time 1/(c ω_b) = 4 ms), never turn, and drop out of the
// averages, which the free disks alone make.
TEST(BottomLayer, VibratesAboutItsPlacesAndLeavesTheAveragesToTheFreeDisks) {
  const EnsembleCase c = layered_case({0.2, 0.1, 1.0, 0.002});
  const EnsembleModel& m = c.model;
  auto backend = make_cpu_backend(2);
  double sum_x2 = 0.0, sum_y2 = 0.0, sum_a2 = 0.0;
  long long n = 0;
  EnsembleObserver observer;
  observer.on_sample = [&](double, const EnsembleModel&, const EnsembleState& s) {
    for (const Body& b : m.bodies) {
      const double a = b.axis[0].amplitude;
      sum_x2 += (s.x[b.disk] - b.x0) * (s.x[b.disk] - b.x0);
      sum_y2 += (s.y[b.disk] - b.y0) * (s.y[b.disk] - b.y0);
      sum_a2 += a * a;
      ++n;
      EXPECT_EQ(s.theta[b.disk], 0.0);
    }
  };
  const EnsembleResult r = run_ensemble(c, *backend, observer);
  ASSERT_GT(n, 0);
  // 500 samples of each disk, correlated over ~2 samples: the mean square within 15 %
  EXPECT_NEAR(sum_x2 / sum_a2, 1.0, 0.15);
  EXPECT_NEAR(sum_y2 / sum_a2, 1.0, 0.15);

  for (std::size_t g = 0; g < r.gammas.size(); ++g) {
    int free_disks = 0;
    double sum_sq = 0.0;
    for (const PackingResult& p : r.packings) {
      if (p.gamma_index != static_cast<int>(g)) continue;
      ASSERT_EQ(p.status, status_ok);
      for (std::size_t k = 0; k < p.omega_bar.size(); ++k) {
        if (prescribed(m, m.offset[p.index] + static_cast<int>(k))) {
          EXPECT_EQ(p.omega_bar[k], 0.0);
          continue;
        }
        ++free_disks;
        sum_sq += p.omega_bar[k] * p.omega_bar[k];
      }
    }
    EXPECT_EQ(r.gammas[g].disks, free_disks);
    EXPECT_DOUBLE_EQ(r.gammas[g].mean_sq_omega, sum_sq / free_disks);
    EXPECT_GT(r.gammas[g].mean_sq_omega, 0.0);  // the layer moves the disks above it
  }
}

// A shard's model (add_packing_of) holds the same packings, layers included: its run gives the
// whole run's bits for its packings.
TEST(BottomLayer, AShardCarriesItsPackingsLayers) {
  const EnsembleCase whole = layered_case({0.05, 0.05, 0.1, 0.01});
  EnsembleCase shard = whole;
  shard.model = EnsembleModel{};
  shard.model.integrator = whole.model.integrator;
  shard.model.dt = whole.model.dt;
  shard.model.neighbor = whole.model.neighbor;
  shard.packings_per_gamma = 1;
  const int picked[] = {1, 3};  // packing 1 of each Γ
  for (int p : picked) shard.model.add_packing_of(whole.model, p, whole.areal_density);
  ASSERT_EQ(shard.model.bodies.size(),
            static_cast<std::size_t>(whole.model.packings[1].body_count +
                                     whole.model.packings[3].body_count));
  auto backend = make_cpu_backend(1);
  const EnsembleResult a = run_ensemble(whole, *backend);
  const EnsembleResult b = run_ensemble(shard, *backend);
  for (int q = 0; q < 2; ++q) {
    const PackingResult& x = a.packings[picked[q]];
    const PackingResult& y = b.packings[q];
    EXPECT_EQ(x.omega_bar, y.omega_bar) << q;
    EXPECT_EQ(x.rho2, y.rho2) << q;
  }
}

}  // namespace
}  // namespace granular::md
