// Tests for include/granular/impulse/routh.hpp: Routh's method with Poisson's restitution
// against hand-derived impulses of every case of docs/pendulum.md §2.5 (at the configuration
// of §6 case 3), the frictionless closed form, mirror symmetry and energy over random impacts.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "granular/contact_law.hpp"
#include "granular/impact/pendulum/dynamics.hpp"
#include "granular/impulse/routh.hpp"

namespace granular::impulse {
namespace {

constexpr double kPi = 3.141592653589793238462643383280;

// W at ψ1* = −16°, ψ2* = arccos((D − r − l1 cos ψ1*)/L), where f = 0 (spec §6 case 3).
Delassus spec_configuration() {
  const pendulum::Params p;
  const double psi1 = -16.0 * kPi / 180.0;
  const double psi2 = std::acos((p.D - p.r - p.l1 * std::cos(psi1)) / p.L());
  return pendulum::pendulum_delassus(p, psi1, psi2);
}

struct Expected {
  double p_n_compression, p_n, p_t, u_t;
};

void expect_impact(const RouthImpact& r, RouthCase label, const Expected& e, double c0, double s0,
                   const Delassus& w) {
  EXPECT_EQ(r.routh_case, label) << routh_case_name(r.routh_case);
  const double tol = 1e-12;
  EXPECT_NEAR(r.p_n_compression, e.p_n_compression, tol * std::fabs(e.p_n_compression) + tol);
  EXPECT_NEAR(r.p_n, e.p_n, tol * std::fabs(e.p_n) + tol);
  EXPECT_NEAR(r.p_t, e.p_t, tol * std::fabs(e.p_t) + tol);
  EXPECT_NEAR(r.u_t, e.u_t, 1e-12);
  // the final velocities follow from the impulses by (34)–(35)
  EXPECT_NEAR(r.u_n, c0 + w.w_nt * r.p_t + w.w_nn * r.p_n, 1e-12);
  if (r.routh_case != RouthCase::b && r.routh_case != RouthCase::d &&
      r.routh_case != RouthCase::start_stick) {
    EXPECT_NEAR(r.u_t, s0 + w.w_tt * r.p_t + w.w_nt * r.p_n, 1e-12);
  }
}

// sliding from the start: F̄m on the friction line T̄ = −μσF̄ (case a and the first segment of d, e)
double sliding_compression(const Delassus& w, double c0, double mu, double sigma) {
  return -c0 / (w.w_nn - mu * sigma * w.w_nt);
}

// the stick point F̄s = |s0|/(μα − σε) on the friction line (spec §2.5)
double stick_point(const Delassus& w, double s0, double mu) {
  const double sigma = s0 > 0.0 ? 1.0 : -1.0;
  return std::fabs(s0) / (mu * w.w_tt - sigma * w.w_nt);
}

TEST(Routh, FrictionlessImpactIsTheClosedForm) {
  const Delassus w = spec_configuration();
  for (double k : {0.0, 0.5, 0.9, 1.0}) {
    const double s0 = 1.0, c0 = -2.0;
    const RouthImpact r = routh_poisson_impact(w, c0, s0, k, 0.0);
    EXPECT_EQ(r.routh_case, RouthCase::smooth);
    EXPECT_NEAR(r.p_n, -(1.0 + k) * c0 / w.w_nn, 1e-12);  // F̄ = −(1 + k)c0/γ
    EXPECT_EQ(r.p_t, 0.0);
    EXPECT_NEAR(r.u_n, -k * c0, 1e-12);
    EXPECT_NEAR(r.u_t, s0 + w.w_nt * r.p_n, 1e-12);
    EXPECT_NEAR(r.work, -0.5 * (1.0 - k * k) * c0 * c0 / w.w_nn, 1e-12);
  }
}

TEST(Routh, CaseA_SlidesThroughout) {
  const Delassus w = spec_configuration();
  const double s0 = 3.0, c0 = -1.0, mu = 0.15, k = 0.9;
  const double fm = sliding_compression(w, c0, mu, 1.0);
  const double ff = (1.0 + k) * fm;
  const RouthImpact r = routh_poisson_impact(w, c0, s0, k, mu);
  expect_impact(r, RouthCase::a, {fm, ff, -mu * ff, s0 - w.w_tt * mu * ff + w.w_nt * ff}, c0, s0,
                w);
  EXPECT_GT(r.u_t, 0.0);
  EXPECT_NEAR(r.u_n, -k * c0, 1e-12);  // one slope across F̄m
}

TEST(Routh, CaseB_SticksDuringCompression) {
  const Delassus w = spec_configuration();
  const double s0 = 1.0, c0 = -2.0, mu = 1.0, k = 0.9;
  const double a = w.w_tt, e = w.w_nt, g = w.w_nn;
  ASSERT_GE(mu, std::fabs(e) / a);
  const double fm = (e * s0 - a * c0) / (a * g - e * e);
  const double ff = (1.0 + k) * fm;
  const RouthImpact r = routh_poisson_impact(w, c0, s0, k, mu);
  expect_impact(r, RouthCase::b, {fm, ff, -(s0 + e * ff) / a, 0.0}, c0, s0, w);
  EXPECT_LT(stick_point(w, s0, mu), fm);
  EXPECT_NEAR(r.p_n_stick, stick_point(w, s0, mu), 1e-12);
}

TEST(Routh, CaseC_ReversesDuringCompression) {
  const Delassus w = spec_configuration();
  const double s0 = 0.5, c0 = -1.0, mu = 0.3, k = 0.9;
  const double e = w.w_nt, g = w.w_nn, a = w.w_tt;
  ASSERT_LT(mu, std::fabs(e) / a);
  // to the stick point on T̄ = −μF̄, then on T̄ = T̄s + μ(F̄ − F̄s)
  const double fs = stick_point(w, s0, mu), ts = -mu * fs;
  const double cs = c0 + e * ts + g * fs;
  ASSERT_LT(cs, 0.0);
  const double fm = fs - cs / (g + e * mu);
  const double ff = (1.0 + k) * fm;
  const double tf = ts + mu * (ff - fs);
  const RouthImpact r = routh_poisson_impact(w, c0, s0, k, mu);
  expect_impact(r, RouthCase::c, {fm, ff, tf, s0 + a * tf + e * ff}, c0, s0, w);
  EXPECT_LT(r.u_t, 0.0);  // reversed
}

TEST(Routh, CaseD_SticksDuringRestitution) {
  const Delassus w = spec_configuration();
  const double s0 = 1.0, c0 = -1.0, mu = 0.8, k = 0.9;
  const double fm = sliding_compression(w, c0, mu, 1.0);
  const double ff = (1.0 + k) * fm;
  const double fs = stick_point(w, s0, mu);
  ASSERT_GT(fs, fm);
  ASSERT_LT(fs, ff);
  const RouthImpact r = routh_poisson_impact(w, c0, s0, k, mu);
  expect_impact(r, RouthCase::d, {fm, ff, -(s0 + w.w_nt * ff) / w.w_tt, 0.0}, c0, s0, w);
}

TEST(Routh, CaseE_ReversesDuringRestitution) {
  const Delassus w = spec_configuration();
  const double s0 = 0.8, c0 = -1.0, mu = 0.3, k = 0.9;
  const double fm = sliding_compression(w, c0, mu, 1.0);
  const double ff = (1.0 + k) * fm;
  const double fs = stick_point(w, s0, mu);
  ASSERT_GT(fs, fm);
  ASSERT_LT(fs, ff);
  const double tf = -mu * fs + mu * (ff - fs);
  const RouthImpact r = routh_poisson_impact(w, c0, s0, k, mu);
  expect_impact(r, RouthCase::e, {fm, ff, tf, s0 + w.w_tt * tf + w.w_nt * ff}, c0, s0, w);
  EXPECT_LT(r.u_t, 0.0);
}

TEST(Routh, StartingAtZeroSlip) {
  const Delassus w = spec_configuration();
  const double a = w.w_tt, e = w.w_nt, g = w.w_nn, c0 = -1.0, k = 0.9;
  // sticking from the start: the path is the sticking line through the origin
  const double fm_stick = -a * c0 / (a * g - e * e);
  const RouthImpact stick = routh_poisson_impact(w, c0, 0.0, k, 1.0);
  expect_impact(stick, RouthCase::start_stick,
                {fm_stick, (1.0 + k) * fm_stick, -e * (1.0 + k) * fm_stick / a, 0.0}, c0, 0.0, w);
  // sliding from the start with sgn(s) = sgn(ε)
  const double mu = 0.3, lambda = e > 0.0 ? -mu : mu;
  const double fm_slide = -c0 / (g + e * lambda);
  const RouthImpact slide = routh_poisson_impact(w, c0, 0.0, k, mu);
  const double ff = (1.0 + k) * fm_slide;
  expect_impact(slide, RouthCase::start_slide, {fm_slide, ff, lambda * ff, (a * lambda + e) * ff},
                c0, 0.0, w);
  EXPECT_GT(slide.u_t * e, 0.0);
}

TEST(Routh, PlasticImpactEndsAtMaximumCompression) {
  const Delassus w = spec_configuration();
  const double s0 = 3.0, c0 = -1.0, mu = 0.15;
  const RouthImpact r = routh_poisson_impact(w, c0, s0, 0.0, mu);
  EXPECT_EQ(r.routh_case, RouthCase::a);
  EXPECT_EQ(r.p_n, r.p_n_compression);
  EXPECT_EQ(r.u_n, 0.0);
  EXPECT_NEAR(r.p_n, sliding_compression(w, c0, mu, 1.0), 1e-12);
}

TEST(Routh, NoImpulseWithoutApproach) {
  const Delassus w = spec_configuration();
  for (double c0 : {0.0, 0.3}) {
    const RouthImpact r = routh_poisson_impact(w, c0, 1.0, 0.9, 0.2);
    EXPECT_EQ(r.routh_case, RouthCase::not_an_impact);
    EXPECT_EQ(r.p_n, 0.0);
    EXPECT_EQ(r.p_t, 0.0);
  }
}

// a random symmetric positive definite W (with either sign of ε) and an approach
struct RandomImpact {
  Delassus w;
  double c0, s0, k, mu;
};

RandomImpact random_impact(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double a = 0.05 + 2.0 * u(rng), g = 0.05 + 2.0 * u(rng);
  const double e = (2.0 * u(rng) - 1.0) * 0.999 * std::sqrt(a * g);
  RandomImpact x{{g, e, a}, -(0.01 + 3.0 * u(rng)), 6.0 * u(rng) - 3.0, u(rng), u(rng)};
  if (u(rng) < 0.1) x.s0 = 0.0;
  if (u(rng) < 0.1) x.mu = 0.0;
  if (u(rng) < 0.1) x.k = u(rng) < 0.5 ? 0.0 : 1.0;
  return x;
}

// (s0, ε) → (−s0, −ε) mirrors the path: T̄ → −T̄, s_f → −s_f, the same F̄, bit for bit
TEST(Routh, MirrorSymmetryIsBitExact) {
  std::mt19937_64 rng(20170511);
  for (int i = 0; i < 5000; ++i) {
    const RandomImpact x = random_impact(rng);
    const RouthImpact r = routh_poisson_impact(x.w, x.c0, x.s0, x.k, x.mu);
    const Delassus m{x.w.w_nn, -x.w.w_nt, x.w.w_tt};
    const RouthImpact q = routh_poisson_impact(m, x.c0, -x.s0, x.k, x.mu);
    ASSERT_EQ(q.p_n, r.p_n);
    ASSERT_EQ(q.p_t, -r.p_t);
    ASSERT_EQ(q.u_n, r.u_n);
    ASSERT_EQ(q.u_t, -r.u_t);
    ASSERT_EQ(q.routh_case, r.routh_case);
  }
}

// over random impacts: no energy gain; the path work equals ΔKE = P·u0 + ½PᵀWP; Coulomb's cone
// holds; the contact separates (c_f ≥ 0) and every case occurs
TEST(Routh, NeverGainsEnergyOverRandomImpacts) {
  std::mt19937_64 rng(42);
  int seen[10] = {};
  for (int i = 0; i < 20000; ++i) {
    const RandomImpact x = random_impact(rng);
    const RouthImpact r = routh_poisson_impact(x.w, x.c0, x.s0, x.k, x.mu);
    ASSERT_NE(r.routh_case, RouthCase::failed);
    ++seen[static_cast<int>(r.routh_case)];
    const double dke = r.p_n * x.c0 + r.p_t * x.s0 +
                       0.5 * (x.w.w_nn * r.p_n * r.p_n + 2.0 * x.w.w_nt * r.p_n * r.p_t +
                              x.w.w_tt * r.p_t * r.p_t);
    // nearly singular W give large impulses: the round-off scales with them
    const double scale = x.c0 * x.c0 / x.w.w_nn + x.s0 * x.s0 / x.w.w_tt + std::fabs(r.p_n * x.c0) +
                         std::fabs(r.p_t * x.s0);
    ASSERT_LE(r.work, 1e-12 * scale) << i;
    ASSERT_NEAR(r.work, dke, 1e-11 * scale) << i;
    ASSERT_LE(std::fabs(r.p_t), x.mu * r.p_n * (1.0 + 1e-12) + 1e-15) << i;
    ASSERT_GE(r.u_n, -1e-12) << i;
    ASSERT_GE(r.p_n, 0.0);
  }
  for (RouthCase c : {RouthCase::smooth, RouthCase::a, RouthCase::b, RouthCase::c, RouthCase::d,
                      RouthCase::e, RouthCase::start_stick, RouthCase::start_slide})
    EXPECT_GT(seen[static_cast<int>(c)], 0) << routh_case_name(c);
}

}  // namespace
}  // namespace granular::impulse
