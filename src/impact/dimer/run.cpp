// The event-driven run of the dimer (include/granular/impact/dimer/run.hpp): impacts at the
// current instant, then the contact set (normal LCP, stick/slip), then a smooth phase up to
// the next event.
#include "granular/impact/dimer/run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace granular::dimer {

namespace {

// A closed tip's normal force must be positive to stay closed; an opening tip's gap
// acceleration may be this far below 0 (round-off) [m/s²].
constexpr double kAccelTol = 1e-9;

// Puts closed tips exactly on the plate: both closed means flat (θ = 0); one closed moves y_G
// (spec §2.4: d_i = 0, ḋ_i = 0 for a closed contact).
void project_closed(const Params& p, double t, State& y, const TipMode mode[2]) {
  const PlateMotion plate = plate_motion(p, t);
  const double half = 0.5 * p.l;
  if (closed(mode[0]) && closed(mode[1])) {
    y[2] = 0.0;
    y[5] = 0.0;
    y[1] = p.r + plate.y;
    y[4] = plate.v;
    return;
  }
  for (int i = 0; i < 2; ++i) {
    if (!closed(mode[i])) continue;
    const double s = side(i);
    y[1] = p.r + plate.y - s * half * std::sin(y[2]);
    y[4] = plate.v - s * half * std::cos(y[2]) * y[5];
  }
}

// Sets the slip velocity of the sticking tips to exactly 0 by the horizontal velocity.
void project_stick(const Params& p, State& y, const TipMode mode[2]) {
  for (int i = 0; i < 2; ++i) {
    if (mode[i] != TipMode::stick) continue;
    y[3] = -(p.r - side(i) * 0.5 * p.l * std::sin(y[2])) * y[5];
  }
}

// Tangential modes of the closed tips of `mode` (spec §2.4 (2.5)): slipping tips keep the
// sign of v_t; a tip at v_t ≈ 0 sticks when the sticking force lies in the static cone
// (for the superstatic flat dimer, the total force against μ_s ΣF_n), else slips in the
// direction of its tendency (−sgn F_t of the sticking solution) with μ_c.
void choose_tangential(const Params& p, double t, const State& y, double slip_tol,
                       TipMode mode[2]) {
  for (int i = 0; i < 2; ++i) {
    if (!closed(mode[i])) continue;
    const double vt = dimer_tip(p, t, y, i).v_t;
    mode[i] = std::fabs(vt) <= slip_tol
                  ? TipMode::stick
                  : (vt > 0.0 ? TipMode::slip_positive : TipMode::slip_negative);
  }
  for (int pass = 0; pass < 3; ++pass) {
    const DimerForces f = dimer_forces(p, t, y, mode);
    bool changed = false;
    if (f.superstatic) {
      const double total = f.f_t[0] + f.f_t[1];
      if (std::fabs(total) > p.mu_s * (f.f_n[0] + f.f_n[1])) {
        const TipMode slip = total > 0.0 ? TipMode::slip_negative : TipMode::slip_positive;
        mode[0] = mode[1] = slip;
        changed = true;
      }
    } else {
      for (int i = 0; i < 2; ++i) {
        if (mode[i] != TipMode::stick) continue;
        if (std::fabs(f.f_t[i]) > p.mu_s * std::max(f.f_n[i], 0.0)) {
          mode[i] = f.f_t[i] > 0.0 ? TipMode::slip_negative : TipMode::slip_positive;
          changed = true;
        }
      }
    }
    if (!changed) return;
  }
}

// The normal LCP of spec §2.4 for the candidate closed tips, by enumeration (at most two
// contacts): the largest set whose forces are positive while every released tip accelerates
// away. Returns false if no set is consistent (then all candidates open).
bool settle_contacts(const Params& p, double t, State& y, double slip_tol, TipMode mode[2]) {
  const bool candidate[2] = {closed(mode[0]), closed(mode[1])};
  if (!candidate[0] && !candidate[1]) return true;
  project_closed(p, t, y, mode);
  const int subsets[4][2] = {{1, 1}, {1, 0}, {0, 1}, {0, 0}};
  for (const auto& s : subsets) {
    if ((s[0] && !candidate[0]) || (s[1] && !candidate[1])) continue;
    TipMode trial[2];
    for (int i = 0; i < 2; ++i) trial[i] = s[i] ? TipMode::stick : TipMode::open;
    choose_tangential(p, t, y, slip_tol, trial);
    const DimerForces f = dimer_forces(p, t, y, trial);
    bool ok = !f.singular;
    for (int i = 0; i < 2; ++i) {
      if (s[i] && !(f.f_n[i] > 0.0)) ok = false;
      if (!s[i] && candidate[i] && f.d_ddot[i] < -kAccelTol) ok = false;
    }
    if (!ok) continue;
    mode[0] = trial[0];
    mode[1] = trial[1];
    project_closed(p, t, y, mode);
    project_stick(p, y, mode);
    return true;
  }
  mode[0] = mode[1] = TipMode::open;
  return false;
}

DimerSample series_row(const Params& p, double t, const State& y, const TipMode mode[2]) {
  DimerSample s{};
  s.t = t;
  const double half = 0.5 * p.l;
  const double c = std::cos(y[2]), sn = std::sin(y[2]);
  const DimerForces f = dimer_forces(p, t, y, mode);
  for (int i = 0; i < 2; ++i) {
    const double sd = side(i);
    const TipKinematics k = dimer_tip(p, t, y, i);
    s.x[i] = y[0] + sd * half * c;
    s.y[i] = y[1] + sd * half * sn;
    s.vx[i] = y[3] - sd * half * sn * y[5];
    s.d[i] = k.d;
    s.d_dot[i] = k.d_dot;
    s.v_t[i] = k.v_t;
    s.f_n[i] = f.f_n[i];
    s.f_t[i] = f.f_t[i];
    s.mode[i] = mode[i];
  }
  s.theta = y[2];
  s.theta_dot = y[5];
  s.y_plate = plate_motion(p, t).y;
  return s;
}

// Left-sphere x.
double left_x(const Params& p, const State& y) { return y[0] - 0.5 * p.l * std::cos(y[2]); }
double right_x(const Params& p, const State& y) { return y[0] + 0.5 * p.l * std::cos(y[2]); }

// What ends a smooth phase of the dimer (spec §3): a tip's gap, a hopping tip's apex, a
// closed tip's normal force reaching 0, a sliding tip's slip reversing, the stick limit.
struct DimerEvent {
  enum class Type { landing, apex, release, slip_stop, stick_limit } type;
  int tip;  // 0: left, 1: right (stick_limit: either)
};

// The dimer as a hybrid system of the driver (hybrid.hpp). Its scheme (spec §3) resolves what
// an event leaves at the start of the next pass: impacts of open tips moving into the plate,
// then the contact set and the stick/slip state of the closed tips. So the transition map
// runs in phase(), and the events only stop the smooth phase where the state must be looked at.
class DimerModel : public HybridModel<DimerEvent> {
 public:
  DimerModel(const Params& p, const Options& o)
      : p_(p), o_(o), series_(o.driver.sample_interval > 0.0) {}

