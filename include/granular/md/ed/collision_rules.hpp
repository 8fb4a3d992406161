// The collision rules of the event-driven (ED) method (Peraza-Mues 2018, §2.3.1; docs/ed.md):
// instantaneous binary collisions that map pre- to post-collision velocities given the normal
// and tangential restitution e_n = −u_n'/u_n (2.7) and e_t = u_t'/u_t (2.8), for uniform disks
// (I = m R²/2). Contact frame of contact_law.hpp: e = unit normal from disk a to its partner
// (disk b, or the contact point on a wall), t̂ = ẑ × e, u_t = (v_a − v_b)·t̂ + R_a ω_a + R_b ω_b.
//   disk–disk  v_a' = v_a − (m_eff/m_a)(1 + e_n) u_n e − (m_eff/m_a)(1 − e_t) u_t/3 t̂   (2.9, 2.19)
//              v_b' = v_b + (m_eff/m_b)(1 + e_n) u_n e + (m_eff/m_b)(1 − e_t) u_t/3 t̂  (2.10, 2.20)
//              ω_a' = ω_a − (2 m_eff/(R_a m_a))(1 − e_t) u_t/3                        (2.21)
//              ω_b' = ω_b − (2 m_eff/(R_b m_b))(1 − e_t) u_t/3                        (2.22)
//              with u_n = (v_a − v_b)·e > 0 approaching here, m_eff = m_a m_b/(m_a + m_b);
//   disk–wall  v'ⁿ = −e_n vⁿ + (1 + e_n) v_bⁿ along the wall's inward normal          (2.11)
//              v'ᵗ = vᵗ − (1 − e_t) uᵗ/3,  ω' = ω − 2(1 − e_t) uᵗ/(3R)                (2.23, 2.24)
//              the wall moving at v_b along its normal only (FBRPA's bottom, §2.3.3).
// Both conserve the angular momentum of each disk about the contact point (2.13, 2.14); the
// disk–disk rule conserves momentum.
#pragma once

#include "granular/vec2.hpp"

namespace granular::md::ed {

// A disk's velocity and spin.
struct DiskVelocity {
  Vec2 v;        // [m/s]
  double omega;  // [rad/s], counter-clockwise
};

// Relative contact velocities of disk a and disk b (radii r_a, r_b) at unit normal e (a → b):
// u_n = (v_a − v_b)·e (> 0 approaching) and u_t.
struct ContactVelocity {
  double u_n;
  double u_t;
};
ContactVelocity pair_contact_velocity(const DiskVelocity& a, const DiskVelocity& b, double r_a,
                                      double r_b, Vec2 e);

// Applies (2.9)–(2.10) and (2.19)–(2.22) to disks a and b (masses m_a, m_b, radii r_a, r_b) at
// unit normal e (a → b) with restitution e_n and e_t.
void collide_pair(DiskVelocity& a, DiskVelocity& b, double m_a, double m_b, double r_a, double r_b,
                  Vec2 e, double e_n, double e_t);

// Relative contact velocities of a disk of radius r on a wall with inward unit normal n moving
// at v_b along n: u_n = vⁿ − v_b (< 0 approaching, the thesis' sign) and uᵗ = vᵗ + R ω along
// t̂ = ẑ × (−n).
ContactVelocity wall_contact_velocity(const DiskVelocity& d, double r, Vec2 n, double v_b);

// Applies (2.11), (2.23), (2.24) to a disk of radius r on a wall with inward unit normal n
// moving at v_b along n.
void collide_wall(DiskVelocity& d, double r, Vec2 n, double v_b, double e_n, double e_t);

}  // namespace granular::md::ed
