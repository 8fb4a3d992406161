// Tests for src/impact/pendulum/: the double pendulum on a rough floor (docs/pendulum.md §6):
// closed forms (36), the impact map, joint impulses and forces, mirror symmetry, energy, the
// paper's impact counts and the Zeno policy. Its case through the CLI:
// tests/cli/impact_cli_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>

#include "granular/impact/pendulum/run.hpp"
#include "granular/impulse/routh.hpp"

namespace granular::pendulum {
namespace {

constexpr double kPi = 3.141592653589793238462643383280;

State paper_start() {
  State y(4);
  y << 140.0 * kPi / 180.0, -90.0 * kPi / 180.0, 1.2, -0.5;
  return y;
}

Params paper_params(double mu) {
  Params p;
  p.mu = mu;
  return p;
}

Options paper_options(double t_end) {
  Options o;
  o.driver.t_end = t_end;
  o.driver.ode.step = 1e-4;
  o.driver.zeno.min_speed = 1e-2;
  return o;
}

// a state at (ψ1, ψ2) with contact velocities (s0, c0): ω = J⁻¹(s0, c0)
State with_contact_velocity(const Params& p, double psi1, double psi2, double s0, double c0) {
  const ContactJacobian j = pendulum_contact_jacobian(p, psi1, psi2);
  Eigen::Matrix2d m;
  m.row(0) = j.j_s.transpose();
  m.row(1) = j.j_c.transpose();
  const Eigen::Vector2d w = m.partialPivLu().solve(Eigen::Vector2d(s0, c0));
  State y(4);
  y << psi1, psi2, w[0], w[1];
  return y;
}

TEST(Pendulum, DelassusClosedFormsMatchTheJacobianForm) {
  const Params p;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  for (int i = 0; i < 1000; ++i) {
    const double psi1 = angle(rng), psi2 = angle(rng);
    const impulse::Delassus a = pendulum_delassus(p, psi1, psi2);
    const impulse::Delassus b = pendulum_delassus_closed_form(p, psi1, psi2);
    ASSERT_NEAR(a.w_tt, b.w_tt, 1e-12);
    ASSERT_NEAR(a.w_nt, b.w_nt, 1e-12);
    ASSERT_NEAR(a.w_nn, b.w_nn, 1e-12);
    ASSERT_GT(a.w_tt * a.w_nn - a.w_nt * a.w_nt, 0.0);  // W positive definite
    ASSERT_NEAR(pendulum_mass_matrix(p, psi1, psi2).determinant(),
                pendulum_mass_determinant(p, psi1, psi2), 1e-14);
  }
}

TEST(Pendulum, EquilibriumEnergyIsThePapers) {
  EXPECT_NEAR(pendulum_energy(Params{}, State::Zero(4)), -40.007, 1e-3);
}

// spec §6 case 2 on the impact map: F̄ = −(1 + k)c0/γ, T̄ = 0, c_f = −k c0,
// ΔE = −½(1 − k²)c0²/γ (0 for k = 1)
TEST(Pendulum, FrictionlessImpactClosedForm) {
  const Params p;
  const State y = with_contact_velocity(p, -0.3, 0.9, 0.7, -1.3);
  for (double k : {0.0, 0.9, 1.0}) {
    const PendulumImpact im = pendulum_impact(p, 0.0, y, k, 0.0);
    const double c0 = im.c_before, gamma = im.w.w_nn;
    EXPECT_NEAR(c0, -1.3, 1e-12);
    EXPECT_NEAR(im.routh.p_n, -(1.0 + k) * c0 / gamma, 1e-11);
    EXPECT_EQ(im.routh.p_t, 0.0);
    const ContactJacobian j = pendulum_contact_jacobian(p, y[0], y[1]);
    EXPECT_NEAR(j.j_c.dot(im.omega_after), -k * c0, 1e-12);
    EXPECT_NEAR(im.energy_after - im.energy_before, -0.5 * (1.0 - k * k) * c0 * c0 / gamma, 1e-11);
  }
}

// spec §6 case 3: the table of cases at ψ1* = −16°, f = 0, with ω⁻ = J⁻¹(s0, c0); the
// impulse values themselves are checked against hand-derived forms in routh_test.cpp
TEST(Pendulum, RouthCasesOfTheSpecTable) {
  const Params p;
  const double psi1 = -16.0 * kPi / 180.0;
  const double psi2 = std::acos((p.D - p.r - p.l1 * std::cos(psi1)) / p.L());
  EXPECT_NEAR(psi2 * 180.0 / kPi, 55.371005, 1e-6);
  EXPECT_NEAR(pendulum_gap(p, psi1, psi2), 0.0, 1e-15);
  struct Row {
    double s0, c0, mu, k;
    impulse::RouthCase expected;
  };
  const Row rows[] = {{1, -2, 0, 0.9, impulse::RouthCase::smooth},
                      {3, -1, 0.15, 0.9, impulse::RouthCase::a},
                      {1, -2, 1.0, 0.9, impulse::RouthCase::b},
                      {0.5, -1, 0.3, 0.9, impulse::RouthCase::c},
                      {1, -1, 0.8, 0.9, impulse::RouthCase::d},
                      {0.8, -1, 0.3, 0.9, impulse::RouthCase::e},
                      {0, -1, 1.0, 0.9, impulse::RouthCase::start_stick},
                      {0, -1, 0.3, 0.9, impulse::RouthCase::start_slide},
                      {3, -1, 0.15, 0.0, impulse::RouthCase::a}};
  for (const Row& row : rows) {
    const State y = with_contact_velocity(p, psi1, psi2, row.s0, row.c0);
    const PendulumImpact im = pendulum_impact(p, 0.0, y, row.k, row.mu);
    EXPECT_EQ(im.routh.routh_case, row.expected) << impulse::routh_case_name(row.expected);
    // the post-impact contact velocities are those of the impulse-space path
    const ContactJacobian j = pendulum_contact_jacobian(p, psi1, psi2);
    EXPECT_NEAR(j.j_s.dot(im.omega_after), im.routh.u_t, 1e-12);
    EXPECT_NEAR(j.j_c.dot(im.omega_after), im.routh.u_n, 1e-12);
    // ΔE equals the path work and is a loss
    EXPECT_NEAR(im.energy_after - im.energy_before, im.routh.work, 1e-12);
    EXPECT_LE(im.routh.work, 0.0);
    if (row.k == 0.0) {
      EXPECT_EQ(im.routh.p_n, im.routh.p_n_compression);
      EXPECT_EQ(im.routh.u_n, 0.0);
    }
  }
}

// spec §6 case 6: (25)–(26) hold for the computed H̄, V̄, R̄, P̄
TEST(Pendulum, JointImpulsesSatisfyTheMomentEquations) {
  const Params p = paper_params(0.4);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 500; ++i) {
    const State y = with_contact_velocity(p, 3.0 * u(rng), 3.0 * u(rng), 2.0 * u(rng),
                                          -0.1 - std::fabs(u(rng)));
    const PendulumImpact im = pendulum_impact(p, 0.0, y, 0.9, p.mu);
    const double s1 = std::sin(y[0]), c1 = std::cos(y[0]), s2 = std::sin(y[1]), c2 = std::cos(y[1]);
    const Eigen::Vector2d dw = im.omega_after - im.omega_before;
    const JointImpulses& j = im.joint;
    const double F = im.routh.p_n, T = im.routh.p_t;
    const double lhs1 = p.I1 * dw[0];
    const double rhs1 = (j.V - j.P) * 0.5 * p.l1 * s1 - (j.R + j.H) * 0.5 * p.l1 * c1;
    const double lhs2 = p.I2 * dw[1];
    const double rhs2 = (j.V * p.lc + F * p.d()) * s2 - (j.H * p.lc + T * p.d()) * c2 - T * p.r;
    ASSERT_NEAR(lhs1, rhs1, 1e-11 * (1.0 + std::fabs(F)));
    ASSERT_NEAR(lhs2, rhs2, 1e-11 * (1.0 + std::fabs(F)));
  }
}

// spec §2.7 and §6 case 6: hanging at rest P = (m1 + m2)g, V = −m2 g, H = R = 0; the joint
// forces satisfy both bodies' moment equations (with damping, torques and contact forces)
TEST(Pendulum, JointForcesSatisfyTheMomentEquations) {
  Params p = paper_params(0.2);
  const JointForces hanging = pendulum_joint_forces(p, State::Zero(4), Eigen::Vector2d::Zero());
  EXPECT_NEAR(hanging.P, (p.m1 + p.m2) * p.g, 1e-12);
  EXPECT_NEAR(hanging.V, -p.m2 * p.g, 1e-12);
  EXPECT_EQ(hanging.H, 0.0);
  EXPECT_EQ(hanging.R, 0.0);

  p.c1 = 0.3;
  p.c2 = 0.2;
  p.M01 = 1.5;
  p.Omega1 = 2.0;
  p.M02 = -0.7;
  p.Omega2 = 3.0;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 500; ++i) {
    State y(4);
    y << 3.0 * u(rng), 3.0 * u(rng), 4.0 * u(rng), 4.0 * u(rng);
    const double t = 2.0 * std::fabs(u(rng)), F = 10.0 * std::fabs(u(rng)), T = 3.0 * u(rng);
    // ψ̈ with the contact forces acting at M: A ψ̈ = Q + J_cᵀF + J_sᵀT
    const ContactJacobian j = pendulum_contact_jacobian(p, y[0], y[1]);
    const Eigen::Vector2d q = pendulum_generalized_forces(p, t, y);
    const Eigen::Vector2d acc =
        pendulum_mass_matrix(p, y[0], y[1]).ldlt().solve(q + j.j_c * F + j.j_s * T);
    const JointForces f = pendulum_joint_forces(p, y, acc, F, T);
    const double s1 = std::sin(y[0]), c1 = std::cos(y[0]), s2 = std::sin(y[1]), c2 = std::cos(y[1]);
    const double tau1 = p.M01 * std::cos(p.Omega1 * t) - p.c1 * y[2] + p.c2 * (y[3] - y[2]);
    const double tau2 = p.M02 * std::cos(p.Omega2 * t) + p.c2 * (y[2] - y[3]);
    ASSERT_NEAR(p.I1 * acc[0], (f.V - f.P) * 0.5 * p.l1 * s1 - (f.R + f.H) * 0.5 * p.l1 * c1 + tau1,
                1e-10);
    ASSERT_NEAR(p.I2 * acc[1],
                (f.V * p.lc + F * p.d()) * s2 - (f.H * p.lc + T * p.d()) * c2 - T * p.r + tau2,
                1e-10);
  }
}

