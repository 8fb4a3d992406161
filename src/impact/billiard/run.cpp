// The billiard's run through the driver (include/granular/impact/billiard/run.hpp).
#include "granular/impact/billiard/run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace granular::billiard {

namespace {

// state vector of the flight: (q1, q2, v1, v2, u3)
enum { kQ1 = 0, kQ2, kV1, kV2, kSpin, kSize };

}  // namespace

namespace {

// What ends a phase of the billiard: an impact on a surface in flight, or the end of a mode
// of persistent contact (its kind in BilliardContactEnd).
struct BilliardEvent {
  enum class Type { impact, contact_end } type;
  Surface surface;  // impact: the surface hit
};

// The billiard as a hybrid system of the driver (hybrid.hpp): flight with drag (Eqs. 1–6)
// ended by impacts, and persistent contact after the Zeno policy's plastic impact, integrated
// by billiard_contact_advance.
class BilliardRunModel : public HybridModel<BilliardEvent> {
 public:
  BilliardRunModel(const Params& m, const Options& o)
      : m_(m), o_(o), list_(surfaces(m.boundary)), rest_height_(resting_height(m, 0.0)) {}

  std::optional<Stop> start(double t, State& y, DriverContext& ctx) override {
    ctx_ = &ctx;
    placed_on_surface(t, y);
    return stop_;
  }

  Phase<BilliardEvent> phase(double t, State&, DriverContext&) override {
    Phase<BilliardEvent> ph;
    ph.horizon = t + 100.0 * o_.driver.ode.step;  // chunks of 100 steps
    if (in_contact_) {
      ph.solver = [this](double& tt, State& y, double target,
                         const impact::StretchRows& rows) -> std::optional<BilliardEvent> {
        const auto stretch = [&](double t0, double t1, const SurfaceOutput& at) {
          rows(t0, t1, [&](double when) { return billiard_from_surface(m_, when, at(when)); });
        };
        contact_end_ = billiard_contact_advance(m_, o_.driver.ode, on_, mode_, sigma_, tt, target,
                                                other_, stretch);
        y = billiard_from_surface(m_, tt, on_);
        if (!contact_end_) return std::nullopt;
        return BilliardEvent{BilliardEvent::Type::contact_end, on_.surface};
      };
      return ph;
    }
    ph.rhs = flight_rhs(m_);
    // each gap with its rate, the relative normal velocity: a flight after an impact that is
    // shorter than a step (the gap starts and ends the step at ≤ 0) is found by its apex
    for (Surface s : list_)
      ph.events.push_back({BilliardEvent{BilliardEvent::Type::impact, s},
                           [this, s](double tt, const State& y) { return gap(s, tt, y); },
                           Direction::falling,
                           [this, s](double tt, const State& y) { return gap_rate(s, tt, y); }});
    return ph;
  }

  std::optional<Stop> on_event(BilliardEvent e, double t, State& y, DriverContext&) override {
    if (e.type == BilliardEvent::Type::contact_end) {
      contact_end(t, y);
      return stop_;
    }
    if (const auto lost = penetrated(t, y)) return lost;
    impact(e.surface, t, y);
    return stop_;
  }

  std::optional<Stop> on_phase_end(double t, State& y, DriverContext&) override {
    if (!in_contact_) return penetrated(t, y);
    return std::nullopt;
  }

  void sample(double t, const State& y) override {
    const double A = m_.drive.amplitude, w = m_.drive.omega;
    out_.trajectory.push_back({t, y[kQ1], y[kQ2], y[kV1], y[kV2], y[kSpin], A * std::sin(w * t)});
  }

  void finish(const RunOutcome& o) override {
    static_cast<Stop&>(out_) = o;
    t_ = o.t;
    y_ = o.y;
    if (in_contact_) {
      const bool failed =
          o.status == RunStatus::integrator_failed || o.status == RunStatus::non_finite;
      close_phase(failed ? BilliardContactEnd::undetermined : BilliardContactEnd::run_end);
    }
    out_.t_end = o.t;
    if (o_.driver.sample_interval > 0.0 &&
        (out_.trajectory.empty() || out_.trajectory.back().t != o.t))
      sample(o.t, o.y);
  }

  Result take() { return std::move(out_); }

