// Prescribed bodies of a packing: disks and straight walls whose motion the case prescribes,
// whatever the forces on them (thesis §2.2: walls are "special particles"; §5.3.1: the randomly
// vibrated supports of the 3-disk system; §6.2: the vibrated wedge). They meet the free disks
// with the packing's contact law and skin, as any disk or box wall does (docs/model.md,
// "Prescribed bodies").
//
// A body has a rest pose (x0, y0, θ0) and each of its coordinates deviates from it
// independently: not at all, sinusoidally (A sin ωt for t > 0, at rest before, as the bottom
// wall), or by the random vibration of random_vibration.hpp (exact step, normal deviates from
// the packing's Philox stream: key = the packing's seed, counter = (step, body, coordinate)).
// A prescribed disk is a disk of the packing with no inverse mass: predict moves it as any
// disk, then move_bodies puts it where its motion says, with zero acceleration, so that
// correct leaves it there. A wall is the line through its reference point along the angle θ
// (tangent (cos θ, sin θ), inward normal (−sin θ, cos θ)), restricted to the projections
// s ∈ [s_min, s_max] of a disk's centre (±∞: a half-line or a whole line); a disk whose centre
// projects outside does not touch it (the ends are not contact points).
#pragma once

#include <cstdint>

#include "granular/portable_sincos.hpp"
#include "granular/hd.hpp"
#include "granular/md/contact.hpp"
#include "granular/md/random_vibration.hpp"
#include "granular/md/view.hpp"
#include "granular/random.hpp"

