#include "granular/md/ed/packing.hpp"

#include <cmath>
#include <limits>

#include "granular/impulse/disk_collision.hpp"
#include "granular/md/ed/collision_time.hpp"
#include "granular/md/state.hpp"
#include "granular/random.hpp"
#include "granular/vibration.hpp"

namespace granular::md::ed {
namespace {

using impulse::ContactVelocity;
using impulse::DiskVelocity;

constexpr double never = std::numeric_limits<double>::infinity();

// Inward unit normals of the walls (state.hpp's Wall ids).
Vec2 wall_normal(int w) {
  return w == wall_left ? Vec2{1.0, 0.0} : w == wall_right ? Vec2{-1.0, 0.0} : Vec2{0.0, 1.0};
}

}  // namespace

EdPacking::EdPacking(const PackingParams& params, const std::vector<double>& radius,
                     const std::vector<double>& mass, const RestitutionSet& laws,
                     const std::vector<DiskSnapshot>& start, double t0, double max_event_rate)
    : p_(params),
      radius_(radius),
      mass_(mass),
      laws_(laws),
      now_(t0),
      max_event_rate_(max_event_rate) {
  for (const DiskSnapshot& s : start) disks_.push_back({t0, s});
  next_.assign(disks_.size(), {never, 0});
  for (int i = 0; i < size(); ++i) check_disk(i);
  if (status_ == 0)
    for (int i = 0; i < size(); ++i) predict(i);
}

DiskSnapshot EdPacking::disk_at(int i, double t) const {
  const Disk& d = disks_[i];
  const double dt = t - d.t;
  DiskSnapshot s = d.s;
  s.x += s.vx * dt;
  s.y += (s.vy - 0.5 * p_.gravity * dt) * dt;
  s.vy -= p_.gravity * dt;
  s.theta += s.omega * dt;
  return s;
}

PackingEnergy EdPacking::energy_at(double t) const {
  PackingEnergy e{0.0, 0.0, 0.0, 0.0, 0.0, 0, 0};
  for (int i = 0; i < size(); ++i) {
    const DiskSnapshot s = disk_at(i, t);
    e.kinetic += 0.5 * mass_[i] * (s.vx * s.vx + s.vy * s.vy);
    e.rotational += 0.25 * mass_[i] * radius_[i] * radius_[i] * s.omega * s.omega;
    e.gravitational += mass_[i] * p_.gravity * s.y;
  }
  return e;
}

void EdPacking::move(int i, double t) {
  disks_[i].s = disk_at(i, t);
  disks_[i].t = t;
}

void EdPacking::predict(int i) {
  const DiskSnapshot a = disk_at(i, now_);
  Prediction best{never, 0};
  const auto consider = [&](double dt, int partner) {
    if (now_ + dt < best.time) best = {now_ + dt, partner};
  };
  consider(wall_collision_time(a.x - radius_[i], a.vx, 0.0), wall_code(wall_left));
  consider(wall_collision_time(p_.box_width - a.x - radius_[i], -a.vx, 0.0), wall_code(wall_right));
  consider(wall_collision_time(a.y - radius_[i], a.vy, p_.gravity), wall_code(wall_bottom));
  for (int j = 0; j < size(); ++j) {
    if (j == i) continue;
    const DiskSnapshot b = disk_at(j, now_);
    consider(pair_collision_time({a.x - b.x, a.y - b.y}, {a.vx - b.vx, a.vy - b.vy},
                                 radius_[i] + radius_[j]),
             j);
  }
  next_[i] = best;
}

void EdPacking::collide_disks(int i, int j) {
  Disk& a = disks_[i];
  Disk& b = disks_[j];
  const Vec2 d{b.s.x - a.s.x, b.s.y - a.s.y};
  const Vec2 e = (1.0 / norm(d)) * d;
  DiskVelocity va{{a.s.vx, a.s.vy}, a.s.omega}, vb{{b.s.vx, b.s.vy}, b.s.omega};
  const Restitution& law = laws_.pair(i, j);
  const ContactVelocity u = impulse::pair_contact_velocity(va, vb, radius_[i], radius_[j], e);
  const double e_t = law.e_t(std::fabs(u.u_t / u.u_n));
  impulse::collide_pair(va, vb, mass_[i], mass_[j], radius_[i], radius_[j], e, law.e_n, e_t);
  a.s.vx = va.v.x;
  a.s.vy = va.v.y;
  a.s.omega = va.omega;
  b.s.vx = vb.v.x;
  b.s.vy = vb.v.y;
  b.s.omega = vb.omega;
  ++counts_.disk_disk;
}

void EdPacking::collide_wall(int i, int w) {
  Disk& a = disks_[i];
  const Vec2 n = wall_normal(w);
  const Restitution& law = laws_.wall(i);
  DiskVelocity v{{a.s.vx, a.s.vy}, a.s.omega};
  double v_b = 0.0;
  if (w == wall_bottom && p_.drive_amplitude > 0.0) {
    // FBRPA (§2.3.3): draws that would not send the disk back up are rejected and redrawn
    const double speed = p_.drive_amplitude * p_.drive_omega;  // Aω
    const FbrpaBounce b = fbrpa_bounce(
        v.v.y / speed, 0.0, p_.seed, static_cast<std::uint64_t>(counts_.bottom),
        [&](double wall_v) { return impulse::wall_rebound(v.v.y, speed * wall_v, law.e_n) > 0.0; });
    counts_.rejections += b.rejections;
    if (!b.bounced) {
      status_ |= status_no_bounce;
      return;
    }
    v_b = speed * b.wall_velocity;
  }
  const ContactVelocity u = impulse::wall_contact_velocity(v, radius_[i], n, v_b);
  const double e_t = law.e_t(std::fabs(u.u_t / u.u_n));
  impulse::collide_wall(v, radius_[i], n, v_b, law.e_n, e_t);
  a.s.vx = v.v.x;
  a.s.vy = v.v.y;
  a.s.omega = v.omega;
  // on the wall exactly: the next prediction sees a gap of 0, not a round-off overlap
  if (w == wall_left) a.s.x = radius_[i];
  if (w == wall_right) a.s.x = p_.box_width - radius_[i];
  if (w == wall_bottom) a.s.y = radius_[i];
  if (w == wall_bottom)
    ++counts_.bottom;
  else
    ++counts_.side_wall;
}

void EdPacking::check_disk(int i) {
  const DiskSnapshot& s = disks_[i].s;
  if (!(std::isfinite(s.x) && std::isfinite(s.y) && std::isfinite(s.vx) && std::isfinite(s.vy) &&
        std::isfinite(s.theta) && std::isfinite(s.omega))) {
    status_ |= status_non_finite;
  } else if (s.x < 0.0 || s.x > p_.box_width || s.y < 0.0) {
    status_ |= status_outside_box;
  }
}

void EdPacking::advance_to(double t) {
  const double cap = max_event_rate_ * static_cast<double>(size()) * (t - now_);
  double events = 0.0;
  while (status_ == 0 && size() > 0) {
    int i = 0;
    for (int k = 1; k < size(); ++k)
      if (next_[k].time < next_[i].time) i = k;
    if (!(next_[i].time < t)) break;
    if (++events > cap) {
      status_ |= status_inelastic_collapse;
      break;
    }
    now_ = next_[i].time;
    const int partner = next_[i].partner;
    move(i, now_);
    if (partner >= 0) {
      move(partner, now_);
      collide_disks(i, partner);
      check_disk(partner);
    } else {
      collide_wall(i, -1 - partner);
    }
    check_disk(i);
    if (status_ != 0) break;
    // the changed disks, and every disk whose prediction named one of them
    for (int k = 0; k < size(); ++k) {
      const int q = next_[k].partner;
      if (k == i || k == partner || q == i || (partner >= 0 && q == partner)) predict(k);
    }
  }
  if (status_ == 0 && t > now_) now_ = t;
}

}  // namespace granular::md::ed