 private:
  // flight (Eqs. 1–6): m dv/dt = −m g n2 − v (C1 + C2 |v|), spin constant
  static Rhs flight_rhs(const Params& m) {
    const double c1 = m.drag.c1 / m.ball.mass, c2 = m.drag.c2 / m.ball.mass, g = m.gravity;
    return [=](double, const State& y, State& f) {
      f.resize(kSize);
      const double speed = std::hypot(y[kV1], y[kV2]);
      const double k = c1 + c2 * speed;
      f << y[kV1], y[kV2], -k * y[kV1], -g - k * y[kV2], 0.0;
    };
  }

  // the signed gap of a surface, in the frame moving with the boundary
  double gap(Surface s, double t, const State& y) const {
    return surface_contact(m_.boundary, s,
                           y[kQ1] - m_.drive.amplitude * std::sin(m_.drive.omega * t), y[kQ2],
                           m_.ball.radius)
        .gap;
  }

  // the gap's rate of change: the relative normal velocity (v − w n1)·c2 at the closest point,
  // the wall moving with w = ωA cos(ωt) (the same u_n as the impact map's)
  double gap_rate(Surface s, double t, const State& y) const {
    const double A = m_.drive.amplitude, w = m_.drive.omega;
    const double z = surface_contact(m_.boundary, s, y[kQ1] - A * std::sin(w * t), y[kQ2],
                                     m_.ball.radius)
                         .z;
    return -(y[kV1] - A * w * std::cos(w * t)) * std::sin(z) + y[kV2] * std::cos(z);
  }

  // the Zeno policy's fallback: persistent contact cannot go on, the run ends with status zeno
  void fallback(const std::string& why) {
    out_.fallback = why;
    stop_ = Stop{RunStatus::zeno, "", why};
  }

  // an event can only be missed by a flight shorter than a step; the ball then sinks through
  // the wall, which this depth flags (the event tolerance leaves ~1e-12 m)
  std::optional<Stop> penetrated(double t, const State& y) const {
    const double lost_depth = -0.05 * m_.ball.radius;
    for (Surface s : list_)
      if (gap(s, t, y) < lost_depth)
        return Stop{RunStatus::model_stop, "penetrated",
                    std::string("the ball sank through the ") + name_of(surface_names, s) +
                        " (an impact missed by a flight shorter than a step)"};
    return std::nullopt;
  }

  // a ball placed on a surface (touching, with no normal approach) starts in contact
  void placed_on_surface(double t, State& y) {
    const double A = m_.drive.amplitude, w = m_.drive.omega;
    for (Surface s : list_) {
      if (std::fabs(gap(s, t, y)) > 1e-9 * m_.ball.radius) continue;
      const SurfaceContact sc = surface_contact(m_.boundary, s, y[kQ1], y[kQ2], m_.ball.radius);
      const Vec2 c1{std::cos(sc.z), std::sin(sc.z)}, c2{-std::sin(sc.z), std::cos(sc.z)};
      const Vec2 relative{y[kV1] - A * w, y[kV2]};
      if (std::fabs(dot(relative, c2)) > o_.driver.zeno.min_speed) continue;
      const double slip = dot(relative, c1) + m_.ball.radius * y[kSpin];
      t_ = t;
      y_ = y;
      enter_contact(s, std::fabs(slip) <= 1e-9);
      y = y_;
      return;
    }
  }

  // the impact map at (t, y) on surface s (spec §4); the wall moves with v' = ωA cos(ωt) n1
  // (Eq. 17)
  void impact(Surface s, double t, State& y) {
    t_ = t;
    y_ = y;
    impact_here(s);
    y = y_;
  }