// spec §6 case 4: (ψ, ω) → (−ψ, −ω) gives the same F̄, −T̄ and −ω⁺, bit for bit
TEST(Pendulum, MirrorSymmetryIsBitExact) {
  const Params p = paper_params(0.3);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 2000; ++i) {
    State y = with_contact_velocity(p, 3.0 * u(rng), 3.0 * u(rng), 2.0 * u(rng),
                                    -0.05 - std::fabs(u(rng)));
    const PendulumImpact a = pendulum_impact(p, 0.0, y, 0.8, p.mu);
    const PendulumImpact b = pendulum_impact(p, 0.0, -y, 0.8, p.mu);
    ASSERT_EQ(a.routh.p_n, b.routh.p_n);
    ASSERT_EQ(a.routh.p_t, -b.routh.p_t);
    ASSERT_EQ(a.omega_after[0], -b.omega_after[0]);
    ASSERT_EQ(a.omega_after[1], -b.omega_after[1]);
    ASSERT_EQ(a.routh.routh_case, b.routh.routh_case);
  }
}

// spec §6 case 5: thousands of random impacts (μ, k ∈ [0, 1]) never gain energy
TEST(Pendulum, ImpactsNeverGainEnergy) {
  Params p;
  std::mt19937_64 rng(2017);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < 5000; ++i) {
    State y(4);
    y << 2.0 * kPi * u(rng), 2.0 * kPi * u(rng), 10.0 * (u(rng) - 0.5), 10.0 * (u(rng) - 0.5);
    const PendulumImpact im = pendulum_impact(p, 0.0, y, u(rng), u(rng));
    if (im.routh.routh_case == impulse::RouthCase::not_an_impact) continue;
    // round-off scales with the kinetic energy and, near singular W, with the impulses
    const double scale = 1.0 + im.energy_before - pendulum_energy(p, State::Zero(4)) +
                         std::fabs(im.routh.p_n * im.c_before) +
                         std::fabs(im.routh.p_t * im.s_before);
    ASSERT_LE(im.energy_after - im.energy_before, 1e-12 * scale) << i;
    ASSERT_NEAR(im.energy_after - im.energy_before, im.routh.work, 1e-11 * scale) << i;
  }
}

