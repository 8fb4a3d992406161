// Tests for md/observables.hpp: the online rotation statistics against closed forms and a
// two-pass computation on the same samples.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "granular/md/observables.hpp"

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
}  // namespace granular::md