  void impact_here(Surface s) {
    const double A = m_.drive.amplitude, w = m_.drive.omega, g = m_.gravity;
    const double xi = y_[kQ1] - A * std::sin(w * t_);
    const SurfaceContact sc = surface_contact(m_.boundary, s, xi, y_[kQ2], m_.ball.radius);
    const Vec2 wall{A * w * std::cos(w * t_), 0.0};
    const Vec2 v{y_[kV1], y_[kV2]};
    BilliardImpactResult r = billiard_impact(m_.ball, m_.law, sc.z, v, y_[kSpin], wall);
    if (r.u_n_before >= 0.0) {
      // the gap closed without an approach (grazing): nothing to resolve
      ++out_.grazing;
      return;
    }
    // the Zeno policy: when impacts accumulate, the last one is plastic (zero normal
    // restitution, Kane–Levinson friction) and the ball stays on the surface
    const bool accumulating = ctx_->zeno.accumulating(t_, -r.u_n_before);
    if (accumulating) {
      BilliardImpactLaw plastic = m_.law;
      plastic.law = ImpactLaw::kane_levinson;
      plastic.e = 0.0;
      plastic.low_velocity_speed = 0.0;
      r = billiard_impact(m_.ball, plastic, sc.z, v, y_[kSpin], wall);
    }
    y_[kV1] = r.v.x;
    y_[kV2] = r.v.y;
    y_[kSpin] = r.spin;

    // the record of spec §5; the Fig. 7 normalisation measures heights from the centre's lowest
    // place, the ball resting in the floor's vertex: h = q2 − q2,rest, E = ½ m v² + m g h after
    // the impact (lab frame, rotation excluded), q2,max − q2,rest = E/(mg), u4,max = √(2E/m).
    // Of the readings the paper leaves open (docs/billiard.md), this one gives its period-one
    // orbit's printed (0.376, ±0.0372); a zero at q2 = 0 gives (0.402, ±0.0364)
    BilliardCollision c{};
    c.t = t_;
    c.q1 = y_[kQ1];
    c.height = y_[kQ2];
    c.flight_time = t_ - t_last_;
    c.u_n_before = r.u_n_before;
    c.u_t_after = r.u4_after;
    c.spin_after = r.spin;
    c.u5_after = r.u5_after;
    c.energy = billiard_energy(m_, r.v, r.spin, y_[kQ2]);
    const double mass = m_.ball.mass;
    const double h = y_[kQ2] - rest_height_;
    const double e_trans = 0.5 * mass * dot(r.v, r.v) + mass * g * h;
    c.norm_height = e_trans > 0.0 ? h / (e_trans / (mass * g)) : 0.0;
    c.norm_u_t = e_trans > 0.0 ? r.u4_after / std::sqrt(2.0 * e_trans / mass) : 0.0;
    c.e_used = r.e_used;
    c.surface = s;
    c.sticking = r.sticking;
    out_.collisions.push_back(c);
    t_last_ = t_;
    if (r.e_used == 1.0 && m_.law.e != 1.0) ++out_.low_velocity;
    if (r.sticking) ++out_.sticking;
    if (s == Surface::ceiling) ++out_.ceiling_hits;

    // a plastic impact (e = 0, or r = 0 under Gorski–Srokowski) leaves no normal velocity, as
    // the Zeno policy's last impact does: the ball stays on the surface, in persistent contact
    const bool plastic = m_.law.law == ImpactLaw::kane_levinson ? r.e_used == 0.0 : m_.law.r == 0.0;
    if (accumulating || plastic) {
      if (accumulating) {
        if (out_.zeno_switches == 0) {
          out_.zeno_time = t_;
          out_.zeno_q1 = y_[kQ1];
          out_.zeno_q2 = y_[kQ2];
        }
        ++out_.zeno_switches;
      } else {
        ++out_.plastic_switches;
      }
      enter_contact(s, r.sticking);
    }
    // the run's goal: this many collisions
    if (!stop_ && static_cast<long long>(out_.collisions.size()) >= o_.max_collisions)
      stop_ = Stop{RunStatus::completed, "", ""};
  }

  // persistent contact on s from (t_, y_): the state is projected onto the surface, the mode
  // chosen (billiard_contact_mode); F_n <= 0 leaves the ball in flight
  void enter_contact(Surface s, bool zero_slip) {
    BilliardOnSurface on = billiard_to_surface(m_, s, t_, y_);
    if (zero_slip) on.spin = -on.u_t / m_.ball.radius;
    // two surfaces touching at once (the wedge's corner) is a two-point contact this policy
    // does not model
    const State projected = billiard_from_surface(m_, t_, on);
    for (Surface other : list_) {
      if (other != s && gap(other, t_, projected) <= 1e-9 * m_.ball.radius) {
        fallback(std::string("two surfaces touched at once (") + name_of(surface_names, s) + ", " +
                 name_of(surface_names, other) + ")");
        return;
      }
    }
    const BilliardContactChoice choice = billiard_contact_mode(m_, on, t_, zero_slip);
    if (!choice.in_contact) {
      if (choice.end == BilliardContactEnd::undetermined) {
        fallback(std::string("contact undetermined on ") + name_of(surface_names, s) +
                 " (radius of curvature <= b)");
      } else {
        ++out_.liftoff_at_once;
      }
      return;
    }
    on_ = on;
    y_ = projected;
    in_contact_ = true;
    ++episodes_;
    open_phase(choice);
  }

