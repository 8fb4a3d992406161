// Tests for md/observables.hpp: the online rotation statistics against closed forms and a
// two-pass computation on the same samples.
#include "granular/md/observables.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "granular/md/frame.hpp"
#include "granular/md/packing.hpp"

namespace granular::md {
namespace {

// Two-pass ω̄, ρ², σ_ω̄ and σ_a of stored samples, straight from the definitions.
struct TwoPass {
  double omega_bar, rho2, sigma_omega, sigma_a;
};

TwoPass two_pass(const std::vector<double>& t, const std::vector<double>& theta) {
  const std::size_t n = t.size();
  double mt = 0.0, mth = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    mt += t[k];
    mth += theta[k];
  }
  mt /= n;
  mth /= n;
  double stt = 0.0, sthth = 0.0, stth = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    stt += (t[k] - mt) * (t[k] - mt);
    sthth += (theta[k] - mth) * (theta[k] - mth);
    stth += (t[k] - mt) * (theta[k] - mth);
  }
  std::vector<double> w;
  for (std::size_t k = 1; k < n; ++k) w.push_back((theta[k] - theta[k - 1]) / (t[k] - t[k - 1]));
  double mw = 0.0;
  for (double x : w) mw += x;
  mw /= w.size();
  double sw = 0.0;
  for (double x : w) sw += (x - mw) * (x - mw);
  const double sigma = std::sqrt(sw / w.size());
  const double omega_bar = (theta.back() - theta.front()) / (t.back() - t.front());
  return {omega_bar, stth * stth / (stt * sthth), sigma, sigma / (std::fabs(omega_bar) + sigma)};
}

RotationStats accumulate(const std::vector<double>& t, const std::vector<double>& theta) {
  RotationStats s;
  for (std::size_t k = 0; k < t.size(); ++k) add_sample(s, t[k], theta[k]);
  return s;
}

TEST(Observables, SteadyRotationIsExact) {
  const double omega = 2.7;
  std::vector<double> t, theta;
  // a late start and many turns: the accumulators work relative to the first sample
  for (int k = 0; k <= 5000; ++k) {
    t.push_back(1000.0 + 0.1 * k);
    theta.push_back(omega * t.back());
  }
  const RotationStats s = accumulate(t, theta);
  EXPECT_NEAR(mean_omega(s), omega, 1e-12 * omega);
  EXPECT_NEAR(rho2(s), 1.0, 1e-12);
  EXPECT_NEAR(sigma_a(s), 0.0, 1e-10);
}

TEST(Observables, SinusoidOnTopOfRotationMatchesContinuumR2) {
  // θ = ω t + a sin(k t) over whole periods of length P on [0, T]: with var t = T²/12,
  // cov(t, sin) = −1/k, var sin = 1/2, ρ² = (ωT²/12 − a/k)² / (T²/12 (ω²T²/12 + a²/2 − 2ωa/k))
  const double omega = 1.0, a = 2.0, period = 5.0, T = 10.0;
  const double k = 2.0 * M_PI / period;
  const int n = 200000;
  std::vector<double> t, theta;
  for (int i = 0; i <= n; ++i) {
    t.push_back(T * i / n);
    theta.push_back(omega * t.back() + a * std::sin(k * t.back()));
  }
  const double var_t = T * T / 12.0;
  const double cov = omega * var_t - a / k;
  const double var_theta = omega * omega * var_t + a * a / 2.0 - 2.0 * omega * a / k;
  const double expected = cov * cov / (var_t * var_theta);
  const RotationStats s = accumulate(t, theta);
  EXPECT_LT(expected, 0.8);
  EXPECT_NEAR(rho2(s), expected, 1e-4);
  EXPECT_NEAR(mean_omega(s), omega, 1e-9);
}

TEST(Observables, DriftFreeRandomWalkIsFluctuationDominated) {
  // driftless random walks: σ_a ≈ 1/(1 + |z|/√N) → 1. ρ² of a single walk is NOT ≈ 0 (the
  // spurious-regression R² of a random walk on time has a non-degenerate distribution with mean
  // ≈ 0.44); it stays far below the ρ² of a drifting walk
  std::mt19937_64 rng(12345);
  std::normal_distribution<double> step(0.0, 0.01);
  const int walks = 300, n = 1000;
  double mean_r2 = 0.0, mean_sa = 0.0, mean_r2_drift = 0.0;
  for (int w = 0; w < walks; ++w) {
    RotationStats free_walk, drifting;
    double theta = 0.0, theta_drift = 0.0;
    for (int k = 0; k <= n; ++k) {
      const double t = 0.5 * k;
      add_sample(free_walk, t, theta);
      add_sample(drifting, t, theta_drift);
      const double d = step(rng);
      theta += d;
      theta_drift += d + 0.01;
    }
    mean_r2 += rho2(free_walk) / walks;
    mean_sa += sigma_a(free_walk) / walks;
    mean_r2_drift += rho2(drifting) / walks;
  }
  EXPECT_GT(mean_r2, 0.3);
  EXPECT_LT(mean_r2, 0.6);
  EXPECT_GT(mean_sa, 0.95);
  EXPECT_GT(mean_r2_drift, 0.95);
}

