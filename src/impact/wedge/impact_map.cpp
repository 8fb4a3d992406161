// A collision with a wall of the wedge (include/granular/impact/wedge/impact_map.hpp).
#include "granular/impact/wedge/impact_map.hpp"

#include <cmath>

#include "granular/impulse/disk_collision.hpp"

namespace granular::wedge {

bool collide(const Params& p, double theta, WallVelocity v, double w, double wall_v,
             Collision& out) {
  const double vbn = wall_v * std::cos(theta), vbt = wall_v * std::sin(theta);
  const double un = v.vn - vbn;      // < 0 on approach
  const double ut = v.vt - vbt + w;  // slip of the contact point (w = Rω/(Aω_b))
  out.e_t = un != 0.0 ? p.wall.e_t(std::fabs(ut / un)) : 1.0;
  const double slip = impulse::removed_slip(ut, out.e_t);
  out.v.vn = impulse::wall_rebound(v.vn, vbn, p.wall.e_n);  // (2.11)
  out.v.vt = v.vt - slip / 3.0;                             // (2.23)
  out.w = w - 2.0 * slip / 3.0;                             // (2.24), times R/(Aω_b)
  return out.v.vn > 0.0;
}

}  // namespace granular::wedge
