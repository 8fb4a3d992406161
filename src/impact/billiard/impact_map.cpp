// The billiard's impact map (include/granular/impact/billiard/impact_map.hpp).
#include "granular/impact/billiard/impact_map.hpp"

#include <cmath>

#include "granular/contact_law.hpp"
#include "granular/impulse/restitution.hpp"

namespace granular::billiard {

BilliardImpactResult billiard_impact(const BilliardBall& ball, const BilliardImpactLaw& law,
                                     double z, Vec2 v, double spin, Vec2 wall_velocity) {
  // contact frame (spec §4): c1 tangent, c2 normal into the domain, P = centre − b c2
  const Vec2 c1{std::cos(z), std::sin(z)};
  const Vec2 c2{-std::sin(z), std::cos(z)};
  const double b = ball.radius;
  const double u4 = dot(v, c1), u5 = dot(v, c2);
  const double u4w = dot(wall_velocity, c1), u5w = dot(wall_velocity, c2);
  BilliardImpactResult r{};
  r.u_n_before = u5 - u5w;
  r.u_t_before = u4 + b * spin - u4w;
  // the low-velocity rule (Sec. V): e = 1 below the collapse threshold
  r.e_used = std::fabs(r.u_n_before) < law.low_velocity_speed ? 1.0 : law.e;

  double u4_after = u4, u5_after = u5, spin_after = spin;
  if (law.law == ImpactLaw::gorski_srokowski) {
    // Eq. 12 in the wall's frame: both components of the relative velocity scale by r
    u5_after = u5w - law.r * (u5 - u5w);
    u4_after = u4w + law.r * (u4 - u4w);
    r.sticking = false;
  } else {
    // Kane–Levinson (Eqs. 24–46): Δu5 = S2/m, Δu4 = S1/m, Δu3 = b S1/J, so the contact's
    // Delassus matrix is diag(1/m, 1/m + b²/J) (k of Eq. 40); the trial stick keeps
    // u4 + b u3 = u4' if |S1| <= μ S2, else slip with |S1| = μ' S2 against the approach slip
    const double k = 1.0 / ball.mass + b * b / ball.inertia;
    const impulse::Delassus w{1.0 / ball.mass, 0.0, k};
    const impulse::ContactImpulse p = impulse::newton_coulomb_impact(
        w, r.u_n_before, r.u_t_before, r.e_used, law.mu_static, law.mu_kinetic);
    r.p_n = p.p_n;
    r.p_t = p.p_t;
    r.sticking = p.sticking;
    u5_after = u5 + p.p_n / ball.mass;
    u4_after = u4 + p.p_t / ball.mass;
    spin_after = spin + b * p.p_t / ball.inertia;
  }
  r.u4_after = u4_after;
  r.u5_after = u5_after;
  r.spin = spin_after;
  r.v = u4_after * c1 + u5_after * c2;
  return r;
}

}  // namespace granular::billiard