  std::optional<Stop> start(double t, State& y, DriverContext&) override {
    // a tip that starts on the plate at rest relative to it is a contact candidate
    for (int i = 0; i < 2; ++i) {
      const TipKinematics k = dimer_tip(p_, t, y, i);
      if (std::fabs(k.d) <= kGapTol && std::fabs(k.d_dot) <= kGapTol) mode_[i] = TipMode::stick;
    }
    if (!settle_contacts(p_, t, y, o_.slip_tol, mode_)) return singular();
    phase_mode_[0] = mode_[0];
    phase_mode_[1] = mode_[1];
    x_left_start_ = left_x(p_, y);
    x_right_start_ = right_x(p_, y);
    averaging_ = o_.average_from <= 0.0;
    return std::nullopt;
  }

  Phase<DimerEvent> phase(double t, State& y, DriverContext&) override {
    Phase<DimerEvent> ph;
    if (!averaging_ && t >= o_.average_from) {
      averaging_ = true;
      x_left_start_ = left_x(p_, y);
      x_right_start_ = right_x(p_, y);
    }
    // 1. an impact at this instant: an open tip on the plate moving into it
    bool impacting = false;
    for (int i = 0; i < 2; ++i) {
      const TipKinematics k = dimer_tip(p_, t, y, i);
      if (mode_[i] == TipMode::open && k.d <= kGapTol && k.d_dot < 0.0) impacting = true;
    }
    if (impacting) {
      if (series_) run_.samples.push_back(series_row(p_, t, y, mode_));
      DimerImpact im = dimer_impact(p_, o_, t, y, mode_);
      run_.impacts.push_back(im);
      if (!im.converged) {
        ph.stop = Stop{RunStatus::model_stop, "impact_not_converged",
                       "the Darboux-Keller impact did not converge in impulse_steps steps"};
        return ph;
      }
    }
    // 2. the contact set and the stick/slip state of the closed tips
    if (!settle_contacts(p_, t, y, o_.slip_tol, mode_)) {
      ph.stop = singular();
      return ph;
    }
    track_phases(t);
    if (impacting && series_) run_.samples.push_back(series_row(p_, t, y, mode_));

    // 3. the smooth phase up to the next event, output time or the start of averaging
    const Params& p = p_;
    const TipMode* mode = mode_;
    ph.rhs = [&p, mode](double tt, const State& yy, State& dydt) {
      const DimerForces f = dimer_forces(p, tt, yy, mode);
      dydt.resize(6);
      dydt << yy[3], yy[4], yy[5], f.accel[0], f.accel[1], f.accel[2];
    };
    using Type = DimerEvent::Type;
    for (int i = 0; i < 2; ++i) {
      if (mode_[i] == TipMode::open) {
        ph.events.push_back({{Type::landing, i}, [&p, i](double tt, const State& yy) {
                               return dimer_tip(p, tt, yy, i).d;
                             }});
        // a tip that just left the plate (d ≈ 0, ḋ > 0) has its gap event unarmed (it starts
        // on the far side); a hop shorter than one step would then sink into the plate
        // unseen until the next pass. Stopping at the apex (ḋ = 0) arms it: past the apex
        // the gap is positive, or the tip is still at the plate and lands plastically.
        const TipKinematics k = dimer_tip(p_, t, y, i);
        if (k.d <= kGapTol && k.d_dot > 0.0)
          ph.events.push_back({{Type::apex, i}, [&p, i](double tt, const State& yy) {
                                 return dimer_tip(p, tt, yy, i).d_dot;
                               }});
        continue;
      }
      ph.events.push_back({{Type::release, i}, [&p, mode, i](double tt, const State& yy) {
                             return dimer_forces(p, tt, yy, mode).f_n[i];
                           }});
      if (mode_[i] == TipMode::slip_positive || mode_[i] == TipMode::slip_negative) {
        const double sigma = mode_[i] == TipMode::slip_positive ? 1.0 : -1.0;
        ph.events.push_back({{Type::slip_stop, i}, [&p, i, sigma](double tt, const State& yy) {
                               return sigma * dimer_tip(p, tt, yy, i).v_t;
                             }});
      }
    }
    if (mode_[0] == TipMode::stick || mode_[1] == TipMode::stick) {
      // the stick limit |F_t| = μ_s F_n, per tip or on the merged superstatic constraint
      ph.events.push_back({{Type::stick_limit, -1}, [&p, mode](double tt, const State& yy) {
                             const DimerForces f = dimer_forces(p, tt, yy, mode);
                             if (f.superstatic)
                               return p.mu_s * (f.f_n[0] + f.f_n[1]) -
                                      std::fabs(f.f_t[0] + f.f_t[1]);
                             double g = 1e300;
                             for (int i = 0; i < 2; ++i)
                               if (mode[i] == TipMode::stick)
                                 g = std::min(g, p.mu_s * f.f_n[i] - std::fabs(f.f_t[i]));
                             return g;
                           }});
    }
    if (!averaging_) ph.horizon = o_.average_from;
    return ph;
  }