// spec §5 / §6 case 11: 6 impacts with μ = 0 and 10 with μ = 0.15 in [0, 6] s; the first
// impact is the same for both; friction takes more energy at it; E is constant in flight
TEST(Pendulum, PaperImpactCounts) {
  const Result smooth = run_pendulum(paper_params(0.0), paper_start(), paper_options(6.0));
  const Result rough = run_pendulum(paper_params(0.15), paper_start(), paper_options(6.0));
  EXPECT_EQ(smooth.status, RunStatus::completed);
  EXPECT_EQ(rough.status, RunStatus::completed);
  EXPECT_EQ(smooth.impacts.size(), 6u);
  EXPECT_EQ(rough.impacts.size(), 10u);
  EXPECT_FALSE(smooth.zeno.has_value());
  EXPECT_FALSE(rough.zeno.has_value());
  ASSERT_FALSE(smooth.impacts.empty());
  ASSERT_FALSE(rough.impacts.empty());
  EXPECT_EQ(smooth.impacts[0].t, rough.impacts[0].t);
  EXPECT_LT(rough.impacts[0].energy_after, smooth.impacts[0].energy_after);
  for (const Result* r : {&smooth, &rough}) {
    for (const PendulumImpact& im : r->impacts) {
      EXPECT_LT(im.c_before, 0.0);
      EXPECT_LE(im.gap, 0.0);
      EXPECT_GT(im.gap, -1e-10);
      EXPECT_LT(im.energy_after, im.energy_before);
    }
    // between impacts the energy stays put (RK4 drift only)
    for (std::size_t i = 1; i < r->samples.size(); ++i) {
      const PendulumSample& a = r->samples[i - 1];
      const PendulumSample& b = r->samples[i];
      if (a.t == b.t) continue;  // the jump at an impact
      ASSERT_NEAR(a.energy, b.energy, 1e-9) << a.t;
    }
  }
}

