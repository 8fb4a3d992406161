// Tests for src/impact/prism/: the prism rolling on a ramp (Zhao, Liu & Ma 2014, §6;
// docs/prism.md): closed-form mass properties, the contact-phase energy integral and corrected
// reactions, κ_c of the point impact, the line impact's κ (invariances, DS-I, energy invariant,
// time-domain cross-check), the run's recurrence, energy and termination rules. Its case
// through the CLI: tests/cli/impact_cli_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "granular/impact/prism/run.hpp"

namespace granular::prism {
namespace {

const double kPi = 3.141592653589793238462643383280;
const double kDeg = kPi / 180.0;

// a steel prism of the paper (§4): a0 = 15 mm, l = 50 mm
Params steel(int n, double slope_deg = 0.4079) {
  Params p;
  p.geometry = prism_geometry(n, 0.015, 0.05);
  p.mass = 7850.0 * p.geometry.area * p.geometry.length;
  p.slope = slope_deg * kDeg;
  p.gravity = 9.81;
  p.mu_s = 0.12;
  p.mu_slip = 0.12;
  return p;
}

Options release(double lambda0_deg) {
  Options o;
  o.lambda0 = lambda0_deg * kDeg;
  o.driver.ode.scheme = Scheme::dopri5;
  o.driver.ode.step = 1e-4;
  o.driver.ode.rtol = 1e-11;
  o.driver.ode.atol = 1e-13;
  o.driver.sample_interval = 2e-3;
  return o;
}

// |θ̇⁻| at the first impact by the energy integral of §2.1, from rest
double first_impact_speed(const Params& p, double lambda0) {
  const double a = p.geometry.alpha, b = p.slope;
  const double omega_sq = p.gravity * p.geometry.circumradius / p.geometry.j_edge;
  return std::sqrt(2.0 * omega_sq * (std::cos(a + b - lambda0) - std::cos(a + b)));
}

// ---- geometry and contact phase ----

// J/(m a0²) = (2 + cos2α)/6 against the textbook square (1/3) and hexagon (5/12); b = 2a0 sinα
TEST(PrismGeometry, ClosedFormMassProperties) {
  EXPECT_NEAR(prism_geometry(4, 1.0, 1.0).j_c, 1.0 / 3.0, 1e-15);
  EXPECT_NEAR(prism_geometry(6, 1.0, 1.0).j_c, 5.0 / 12.0, 1e-15);
  EXPECT_NEAR(prism_geometry(6, 1.0, 1.0).area, 1.5 * std::sqrt(3.0), 1e-14);
  const PrismGeometry g = prism_geometry(22, 0.015, 0.05);
  EXPECT_NEAR(g.j_c / (0.015 * 0.015), (2.0 + std::cos(2.0 * kPi / 22)) / 6.0, 1e-15);
  EXPECT_NEAR(g.face_width, 0.03 * std::sin(kPi / 22), 1e-17);
  EXPECT_NEAR(g.j_edge, g.j_c + 0.015 * 0.015, 1e-18);
  EXPECT_NEAR(g.j_face, g.j_c + g.apothem * g.apothem, 1e-18);
}

// the corrected (2.1) reactions: the static check, and F = m a_C + m g y along the motion,
// with a_C from finite differences of the position of C about A
TEST(PrismContact, CorrectedReactionsMatchNewton) {
  const Params p = steel(22);
  const double mg = p.mass * p.gravity, a = p.geometry.alpha, be = p.slope;
  const EdgeReaction rest = edge_reaction(p, a + be, 0.0);
  EXPECT_NEAR(rest.normal, mg * std::cos(be), 1e-12 * mg);
  EXPECT_NEAR(rest.tangential, -mg * std::sin(be), 1e-12 * mg);

  const double a0 = p.geometry.circumradius;
  const double omega_sq = p.gravity * a0 / p.geometry.j_edge;
  // C about A in the ramp frame (τ, n): a0 (sinψ, cosψ), ψ = α − λ
  auto r_tau = [&](double l) { return a0 * std::sin(a - l); };
  auto r_n = [&](double l) { return a0 * std::cos(a - l); };
  for (double lambda : {0.0, 0.05, a, 2.0 * a}) {
    const double theta_dot = -3.0;
    const double theta_ddot = -omega_sq * std::sin(a + be - lambda);
    const double d = 1e-4;
    auto accel = [&](auto r) {
      const double r1 = (r(lambda + d) - r(lambda - d)) / (2.0 * d);
      const double r2 = (r(lambda + d) - 2.0 * r(lambda) + r(lambda - d)) / (d * d);
      return r2 * theta_dot * theta_dot + r1 * theta_ddot;
    };
    const EdgeReaction f = edge_reaction(p, lambda, theta_dot);
    // gravity is −g y, y = cosβ n − sinβ τ
    EXPECT_NEAR(f.normal, p.mass * accel(r_n) + mg * std::cos(be), 1e-6 * mg);
    EXPECT_NEAR(f.tangential, p.mass * accel(r_tau) - mg * std::sin(be), 1e-6 * mg);
  }
}

// θ̇⁻ at the first impact from the located event against the §2.1 energy integral (§6.2)
TEST(PrismContact, FirstImpactSpeedMatchesEnergyIntegral) {
  for (auto [slope, lambda0] : {std::pair{0.4079, 5.322}, std::pair{0.3702, 7.2}}) {
    const Params p = steel(22, slope);
    Options o = release(lambda0);
    o.driver.max_events = 1;
    const Result r = run_prism(p, o);
    ASSERT_EQ(r.impacts.size(), 1u);
    EXPECT_NEAR(-r.impacts[0].omega_before, first_impact_speed(p, lambda0 * kDeg), 1e-8);
    EXPECT_EQ(r.status, RunStatus::event_limit);
  }
}

// ---- point impact ----

// κ_c = (7 cos2α + 2)/(cos2α + 8), α = π/N (§0), from the shared Newton–Coulomb law with
// e = 0; B sticks and A lifts off (§6.3)
TEST(PrismPointImpact, ClassicKappaClosedForm) {
  for (int n : {4, 6, 22, 30, 38}) {
    Params p = steel(n);
    p.mu_s = 10.0;
    p.mu_slip = 10.0;
    const double c = std::cos(2.0 * kPi / n);
    const PointImpactResult r = point_impact(p, -2.5);
    EXPECT_NEAR(r.kappa, (7.0 * c + 2.0) / (c + 8.0), 1e-13) << "N = " << n;
    EXPECT_NEAR(classic_kappa(n), (7.0 * c + 2.0) / (c + 8.0), 1e-15);
    EXPECT_TRUE(r.sticking);
    EXPECT_GT(r.v_n_a_after, 0.0);
    EXPECT_GT(r.normal_impulse, 0.0);
  }
  EXPECT_NEAR(classic_kappa(4), 0.25, 1e-15);
}

// ---- line impact ----

// κ of the line model depends only on N (§0, §6.4): not on m, l, a0 (size) or |ω0|
TEST(PrismLineImpact, KappaIndependentOfMassLengthSizeAndSpeed) {
  const Params base = steel(22);
  const double kappa = line_impact(base, -3.0).kappa;
  Params heavy = base;
  heavy.mass *= 37.0;
  Params longer = base;
  longer.geometry = prism_geometry(22, 0.015, 0.4);
  Params small = base;
  small.geometry = prism_geometry(22, 0.002, 0.05);
  EXPECT_NEAR(line_impact(heavy, -3.0).kappa, kappa, 1e-10);
  EXPECT_NEAR(line_impact(longer, -3.0).kappa, kappa, 1e-10);
  EXPECT_NEAR(line_impact(small, -3.0).kappa, kappa, 1e-10);
  EXPECT_NEAR(line_impact(base, -0.01).kappa, kappa, 1e-10);
  EXPECT_NEAR(line_impact(base, -300.0).kappa, kappa, 1e-10);
  // and it does change with N
  EXPECT_GT(std::fabs(line_impact(steel(30), -3.0).kappa - kappa), 1e-3);
}

// the time-domain Winkler penalty form gives the same κ for any stiffness K (§2.3), and its
// duration scales as √(m/(K b l))
TEST(PrismLineImpact, KappaIndependentOfStiffness) {
  const Params p = steel(22);
  const double kappa = line_impact(p, -3.0).kappa;
  const TimeDomainImpact soft = line_impact_time_domain(p, -3.0, 1e8);
  const TimeDomainImpact hard = line_impact_time_domain(p, -3.0, 1e12);
  ASSERT_TRUE(soft.pivot_b);
  ASSERT_TRUE(hard.pivot_b);
  EXPECT_NEAR(soft.kappa, kappa, 1e-8);
  EXPECT_NEAR(hard.kappa, kappa, 1e-8);
  EXPECT_NEAR(soft.duration / hard.duration, 100.0, 1e-6);
}

// κ of the line impact does not depend on the slope or the speed in a whole run (§0)
TEST(PrismLineImpact, KappaIndependentOfSlopeInARun) {
  const double kappa = line_impact(steel(30), -1.0).kappa;
  for (double slope : {0.3702, 0.4079, 2.0}) {
    Options o = release(5.0);
    o.driver.max_events = 20;
    const Result r = run_prism(steel(30, slope), o);
    ASSERT_EQ(r.impacts.size(), 20u)
        << name_of(run_status_names, r.status) << " " << r.reason << ": " << r.detail;
    for (const PrismImpactRecord& i : r.impacts) EXPECT_NEAR(i.kappa, kappa, 1e-10);
    // the runs differ in speed
    EXPECT_GT(std::fabs(r.impacts.back().omega_before / r.impacts.front().omega_before), 1.0);
  }
}

// DS-I throughout, termination on the v^n(B) = 0 branch with v^n(A) = κ|ω0|b, normal impulse
// m|ω0|b(1 + κ)/2 (§2.4, §5) when the face sticks; less lossy than the point impact, and no energy
// gained
TEST(PrismLineImpact, StaysDsIAndPivotsOnB) {
  for (int n : {4, 6, 8, 12, 22, 30, 38, 100}) {
    Params p = steel(n);
    p.mu_s = p.mu_slip = 10.0;  // sticking throughout, as §2.4 assumes
    const double omega0 = -2.0, b = p.geometry.face_width;
    const LineImpactResult r = line_impact(p, omega0);
    ASSERT_EQ(r.outcome, LineImpactOutcome::pivot_b) << "N = " << n;
    EXPECT_EQ(r.modes, "DS-I") << "N = " << n;
    EXPECT_TRUE(r.sticking);
    EXPECT_NEAR(r.u_after + 0.5 * b * r.omega_after, 0.0, 1e-10 * std::fabs(omega0) * b);
    EXPECT_NEAR(r.u_after - 0.5 * b * r.omega_after, r.kappa * std::fabs(omega0) * b,
                1e-9 * std::fabs(omega0) * b);
    EXPECT_NEAR(r.normal_impulse, p.mass * std::fabs(omega0) * b * (1.0 + r.kappa) / 2.0,
                1e-9 * p.mass * std::fabs(omega0) * b);
    EXPECT_GT(r.kappa, classic_kappa(n)) << "N = " << n;
    EXPECT_LT(r.kappa, 1.0);
    EXPECT_LE(r.kinetic_after, r.kinetic_before);
    EXPECT_GT(r.s_end, 0.0);
    EXPECT_LT(r.s_end, b);
  }
}

// the invariant ½mu² + ½J'ω² + l∫ζ² = ½J_Aω0² holds at every sample, and the energy lost is
// the layer energy discarded at termination, (1 − κ²)·½J_Aω0² (§2.3, §6.4)
TEST(PrismLineImpact, EnergyInvariantDuringImpact) {
  const Params p = steel(22);
  const double omega0 = -4.0;
  std::vector<LineImpactSample> trace;
  const LineImpactResult r = line_impact(p, omega0, {}, &trace);
  ASSERT_GT(trace.size(), 20u);
  const double e0 = 0.5 * p.mass * p.geometry.j_edge * omega0 * omega0;
  EXPECT_NEAR(r.kinetic_before, e0, 1e-14 * e0);
  for (const LineImpactSample& s : trace) {
    // sticking: w = −hω, so the kinetic energy is ½mu² + ½J'ω²
    const double kinetic =
        0.5 * p.mass * s.u * s.u + 0.5 * p.mass * p.geometry.j_face * s.omega * s.omega;
    EXPECT_NEAR(kinetic, s.kinetic, 1e-9 * e0);
    EXPECT_NEAR(kinetic + s.layer, e0, 1e-9 * e0);
    EXPECT_GE(s.layer, 0.0);
  }
  EXPECT_LT(r.invariant_error, 1e-9);
  EXPECT_NEAR(e0 - r.kinetic_after, r.layer_energy, 1e-9 * e0);
  EXPECT_NEAR(r.layer_energy, (1.0 - r.kappa * r.kappa) * e0, 1e-9 * e0);
  EXPECT_GT(r.layer_energy, 0.0);
}

// with too little friction the face slips during the impact; friction work is dissipation,
// so no energy is gained and the invariant (with the friction work) still holds
TEST(PrismLineImpact, SlipNeverGainsEnergy) {
  for (double mu : {0.0, 0.01, 0.03}) {
    Params p = steel(22);
    p.mu_s = mu;
    p.mu_slip = mu;
    const LineImpactResult r = line_impact(p, -3.0);
    EXPECT_FALSE(r.sticking) << "mu = " << mu;
    EXPECT_LT(r.invariant_error, 1e-9) << "mu = " << mu;
    EXPECT_LE(r.kinetic_after + r.layer_energy, r.kinetic_before * (1.0 + 1e-12));
    EXPECT_LE(std::fabs(r.tangential_impulse), mu * r.normal_impulse * (1.0 + 1e-9) + 1e-18);
  }
}

// ---- the run ----

// ω⁻²_{k+1} = κ²ω⁻²_k + G exactly (§5), and the energy is conserved in contact phases and
// never gained anywhere: the run's energy series never rises
TEST(PrismRun, RecurrenceAndEnergyNeverGained) {
  for (PrismImpactModel model : {PrismImpactModel::line, PrismImpactModel::point}) {
    Params p = steel(22, 0.3702);
    p.impact = model;
    Options o = release(7.2);
    o.driver.max_events = 40;
    const Result r = run_prism(p, o);
    ASSERT_EQ(r.impacts.size(), 40u);
    const double kappa =
        model == PrismImpactModel::line ? line_impact(p, -1.0).kappa : classic_kappa(22);
    const double omega_sq = p.gravity * p.geometry.circumradius / p.geometry.j_edge;
    const double gain = 4.0 * omega_sq * std::sin(p.geometry.alpha) * std::sin(p.slope);
    for (std::size_t k = 1; k < r.impacts.size(); ++k) {
      const double prev = r.impacts[k - 1].omega_before, now = r.impacts[k].omega_before;
      EXPECT_NEAR(now * now, kappa * kappa * prev * prev + gain, 1e-8 * now * now);
    }
    const double e_scale = 0.5 * p.mass * p.geometry.j_edge * 100.0;
    for (std::size_t i = 1; i < r.rolling.size(); ++i)
      EXPECT_LE(r.rolling[i].energy, r.rolling[i - 1].energy + 1e-9 * e_scale) << i;
    for (const PrismImpactRecord& i : r.impacts) EXPECT_GT(i.energy_lost, 0.0);
    EXPECT_LT(r.rolling.back().energy, -0.0);
  }
}

// L_p(t) = Nθ/(2π) (4.2): at the k-th impact L_p = λ0/(2α) + k − 1, and it never decreases
TEST(PrismRun, RolledDistanceCountsFaces) {
  const Params p = steel(30);
  Options o = release(5.322);
  o.driver.max_events = 10;
  const Result r = run_prism(p, o);
  ASSERT_EQ(r.impacts.size(), 10u);
  const double first = 5.322 * kDeg / (2.0 * p.geometry.alpha);
  for (std::size_t k = 0; k < r.impacts.size(); ++k) EXPECT_NEAR(r.impacts[k].lp, first + k, 1e-12);
  for (std::size_t i = 1; i < r.rolling.size(); ++i) {
    EXPECT_GE(r.rolling[i].lp, r.rolling[i - 1].lp - 1e-12);
    EXPECT_GE(r.rolling[i].t, r.rolling[i - 1].t);
  }
}

// the run always ends with a reason (§3): a release below the threshold clears one edge and
// stalls, a release past α + β does not roll, a slow-impact floor stops it as at rest, the
// ramp end stops it, and the steel ramp (μ_s = 0.08) makes N = 22 slip (§5)
TEST(PrismRun, TerminationIsDetectedAndReported) {
  const Params p = steel(22);
  {
    const Result r = run_prism(p, release(5.0));
    EXPECT_EQ(r.status, RunStatus::model_stop) << r.detail;
    EXPECT_EQ(r.reason, "stalled") << r.detail;
    EXPECT_EQ(r.impacts.size(), 1u);
  }
  {
    const Result r = run_prism(p, release(12.0));
    EXPECT_EQ(r.status, RunStatus::model_stop);
    EXPECT_EQ(r.reason, "does_not_roll");
    EXPECT_TRUE(r.impacts.empty());
  }
  {
    Options o = release(7.2);
    o.driver.zeno.min_speed = 1.0;
    const Result r = run_prism(p, o);
    EXPECT_EQ(r.status, RunStatus::zeno);
    EXPECT_EQ(r.reason, "at_rest");
  }
  {
    Options o = release(7.2);
    o.ramp_length = 0.05;
    const Result r = run_prism(p, o);
    EXPECT_EQ(r.status, RunStatus::completed);
    EXPECT_EQ(r.reason, "ramp_end");
    EXPECT_EQ(static_cast<double>(r.impacts.size()), std::ceil(0.05 / p.geometry.face_width));
  }
  {
    Params on_steel = steel(22, 0.3792);
    on_steel.mu_s = 0.08;
    on_steel.mu_slip = 0.08;
    const Result r = run_prism(on_steel, release(7.2));
    EXPECT_EQ(r.status, RunStatus::model_stop) << r.detail;
    EXPECT_EQ(r.reason, "slip") << r.detail;
    Options report = release(7.2);
    report.stop_on_violation = false;
    report.driver.max_events = 30;
    const Result r2 = run_prism(on_steel, report);
    EXPECT_EQ(r2.status, RunStatus::event_limit);
    EXPECT_GT(r2.slip_violations, 0);
    EXPECT_GT(r2.max_contact_demand, 0.08);
  }
}

}  // namespace
}  // namespace granular::prism
