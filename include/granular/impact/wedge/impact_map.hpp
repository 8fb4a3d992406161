// A collision of the disk with a wall of the wedge (thesis eqs. 2.11, 2.23, 2.24, through
// impulse/disk_collision.hpp; docs/wedge.md); the wall's velocity at it comes from FBRPA
// (vibration.hpp, fbrpa_bounce) or is the sawtooth's.
#pragma once

#include <cstdint>

#include "granular/contact_law.hpp"
#include "granular/impact/wedge/dynamics.hpp"

namespace granular::wedge {

// The collision rules with the wall moving at (V sin θ, V cos θ) in its frame (v_b^t, v_b^n):
// v' from v and W = Rω/(Aω_b). Returns false when the disk would not bounce back (v'_n ≤ 0),
// which FBRPA rejects.
struct Collision {
  WallVelocity v;  // after
  double w;        // Rω/(Aω_b) after
  double e_t;
};
bool collide(const Params& p, double theta, WallVelocity v, double w, double wall_v,
             Collision& out);

}  // namespace granular::wedge