namespace granular::md {

// The state of a body's three coordinates at the current step: deviations from rest and their
// rates, (dx, dy, dθ, vx, vy, ω), in EnsembleState::body_motion.
constexpr int body_motion_size = 6;

// Deviation and rate of one coordinate at time t, for the drives that need no state.
struct AxisValue {
  double deviation;
  double rate;
};

GRANULAR_HD inline AxisValue sine_axis(const AxisMotion& a, double t) {
  const bool driven = t > 0.0;
  const SinCos phase = sin_cos(a.omega * t);
  return {driven ? a.amplitude * phase.sin : 0.0, driven ? a.amplitude * a.omega * phase.cos : 0.0};
}

// The random stream of coordinate `axis` of body b (counted within its packing).
GRANULAR_HD inline RandomKey body_axis_key(const PackingParams& pp, int b, int axis) {
  return {pp.seed, 0u, static_cast<std::uint32_t>(3 * (b - pp.body_first) + axis)};
}

// Disk i's kinematics set to its body's motion, with zero acceleration and higher derivatives.
GRANULAR_HD inline void place_prescribed_disk(const EnsembleView& v, const Body& body,
                                              const double* motion) {
  const int i = body.disk;
  v.x[i] = body.x0 + motion[0];
  v.y[i] = body.y0 + motion[1];
  v.theta[i] = body.theta0 + motion[2];
  v.vx[i] = motion[3];
  v.vy[i] = motion[4];
  v.omega[i] = motion[5];
  v.ax[i] = 0.0;
  v.ay[i] = 0.0;
  v.alpha[i] = 0.0;
  for (int k = 0; k < 9; ++k) gear_column(v, k)[i] = 0.0;
}

// move_bodies: packing p's bodies to the end of step `step` (time t): random coordinates take
// one exact step with that step's deviates, sine coordinates are evaluated at t, prescribed
// disks placed. Runs once per step, after predict and before the rebuild check. Returns whether
// a prescribed disk moved more than half the skin since the last rebuild (the schedules that
// check disks as they predict them leave the prescribed ones, inv_mass 0, to this).
GRANULAR_HD inline bool move_bodies(const EnsembleView& v, int p, std::int64_t step, double t) {
  const PackingParams& pp = v.packings[p];
  bool moved = false;
  for (int b = pp.body_first; b < pp.body_first + pp.body_count; ++b) {
    const Body& body = v.bodies[b];
    double* motion = v.body_motion + body_motion_size * b;
    for (int axis = 0; axis < 3; ++axis) {
      const AxisMotion& a = body.axis[axis];
      if (a.drive == AxisDrive::random) {
        const NormalQuad n =
            random_normals(body_axis_key(pp, b, axis), static_cast<std::uint64_t>(step));
        advance_random_vibration(a.step, motion[axis], motion[3 + axis], n.n[0], n.n[1]);
      } else {
        const AxisValue value = a.drive == AxisDrive::sine ? sine_axis(a, t) : AxisValue{0.0, 0.0};
        motion[axis] = value.deviation;
        motion[3 + axis] = value.rate;
      }
    }
    if (body.shape == BodyShape::disk) {
      place_prescribed_disk(v, body, motion);
      const double dx = v.x[body.disk] - v.x_ref[body.disk];
      const double dy = v.y[body.disk] - v.y_ref[body.disk];
      moved = moved || 4.0 * (dx * dx + dy * dy) > v.skin * v.skin;
    }
  }
  return moved;
}

// A wall body at its current pose.
struct PlacedWall {
  Vec2 point;    // reference point [m]
  Vec2 tangent;  // unit tangent; the inward normal is perp(tangent)
  Vec2 velocity;
  double omega;  // [rad/s]
};

GRANULAR_HD inline PlacedWall placed_wall(const Body& body, const double* motion) {
  const SinCos angle = sin_cos(body.theta0 + motion[2]);
  return {{body.x0 + motion[0], body.y0 + motion[1]},
          {angle.cos, angle.sin},
          {motion[3], motion[4]},
          motion[5]};
}

// Does the disk touch wall body `body` at its motion? Then `wall` is the wall as the contact
// law sees it, with the wall's material velocity where the disk touches it (a turning wall
// sweeps it).
GRANULAR_HD inline bool touches_wall_body(const Body& body, const double* motion,
                                          const DiskKinematics& disk, WallKinematics& wall) {
  const PlacedWall w = placed_wall(body, motion);
  const Vec2 normal = perp(w.tangent);
  const Vec2 offset = disk.r - w.point;
  const double s = dot(offset, w.tangent);
  const double overlap = disk.radius - dot(offset, normal);
  if (!(overlap > 0.0 && s >= body.s_min && s <= body.s_max)) return false;
  const Vec2 arm = offset - disk.radius * normal;
  wall = {normal, w.point, w.velocity + w.omega * perp(arm)};
  return true;
}

// Disk i's contacts with packing p's wall bodies, added to its force and torque.
GRANULAR_HD inline void add_body_wall_forces(const EnsembleView& v, int p, int i, Vec2& force,
                                             double& torque) {
  const PackingParams& pp = v.packings[p];
  const DiskKinematics disk = {{v.x[i], v.y[i]}, {v.vx[i], v.vy[i]}, v.theta[i], v.radius[i]};
  for (int b = pp.body_first; b < pp.body_first + pp.body_count; ++b) {
    const Body& body = v.bodies[b];
    if (body.shape != BodyShape::wall) continue;
    ContactSlot& slot = v.body_walls[i * v.wall_bodies + body.wall_slot];
    WallKinematics wall;
    if (!touches_wall_body(body, v.body_motion + body_motion_size * b, disk, wall)) {
      slot.partner = -1;
      continue;
    }
    const bool fresh = slot.partner < 0;
    slot.partner = body.wall_slot;
    const ContactResult c = disk_wall_contact(pp.disk_wall, disk, wall, fresh, slot.skin);
    force = force + c.force_a;
    torque += c.torque_a;
  }
}

// The external torque on packing p's driven disk at time t: A_e sin(ω_e t) + rate·t for t > 0
// (thesis §5.2: the harmonic torque; the ramp finds the slip onsets quasi-statically).
GRANULAR_HD inline double applied_torque(const AppliedTorque& a, double t) {
  if (!(t > 0.0)) return 0.0;
  return a.amplitude * sin_cos(a.omega * t).sin + a.rate * t;
}

}  // namespace granular::md
