// Tests for include/granular/impulse/restitution.hpp: frictionless closed form, the stick/slip
// boundary and the Coulomb cone of the Newton–Coulomb impact law.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "granular/contact_law.hpp"
#include "granular/impulse/restitution.hpp"

namespace granular::impulse {
namespace {

// A uniform disk (m, R) hitting a flat wall at its rim: W = [[1/m, 0], [0, 3/m]].
Delassus disk_on_wall(double m) { return {1.0 / m, 0.0, 3.0 / m}; }

TEST(ImpulseLaw, FrictionlessImpulseIsNewtonsClosedForm) {
  const Delassus w = disk_on_wall(2.0);
  const ContactImpulse p = newton_coulomb_impact(w, -1.5, 0.7, 0.8, 0.0, 0.0);
  EXPECT_NEAR(p.p_n, (1.0 + 0.8) * 1.5 * 2.0, 1e-12);
  EXPECT_EQ(p.p_t, 0.0);
  EXPECT_NEAR(-1.5 + w.w_nn * p.p_n, newton_rebound(-1.5, 0.8), 1e-12);
}

// A spinless disk on a static wall sticks iff |u_t/u_n| ≤ 3 μ_s (1 + e) (sticking needs
// |P_t| = m |u_t|/3 within μ_s P_n = μ_s m (1 + e)|u_n|); otherwise it slides with μ_k.
TEST(ImpulseLaw, StickSlipBoundaryOfADiskOnAWall) {
  const double m = 1.0, e = 0.6, mu_s = 0.3, mu_k = 0.2, u_n = -1.0;
  const double boundary = 3.0 * mu_s * (1.0 + e);
  const ContactImpulse below =
      newton_coulomb_impact(disk_on_wall(m), u_n, 0.999 * boundary, e, mu_s, mu_k);
  const ContactImpulse above =
      newton_coulomb_impact(disk_on_wall(m), u_n, 1.001 * boundary, e, mu_s, mu_k);
  EXPECT_TRUE(below.sticking);
  EXPECT_NEAR(0.999 * boundary + 3.0 / m * below.p_t, 0.0, 1e-12);  // u_t' = 0
  EXPECT_FALSE(above.sticking);
  EXPECT_NEAR(above.p_t, -mu_k * above.p_n, 1e-12);
  EXPECT_NEAR(above.p_n, (1.0 + e) * m, 1e-12);
}

// The impulse always lies in the kinetic or static cone, and the normal rebound is Newton's.
TEST(ImpulseLaw, ImpulseStaysInTheConeOverRandomImpacts) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int k = 0; k < 5000; ++k) {
    const double a = 1.0 + u(rng), c = 1.0 + u(rng), b = 0.3 * u(rng) * std::sqrt(a * c);
    const Delassus w{a, b, c};
    const double mu_s = 0.5 * (1.0 + u(rng)), mu_k = 0.9 * mu_s, e = 0.5 * (1.0 + u(rng));
    const double u_n = -0.1 - std::fabs(u(rng)), u_t = 2.0 * u(rng);
    const ContactImpulse p = newton_coulomb_impact(w, u_n, u_t, e, mu_s, mu_k);
    EXPECT_GE(p.p_n, 0.0);
    EXPECT_LE(std::fabs(p.p_t), (p.sticking ? mu_s : mu_k) * p.p_n * (1.0 + 1e-12));
    EXPECT_NEAR(u_n + w.w_nn * p.p_n + w.w_nt * p.p_t, -e * u_n, 1e-10);
  }
}

}  // namespace
}  // namespace granular::impulse
