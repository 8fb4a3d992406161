// The prism's run through the driver (include/granular/impact/prism/run.hpp).
#include "granular/impact/prism/run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "granular/constants.hpp"

namespace granular::prism {

namespace {

enum class PrismEvent {
  face_lands,  // λ → 0: the next face hits the ramp
  stall,       // θ̇ → 0 before it lands: the prism rocks back
  slip,        // (2.2) the friction demand reaches μ_s
  detachment   // (2.2) the normal force reaches 0
};

// The prism on the ramp as a hybrid system of the driver (hybrid.hpp): rolling about an edge
// (2.1), ended by the next face landing, whose impact (line or point) starts the roll about
// the next edge (§3).
class PrismModel : public HybridModel<PrismEvent> {
 public:
  PrismModel(const Params& p, const Options& o)
      : p_(p),
        o_(o),
        alpha_(p.geometry.alpha),
        omega_sq_(p.gravity / (p.geometry.circumradius * (std::cos(2.0 * alpha_) + 8.0) / 6.0)),
        mg_(p.mass * p.gravity) {
    r_.min_normal_ratio = std::numeric_limits<double>::infinity();
  }

  std::optional<Stop> start(double, State& y, DriverContext&) override {
    // a release from rest rolls forward only if λ0 < α + β (§2.1)
    if (o_.omega0 == 0.0 && o_.lambda0 >= alpha_ + p_.slope)
      return Stop{RunStatus::model_stop, "does_not_roll",
                  "released from rest at lambda0 >= alpha + beta: it falls back onto the rear "
                  "face"};
    return violation_at_start(0.0, y, "release");
  }

  Phase<PrismEvent> phase(double, State&, DriverContext&) override {
    // contact phase (2.1): λ̈ = θ̈ = −Ω² sin(α + β − λ)
    Phase<PrismEvent> ph;
    const double omega_sq = omega_sq_, ab = alpha_ + p_.slope, mg = mg_;
    const Params& p = p_;
    ph.rhs = [omega_sq, ab](double, const State& s, State& ds) {
      ds.resize(2);
      ds << s[1], -omega_sq * std::sin(ab - s[0]);
    };
    ph.events = {{PrismEvent::face_lands, [](double, const State& s) { return s[0]; }},
                 {PrismEvent::stall, [](double, const State& s) { return -s[1]; }},
                 {PrismEvent::slip,
                  [&p, mg](double, const State& s) {
                    const EdgeReaction f = edge_reaction(p, s[0], s[1]);
                    return (p.mu_s * f.normal - std::fabs(f.tangential)) / mg;
                  }},
                 {PrismEvent::detachment, [&p, mg](double, const State& s) {
                    return edge_reaction(p, s[0], s[1]).normal / mg;
                  }}};
    return ph;
  }

  std::optional<Stop> on_event(PrismEvent kind, double t, State& y, DriverContext& ctx) override {
    switch (kind) {
      case PrismEvent::stall:
        return Stop{RunStatus::model_stop, "stalled",
                    "theta_dot reached 0 before the face landed: the prism rocks back and comes "
                    "to rest"};
      case PrismEvent::slip:
      case PrismEvent::detachment:
        record(t, y);
        if (violation(kind)) return violation_stop(kind, t, y, "contact phase");
        return std::nullopt;
      case PrismEvent::face_lands:
        break;
    }
    return face_impact(t, y, ctx);
  }

  void sample(double t, const State& y) override { record(t, y); }

  void finish(const RunOutcome& o) override {
    static_cast<Stop&>(r_) = o;
    r_.t_final = o.t;
    r_.lp_final = lp_of(o.y[0]);
    if (r_.rolling.empty() || r_.rolling.back().t != o.t) record(o.t, o.y);
    if (!std::isfinite(r_.min_normal_ratio)) r_.min_normal_ratio = 0.0;
  }

  Result take() { return std::move(r_); }

 private:
  // faces rolled, L_p (4.2)
  double lp_of(double lambda) const { return (o_.lambda0 - lambda) / (2.0 * alpha_) + k_; }

  // mechanical energy relative to the release: ½J_Aθ̇² + m g (y_C − y_C0),
  // y_C = a0 cos φ1 − k b sinβ
  double energy_of(const State& s) const {
    const PrismGeometry& g = p_.geometry;
    const double ab = alpha_ + p_.slope;
    return 0.5 * p_.mass * g.j_edge * s[1] * s[1] +
           mg_ * (g.circumradius * (std::cos(ab - s[0]) - std::cos(ab - o_.lambda0)) -
                  k_ * g.face_width * std::sin(p_.slope));
  }

  void record(double t, const State& y) {
    r_.rolling.push_back({t, k_, y[0], y[1], lp_of(y[0]), energy_of(y)});
    const EdgeReaction f = edge_reaction(p_, y[0], y[1]);
    r_.min_normal_ratio = std::min(r_.min_normal_ratio, f.normal / mg_);
    if (f.normal > 0.0)
      r_.max_contact_demand = std::max(r_.max_contact_demand, std::fabs(f.tangential) / f.normal);
  }

