// A collision of the disk with a wall of the wedge (thesis eqs. 2.11, 2.23, 2.24; docs/wedge.md)
// and the wall's velocity at it by the fixed-bottom random-phase approximation (FBRPA, §2.3.3).
#pragma once

#include <cstdint>

#include "granular/impact/wedge/dynamics.hpp"

namespace granular::wedge {

// e_t at the ratio |u_t/u_n| (params.hpp, TangentialLaw); in [−1, 1].
double tangential_restitution(const WedgeParams& p, double ut_over_un);

// The vertical wall velocity V (units of Aω_b) at a collision whose normal approach speed is vn
// (< 0, units of Aω_b) on a wall at angle θ: the first intersection of a straight incoming
// trajectory of slope vn, at a uniformly random phase (`u` ∈ (0, 1)), with the wall's normal
// displacement cos θ sin(φ). Flux weighting and shadowing follow (thesis eq. 2.40).
double fbrpa_wall_velocity(double vn, double theta, double u);

// The collision rules with the wall moving at (V sin θ, V cos θ) in its frame (v_b^t, v_b^n):
// v' from v and W = Rω/(Aω_b). Returns false when the disk would not bounce back (v'_n ≤ 0),
// which FBRPA rejects.
struct Collision {
  WallVelocity v;  // after
  double w;        // Rω/(Aω_b) after
  double e_t;
};
bool collide(const WedgeParams& p, double theta, WallVelocity v, double w, double wall_v,
             Collision& out);

}  // namespace granular::wedge