  // every event found is resolved by steps 1 and 2 of the next pass (phase())
  std::optional<Stop> on_event(DimerEvent, double, State&, DriverContext&) override {
    return std::nullopt;
  }

  void sample(double t, const State& y) override {
    if (series_) run_.samples.push_back(series_row(p_, t, y, mode_));
  }

  void finish(const RunOutcome& o) override {
    const double t = o.t;
    static_cast<Stop&>(run_) = o;
    run_.events = o.events;
    // close the open phase intervals
    for (int i = 0; i < 2; ++i)
      if (t > phase_start_[i]) run_.phases.push_back({i, phase_mode_[i], phase_start_[i], t});
    std::sort(run_.phases.begin(), run_.phases.end(),
              [](const DimerPhase& a, const DimerPhase& b) { return a.t_start < b.t_start; });

    // mean drift over the averaging window (spec §5: ⟨u⟩ of the left sphere)
    run_.t_final = t;
    run_.y_final = o.y;
    const double window = t - std::max(0.0, o_.average_from);
    if (window > 0.0) {
      run_.mean_drift = (left_x(p_, o.y) - x_left_start_) / window;
      run_.mean_drift_right = (right_x(p_, o.y) - x_right_start_) / window;
    }
    if (run_.status == RunStatus::completed && !std::isfinite(run_.mean_drift)) {
      run_.status = RunStatus::non_finite;
      run_.detail = "the mean drift is not finite";
    }
    if (run_.status == RunStatus::non_finite) {
      // a drift from a state that overflowed means nothing: reported as null
      run_.mean_drift = run_.mean_drift_right = std::numeric_limits<double>::quiet_NaN();
    }
    run_.motion =
        classify_dimer_motion(p_, run_, o_, run_.impacts_per_period, run_.contact_fraction);
    run_.drift_to_bouncing_end = run_.mean_drift;
    if (run_.motion == DimerMotion::drift) {
      run_.resting_tip = run_.contact_fraction[0] >= run_.contact_fraction[1] ? 0 : 1;
      if (run_.resting_tip == 1) run_.drift_to_bouncing_end = -run_.mean_drift;
    }
  }

  Result take() { return std::move(run_); }

 private:
  static Stop singular() {
    return Stop{RunStatus::model_stop, "singular_contact",
                "the contact forces of the closed tips have no solution (singular system)"};
  }

  // closes the phase interval of a tip whose mode changed
  void track_phases(double t) {
    for (int i = 0; i < 2; ++i) {
      if (mode_[i] == phase_mode_[i]) continue;
      if (t > phase_start_[i]) run_.phases.push_back({i, phase_mode_[i], phase_start_[i], t});
      phase_mode_[i] = mode_[i];
      phase_start_[i] = t;
    }
  }

  const Params& p_;
  const Options& o_;
  const bool series_;  // keep the time series (and rows at impacts)
  Result run_;
  TipMode mode_[2] = {TipMode::open, TipMode::open};
  TipMode phase_mode_[2] = {TipMode::open, TipMode::open};
  double phase_start_[2] = {0.0, 0.0};
  bool averaging_ = false;
  double x_left_start_ = 0.0, x_right_start_ = 0.0;
};

}  // namespace

Result run_dimer(const Params& p, const State& y0, const Options& o) {
  DimerModel model(p, o);
  run_hybrid(model, 0.0, y0, o.driver);
  return model.take();
}

}  // namespace granular::dimer