  // counts a slip or detachment; true when it stops the run
  bool violation(PrismEvent kind) {
    if (kind == PrismEvent::slip) ++r_.slip_violations;
    if (kind == PrismEvent::detachment) ++r_.detach_violations;
    return o_.stop_on_violation;
  }

  Stop violation_stop(PrismEvent kind, double t, const State& y, const char* where) const {
    char line[200];
    std::snprintf(
        line, sizeof line, "%s at t = %.6g s, lambda = %.6g deg, L_p = %.6g (%s)",
        kind == PrismEvent::slip ? "friction demand above mu_s" : "normal force reached 0", t,
        y[0] / degree, lp_of(y[0]), where);
    return Stop{RunStatus::model_stop, kind == PrismEvent::slip ? "slip" : "detachment", line};
  }

  // (2.2) at the start of a phase, where the event functions may already be past zero
  std::optional<Stop> violation_at_start(double t, const State& y, const char* where) {
    const EdgeReaction f = edge_reaction(p_, y[0], y[1]);
    std::optional<PrismEvent> v;
    if (f.normal <= 0.0)
      v = PrismEvent::detachment;
    else if (std::fabs(f.tangential) > p_.mu_s * f.normal)
      v = PrismEvent::slip;
    if (v && violation(*v)) return violation_stop(*v, t, y, where);
    return std::nullopt;
  }

  // face impact at λ = 0 (§3 step 3); the located state is within event_tol past it
  std::optional<Stop> face_impact(double t, State& y, DriverContext& ctx) {
    y[0] = 0.0;
    record(t, y);
    const double omega_minus = y[1];
    PrismImpactRecord rec{};
    rec.index = k_ + 1;
    rec.t = t;
    rec.omega_before = omega_minus;
    rec.lp = lp_of(0.0);
    if (p_.impact == PrismImpactModel::line) {
      const LineImpactResult li = line_impact(p_, omega_minus, o_.line);
      if (li.outcome != LineImpactOutcome::pivot_b)
        return Stop{RunStatus::model_stop, "impact_failed",
                    li.outcome == LineImpactOutcome::rock_back_a
                        ? "the line impact ended with v^n(A) = 0 (rock back onto A)"
                        : (li.outcome == LineImpactOutcome::lost_contact
                               ? "the line impact lost contact (free flight, excluded by A3)"
                               : "the line impact did not terminate")};
      rec.omega_after = li.omega_after;
      rec.mode = li.modes;
      rec.sticking = li.sticking;
      rec.friction_demand = li.friction_demand;
    } else {
      const PointImpactResult pi = point_impact(p_, omega_minus);
      rec.omega_after = pi.omega_after;
      rec.mode = "point";
      rec.sticking = pi.sticking;
      rec.friction_demand = pi.friction_demand;
    }
    rec.kappa = rec.omega_after / omega_minus;
    if (!std::isfinite(rec.omega_after) || !std::isfinite(rec.kappa))
      return Stop{RunStatus::non_finite, "",
                  "the impact gave a NaN or infinite velocity (parameters beyond a double's "
                  "range)"};
    rec.energy_lost = 0.5 * p_.mass * p_.geometry.j_edge *
                      (omega_minus * omega_minus - rec.omega_after * rec.omega_after);
    r_.impacts.push_back(rec);

    // (§3 step 4) the new rolling edge is B, λ = 2α
    ++k_;
    y << 2.0 * alpha_, rec.omega_after;
    record(t, y);
    if (!rec.sticking && violation(PrismEvent::slip))
      return violation_stop(PrismEvent::slip, t, y, "impact");
    const double b = p_.geometry.face_width;
    if (k_ * b >= o_.ramp_length - 1e-12 * b)
      return Stop{RunStatus::completed, "ramp_end", "the rolling edge reached the end of the ramp"};
    if (ctx.zeno.accumulating(t, std::fabs(omega_minus) * b))
      return Stop{RunStatus::zeno, "at_rest",
                  "impacts too slow or too frequent: the prism is coming to rest"};
    return violation_at_start(t, y, "after impact");
  }

  const Params& p_;
  const Options& o_;
  const double alpha_, omega_sq_, mg_;
  int k_ = 0;  // completed impacts
  Result r_;
};

}  // namespace

Result run_prism(const Params& p, const Options& o) {
  PrismModel model(p, o);
  State y(2);
  y << o.lambda0, 0.0 - o.omega0;
  DriverOptions d = o.driver;
  d.at_t_end = RunStatus::time_limit;  // the goal is the ramp's end
  run_hybrid(model, 0.0, y, d);
  return model.take();
}

}  // namespace granular::prism
