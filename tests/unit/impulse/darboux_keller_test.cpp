// Tests for include/granular/impulse/darboux_keller.hpp, with the dimer's Delassus matrix
// (src/impact/dimer/dynamics.cpp) as the mechanical system (docs/dimer.md §6, grade A 1–6).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "granular/contact_law.hpp"
#include "granular/impact/dimer/run.hpp"
#include "granular/impulse/darboux_keller.hpp"
#include "granular/impulse/restitution.hpp"

namespace granular::dimer {
namespace {

constexpr double kPi = 3.141592653589793;

Params dimer(double aspect_ratio, double rod_mass = 0.0) {
  Params p;
  p.m_b = 3.5e-3;
  p.r = 4.75e-3;
  p.m_r = rod_mass;
  p.l = 2.0 * (aspect_ratio - 1.0) * p.r;
  return p;
}

impulse::DkParams dk_params(double e, double mu_s, double mu) {
  impulse::DkParams d{};
  d.e[0] = d.e[1] = e;
  d.mu_static = mu_s;
  d.mu_slip = mu;
  d.kappa = 0.6;
  d.steps = 2000;
  d.max_steps = 200000;
  return d;
}

// A single impact at the left tip of a dimer tilted by theta.
impulse::DkInput left_impact(const Params& p, double theta, double u_n, double u_t) {
  impulse::DkInput in{};
  dimer_delassus(p, theta, in.w);
  in.in_set[0] = true;
  in.u_n[0] = u_n;
  in.u_t[0] = u_t;
  return in;
}

// Spec §2.3: the Delassus matrix agrees with the paper's b-coefficients (3.2), with an
// independent closed form of W_nn, and μ_st(θ = 0) with the m_r = 0 form 2B/(B² + 5.6), B = l/r.
TEST(DimerDelassus, MatchesPaperBCoefficients) {
  for (double ar : {3.1, 3.9, 5.0, 5.7, 6.5, 8.5}) {
    for (double rod : {0.0, 0.3e-3}) {
      const Params p = dimer(ar, rod);
      for (double deg : {0.0, 2.0, 5.0, 10.0, 15.0}) {
        const double theta = deg * kPi / 180.0;
        const DimerBCoefficients b = dimer_b_coefficients(p, theta);
        double w[4][4];
        dimer_delassus(p, theta, w);
        const double scale = w[0][0];
        EXPECT_NEAR(w[2][2], (b.b1 + b.b4 + b.b5) / b.beta, 1e-12 * scale);
        EXPECT_NEAR(w[2][0], -b.b6 / b.beta, 1e-12 * scale);
        EXPECT_NEAR(b.b1, b.beta / p.mass(), 1e-15);
        // W_nn = 1/m + (l²/4)cos²θ/J with J = m_b l²/2 + 4 m_b r²/5 + m_r (l − 2r)²/12
        const double rod_len = p.l - 2.0 * p.r;
        const double j =
            0.5 * p.m_b * p.l * p.l + 0.8 * p.m_b * p.r * p.r + p.m_r * rod_len * rod_len / 12.0;
        const double c = std::cos(theta);
        EXPECT_NEAR(w[0][0], 1.0 / p.mass() + 0.25 * p.l * p.l * c * c / j, 1e-12 * scale);
        EXPECT_NEAR(w[0][1], 1.0 / p.mass() - 0.25 * p.l * p.l * c * c / j, 1e-12 * scale);
        for (int a = 0; a < 4; ++a)
          for (int k = 0; k < 4; ++k) EXPECT_DOUBLE_EQ(w[a][k], w[k][a]);
      }
    }
    const Params p = dimer(ar);
    const double br = p.l / p.r;
    EXPECT_NEAR(dimer_mu_stick_single(p, 0.0), 2.0 * br / (br * br + 5.6), 1e-12);
  }
  // (3.5): μ_st(Ar = 5, θ = 0) with m_r = 0 is close to the paper's μ_s ≈ 0.24
  EXPECT_NEAR(dimer_mu_stick_single(dimer(5.0), 0.0), 0.2299, 5e-4);
}

// Spec §6.2: frictionless single impact, any θ: ḋ⁺ = −e ḋ⁻ and P_n = (1 + e)|ḋ⁻|/W_nn.
TEST(DimerDarbouxKeller, FrictionlessSingleImpact) {
  const Params p = dimer(3.9);
  for (double deg : {-12.0, 0.0, 5.0, 20.0}) {
    const double theta = deg * kPi / 180.0;
    const impulse::DkInput in = left_impact(p, theta, -0.3, 0.05);
    const impulse::DkResult r = impulse::darboux_keller_impact(dk_params(0.65, 0.0, 0.0), in);
    ASSERT_TRUE(r.converged);
    EXPECT_NEAR(r.u_n[0], 0.65 * 0.3, 1e-12);
    EXPECT_NEAR(r.p_n[0], 1.65 * 0.3 / in.w[0][0], 1e-14);
    EXPECT_EQ(r.p_t[0], 0.0);
    EXPECT_NEAR(r.u_t[0], 0.05 + in.w[2][0] * r.p_n[0], 1e-12);
  }
}

// Spec §6.3: constant slip, slope k = W_nn − μ sgn(v_t) W_nt; and the corrected (4.2): at
// Ar = 3.9, μ = 0.12, a left-tip impact starting with v_t < 0 makes |v_t| grow.
TEST(DimerDarbouxKeller, ConstantSlipClosedForm) {
  const Params p = dimer(3.9);
  const double mu = 0.12, e = 0.65, u_n = -0.2;
  for (double u_t : {0.5, -0.05}) {
    const double theta = 5.0 * kPi / 180.0;
    const impulse::DkInput in = left_impact(p, theta, u_n, u_t);
    const double s = u_t > 0.0 ? 1.0 : -1.0;
    const double k = in.w[0][0] - mu * s * in.w[0][2];
    const impulse::DkResult r = impulse::darboux_keller_impact(dk_params(e, 0.24, mu), in);
    ASSERT_TRUE(r.converged);
    const double p_n = (1.0 + e) * (-u_n) / k;
    EXPECT_NEAR(r.u_n[0], -e * u_n, 1e-12);
    EXPECT_NEAR(r.p_n[0], p_n, 1e-12 * p_n);
    EXPECT_NEAR(r.p_t[0], -mu * s * p_n, 1e-12 * p_n);
    EXPECT_NEAR(r.u_t[0], u_t + (in.w[2][0] - mu * s * in.w[2][2]) * p_n, 1e-12);
    EXPECT_EQ(r.slip[0], impulse::DkSlip::slip);
    if (u_t < 0.0) {
      // (4.2) corrected: dv_t/dP_n = [(b1 + b4 + b5)μ − b6]/β < 0, so v_t runs away from 0
      const DimerBCoefficients b = dimer_b_coefficients(p, theta);
      EXPECT_LT((b.b1 + b.b4 + b.b5) * mu - b.b6, 0.0);
      EXPECT_LT(r.u_t[0], u_t);
    } else {
      // (4.1): the slope is −[(b1 + b4 + b5)μ + b6]/β
      const DimerBCoefficients b = dimer_b_coefficients(p, theta);
      EXPECT_NEAR((r.u_t[0] - u_t) / r.p_n[0], -((b.b1 + b.b4 + b.b5) * mu + b.b6) / b.beta, 1e-9);
    }
  }
}

// Spec §6.4: a slip that reaches 0 mid-impact sticks when μ_st ≤ μ_s (Ar = 5.7, θ = 0:
// μ_st = 0.200) and reverses when μ_st > μ_s (Ar = 3.9: μ_st = 0.296).
TEST(DimerDarbouxKeller, StickOrReversalMidImpact) {
  const double mu_s = 0.24, mu = 0.12;
  {
    const Params p = dimer(5.7);
    ASSERT_LT(dimer_mu_stick_single(p, 0.0), mu_s);
    const impulse::DkResult r =
        impulse::darboux_keller_impact(dk_params(0.65, mu_s, mu), left_impact(p, 0.0, -0.2, 0.005));
    EXPECT_EQ(r.slip[0], impulse::DkSlip::stick);
    EXPECT_EQ(r.u_t[0], 0.0);
    // the slope changes when the slip stops, so the energetic e is not Newton's: only separation
    EXPECT_GT(r.u_n[0], 0.0);
    EXPECT_LE(std::fabs(r.p_t[0]), mu_s * r.p_n[0]);
  }
  {
    const Params p = dimer(3.9);
    ASSERT_GT(dimer_mu_stick_single(p, 0.0), mu_s);
    const impulse::DkResult r =
        impulse::darboux_keller_impact(dk_params(0.65, mu_s, mu), left_impact(p, 0.0, -0.2, 0.005));
    EXPECT_EQ(r.slip[0], impulse::DkSlip::reverse);
    EXPECT_LT(r.u_t[0], -1e-3);
    EXPECT_GT(r.u_n[0], 0.0);
  }
}

// Spec §6.5: a flat dimer dropped on both tips: equal impulses, ẏ_G⁺ = −e ẏ_G⁻, no rotation,
// no slip (the superstatic stick).
TEST(DimerDarbouxKeller, SymmetricFlatDrop) {
  const Params p = dimer(3.9);
  State y = State::Zero(6);
  y[1] = p.r;
  y[4] = -0.4;
  impulse::DkInput in{};
  dimer_delassus(p, 0.0, in.w);
  for (int i = 0; i < 2; ++i) {
    const TipKinematics k = dimer_tip(p, 0.0, y, i);
    in.in_set[i] = true;
    in.u_n[i] = k.d_dot;
    in.u_t[i] = k.v_t;
  }
  const impulse::DkResult r = impulse::darboux_keller_impact(dk_params(0.65, 0.24, 0.12), in);
  ASSERT_TRUE(r.converged);
  EXPECT_NEAR(r.p_n[0], r.p_n[1], 1e-12 * r.p_n[0]);
  dimer_apply_impulse(p, y, r.p_n, r.p_t);
  EXPECT_NEAR(y[4], 0.65 * 0.4, 1e-9);
  EXPECT_NEAR(y[5], 0.0, 1e-9);
  EXPECT_NEAR(y[3], 0.0, 1e-12);
  EXPECT_EQ(r.u_t[0], 0.0);
  EXPECT_EQ(r.u_t[1], 0.0);
}

// The double impact of the flat Ar 5.7 dimer (cases/dimer_fig6_ar57_mu012.json, t = 1.0245 s):
// the left tip rests on the plate, both tips slip at −1.6 cm/s (equal but for 1.3e-13 m/s of
// rounding, θ = −5.8e-13) and the right one hits. Both tangent rows coincide, so both slips
// reach 0 together; the left's first, by the rounding, and for a step of 2e-9 of its length
// it is a stick candidate beside a right tip still slipping: a "reversal" at 1e-13 m/s. The
// right tip sticks, and the left one, done before it, ends at its stick to rounding. Its
// outcome is stuck as the dimer reads it (|v_t| ≤ numerics/slip_tol); slip_tol changes the
// label only, not one bit of the impulses or velocities.
TEST(DimerDarbouxKeller, TwoSlipsStoppingTogetherEndStuck) {
  Params p = dimer(5.7);
  p.m_b = 7.8e3 * 4.0 / 3.0 * kPi * p.r * p.r * p.r;
  impulse::DkInput in{};
  dimer_delassus(p, -5.759832511658715e-13, in.w);
  in.in_set[0] = in.in_set[1] = true;
  in.u_n[0] = 4.293093658347402e-13;
  in.u_n[1] = -0.2324113864365086;
  in.u_t[0] = -0.015915056746535487;
  in.u_t[1] = -0.015915056746669348;
  impulse::DkParams exact = dk_params(0.65, 0.24, 0.12);
  const impulse::DkResult a = impulse::darboux_keller_impact(exact, in);
  impulse::DkParams tol = exact;
  tol.slip_tol = Options{}.slip_tol;
  const impulse::DkResult b = impulse::darboux_keller_impact(tol, in);
  ASSERT_TRUE(b.converged);
  for (int i = 0; i < 2; ++i) {
    EXPECT_GT(b.p_n[i], 0.0);
    EXPECT_LT(std::fabs(b.u_t[i]), 1e-12);
    EXPECT_EQ(b.slip[i], impulse::DkSlip::stick) << "tip " << i;
    EXPECT_EQ(a.p_n[i], b.p_n[i]);
    EXPECT_EQ(a.p_t[i], b.p_t[i]);
    EXPECT_EQ(a.u_n[i], b.u_n[i]);
    EXPECT_EQ(a.u_t[i], b.u_t[i]);
  }
  EXPECT_EQ(a.steps, b.steps);
  // with slip_tol = 0 stuck means exactly 0 in stick mode, which the left tip misses
  EXPECT_EQ(a.slip[0], impulse::DkSlip::reverse);
  EXPECT_EQ(a.slip[1], impulse::DkSlip::stick);
}

// The velocities seen by the contacts of a dimer state, and the impact applied back to it.
struct RandomImpact {
  double energy_before, energy_after;
};

RandomImpact random_impact(std::mt19937& rng, double e, double mu_s, double mu, bool both) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const Params p = dimer(3.0 + 2.5 * (unit(rng) + 1.0));
  const double theta = 0.3 * unit(rng);
  State y = State::Zero(6);
  y[2] = theta;
  y[3] = 0.3 * unit(rng);
  y[4] = 0.3 * unit(rng) - 0.35;
  y[5] = 20.0 * unit(rng);
  impulse::DkInput in{};
  dimer_delassus(p, theta, in.w);
  for (int i = 0; i < 2; ++i) {
    const TipKinematics k = dimer_tip(p, 0.0, y, i);
    in.in_set[i] = (both || i == 0) && k.d_dot < 0.0;
    in.u_n[i] = k.d_dot;
    in.u_t[i] = k.v_t;
  }
  const double before = dimer_kinetic_energy(p, y);
  impulse::DkParams d = dk_params(e, mu_s, mu);
  d.e[1] = e < 1.0 ? 0.9 * e : e;
  const impulse::DkResult r = impulse::darboux_keller_impact(d, in);
  EXPECT_TRUE(r.converged);
  dimer_apply_impulse(p, y, r.p_n, r.p_t);
  // the contacts of the set leave separating
  for (int i = 0; i < 2; ++i)
    if (in.in_set[i]) {
      EXPECT_GE(dimer_tip(p, 0.0, y, i).d_dot, -1e-9);
    }
  return {before, dimer_kinetic_energy(p, y)};
}

// Spec §6.6: on a fixed plate an impact never gains kinetic energy (random states, single
// and double, with friction, stick and reversal).
TEST(DimerImpactEnergy, NeverGainedOverRandomStates) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int k = 0; k < 300; ++k) {
    const double e = u01(rng);
    const double mu = 0.3 * u01(rng);
    const RandomImpact r = random_impact(rng, e, mu + 0.2 * u01(rng), mu, k % 2 == 0);
    EXPECT_LE(r.energy_after, r.energy_before * (1.0 + 1e-12)) << "sample " << k;
  }
}

// Spec §6.6: with e = 1 and μ = 0 the kinetic energy is conserved, double impacts included.
TEST(DimerImpactEnergy, ConservedWhenElasticAndFrictionless) {
  std::mt19937 rng(777);
  for (int k = 0; k < 100; ++k) {
    const RandomImpact r = random_impact(rng, 1.0, 0.0, 0.0, true);
    EXPECT_NEAR(r.energy_after, r.energy_before, 1e-9 * r.energy_before) << "sample " << k;
  }
}

}  // namespace
}  // namespace granular::dimer
