// The pendulum's run through the driver: flight, impacts, the Zeno policy and persistent
// contact (include/granular/impact/pendulum/run.hpp).
#include "granular/impact/pendulum/run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "granular/impulse/routh.hpp"

namespace granular::pendulum {

namespace {

// A state below the floor by more than this in flight means a flight shorter than one step was
// missed (the event test sees step ends only) [m].
constexpr double kPenetrationTol = 1e-8;

// Persistent contact (Zeno policy). While the disk stays on the floor (f = 0, c = 0):
//   A ψ̈ = Q + J_cᵀ F + J_sᵀ T,  T = −μσF when sliding with σ = sgn(s),
// and F follows from the constraint c' = J_c ψ̈ + J̇_c ψ̇ = −2β c − β² f (Baumgarte's drift
// correction, our assumption; the paper has no persistent contact).
struct ContactForces {
  Eigen::Vector2d acc;  // ψ̈
  double F, T;          // normal (up) and tangential (along i) contact forces [N]
  bool consistent;      // γ − μσε > 0: the sliding contact force is determined (no Painlevé)
};

ContactForces sliding_forces(const Params& p, double beta, double t, const State& y, double sigma) {
  const Eigen::Matrix2d a = pendulum_mass_matrix(p, y[0], y[1]);
  const auto solver = a.ldlt();
  const ContactJacobian j = pendulum_contact_jacobian(p, y[0], y[1]);
  const Eigen::Vector2d a0 = solver.solve(pendulum_generalized_forces(p, t, y));
  const Eigen::Vector2d b = solver.solve(j.j_c - p.mu * sigma * j.j_s);
  const Eigen::Vector2d w(y[2], y[3]);
  const double jdot_c = p.l1 * std::cos(y[0]) * y[2] * y[2] + p.L() * std::cos(y[1]) * y[3] * y[3];
  const double c = j.j_c.dot(w), f = pendulum_gap(p, y[0], y[1]);
  const double den = j.j_c.dot(b);
  ContactForces out;
  out.consistent = den > 0.0;
  out.F = out.consistent ? -(j.j_c.dot(a0) + jdot_c + 2.0 * beta * c + beta * beta * f) / den : 0.0;
  out.T = -p.mu * sigma * out.F;
  out.acc = a0 + out.F * b;
  return out;
}

// Static forces holding the pendulum at rest on the floor: J_cᵀ F + J_sᵀ T = −Q(ψ̇ = 0).
ContactForces rest_forces(const Params& p, double t, const State& y) {
  State still = y;
  still[2] = still[3] = 0.0;
  const ContactJacobian j = pendulum_contact_jacobian(p, y[0], y[1]);
  Eigen::Matrix2d m;
  m.col(0) = j.j_c;
  m.col(1) = j.j_s;
  const Eigen::Vector2d ft = m.partialPivLu().solve(-pendulum_generalized_forces(p, t, still));
  ContactForces out;
  out.F = ft[0];
  out.T = ft[1];
  out.acc = Eigen::Vector2d::Zero();
  out.consistent = out.F >= 0.0 && std::fabs(out.T) <= p.mu * out.F;
  return out;
}

enum class PendulumEvent {
  floor,      // the gap closes: an impact
  turn_in,    // after a lift-off, the disk turns back into the floor (or fires early above it)
  slip_stop,  // persistent sliding: the slip velocity reaches 0
  release     // persistent sliding: the normal force reaches 0 (lift-off)
};

// The pendulum as a hybrid system of the driver (hybrid.hpp): flight, persistent sliding and
// rest, with the impact map and the mode changes as transitions.
class PendulumModel : public HybridModel<PendulumEvent> {
 public:
  PendulumModel(const Params& p, const Options& o) : p_(p), o_(o) {}

  Phase<PendulumEvent> phase(double, State& y, DriverContext&) override {
    switch (mode_) {
      case ContactMode::flight:
        return flight(y);
      case ContactMode::sliding:
        return sliding();
      default:
        return {};  // at rest nothing moves; the forces are checked at each target
    }
  }

  std::optional<Stop> on_event(PendulumEvent kind, double t, State& y,
                               DriverContext& ctx) override {
    switch (kind) {
      case PendulumEvent::turn_in:
        // the early firing of turn_in above the floor is no contact: flight goes on
        if (pendulum_gap(p_, y[0], y[1]) > 0.0) return std::nullopt;
        impact(t, y, ctx);
        break;
      case PendulumEvent::floor:
        impact(t, y, ctx);
        break;
      case PendulumEvent::slip_stop:
        settle_at_zero_slip(t, y, ctx);
        record(t, y, mode_);
        break;
      case PendulumEvent::release:
        lift_off(t, ctx);
        record(t, y, mode_);
        break;
    }
    return stop_;
  }

