// Times to the next collision in the event-driven (ED) method (Peraza-Mues 2018, §2.3.2;
// docs/ed.md): between events every disk flies on a parabola under gravity −g ŷ, so
//   disk–disk   relative gravity cancels: |r + v Δt| = R_ij, the smaller root of the quadratic
//               (2.29), in the cancellation-free form (2.30)
//                 Δt = (r² − R_ij²) / (−r·v + √((r·v)² − v²(r² − R_ij²)))   only if r·v < 0;
//   disk–wall   (r·n − R) + (v·n) Δt − (g n_y / 2) Δt² = 0 (2.33), the root (2.34) the disk
//               reaches moving towards the wall, without cancellation.
// Both return +∞ when there is no collision ahead, and 0 when the disk already touches (or,
// by round-off, overlaps) and approaches: then it collides now.
#pragma once

#include "granular/vec2.hpp"

namespace granular::md::ed {

// r² − R² without cancellation near contact: the squares are split exactly with fma
// (TwoProduct) and summed with their rounding errors (TwoSum), so the result is correct to
// about one rounding of itself even when |r| − R is 10⁻⁹ R (Ogita, Rump & Oishi 2005).
double gap_of_squares(Vec2 r, double contact);

// Δt until disks at relative position r = r_i − r_j and relative velocity v = v_i − v_j touch
// at centre distance `contact` = R_i + R_j (eq. 2.30) [s]; +∞ when r·v ≥ 0 (not approaching)
// or the disks miss each other.
double pair_collision_time(Vec2 r, Vec2 v, double contact);

// Δt until a disk whose gap to a wall is `gap` = r·n − R [m], moving at v_n = v·n [m/s] along
// the wall's inward normal n, touches it when gravity pulls it towards the wall at g_n = g n_y
// ≥ 0 [m/s²] (eqs. 2.33–2.34) [s]: the smaller root while v_n < 0, the root after the apex
// while v_n ≥ 0 (the one that is not the present contact); +∞ when g_n = 0 and v_n ≥ 0.
double wall_collision_time(double gap, double v_n, double g_n);

}  // namespace granular::md::ed
