// The instantaneous collisions of uniform disks (I = m R²/2) of Peraza-Mues 2018, §2.3.1 (docs/
// ed.md, docs/wedge.md): binary collisions that map pre- to post-collision velocities given the
// normal and tangential restitution e_n = −u_n'/u_n (2.7) and e_t = u_t'/u_t (2.8). The
// event-driven packings and the wedge's map both collide through these functions. Contact frame
// of contact_law.hpp: e = unit normal from disk a to its partner (disk b, or the contact point
// on a wall), t̂ = ẑ × e, u_t = (v_a − v_b)·t̂ + R_a ω_a + R_b ω_b.
//   disk–disk  v_a' = v_a − (m_eff/m_a)(1 + e_n) u_n e − (m_eff/m_a)(1 − e_t) u_t/3 t̂   (2.9, 2.19)
//              v_b' = v_b + (m_eff/m_b)(1 + e_n) u_n e + (m_eff/m_b)(1 − e_t) u_t/3 t̂  (2.10, 2.20)
//              ω_a' = ω_a − (2 m_eff/(R_a m_a))(1 − e_t) u_t/3                        (2.21)
//              ω_b' = ω_b − (2 m_eff/(R_b m_b))(1 − e_t) u_t/3                        (2.22)
//              with u_n = (v_a − v_b)·e > 0 approaching here, m_eff = m_a m_b/(m_a + m_b);
//   disk–wall  v'ⁿ = −e_n vⁿ + (1 + e_n) v_bⁿ along the wall's inward normal          (2.11)
//              v'ᵗ = vᵗ − (1 − e_t) uᵗ/3,  ω' = ω − 2(1 − e_t) uᵗ/(3R)                (2.23, 2.24)
//              uᵗ the slip of the contact point relative to the wall.
// Both conserve the angular momentum of each disk about the contact point (2.13, 2.14); the
// disk–disk rule conserves momentum.
#pragma once

#include "granular/hd.hpp"
#include "granular/vec2.hpp"

namespace granular::impulse {

// (2.11): the normal velocity after a wall collision, the wall moving at v_bn along its normal.
GRANULAR_HD inline double wall_rebound(double v_n, double v_bn, double e_n) {
  return -e_n * v_n + (1.0 + e_n) * v_bn;
}

// (1 − e_t) uᵗ: the slip a collision removes; (2.23) takes a third of it from the centre's
// tangential velocity, (2.24) two thirds from R ω.
GRANULAR_HD inline double removed_slip(double u_t, double e_t) { return (1.0 - e_t) * u_t; }

// A disk's velocity and spin.
struct DiskVelocity {
  Vec2 v;        // [m/s]
  double omega;  // [rad/s], counter-clockwise
};

// Relative contact velocities: u_n (normal) and u_t (the contact point's slip).
struct ContactVelocity {
  double u_n;
  double u_t;
};

// Disk a on disk b (radii r_a, r_b) at unit normal e (a → b): u_n = (v_a − v_b)·e (> 0
// approaching) and u_t.
GRANULAR_HD inline ContactVelocity pair_contact_velocity(const DiskVelocity& a,
                                                         const DiskVelocity& b, double r_a,
                                                         double r_b, Vec2 e) {
  const Vec2 v = a.v - b.v;
  return {dot(v, e), dot(v, perp(e)) + r_a * a.omega + r_b * b.omega};
}

// Applies (2.9)–(2.10) and (2.19)–(2.22) to disks a and b (masses m_a, m_b, radii r_a, r_b) at
// unit normal e (a → b) with restitution e_n and e_t.
GRANULAR_HD inline void collide_pair(DiskVelocity& a, DiskVelocity& b, double m_a, double m_b,
                                     double r_a, double r_b, Vec2 e, double e_n, double e_t) {
  const ContactVelocity u = pair_contact_velocity(a, b, r_a, r_b, e);
  const double m_eff = m_a * m_b / (m_a + m_b);
  // normal and tangential impulses on a [kg m/s]; b receives the opposite
  const double p_n = -m_eff * (1.0 + e_n) * u.u_n;
  const double p_t = -m_eff * (1.0 - e_t) * u.u_t / 3.0;
  const Vec2 impulse = p_n * e + p_t * perp(e);
  a.v = a.v + (1.0 / m_a) * impulse;
  b.v = b.v - (1.0 / m_b) * impulse;
  // torque of the tangential impulse about each centre: R p_t on both (contact_law.hpp)
  a.omega += 2.0 * p_t / (m_a * r_a);
  b.omega += 2.0 * p_t / (m_b * r_b);
}

// A disk of radius r on a wall with inward unit normal n moving at v_b along n: u_n = vⁿ − v_b
// (< 0 approaching, the thesis' sign) and uᵗ = vᵗ + R ω along t̂ = ẑ × (−n).
GRANULAR_HD inline ContactVelocity wall_contact_velocity(const DiskVelocity& d, double r, Vec2 n,
                                                         double v_b) {
  return {dot(d.v, n) - v_b, dot(d.v, perp(-n)) + r * d.omega};
}

// Applies (2.11), (2.23), (2.24) to a disk of radius r on a wall with inward unit normal n
// moving at v_b along n.
GRANULAR_HD inline void collide_wall(DiskVelocity& d, double r, Vec2 n, double v_b, double e_n,
                                     double e_t) {
  const ContactVelocity u = wall_contact_velocity(d, r, n, v_b);
  const Vec2 t = perp(-n);
  const double slip = removed_slip(u.u_t, e_t);
  const double vt = dot(d.v, t) - slip / 3.0;                  // (2.23)
  d.v = wall_rebound(dot(d.v, n), v_b, e_n) * n + vt * t;      // (2.11)
  d.omega -= 2.0 * slip / (3.0 * r);                           // (2.24)
}

}  // namespace granular::impulse