  std::optional<Stop> on_phase_end(double t, State& y, DriverContext& ctx) override {
    if (mode_ == ContactMode::flight && pendulum_gap(p_, y[0], y[1]) < -kPenetrationTol)
      return Stop{RunStatus::model_stop, "missed_contact",
                  "the disk was found below the floor in flight (a flight shorter than a step)"};
    // at rest the static forces change only with time-dependent torques: checked here
    if (mode_ == ContactMode::rest && !rest_forces(p_, t, y).consistent)
      settle_at_zero_slip(t, y, ctx);
    return stop_;
  }

  void sample(double t, const State& y) override { record(t, y, mode_); }

  void finish(const RunOutcome& o) override {
    static_cast<Stop&>(out_) = o;
    out_.t_final = o.t;
    out_.y_final = o.y;
    out_.final_mode = mode_;
  }

  Result take() { return std::move(out_); }

 private:
  // free flight up to the next target or the next contact: the gap crossing from positive to
  // non-positive (spec §3 pitfall: never the two-sided test), or, when the flight starts on
  // the floor (lift-off from persistent contact), the disk turning back into it
  Phase<PendulumEvent> flight(const State& y) const {
    const double tau = o_.driver.ode.step;
    const auto inward = [this, tau](const State& s) {
      const double f = pendulum_gap(p_, s[0], s[1]);
      const ContactJacobian j = pendulum_contact_jacobian(p_, s[0], s[1]);
      const double c = j.j_c.dot(Eigen::Vector2d(s[2], s[3]));
      return f <= 0.0 ? c : c + f / tau;  // continuous at f = 0; fires early above the floor
    };
    Phase<PendulumEvent> ph;
    if (pendulum_gap(p_, y[0], y[1]) <= 0.0 && inward(y) < 0.0) {
      ph.now = PendulumEvent::floor;
      return ph;
    }
    ph.rhs = [this](double t, const State& s, State& dy) { pendulum_rhs(p_, t, s, dy); };
    ph.events = {{PendulumEvent::floor,
                  [this](double, const State& s) { return pendulum_gap(p_, s[0], s[1]); }},
                 {PendulumEvent::turn_in, [inward](double, const State& s) { return inward(s); }}};
    return ph;
  }

  // persistent sliding until the next target, s = 0, or F = 0 (lift-off)
  Phase<PendulumEvent> sliding() const {
    const double beta = o_.baumgarte_rate, sigma = sigma_;
    Phase<PendulumEvent> ph;
    ph.rhs = [this, beta, sigma](double t, const State& y, State& dy) {
      const ContactForces cf = sliding_forces(p_, beta, t, y, sigma);
      dy.resize(4);
      dy << y[2], y[3], cf.acc[0], cf.acc[1];
    };
    ph.events = {{PendulumEvent::slip_stop,
                  [this, sigma](double, const State& y) {
                    const ContactJacobian j = pendulum_contact_jacobian(p_, y[0], y[1]);
                    return sigma * j.j_s.dot(Eigen::Vector2d(y[2], y[3]));
                  }},
                 {PendulumEvent::release, [this, beta, sigma](double t, const State& y) {
                    return sliding_forces(p_, beta, t, y, sigma).F;
                  }}};
    return ph;
  }

  // one row of the time series at (t, y) with the forces of mode m
  void record(double t, const State& y, ContactMode m) {
    PendulumSample s;
    s.t = t;
    s.y = y;
    s.energy = pendulum_energy(p_, y);
    s.gap = pendulum_gap(p_, y[0], y[1]);
    s.mode = m;
    s.F = s.T = 0.0;
    Eigen::Vector2d acc;
    if (m == ContactMode::flight) {
      State dy(4);
      pendulum_rhs(p_, t, y, dy);
      acc = Eigen::Vector2d(dy[2], dy[3]);
    } else {
      const ContactForces cf = m == ContactMode::rest
                                   ? rest_forces(p_, t, y)
                                   : sliding_forces(p_, o_.baumgarte_rate, t, y, sigma_);
      acc = cf.acc;
      s.F = cf.F;
      s.T = cf.T;
    }
    s.joint = pendulum_joint_forces(p_, y, acc, s.F, s.T);
    out_.samples.push_back(std::move(s));
  }

  void transition(double t, ContactMode m, double F, double T) {
    mode_ = m;
    out_.transitions.push_back({t, m, F, T});
  }

