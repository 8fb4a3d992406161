// Smooth phases of the host impact models: an ODE integrator (fixed-step RK4, as the papers
// use, or adaptive Dormand–Prince 5(4)) with event location to a tolerance.
//
// An event is a gap (or switching) function g(t, y) of the model. An event occurs where g
// crosses from positive to non-positive (Direction::falling, the default for gaps), from
// negative to non-negative (rising) or either way (both). It is located by the Illinois
// variant of regula falsi on τ ↦ g(τ, y(τ)), where y(τ) is obtained by re-integrating one step
// of the same scheme from the last accepted state — never by interpolating the state
// linearly. The returned state is the one at the end of the final bracket, so it lies on the
// far side of the crossing (g ≤ 0 for a falling gap) within `event_time_tol`.
//
// An event checked at step ends misses a function that crosses back and forth within one step.
// Where that matters, the model gives the function's rate ġ along the motion: then an event that
// starts a step on its far side and ends it there (a gap right after its impact, g ≤ 0, whose
// flight is shorter than a step) is still found when ġ changes sign within the step towards the
// event (a maximum of a falling gap) and g lies on the near side there: the crossing after that
// turn is located as any other. Steps in which nothing crossed are taken unchanged.
#pragma once

#include "granular/hd.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/event.hpp is host-only"
#endif

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace granular::impact {

using State = Eigen::VectorXd;
// dy/dt = f(t, y): writes f into dydt (sized like y).
using Rhs = std::function<void(double t, const State& y, State& dydt)>;
using EventFunction = std::function<double(double t, const State& y)>;

enum class Scheme { rk4, dopri5 };
inline constexpr Named<Scheme> scheme_names[] = {{Scheme::rk4, "rk4"}, {Scheme::dopri5, "dopri5"}};
enum class Direction { falling, rising, both };

struct Event {
  EventFunction g;
  Direction direction = Direction::falling;
  // dg/dt along the motion, optional (falling and rising events): finds a crossing back and
  // forth within one step from the far side (above)
  EventFunction rate = {};
};

struct OdeOptions {
  Scheme scheme = Scheme::rk4;
  double step = 1e-4;             // rk4: the fixed step; dopri5: the first trial step [s]
  double max_step = 1e-2;         // dopri5: largest step [s]
  double rtol = 1e-10;            // dopri5: relative tolerance per step
  double atol = 1e-12;            // dopri5: absolute tolerance per step
  double event_time_tol = 1e-12;  // width of the final bracket of an event [s]
};

// An event found by advance(): which one, when, and the state there.
struct EventHit {
  int index;
  double t;
  State y;
};

// Integrates a smooth phase with event location. Stateless between calls except for the
// adaptive step size, which carries over (set_step resets it).
class EventIntegrator {
 public:
  EventIntegrator(Rhs f, OdeOptions options) : f_(std::move(f)), o_(options), h_(options.step) {
    if (!(o_.step > 0.0)) throw std::invalid_argument("EventIntegrator: step must be > 0");
  }

  const OdeOptions& options() const { return o_; }
  void set_step(double h) { h_ = h; }
  // A new right-hand side (a new smooth phase); the adaptive step carries over.
  void set_rhs(Rhs f) { f_ = std::move(f); }

  // One step of the scheme from (t, y) over h; for dopri5 also the error estimate.
  State step(double t, const State& y, double h, State* error = nullptr) const {
    return o_.scheme == Scheme::rk4 ? rk4_step(t, y, h) : dopri5_step(t, y, h, error);
  }

  // Each stretch advance() moves through: from (t0, y0) to (t1, y1), a step of the scheme or the
  // part of one up to an event. The state at any time τ in it is step(t0, y0, τ − t0), the
  // scheme's own continuation, as events are located (a dense output that never changes the
  // steps taken).
  using Stretch = std::function<void(double t0, const State& y0, double t1, const State& y1)>;

  // Advances (t, y) towards t_end. Stops at the first event in `events` (returning it; t and y
  // are then the event's) or at t_end exactly (returning nothing). An event whose function is
  // already on its far side at the start is not reported again until it has crossed back.
  // `stretch`, when given, hears every stretch moved through, in order.
  std::optional<EventHit> advance(double& t, State& y, double t_end,
                                  const std::vector<Event>& events, const Stretch& stretch = {}) {
    std::vector<double> g0(events.size());
    for (std::size_t k = 0; k < events.size(); ++k) g0[k] = events[k].g(t, y);
    while (t < t_end) {
      double h = std::min(o_.scheme == Scheme::rk4 ? o_.step : h_, t_end - t);
      State y1 = take_step(t, y, h);
      // the last step ends on t_end itself, not on t + (t_end − t) rounded
      const double t1 = h == t_end - t ? t_end : t + h;
      // an adaptive step below the resolution of t would never get there (a singularity)
      if (!(t1 > t))
        throw std::runtime_error("EventIntegrator: step size underflow at t = " +
                                 std::to_string(t) + " s (singular phase)");
      // the earliest event crossed within this step
      std::optional<EventHit> first;
      for (std::size_t k = 0; k < events.size(); ++k) {
        const double g1 = events[k].g(t1, y1);
        std::optional<EventHit> hit;
        if (crosses(events[k].direction, g0[k], g1))
          hit = locate(static_cast<int>(k), events[k], t, y, g0[k], h);
        else if (events[k].rate)
          hit = excursion(static_cast<int>(k), events[k], t, y, g0[k], t1, y1, g1, h);
        if (hit && (!first || hit->t < first->t)) first = std::move(hit);
      }
      if (first) {
        if (stretch) stretch(t, y, first->t, first->y);
        t = first->t;
        y = first->y;
        return first;
      }
      if (stretch) stretch(t, y, t1, y1);
      t = t1;
      y = std::move(y1);
      for (std::size_t k = 0; k < events.size(); ++k) g0[k] = events[k].g(t, y);
    }
    return std::nullopt;
  }

 private:
  static bool crosses(Direction d, double g0, double g1) {
    switch (d) {
      case Direction::falling:
        return g0 > 0.0 && g1 <= 0.0;
      case Direction::rising:
        return g0 < 0.0 && g1 >= 0.0;
      default:
        return (g0 > 0.0 && g1 <= 0.0) || (g0 < 0.0 && g1 >= 0.0);
    }
  }

  // A step that the scheme accepts: rk4 as given; dopri5 shrinks h until the error estimate
  // passes and grows h_ for the next step. h is updated to the step taken.
  State take_step(double t, const State& y, double& h) {
    if (o_.scheme == Scheme::rk4) return rk4_step(t, y, h);
    for (int tries = 0; tries < 60; ++tries) {
      State err;
      State y1 = dopri5_step(t, y, h, &err);
      double norm = 0.0;
      for (Eigen::Index i = 0; i < y.size(); ++i) {
        const double scale = o_.atol + o_.rtol * std::max(std::fabs(y[i]), std::fabs(y1[i]));
        norm = std::max(norm, std::fabs(err[i]) / scale);
      }
      const double factor = norm > 0.0 ? std::clamp(0.9 * std::pow(norm, -0.2), 0.2, 5.0) : 5.0;
      if (norm <= 1.0) {
        h_ = std::min(o_.max_step, h * factor);
        return y1;
      }
      h *= std::max(factor, 0.1);
    }
    throw std::runtime_error("EventIntegrator: step size underflow (stiff or singular phase)");
  }

  // Illinois regula falsi on τ ↦ g(t + τ, y(t + τ)), with y(t + τ) from one step of length τ.
  EventHit locate(int index, const Event& e, double t, const State& y, double g_start,
                  double h) const {
    State yb;
    const double b = bracket(e.g, e.direction, t, y, 0.0, g_start, h, yb);
    return {index, t + b, std::move(yb)};
  }

  // A step that starts and ends on the event's far side, with the event's rate given: a
  // crossing back and forth within it shows as a turn of g (ġ changing sign towards the
  // event: a maximum of a falling g, a minimum of a rising one) with g on the near side there.
  // The turn is located on ġ as an event of the same direction, the crossing after it on g
  // over the rest of the step; with no such turn nothing is found, as before.
  std::optional<EventHit> excursion(int index, const Event& e, double t, const State& y,
                                    double g0, double t1, const State& y1, double g1,
                                    double h) const {
    if (e.direction == Direction::both) return std::nullopt;
    const double s = e.direction == Direction::falling ? 1.0 : -1.0;
    if (!(s * g0 <= 0.0 && s * g1 <= 0.0)) return std::nullopt;
    const double r0 = e.rate(t, y);
    if (!crosses(e.direction, r0, e.rate(t1, y1))) return std::nullopt;
    State y_turn;
    const double turn = bracket(e.rate, e.direction, t, y, 0.0, r0, h, y_turn);
    const double g_turn = e.g(t + turn, y_turn);
    if (!crosses(e.direction, g_turn, g1)) return std::nullopt;  // g stayed on the far side
    State yb;
    const double b = bracket(e.g, e.direction, t, y, turn, g_turn, h, yb);
    return EventHit{index, t + b, std::move(yb)};
  }

  // The bracket [a, b] of f's crossing in direction d, from f(t + a) = fa on the near side to
  // the far side at b (f's value there found by a step over b), narrowed by Illinois regula
  // falsi; returns b and the state there.
  double bracket(const EventFunction& f, Direction d, double t, const State& y, double a,
                 double fa, double b, State& yb) const {
    double ga = fa;
    yb = step(t, y, b);
    double gb = f(t + b, yb);
    int side = 0;
    for (int it = 0; it < 200 && b - a > o_.event_time_tol; ++it) {
      double c = (a * gb - b * ga) / (gb - ga);
      if (!(c > a && c < b)) c = 0.5 * (a + b);  // keep strictly inside the bracket
      State yc = step(t, y, c);
      const double gc = f(t + c, yc);
      if (crosses(d, ga, gc)) {
        b = c;
        gb = gc;
        yb = std::move(yc);
        if (side == -1) ga *= 0.5;
        side = -1;
      } else {
        a = c;
        ga = gc;
        if (side == 1) gb *= 0.5;
        side = 1;
      }
    }
    return b;
  }

  State rk4_step(double t, const State& y, double h) const {
    State k1(y.size()), k2(y.size()), k3(y.size()), k4(y.size());
    f_(t, y, k1);
    f_(t + 0.5 * h, y + 0.5 * h * k1, k2);
    f_(t + 0.5 * h, y + 0.5 * h * k2, k3);
    f_(t + h, y + h * k3, k4);
    return y + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }

  // Dormand–Prince 5(4) (Hairer, Nørsett & Wanner, Table II.5.2); the 5th-order solution is
  // propagated and the difference to the embedded 4th-order one estimates the error.
  State dopri5_step(double t, const State& y, double h, State* error) const {
    const Eigen::Index n = y.size();
    State k1(n), k2(n), k3(n), k4(n), k5(n), k6(n), k7(n);
    f_(t, y, k1);
    f_(t + h / 5.0, y + h * (1.0 / 5.0) * k1, k2);
    f_(t + 3.0 * h / 10.0, y + h * ((3.0 / 40.0) * k1 + (9.0 / 40.0) * k2), k3);
    f_(t + 4.0 * h / 5.0, y + h * ((44.0 / 45.0) * k1 - (56.0 / 15.0) * k2 + (32.0 / 9.0) * k3),
       k4);
    f_(t + 8.0 * h / 9.0,
       y + h * ((19372.0 / 6561.0) * k1 - (25360.0 / 2187.0) * k2 + (64448.0 / 6561.0) * k3 -
                (212.0 / 729.0) * k4),
       k5);
    f_(t + h,
       y + h * ((9017.0 / 3168.0) * k1 - (355.0 / 33.0) * k2 + (46732.0 / 5247.0) * k3 +
                (49.0 / 176.0) * k4 - (5103.0 / 18656.0) * k5),
       k6);
    const State y5 = y + h * ((35.0 / 384.0) * k1 + (500.0 / 1113.0) * k3 + (125.0 / 192.0) * k4 -
                              (2187.0 / 6784.0) * k5 + (11.0 / 84.0) * k6);
    if (error) {
      f_(t + h, y5, k7);
      *error = h * ((71.0 / 57600.0) * k1 - (71.0 / 16695.0) * k3 + (71.0 / 1920.0) * k4 -
                    (17253.0 / 339200.0) * k5 + (22.0 / 525.0) * k6 - (1.0 / 40.0) * k7);
    }
    return y5;
  }

  Rhs f_;
  OdeOptions o_;
  double h_;
};

// Accumulating impacts (Zeno): a run of impacts whose normal approach speeds fall below
// `min_speed`, or more than `max_impacts` impacts within `window` seconds, means the body is
// coming to rest on the contact; the model then switches to persistent contact and reports it.
// Events are checked at step ends, so a flight shorter than one step can go unseen: set
// min_speed so that the flights it allows last several steps (for a gap under gravity g with a
// fixed step h, min_speed ≥ 2 g h).
struct ZenoGuard {
  double min_speed = 1e-6;  // [m/s] (or the model's normal-velocity unit)
  int max_impacts = 50;     // impacts within `window` that count as an accumulation
  double window = 1e-3;     // [s]

  // Records an impact at time t with approach speed |u_n|; true when the impacts accumulate.
  bool accumulating(double t, double approach_speed) {
    times_.push_back(t);
    while (!times_.empty() && times_.front() < t - window) times_.erase(times_.begin());
    return approach_speed < min_speed || static_cast<int>(times_.size()) > max_impacts;
  }
  void reset() { times_.clear(); }

 private:
  std::vector<double> times_;
};

}  // namespace granular::impact
