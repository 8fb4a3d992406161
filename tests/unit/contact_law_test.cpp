// Tests for include/granular/contact_law.hpp: the closed forms of one collision (spec §3.2–3.3),
// the cutoff of the normal force (eq. 4.2), the Coulomb cap of the skin (eq. 4.6) and the
// skin anchors.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "granular/contact_law.hpp"

namespace granular {
namespace {

const double pi = 3.141592653589793238462643383280;

// e_n as a function of c alone: m_eff = 1, k_n = 1, γ_n = 2c.
NormalRestitution restitution_of(double c) { return linear_dashpot_restitution(1.0, 2.0 * c, 1.0); }

// The thesis' three-branch form of (4.56), written out independently of the implementation.
double thesis_e_n(double c) {
  if (c < 1.0 / std::sqrt(2.0)) {
    const double s = std::sqrt(1.0 - c * c);
    return std::exp(-(c / s) * (pi - std::atan(2.0 * c * s / (1.0 - 2.0 * c * c))));
  }
  if (c <= 1.0) {
    const double s = std::sqrt(1.0 - c * c);
    return std::exp((c / s) * std::atan(2.0 * c * s / (1.0 - 2.0 * c * c)));
  }
  const double s = std::sqrt(c * c - 1.0);
  return std::exp(-(c / s) * std::log((c + s) / (c - s)));
}

TEST(ContactLawRestitution, MatchesThesisBranches) {
  for (double c : {0.01, 0.0346, 0.1, 0.3, 0.5, 0.7, 0.75, 0.9, 0.99, 1.5, 3.0, 10.0}) {
    EXPECT_NEAR(restitution_of(c).e_n, thesis_e_n(c), 1e-13) << "c = " << c;
  }
}

// e_n and t_c are continuous across the regime boundaries c = 1/√2 (sign change of
// ω_n² − β² in the arctan) and c = 1 (critical damping, its own branch).
TEST(ContactLawRestitution, ContinuousAcrossRegimeBoundaries) {
  for (double boundary : {1.0 / std::sqrt(2.0), 1.0}) {
    const NormalRestitution at = restitution_of(boundary);
    for (double offset : {1e-6, 1e-8, 1e-10, 1e-12}) {
      const NormalRestitution below = restitution_of(boundary - offset);
      const NormalRestitution above = restitution_of(boundary + offset);
      // e_n and t_c are smooth in c: differences of order offset (slope < 1 here)
      const double tol = 10.0 * offset + 1e-7;
      EXPECT_NEAR(below.e_n, at.e_n, tol) << boundary << " - " << offset;
      EXPECT_NEAR(above.e_n, at.e_n, tol) << boundary << " + " << offset;
      EXPECT_NEAR(below.t_c, at.t_c, tol) << boundary << " - " << offset;
      EXPECT_NEAR(above.t_c, at.t_c, tol) << boundary << " + " << offset;
    }
  }
  // critical damping: n ∝ (2 − βt) vanishes at t_c = 2/β, e_n = e^{−2}
  EXPECT_NEAR(restitution_of(1.0).e_n, std::exp(-2.0), 1e-15);
}

// Elastic limit: e_n → 1 − πc and t_c → π/ω0 as c → 0.
TEST(ContactLawRestitution, ElasticLimit) {
  for (double c : {1e-3, 1e-5, 1e-7}) {
    const NormalRestitution r = restitution_of(c);
    EXPECT_NEAR((1.0 - r.e_n) / (pi * c), 1.0, 3.0 * c);
    EXPECT_NEAR(r.t_c, pi, 3.0 * c);
  }
  EXPECT_EQ(restitution_of(0.0).e_n, 1.0);
}

// e_n = exp(−β t_c) in every regime (eq. 4.56), and n(t_c) = 0 on the underdamped trajectory
// (4.57): the collision ends when the force vanishes.
TEST(ContactLawRestitution, ExpIdentityAndForceZeroAtEnd) {
  const double k_n = 4.5e6;
  const double m = 4.5e-3;
  for (double c : {0.01, 0.0346, 0.1, 0.3, 0.5, 0.7, 0.9, 1.5, 3.0}) {
    const double gamma = 2.0 * c * std::sqrt(k_n * m);
    const NormalRestitution r = linear_dashpot_restitution(k_n, gamma, m);
    const double beta = gamma / (2.0 * m);
    EXPECT_NEAR(r.e_n, std::exp(-beta * r.t_c), 1e-15);
    if (c < 1.0) {
      const double omega_n = std::sqrt(k_n / m - beta * beta);
      const double n = gamma * omega_n * std::cos(omega_n * r.t_c) +
                       (k_n - gamma * gamma / (2.0 * m)) * std::sin(omega_n * r.t_c);
      EXPECT_NEAR(n / (gamma * omega_n + k_n), 0.0, 1e-12) << "c = " << c;
    }
  }
}

TEST(ContactLawRestitution, NaiveFormulaDiffers) {
  const double k_n = 1.0;
  const double m = 1.0;
  EXPECT_GT(linear_dashpot_restitution(k_n, 1.0, m).e_n - naive_restitution(k_n, 1.0, m), 0.1);
  EXPECT_TRUE(std::isnan(naive_restitution(k_n, 3.0, m)));
}

TEST(ContactLawRestitution, TangentialClosedForms) {
  EXPECT_EQ(effective_mass(2.0, INFINITY), 2.0);
  EXPECT_DOUBLE_EQ(effective_mass(2.0, 2.0), 1.0);
  EXPECT_DOUBLE_EQ(full_sliding_e_t(0.8, 0.1, 2.0), 1.0 - 3.0 * 0.1 * 1.8 / 2.0);
  // the corrected threshold: μ/κ for soft skins, 6μ − μ/κ for stiff ones (spec §3.3)
  EXPECT_DOUBLE_EQ(full_sliding_threshold(0.1, 0.1), 1.0);
  EXPECT_DOUBLE_EQ(full_sliding_threshold(0.1, 2.0), 0.6 - 0.05);
  EXPECT_DOUBLE_EQ(sticking_limit_e_t(1.0, 3.0, pi), -1.0);
}

// n = max(k_n δ + γ_n δ̇, 0): never attractive, and exactly the dashpot where positive.
TEST(ContactLawNormal, CutoffNeverNegative) {
  const ContactParams p = {4.5e6, 3.5e6, 9.84, 0.1};
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 10000; ++i) {
    const double overlap = 1e-4 * u(rng);
    const double rate = 10.0 * u(rng);
    const double raw = p.k_n * overlap + p.gamma_n * rate;
    const double n = normal_force(p, overlap, rate);
    EXPECT_GE(n, 0.0);
    EXPECT_EQ(n, raw > 0.0 ? raw : 0.0);
  }
}

// The Coulomb cap (eq. 4.6 and the reset recipe of spec §2.2): |k_t ξ| ≤ μ n always; a slip
// puts ξ exactly on ±μ n/k_t; within the cap ξ is unchanged.
TEST(ContactLawSkin, CapBoundsForce) {
  const ContactParams p = {1e4, 7.7e3, 0.5, 0.3};
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int slips = 0;
  for (int i = 0; i < 10000; ++i) {
    const double n = 2.0 * (u(rng) + 1.0) * (i % 10 == 0 ? 0.0 : 1.0);
    const double xi = 1e-4 * u(rng);
    const double capped = skin_cap(p, xi, n);
    const double limit = p.mu * n / p.k_t;
    EXPECT_LE(std::fabs(p.k_t * capped), p.mu * n * (1.0 + 1e-15));
    if (std::fabs(xi) > limit) {
      ++slips;
      EXPECT_NEAR(capped, xi > 0.0 ? limit : -limit, 5e-16 * limit);  // up to rounding
    } else {
      EXPECT_EQ(capped, xi);
    }
  }
  EXPECT_GT(slips, 1000);  // both branches were exercised
}

// A history anchored at the current coordinates with ξ gives back exactly ξ there.
TEST(ContactLawSkin, AnchorReproducesXi) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 1000; ++i) {
    const double theta_a = 1e3 * u(rng);
    const double theta_b = 1e3 * u(rng);
    const double angle = pi * u(rng);
    const Vec2 e = {std::cos(angle), std::sin(angle)};
    const double xi = 1e-5 * u(rng);
    const SkinHistory pair = skin_anchor_pair(theta_a, theta_b, e, xi);
    EXPECT_EQ(skin_turn(pair, e), 0.0);
    EXPECT_EQ(skin_xi_disk_disk(pair, 0.02, 0.015, theta_a, theta_b, 0.0), xi);
    const double s = u(rng);
    EXPECT_EQ(skin_xi_disk_wall(skin_anchor_wall(theta_a, s, xi), 0.02, theta_a, s), xi);
  }
}

// skin_turn is β − β* (eq. 4.5) without atan2 in the common case: it equals the wrapped
// difference of the two normals' angles, on the series branch and on the atan2 branch.
TEST(ContactLawSkin, TurnIsTheAngleBetweenNormals) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int series = 0;
  for (int i = 0; i < 4000; ++i) {
    const double beta0 = pi * u(rng);
    const double turn = (i % 2 == 0 ? 1e-3 : 2.0) * u(rng);  // small and large turns
    const SkinHistory h = skin_anchor_pair(0.0, 0.0, {std::cos(beta0), std::sin(beta0)}, 0.0);
    const Vec2 e = {std::cos(beta0 + turn), std::sin(beta0 + turn)};
    EXPECT_NEAR(skin_turn(h, e), turn, 1e-15 + 1e-14 * std::fabs(turn));
    series += std::fabs(turn) < skin_reanchor_turn ? 1 : 0;
  }
  EXPECT_GT(series, 1000);
}
}  // namespace
}  // namespace granular