// spec §6 case 13: μ = 0.15 continued to 8 s accumulates impacts; the run switches to
// persistent contact and ends at rest on the floor inside the friction cone
TEST(Pendulum, ZenoEndsAtRestLeaningOnTheFloor) {
  const Params p = paper_params(0.15);
  const Result r = run_pendulum(p, paper_start(), paper_options(8.0));
  EXPECT_EQ(r.status, RunStatus::completed);
  ASSERT_TRUE(r.zeno.has_value());
  EXPECT_GT(r.zeno->t, 6.0);
  EXPECT_TRUE(r.impacts.back().plastic);
  EXPECT_EQ(r.final_mode, ContactMode::rest);
  EXPECT_EQ(r.t_final, 8.0);
  EXPECT_NEAR(pendulum_gap(p, r.y_final[0], r.y_final[1]), 0.0, 1e-9);
  EXPECT_EQ(r.y_final[2], 0.0);
  EXPECT_EQ(r.y_final[3], 0.0);
  const PendulumSample& last = r.samples.back();
  EXPECT_GT(last.F, 0.0);
  EXPECT_LT(std::fabs(last.T), p.mu * last.F);
}

// spec §6 case 14: a restart slightly inside f < 0 (the post-impact state) never produces a
// "collision" with c0 > 0; the next impact comes after a real flight
TEST(Pendulum, RestartInsideTheFloorIsNoCollision) {
  for (double mu : {0.0, 0.15}) {
    const Params p = paper_params(mu);
    const Result first = run_pendulum(p, paper_start(), paper_options(1.5));
    ASSERT_EQ(first.impacts.size(), 1u);
    const PendulumImpact& im = first.impacts[0];
    State y(4);
    y << im.psi1, im.psi2, im.omega_after[0], im.omega_after[1];
    y[1] -= 1e-9;  // deeper inside than the event tolerance leaves it
    ASSERT_LT(pendulum_gap(p, y[0], y[1]), 0.0);
    const Result r = run_pendulum(p, y, paper_options(1.0));
    ASSERT_FALSE(r.impacts.empty());
    for (const PendulumImpact& x : r.impacts) EXPECT_LT(x.c_before, 0.0);
    EXPECT_GT(r.impacts[0].t, 0.1);
  }
}

// the adaptive scheme finds the same first impact and the same counts over 6 s
TEST(Pendulum, AdaptiveSchemeAgrees) {
  Options o = paper_options(6.0);
  o.driver.ode.scheme = Scheme::dopri5;
  o.driver.zeno.min_speed = 2.0 * 9.81 * o.driver.ode.max_step;
  const Result fixed = run_pendulum(paper_params(0.15), paper_start(), paper_options(6.0));
  const Result adaptive = run_pendulum(paper_params(0.15), paper_start(), o);
  EXPECT_EQ(adaptive.impacts.size(), fixed.impacts.size());
  EXPECT_NEAR(adaptive.impacts[0].t, fixed.impacts[0].t, 1e-9);
  EXPECT_NEAR(adaptive.impacts[0].omega_after[0], fixed.impacts[0].omega_after[0], 1e-6);
}

}  // namespace
}  // namespace granular::pendulum