  // an impact at the located state: Routh with Poisson's k, or plastic when impacts accumulate
  void impact(double t, State& y, DriverContext& ctx) {
    const ContactJacobian j = pendulum_contact_jacobian(p_, y[0], y[1]);
    const double c0 = j.j_c.dot(Eigen::Vector2d(y[2], y[3]));
    if (!(c0 < 0.0)) return;  // grazing: not an impact (spec §2.5, c0 ≥ 0)
    record(t, y, ContactMode::flight);
    const bool zeno = ctx.zeno.accumulating(t, -c0);
    // k = 0 is plastic by itself: the disk keeps c = 0 after the impact, as after the Zeno
    // policy's last impact, and must go on in persistent contact (a flight from c = 0 would
    // sink into the floor at once)
    const bool plastic = zeno || p_.k == 0.0;
    PendulumImpact im = pendulum_impact(p_, t, y, zeno ? 0.0 : p_.k, p_.mu);
    if (im.routh.routh_case == impulse::RouthCase::failed) {
      // W is not positive definite in double precision (inertias beyond its range): the impact
      // has no end, and left as it is the same impact would be found again at once, a million
      // times, until the event budget ran out
      stop_ = Stop{RunStatus::model_stop, "impact_failed",
                   "Routh's impact process found no end to the impact at t_final: the "
                   "contact's inverse inertia W is not positive definite in double precision "
                   "(masses, inertias or lengths beyond its range)"};
      return;
    }
    im.plastic = plastic;
    y[2] = im.omega_after[0];
    y[3] = im.omega_after[1];
    out_.impacts.push_back(im);
    if (!plastic) {
      record(t, y, ContactMode::flight);
      return;
    }
    if (zeno && !out_.zeno) {
      out_.zeno = PendulumZeno{t, -c0, static_cast<int>(out_.impacts.size()) - 1, 0};
      int in_window = 0;
      for (const PendulumImpact& x : out_.impacts)
        if (x.t >= t - o_.driver.zeno.window) ++in_window;
      out_.zeno->impacts_in_window = in_window;
    }
    // persistent contact from here: c = 0 after the plastic impact
    if (im.routh.u_t == 0.0)
      settle_at_zero_slip(t, y, ctx);
    else
      start_sliding(t, y, ctx, im.routh.u_t > 0.0 ? 1.0 : -1.0);
    record(t, y, mode_);
  }

  // s = 0 in contact: rest if the static forces lie in the friction cone, else slide in the
  // sense the forces drive, or lift off when the floor would have to pull
  void settle_at_zero_slip(double t, State& y, DriverContext& ctx) {
    y[2] = y[3] = 0.0;  // s = c = 0 and [J_s; J_c] regular ⇒ ψ̇ = 0
    const ContactForces st = rest_forces(p_, t, y);
    if (st.consistent) {
      transition(t, ContactMode::rest, st.F, st.T);
      return;
    }
    // not in the cone: slide in a sense consistent with its own friction (σ s̈ > 0)
    const ContactJacobian j = pendulum_contact_jacobian(p_, y[0], y[1]);
    bool floor_pulls = true;
    for (double sigma : {1.0, -1.0}) {
      const ContactForces sl = sliding_forces(p_, o_.baumgarte_rate, t, y, sigma);
      if (sl.consistent && sl.F >= 0.0 && sigma * j.j_s.dot(sl.acc) > 0.0) {
        start_sliding(t, y, ctx, sigma);
        return;
      }
      if (!(sl.consistent && sl.F < 0.0)) floor_pulls = false;
    }
    // the floor would have to pull in either sense: the disk leaves it
    if (floor_pulls)
      lift_off(t, ctx);
    else
      painleve();
  }

  void start_sliding(double t, const State& y, DriverContext& ctx, double sigma) {
    sigma_ = sigma;
    const ContactForces sl = sliding_forces(p_, o_.baumgarte_rate, t, y, sigma_);
    if (!sl.consistent) {
      painleve();
      return;
    }
    if (sl.F < 0.0) {
      lift_off(t, ctx);
      return;
    }
    transition(t, ContactMode::sliding, sl.F, sl.T);
  }

  void lift_off(double t, DriverContext& ctx) {
    ctx.zeno.reset();
    transition(t, ContactMode::flight, 0.0, 0.0);
  }

  void painleve() {
    stop_ = Stop{RunStatus::model_stop, "painleve",
                 "persistent sliding with gamma - mu sigma epsilon <= 0: no consistent contact "
                 "force (Painleve)"};
  }

  const Params& p_;
  const Options& o_;
  Result out_;
  ContactMode mode_ = ContactMode::flight;
  double sigma_ = 1.0;
  std::optional<Stop> stop_;
};

}  // namespace

Result run_pendulum(const Params& p, const State& y0, const Options& options) {
  PendulumModel model(p, options);
  run_hybrid(model, 0.0, y0, options.driver);
  return model.take();
}

}  // namespace granular::pendulum
