// One disk–disk or disk–wall contact of the packing MD: geometry plus the contact law of
// contact_law.hpp. Pure GRANULAR_HD functions: the caller owns the history and decides what to
// do with the result (forces() accumulates it, observers read energies from it).
#pragma once

#include <cmath>

#include "granular/contact_law.hpp"
#include "granular/portable_sincos.hpp"
#include "granular/hd.hpp"
#include "granular/md/state.hpp"
#include "granular/vec2.hpp"

namespace granular::md {

// What a contact needs to know of one disk.
struct DiskKinematics {
  Vec2 r;         // centre [m]
  Vec2 v;         // velocity [m/s]
  double theta;   // unwrapped angle [rad]
  double radius;  // [m]
};

// Force and torques of one contact. Force on b (disk–disk) is −force_a.
struct ContactResult {
  Vec2 force_a;     // force on disk a [N]
  double torque_a;  // torque on disk a [N m]
  double torque_b;  // torque on disk b [N m] (disk–disk only)
  double normal;    // normal force magnitude n [N]
  double overlap;   // δ [m]
  double xi;        // capped skin stretch ξ [m]
};

// Overlap of a disk pair [m]; positive when the disks touch.
GRANULAR_HD inline double pair_overlap(const DiskKinematics& a, const DiskKinematics& b) {
  return a.radius + b.radius - norm(b.r - a.r);
}

// Disk–disk contact in canonical order (a has the lower index), overlap > 0. `fresh` opens the
// skin at the current coordinates; `h` is updated by a slip.
GRANULAR_HD inline ContactResult disk_disk_contact(const ContactParams& p, const DiskKinematics& a,
                                                   const DiskKinematics& b, bool fresh,
                                                   SkinHistory& h) {
  const Vec2 d = b.r - a.r;
  const double dist = norm(d);
  const Vec2 e = (1.0 / dist) * d;
  const Vec2 t = perp(e);
  const double overlap = a.radius + b.radius - dist;
  const double overlap_rate = dot(a.v - b.v, e);  // δ̇ = −d|r_ab|/dt
  const double n = normal_force(p, overlap, overlap_rate);
  // skin (eq. 4.5): re-anchor on a slip, and after the normal turned by skin_reanchor_turn
  if (fresh) h = skin_anchor_pair(a.theta, b.theta, e, 0.0);
  const double turn = skin_turn(h, e);
  const double xi_free = skin_xi_disk_disk(h, a.radius, b.radius, a.theta, b.theta, turn);
  const double xi = skin_cap(p, xi_free, n);
  // selects rather than a branch: slips come and go from step to step (and a GPU warp would
  // diverge on them)
  const bool reanchor = (xi != xi_free) | (fabs(turn) >= skin_reanchor_turn);
  h.theta_a = reanchor ? a.theta : h.theta_a;
  h.theta_b = reanchor ? b.theta : h.theta_b;
  h.anchor_x = reanchor ? e.x : h.anchor_x;
  h.anchor_y = reanchor ? e.y : h.anchor_y;
  h.xi_anchor = reanchor ? xi : h.xi_anchor;
  const double tau = p.k_t * xi;
  return {-n * e - tau * t, -a.radius * tau, -b.radius * tau, n, overlap, xi};
}

// A flat wall: inward unit normal, a point on it, and its velocity.
struct WallKinematics {
  Vec2 normal;    // unit normal pointing into the box
  Vec2 point;     // reference point on the wall (origin of its tangential coordinate) [m]
  Vec2 velocity;  // [m/s]
};

// Overlap of a disk with a wall [m].
GRANULAR_HD inline double wall_overlap(const DiskKinematics& a, const WallKinematics& w) {
  return a.radius - dot(a.r - w.point, w.normal);
}

// Disk–wall contact, overlap > 0 (eq. 4.7): the wall acts as disk b of infinite radius and
// mass; e = −normal points from the centre to the contact, t̂ = ẑ × e.
GRANULAR_HD inline ContactResult disk_wall_contact(const ContactParams& p, const DiskKinematics& a,
                                                   const WallKinematics& w, bool fresh,
                                                   SkinHistory& h) {
  const Vec2 e = -w.normal;
  const Vec2 t = perp(e);
  const double overlap = wall_overlap(a, w);
  const double overlap_rate = dot(a.v - w.velocity, e);
  const double n = normal_force(p, overlap, overlap_rate);
  const double s = dot(a.r - w.point, t);
  if (fresh) h = skin_anchor_wall(a.theta, s, 0.0);
  const double xi_free = skin_xi_disk_wall(h, a.radius, a.theta, s);
  const double xi = skin_cap(p, xi_free, n);
  if (xi != xi_free) h = skin_anchor_wall(a.theta, s, xi);
  const double tau = p.k_t * xi;
  return {-n * e - tau * t, -a.radius * tau, 0.0, n, overlap, xi};
}

// The three walls of packing `pp` at time t: side walls at x = 0 and x = W, bottom at
// y_b(t) = A sin(ω t) for t > 0 and at rest at y = 0 before (settling).
GRANULAR_HD inline WallKinematics wall_at(const PackingParams& pp, int wall, double t) {
  switch (wall) {
    case wall_left:
      return {{1.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}};
    case wall_right:
      return {{-1.0, 0.0}, {pp.box_width, 0.0}, {0.0, 0.0}};
    default: {
      const bool driven = t > 0.0;
      const double phase = pp.drive_omega * t;
      const SinCos drive = sin_cos(phase);  // the same bits on every backend
      const double y_b = driven ? pp.drive_amplitude * drive.sin : 0.0;
      const double v_b = driven ? pp.drive_amplitude * pp.drive_omega * drive.cos : 0.0;
      return {{0.0, 1.0}, {0.0, y_b}, {0.0, v_b}};
    }
  }
}

}  // namespace granular::md