  void open_phase(const BilliardContactChoice& choice) {
    mode_ = choice.mode;
    sigma_ = choice.sigma;
    phase_ = BilliardContactPhase{};
    phase_.episode = episodes_ - 1;
    phase_.surface = on_.surface;
    phase_.mode = mode_;
    phase_.t_start = t_;
    phase_.q1_start = y_[kQ1];
    phase_.q2_start = y_[kQ2];
  }

  void close_phase(BilliardContactEnd end) {
    phase_.end = end;
    phase_.t_end = t_;
    phase_.q1_end = y_[kQ1];
    phase_.q2_end = y_[kQ2];
    phase_.f_n_end = billiard_contact_forces(m_, on_, t_, mode_, sigma_).f_n;
    out_.contact_phases.push_back(phase_);
    // modes that switch without time advancing would stall the run
    const bool empty = phase_.t_end - phase_.t_start <= 10.0 * o_.driver.ode.event_time_tol;
    empty_phases_ = empty ? empty_phases_ + 1 : 0;
  }

  // leaves persistent contact: flight from the current state; the flight time of the next
  // impact counts from here
  void leave_contact() {
    in_contact_ = false;
    ctx_->zeno.reset();
    t_last_ = t_;
  }

  // the end of one mode of persistent contact at (t, y) (billiard_contact_advance's event)
  void contact_end(double t, State& y) {
    t_ = t;
    y_ = y;
    switch (*contact_end_) {
      case BilliardContactEnd::liftoff:
      case BilliardContactEnd::corner:
        close_phase(*contact_end_);
        leave_contact();
        break;
      case BilliardContactEnd::impact:
        // another surface hit while in contact: its impact is resolved in flight
        close_phase(*contact_end_);
        in_contact_ = false;
        t_last_ = t_;
        impact_here(list_[static_cast<std::size_t>(other_)]);
        break;
      case BilliardContactEnd::stick:
        // the slip reached zero: roll if the static test passes, else slide the other way
        on_.spin = -on_.u_t / m_.ball.radius;
        y_ = billiard_from_surface(m_, t_, on_);
        switch_mode(BilliardContactEnd::stick);
        break;
      default:
        switch_mode(*contact_end_);
        break;
    }
    y = y_;
  }

  // a mode switch at zero slip: the new mode, a lift-off, or the fallback
  void switch_mode(BilliardContactEnd end) {
    const BilliardContactChoice choice = billiard_contact_mode(m_, on_, t_, true);
    if (!choice.in_contact) {
      close_phase(choice.end);
      if (choice.end == BilliardContactEnd::undetermined) {
        in_contact_ = false;
        fallback(std::string("contact undetermined on ") + name_of(surface_names, on_.surface));
      } else {
        leave_contact();
      }
      return;
    }
    const bool reversed = mode_ == BilliardContactMode::slide &&
                          choice.mode == BilliardContactMode::slide && choice.sigma != sigma_;
    close_phase(reversed ? BilliardContactEnd::reverse : end);
    if (empty_phases_ > 1000) {
      in_contact_ = false;
      fallback("contact modes switch without time advancing");
      return;
    }
    open_phase(choice);
  }

  const Params& m_;
  const Options& o_;
  const std::vector<Surface> list_;
  const double rest_height_;      // the centre resting in the floor's vertex: Fig. 7's zero [m]
  DriverContext* ctx_ = nullptr;  // the driver's, for the run (set in start)
  Result out_;
  std::optional<Stop> stop_;
  // the state at the transition being applied
  State y_;
  double t_ = 0.0, t_last_ = 0.0;
  // persistent contact
  bool in_contact_ = false;
  BilliardOnSurface on_{};
  BilliardContactMode mode_ = BilliardContactMode::roll;
  double sigma_ = 1.0;
  BilliardContactPhase phase_{};
  std::optional<BilliardContactEnd> contact_end_;
  int other_ = -1;  // the surface hit during contact (index into list_)
  int episodes_ = 0;
  int empty_phases_ = 0;
};

}  // namespace

Result run_billiard(const Params& m, const Options& o, const BilliardInitial& init) {
  BilliardRunModel model(m, o);
  DriverOptions d = o.driver;
  d.at_t_end = RunStatus::time_limit;  // the goal is max_collisions
  State y(kSize);
  y << init.q1, init.q2, init.v1, init.v2, init.spin;
  run_hybrid(model, 0.0, y, d);
  return model.take();
}

}  // namespace granular::billiard
