// A collision of the disk with a wall of the wedge (thesis eqs. 2.11, 2.23, 2.24; docs/wedge.md)
// and the wall's velocity at it by the fixed-bottom random-phase approximation (FBRPA, §2.3.3).
#pragma once

#include <cstdint>

#include "granular/contact_law.hpp"
#include "granular/impact/wedge/dynamics.hpp"

namespace granular::wedge {

// e_t at the ratio |u_t/u_n| (params.hpp, TangentialLaw); in [−1, 1]. The contact law's table
// is interpolated linearly in log ratio; below its range its first value (the sticking limit
// cos(ω_t t_c), eq. 4.79), above it the full-sliding e_t (4.75), which holds there.
double tangential_restitution(const WedgeParams& p, double ut_over_un);

// The table of e_t for a disk of `radius` and `areal_density` on a wall with the contact law
// `wall` (thesis §4.5.2): one collision per ratio, run through the packing engine
// (md::run_collision), from 10⁻³ to 10³ in steps of 0.05 decades. Throws std::runtime_error
// when a collision does not end (a contact law outside the engine's domain).
RestitutionTable tabulate_wall_restitution(const ContactParams& wall, double radius,
                                           double areal_density);

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
