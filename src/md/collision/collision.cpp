#include "granular/md/collision/collision.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "granular/constants.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/contact.hpp"
#include "granular/md/state.hpp"

namespace granular::md {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// free steps before the one in which first touch happens, and steps after the end before the
// free-flight velocities are read (the Gear corrector rings for a few steps after n vanishes)
constexpr double free_steps = 2.0;
constexpr std::int64_t steps_after_end = 50;
// most steps of one run: 100 durations at 10⁶ steps each (the collision model takes at most
// 10⁵ steps per collision, the e_t tables 2 000)
constexpr double max_collision_run_steps = 1e8;
// most neighbor cells of its box (a few hundred in the shipped cases)
constexpr double max_collision_cells = 1e6;

// Relative kinematics of the colliding contact, with the formulas of contact.hpp (spec §2.2).
struct PairKinematics {
  Vec2 d;          // relative position of the partner, r_b − r_a (wall: unused) [m]
  Vec2 v;          // relative velocity v_a − v_b (or v_a − v_w) [m/s]
  double overlap;  // δ [m]
  double rate;     // δ̇ = (v_a − v_b)·e [m/s]
  double u_t;      // (v_a − v_b)·t̂ + R_a ω_a + R_b ω_b [m/s]
};

DiskKinematics disk_of(const EnsembleModel& m, const EnsembleState& s, int i) {
  return {{s.x[i], s.y[i]}, {s.vx[i], s.vy[i]}, s.theta[i], m.radius[i]};
}

PairKinematics pair_kinematics(const CollisionCase& c, const EnsembleModel& m,
                               const EnsembleState& s) {
  const DiskKinematics a = disk_of(m, s, 0);
  if (c.kind == CollisionKind::disk_wall) {
    const WallKinematics w = wall_at(m.packings[0], wall_bottom, s.time(m));
    const Vec2 e = -w.normal;
    const Vec2 v = a.v - w.velocity;
    return {{0.0, 0.0}, v, wall_overlap(a, w), dot(v, e), dot(v, perp(e)) + a.radius * s.omega[0]};
  }
  const DiskKinematics b = disk_of(m, s, 1);
  const Vec2 d = b.r - a.r;
  const Vec2 e = (1.0 / norm(d)) * d;
  const Vec2 v = a.v - b.v;
  return {d, v, pair_overlap(a, b), dot(v, e),
          dot(v, perp(e)) + a.radius * s.omega[0] + b.radius * s.omega[1]};
}

// The normal force before the cutoff of eq. 4.2: its zero ends the collision (spec §3.2).
double uncut_normal(const ContactParams& p, const PairKinematics& k) {
  return p.k_n * k.overlap + p.gamma_n * k.rate;
}

// Time after the state `k` (no contact, free flight) at which the overlap reaches 0.
// Disk–wall: δ is linear in time. Disk–disk: |d − v s| = R_a + R_b, the smaller root.
double time_to_touch(const CollisionCase& c, const PairKinematics& k) {
  if (c.kind == CollisionKind::disk_wall) return -k.overlap / k.rate;
  const double contact = c.radius_a + c.radius_b;
  const double vv = dot(k.v, k.v);
  const double dv = dot(k.d, k.v);  // > 0 while approaching
  const double dd = dot(k.d, k.d) - contact * contact;
  // stable form of (dv − √(dv² − vv·dd)) / vv
  return dd / (dv + std::sqrt(std::max(dv * dv - vv * dd, 0.0)));
}

// The closed forms of the pair's law (spec §3.2–3.3) and the time step; the measured e_n, e_t
// and t_c NaN until a run measures them.
CollisionResult closed_forms(const CollisionCase& c, double m_a, double m_b) {
  const ContactParams& p = c.contact;
  CollisionResult r{};
  r.m_eff = effective_mass(m_a, m_b);
  r.damping_ratio = damping_ratio(p.k_n, p.gamma_n, r.m_eff);
  const NormalRestitution closed = linear_dashpot_restitution(p.k_n, p.gamma_n, r.m_eff);
  r.e_n_predicted = closed.e_n;
  r.t_c_predicted = closed.t_c;
  const double ratio = std::fabs(c.u_t / c.u_n);
  r.e_t_full_sliding = c.u_t != 0.0 ? full_sliding_e_t(closed.e_n, p.mu, ratio) : nan;
  r.full_sliding_threshold = full_sliding_threshold(p.mu, p.k_t / p.k_n);
  r.full_sliding_valid = c.u_t != 0.0 && ratio > r.full_sliding_threshold;
  r.e_t_sticking_limit = sticking_limit_e_t(p.k_t, r.m_eff, closed.t_c);
  r.dt = c.dt > 0.0 ? c.dt : closed.t_c / c.steps_per_collision;
  r.e_n = r.e_t = r.t_c = nan;
  return r;
}

// The pair as one packing without gravity or drive, `gap` apart and approaching, in a box wide
// enough that only the pair ever touches (a disk flies at most v_max t_max during the run);
// nullopt when that box's cell grid would exceed max_collision_cells (a pair that flies
// thousands of radii during 100 durations: u_n t_c far beyond R, a mass of 1e300 kg on a soft
// spring, needs a grid beyond memory, and overlaps the linear law does not model).
struct PairInABox {
  EnsembleModel m;
  EnsembleState s;
};

std::optional<PairInABox> pair_in_a_box(const CollisionCase& c, double m_a, double m_b, double dt,
                                        double gap, double t_max) {
  const bool wall = c.kind == CollisionKind::disk_wall;
  EnsembleModel m;
  m.integrator = c.integrator;
  m.dt = dt;
  PackingParams pp{};
  pp.gravity = 0.0;
  pp.drive_amplitude = 0.0;
  pp.drive_omega = 0.0;
  pp.disk_disk = c.contact;
  pp.disk_wall = c.contact;
  const double r_max = wall ? c.radius_a : std::max(c.radius_a, c.radius_b);
  m.neighbor.skin = 0.5 * r_max;
  std::vector<double> x, y;
  double vx_a, vy_a, vx_b = 0.0, vy_b = 0.0;
  if (wall) {
    // bottom wall: e = (0, −1), t̂ = ẑ × e = (1, 0), so u_t = v_x + R_a ω_a
    vx_a = c.u_t - c.radius_a * c.omega_a;
    vy_a = -c.u_n;
    const double v_max = std::hypot(vx_a, vy_a);
    const double half = 4.0 * c.radius_a + 1.01 * v_max * t_max;
    pp.box_width = 2.0 * half;
    m.add_packing(pp, {c.radius_a}, c.areal_density);
    x = {half};
    y = {c.radius_a + gap};
  } else {
    // b to the right of a: e = (1, 0), t̂ = (0, 1); zero total momentum, δ̇ = v_xa − v_xb = u_n
    // and u_t = v_ya − v_yb + R_a ω_a + R_b ω_b
    const double w = c.u_t - c.radius_a * c.omega_a - c.radius_b * c.omega_b;
    const double fa = m_b / (m_a + m_b);
    const double fb = m_a / (m_a + m_b);
    vx_a = fa * c.u_n;
    vx_b = -fb * c.u_n;
    vy_a = fa * w;
    vy_b = -fb * w;
    const double v_max = std::max(std::hypot(vx_a, vy_a), std::hypot(vx_b, vy_b));
    const double half = 4.0 * (c.radius_a + c.radius_b) + 1.01 * v_max * t_max;
    pp.box_width = 2.0 * half;
    m.add_packing(pp, {c.radius_a, c.radius_b}, c.areal_density);
    const double contact = c.radius_a + c.radius_b + gap;
    x = {half - fb * contact, half + fa * contact};
    y = {half, half};
  }
  const double area = pi * (c.radius_a * c.radius_a + (wall ? 0.0 : c.radius_b * c.radius_b));
  const GridShape grid = packing_grid_shape(pp.box_width, r_max, area, m.neighbor.skin);
  if (!(grid.columns * grid.rows <= max_collision_cells)) return std::nullopt;
  EnsembleState s = make_state(m, x, y, 0.0);
  s.vx[0] = vx_a;
  s.vy[0] = vy_a;
  s.omega[0] = c.omega_a;
  if (!wall) {
    s.vx[1] = vx_b;
    s.vy[1] = vy_b;
    s.omega[1] = c.omega_b;
  }
  return PairInABox{std::move(m), std::move(s)};
}

// (time, kinematics) of every step of the run, and where the collision began and ended.
struct PairTrack {
  struct Sample {
    double t;
    PairKinematics k;
  };
  std::vector<Sample> samples;
  double t_touch = nan;
  double t_end = nan;
  std::int64_t end_step = -1;  // the step in which the uncut normal force crossed 0
};

// Steps the pair one step at a time, at most max_steps, until steps_after_end past the end;
// `expected_steps` reserves room for most collisions, not for the cap.
PairTrack track_pair(const CollisionCase& c, const EnsembleModel& m, EnsembleState& s,
                     Backend& backend, std::int64_t max_steps, double expected_steps) {
  const ContactParams& p = c.contact;
  PairTrack track;
  track.samples.reserve(
      static_cast<std::size_t>(std::min<double>(static_cast<double>(max_steps), expected_steps)));
  const PairKinematics before = pair_kinematics(c, m, s);
  track.samples.push_back({s.time(m), before});
  PairKinematics last_free = before;
  for (std::int64_t k = 1; k <= max_steps; ++k) {
    backend.advance(m, s, 1);
    if (s.status[0] != status_ok) break;
    const PairKinematics now = pair_kinematics(c, m, s);
    const PairTrack::Sample& prev = track.samples.back();
    if (std::isnan(track.t_touch)) {
      if (now.overlap > 0.0) {
        track.t_touch = prev.t + time_to_touch(c, last_free);
      } else {
        last_free = now;
      }
    } else if (std::isnan(track.t_end)) {
      // zero crossing of k_n δ + γ_n δ̇, linear between the bracketing steps
      const double n0 = uncut_normal(p, prev.k);
      const double n1 = uncut_normal(p, now);
      if (n1 <= 0.0) {
        track.t_end = prev.t + m.dt * n0 / (n0 - n1);
        track.end_step = k;
      }
    }
    track.samples.push_back({s.time(m), now});
    if (track.end_step >= 0 && k >= track.end_step + steps_after_end) break;
  }
  return track;
}

}  // namespace