TEST(Observables, OnlineMatchesTwoPass) {
  // uneven sampling times, a drift and noise, a large time offset
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> gap(0.05, 0.15);
  std::normal_distribution<double> noise(0.0, 0.3);
  std::vector<double> t, theta;
  double tt = 500.0, th = 123.0;
  for (int k = 0; k < 2000; ++k) {
    t.push_back(tt);
    theta.push_back(th);
    const double dt = gap(rng);
    tt += dt;
    th += 0.4 * dt + noise(rng) * std::sqrt(dt);
  }
  const TwoPass ref = two_pass(t, theta);
  const RotationStats s = accumulate(t, theta);
  EXPECT_NEAR(mean_omega(s), ref.omega_bar, 1e-12 * std::fabs(ref.omega_bar));
  EXPECT_NEAR(rho2(s), ref.rho2, 1e-12);
  EXPECT_NEAR(sigma_omega(s), ref.sigma_omega, 1e-12 * ref.sigma_omega);
  EXPECT_NEAR(sigma_a(s), ref.sigma_a, 1e-12);
}

TEST(Observables, DegenerateCases) {
  // fewer than two samples: undefined
  RotationStats s;
  EXPECT_TRUE(std::isnan(mean_omega(s)));
  add_sample(s, 1.0, 0.5);
  EXPECT_TRUE(std::isnan(rho2(s)));
  // a disk that never turned: ω̄ = 0, ρ² = 0, σ_a = 1 (the documented 0/0 choice)
  for (int k = 1; k < 10; ++k) add_sample(s, 1.0 + k, 0.5);
  EXPECT_EQ(mean_omega(s), 0.0);
  EXPECT_EQ(rho2(s), 0.0);
  EXPECT_EQ(sigma_a(s), 1.0);
}

}  // namespace
// packing_energy and packing_frame find the touching pairs of a large packing by a cell search
// (contact_candidates), not all pairs: every touching pair must be among the candidates, in
// canonical order, so that the energy sums the same terms in the same order, bitwise, as the
// all-pairs loop did; disks out of a grid's reach (NaN, 1e20 m away) still pair.
TEST(Observables, ContactCandidatesHoldEveryTouchingPairInCanonicalOrder) {
  EnsembleModel m;
  m.dt = 1e-5;
  m.neighbor.skin = 0.003;
  PackingParams pp{};
  pp.box_width = 0.4 * std::sqrt(1000.0 / 60.0);
  pp.gravity = 9.8;
  pp.disk_disk = {1e4, 7.7e3, 0.1, 0.1};
  pp.disk_wall = pp.disk_disk;
  std::vector<double> radii;
  for (int i = 0; i < 1000; ++i) radii.push_back(0.015 + 0.005 * (3 * i / 1000));
  m.add_packing(pp, radii, 3.57);
  // the bed squeezed by 2 % in height: most neighbors overlap
  PackingLayout layout = advancing_front(radii, pp.box_width, 5);
  for (double& y : layout.y) y *= 0.98;
  const EnsembleState s = make_state(m, layout.x, layout.y, 0.0);

  const std::vector<std::pair<int, int>> pairs = contact_candidates(m, s, 0);
  EXPECT_TRUE(std::is_sorted(pairs.begin(), pairs.end()));
  EXPECT_EQ(std::adjacent_find(pairs.begin(), pairs.end()), pairs.end());
  EXPECT_LT(pairs.size(), 20000u);  // not all 499 500

  // the all-pairs sum as packing_energy wrote it before
  PackingEnergy e{0.0, 0.0, 0.0, 0.0, 0.0, 0, 0};
  int touching = 0;
  ContactResult c{};
  for (int i = 0; i < 1000; ++i) {
    e.kinetic += 0.5 * m.mass[i] * (s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i]);
    e.rotational += 0.5 * m.inertia[i] * s.omega[i] * s.omega[i];
    e.gravitational += m.mass[i] * pp.gravity * (s.y[i] * 1.0 + s.x[i] * 0.0);
    const auto add = [&](const ContactParams& law, int& count) {
      e.elastic += 0.5 * law.k_n * c.overlap * c.overlap;
      e.skin += 0.5 * law.k_t * c.xi * c.xi;
      ++count;
    };
    for (int j = i + 1; j < 1000; ++j) {
      if (!disk_pair_contact(m, s, 0, i, j, c)) continue;
      add(pp.disk_disk, e.disk_contacts);
      ++touching;
      EXPECT_TRUE(std::binary_search(pairs.begin(), pairs.end(), std::make_pair(i, j)))
          << i << " " << j;
    }
    for (int w = 0; w < n_walls; ++w)
      if (box_wall_contact(m, s, 0, i, w, c)) add(pp.disk_wall, e.wall_contacts);
  }
  EXPECT_GT(touching, 1000);
  const PackingEnergy now = packing_energy(m, s, 0);
  EXPECT_EQ(now.elastic, e.elastic);
  EXPECT_EQ(now.skin, e.skin);
  EXPECT_EQ(now.disk_contacts, e.disk_contacts);
  EXPECT_EQ(now.wall_contacts, e.wall_contacts);
  EXPECT_EQ(packing_frame(m, s, 0).contacts.size(),
            static_cast<std::size_t>(e.disk_contacts + e.wall_contacts));

  // a non-finite centre pairs with every disk; two touching disks 1e20 m away pair
  EnsembleState broken = s;
  broken.x[10] = broken.y[10] = std::numeric_limits<double>::quiet_NaN();
  broken.x[20] = 1e20;
  broken.x[30] = 1e20 + 0.01;
  broken.y[20] = broken.y[30] = 0.5;
  const std::vector<std::pair<int, int>> loose = contact_candidates(m, broken, 0);
  for (int j = 0; j < 1000; ++j) {
    if (j == 10) continue;
    EXPECT_TRUE(std::binary_search(loose.begin(), loose.end(),
                                   std::make_pair(std::min(10, j), std::max(10, j))));
  }
  EXPECT_TRUE(disk_pair_contact(m, broken, 0, 20, 30, c));
  EXPECT_TRUE(std::binary_search(loose.begin(), loose.end(), std::make_pair(20, 30)));
}

}  // namespace granular::md
