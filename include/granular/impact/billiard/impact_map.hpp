// The billiard's impact map (Hartl, Miller & Mazzoleni 2011, appendix; docs/billiard.md): the
// Kane–Levinson or Gorski–Srokowski law against a moving wall.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/billiard/impact_map.hpp is host-only"
#endif

#include "granular/impact/billiard/params.hpp"

namespace granular::billiard {

// One impact (spec §4): lab velocity v and spin before, the wall's velocity, angle z.
struct BilliardImpactResult {
  Vec2 v;             // velocity after [m/s]
  double spin;        // u3 after [rad/s]
  double u_n_before;  // relative normal velocity before (< 0 approaching) [m/s]
  double u_t_before;  // slip of the contact point relative to the wall before [m/s]
  double u4_after;    // v·c1 after [m/s]
  double u5_after;    // v·c2 after [m/s]
  double p_n;         // normal impulse S2 [N s]
  double p_t;         // tangential impulse S1 [N s]
  double e_used;      // restitution applied (1 under the low-velocity rule)
  bool sticking;      // the no-slip trial was accepted (Eq. 34)
};
BilliardImpactResult billiard_impact(const BilliardBall& ball, const BilliardImpactLaw& law,
                                     double z, Vec2 v, double spin, Vec2 wall_velocity);

}  // namespace granular::billiard