CollisionResult run_collision(const CollisionCase& c, std::vector<CollisionSample>* trace) {
  const bool wall = c.kind == CollisionKind::disk_wall;
  const double m_a = disk_mass(c.areal_density, c.radius_a);
  const double m_b =
      wall ? std::numeric_limits<double>::infinity() : disk_mass(c.areal_density, c.radius_b);
  CollisionResult r = closed_forms(c, m_a, m_b);
  const double t_c = r.t_c_predicted;

  // first touch at touch_phase of the third step; the run is capped at 100 predicted
  // durations after it
  const double steps_before_touch = free_steps + c.touch_phase;
  const double gap = steps_before_touch * c.u_n * r.dt;
  const double run_steps = std::ceil(steps_before_touch + 100.0 * t_c / r.dt);
  // closed forms out of a double's range (k_n 1e-100, γ_n 1e15, a mass of 1e300 kg, ...) leave
  // nothing to integrate: the run ends at once, not in a count cast from NaN
  if (!(run_steps <= max_collision_run_steps) || !(gap > 0.0) || !std::isfinite(gap)) {
    r.ended = false;
    r.engine_status = status_non_finite;
    return r;
  }
  const std::int64_t max_steps = static_cast<std::int64_t>(run_steps) + steps_after_end;
  const double t_max = static_cast<double>(max_steps) * r.dt;
  std::optional<PairInABox> pair = pair_in_a_box(c, m_a, m_b, r.dt, gap, t_max);
  if (!pair) {
    r.ended = false;
    r.engine_status = status_outside_box;
    return r;
  }
  const EnsembleModel& m = pair->m;
  EnsembleState& s = pair->s;

  auto backend = make_cpu_backend(1);
  backend->initialize(m, s);
  // most collisions end within a few durations
  const PairTrack track = track_pair(c, m, s, *backend, max_steps, 4.0 * t_c / r.dt + 100.0);
  const PairKinematics& before = track.samples.front().k;  // at the start, in free flight

  // free flight after the end: restitution from the relative velocities (spec §3.2–3.3)
  r.engine_status = s.status[0];
  r.ended = track.end_step >= 0 && s.status[0] == status_ok;
  if (r.ended) {
    const PairKinematics after = track.samples.back().k;
    r.t_c = track.t_end - track.t_touch;
    r.e_n = std::fabs(after.rate / before.rate);
    r.e_t = before.u_t != 0.0 ? after.u_t / before.u_t : nan;
  }

  if (trace != nullptr) {
    const double t0 = std::isnan(track.t_touch) ? 0.0 : track.t_touch;
    trace->clear();
    trace->reserve(track.samples.size());
    for (const PairTrack::Sample& q : track.samples) {
      // the engine evaluates the law only for δ > 0
      const double n = q.k.overlap > 0.0 ? normal_force(c.contact, q.k.overlap, q.k.rate) : 0.0;
      trace->push_back({q.t - t0, q.k.overlap, n, -q.k.rate, q.k.u_t});
    }
  }
  return r;
}

}  // namespace granular::md
