// Tests for src/impact/dimer.cpp and dimer_model.cpp: the contact phases of a flat dimer on
// the vibrating plate (spec dimer.md §6, grade A 7) and short runs of the paper's drift
// (grade B 9–10, signs only).
#include <cmath>

#include <gtest/gtest.h>

#include "granular/impact/dimer.hpp"

namespace granular::impact {
namespace {

constexpr double kPi = 3.141592653589793;

DimerParams plate_dimer(double aspect_ratio, double frequency, double gamma) {
  DimerParams p;
  p.m_b = 3.5e-3;
  p.r = 4.75e-3;
  p.l = 2.0 * (aspect_ratio - 1.0) * p.r;
  p.omega = 2.0 * kPi * frequency;
  p.amplitude = gamma * p.g / (p.omega * p.omega);
  p.phase = 0.5 * kPi;
  p.mu_s = 0.24;
  p.mu_c = 0.12;
  p.mu_i = 0.08;
  return p;
}

DimerRunOptions options(const DimerParams& p, double t_end) {
  DimerRunOptions o;
  o.ode.step = 2.0 * kPi / p.omega / 2000.0;
  o.t_end = t_end;
  o.average_from = 0.5 * t_end;
  o.output_interval = 1e-3;
  return o;
}

// A flat dimer on the plate at t = 0, moving with it.
State flat_on_plate(const DimerParams& p) {
  State y = State::Zero(6);
  y[1] = p.r + plate_motion(p, 0.0).y;
  y[4] = plate_motion(p, 0.0).v;
  return y;
}

// Spec §6.7: at Γ < 1 the flat dimer never lifts off, carries m(g + ÿ_p)/2 on each tip and
// does not drift.
TEST(DimerContact, FlatBelowOneGNeverLiftsOff) {
  const DimerParams p = plate_dimer(3.9, 25.0, 0.9);
  const DimerRun r = run_dimer(p, flat_on_plate(p), options(p, 0.2));
  EXPECT_EQ(r.status, DimerStatus::ok);
  EXPECT_TRUE(r.impacts.empty());
  for (const DimerPhase& ph : r.phases) EXPECT_EQ(ph.mode, TipMode::stick);
  ASSERT_GT(r.samples.size(), 100u);
  for (const DimerSample& s : r.samples) {
    const double expected = 0.5 * p.mass() * (p.g + plate_motion(p, s.t).a);
    for (int i = 0; i < 2; ++i) {
      EXPECT_EQ(s.mode[i], TipMode::stick);
      EXPECT_NEAR(s.f_n[i], expected, 1e-9 * p.mass() * p.g);
      EXPECT_NEAR(s.f_t[i], 0.0, 1e-12);
      EXPECT_NEAR(s.d[i], 0.0, 1e-12);
    }
  }
  EXPECT_EQ(r.motion, DimerMotion::rest);
  EXPECT_NEAR(r.mean_drift, 0.0, 1e-12);
  EXPECT_NEAR(r.y_final[0], 0.0, 1e-12);
}

// Spec §6.7: at Γ = 1.4 the flat dimer leaves the plate where ÿ_p = −g, sin ωt = −1/Γ, i.e.
// ωt = π + asin(1/Γ) in the first period, both tips together.
TEST(DimerContact, LiftoffWherePlateAccelerationIsMinusG) {
  const double gamma = 1.4;
  const DimerParams p = plate_dimer(3.9, 25.0, gamma);
  DimerRunOptions o = options(p, 0.03);
  const DimerRun r = run_dimer(p, flat_on_plate(p), o);
  const double t_lift = (kPi + std::asin(1.0 / gamma)) / p.omega;
  int found = 0;
  for (const DimerPhase& ph : r.phases) {
    if (ph.mode != TipMode::open) continue;
    EXPECT_NEAR(ph.t_start, t_lift, 1e-9) << "tip " << ph.tip;
    ++found;
    break;
  }
  EXPECT_EQ(found, 1);
  // both tips open at the same instant
  double first_open[2] = {-1.0, -1.0};
  for (const DimerPhase& ph : r.phases)
    if (ph.mode == TipMode::open && first_open[ph.tip] < 0.0) first_open[ph.tip] = ph.t_start;
  EXPECT_NEAR(first_open[0], first_open[1], 1e-12);
  EXPECT_NEAR(plate_motion(p, first_open[0]).a, -p.g, 1e-6 * p.g);
}

// Spec §5, Figs 8–10 (grade B, signs): with μ_c = 0.12 and μ_i = 0.08 the drift is towards
// the bouncing end at Ar = 3.9 and away from it at Ar = 5.7 (paper: +8.7 and −6.7 mm/s).
TEST(DimerRun, DriftChangesSignBetweenAr39And57) {
  const double h0 = 0.25e-3, theta0 = 5.0 * kPi / 180.0;
  const DimerParams short_dimer = plate_dimer(3.9, 25.0, 0.9);
  const DimerRun a =
      run_dimer(short_dimer, dimer_initial_state(short_dimer, h0, theta0), options(short_dimer, 1.0));
  const DimerParams long_dimer = plate_dimer(5.7, 25.0, 0.9);
  const DimerRun b =
      run_dimer(long_dimer, dimer_initial_state(long_dimer, h0, theta0), options(long_dimer, 1.0));
  EXPECT_EQ(a.status, DimerStatus::ok);
  EXPECT_EQ(b.status, DimerStatus::ok);
  EXPECT_GT(a.mean_drift, 4e-3);
  EXPECT_LT(b.mean_drift, -2e-3);
  EXPECT_EQ(a.motion, DimerMotion::drift);
  EXPECT_EQ(b.motion, DimerMotion::drift);
}

}  // namespace
}  // namespace granular::impact
