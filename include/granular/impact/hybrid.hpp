// One event-driven driver for the host impact models (docs/architecture.md). A model is a
// hybrid system: smooth phases (a right-hand side, or a solver of its own) ended by named
// events, and a transition map per event (an impact law, a change of contact mode). The
// model supplies those; the driver owns the time loop, the sampling grid, the event budget,
// the Zeno guard and the run status, the same for every model.
//
// The loop, from (t0, y0) (a row of the time series there):
//   1. the end, at t_end (a row there);
//   2. the model's phase at (t, y) (or its stop): an event that holds at once is applied
//      without moving;
//      else the phase runs to the first of its events, t_end or the phase's own horizon, and
//      the rows at the grid times k·Δ it passes come from its dense output (the scheme's own
//      continuation of each step): the rows never shorten a step, so no output setting
//      changes the motion;
//   3. the transition map of the event that ended it, or the model's check at a phase end.
// An integrator failure or a non-finite state ends the run with that status, never with an
// exception: the model's finish() still sees the outcome and writes what it has.
#pragma once

#include "granular/hd.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/hybrid.hpp is host-only"
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "granular/impact/event.hpp"

namespace granular::impact {

// How a run ended, the same words for every model (summary.json "status", docs/outputs.md).
enum class RunStatus {
  completed,          // the model's goal (t_end, the ramp's end, the number of collisions)
  time_limit,         // t_end reached before the model's goal
  event_limit,        // the event budget was spent (chattering or a very long run)
  zeno,               // impacts accumulated and the model cannot go on past them
  non_finite,         // the state became NaN or infinite
  integrator_failed,  // the ODE integrator gave up (step size underflow)
  model_stop          // a stop the model names in `reason` (e.g. painleve, slip)
};
inline constexpr Named<RunStatus> run_status_names[] = {
    {RunStatus::completed, "completed"},     {RunStatus::time_limit, "time_limit"},
    {RunStatus::event_limit, "event_limit"}, {RunStatus::zeno, "zeno"},
    {RunStatus::non_finite, "non_finite"},   {RunStatus::integrator_failed, "integrator_failed"},
    {RunStatus::model_stop, "model_stop"}};

// A stop: the status, the model's word for it (empty for the driver's own) and a sentence.
// Every model's result starts with one: how its run ended.
struct Stop {
  RunStatus status = RunStatus::model_stop;
  std::string reason;
  std::string detail;
};

// An event of a model's phase: its name (the model's enum) and its switching function.
template <class Kind>
struct NamedEvent {
  Kind kind;
  EventFunction g;
  Direction direction = Direction::falling;
  EventFunction rate = {};  // dg/dt, optional: see Event (event.hpp)
};

// The state along a stretch of motion, at any time within it.
using DenseOutput = std::function<State(double t)>;

// The rows of the time series within a stretch (t0, t1] of a phase, sampled by the driver from
// the stretch's dense output. A phase solver calls it for every stretch it moves through, in
// order.
using StretchRows = std::function<void(double t0, double t1, const DenseOutput& at)>;

// A smooth phase the model integrates itself: advances (t, y) towards `target`, telling `rows`
// every stretch it moves through, and returns the event that ended it early, if any.
template <class Kind>
using PhaseSolver =
    std::function<std::optional<Kind>(double& t, State& y, double target, const StretchRows& rows)>;

// What the model does from (t, y) on.
template <class Kind>
struct Phase {
  Rhs rhs;                               // smooth motion, integrated with event location
  std::vector<NamedEvent<Kind>> events;  // what ends it early
  PhaseSolver<Kind> solver;              // instead of rhs and events
  double horizon = std::numeric_limits<double>::infinity();  // the phase ends by itself here
  std::optional<Kind> now;   // an event that holds already: applied at once
  std::optional<Stop> stop;  // the model cannot go on from (t, y)
  // With neither rhs nor solver nothing moves: t jumps to the target (a body at rest).
};

// Settings of the driver, parsed from the case's run, integrator and zeno groups.
struct DriverOptions {
  OdeOptions ode;
  double t_end = 1.0;                         // [s]
  RunStatus at_t_end = RunStatus::completed;  // time_limit where the goal lies elsewhere
  double sample_interval = 0.0;               // Δ of the grid [s]; 0: no rows
  long long max_events = 10'000'000;          // events applied before event_limit
  ZenoGuard zeno;                             // thresholds of the accumulation test
  // told (t, events so far) about every progress_interval_s of wall time; may be empty
  std::function<void(double, long long)> on_progress;
  double progress_interval_s = 5.0;
};

// What the model may use of the driver during a transition.
struct DriverContext {
  ZenoGuard zeno;        // record impacts; reset when the body leaves the contact
  long long events = 0;  // events applied so far
};

// How the run ended and where.
struct RunOutcome : Stop {
  double t = 0.0;
  State y;
  long long events = 0;
};

// The physics of one model. Kind is the model's enum of events.
template <class Kind>
class HybridModel {
 public:
  virtual ~HybridModel() = default;
  // At (t0, y0), before anything moves: may change y or stop (a release that cannot start).
  virtual std::optional<Stop> start(double, State&, DriverContext&) { return std::nullopt; }
  // The phase from (t, y); may apply what holds at this instant to y first.
  virtual Phase<Kind> phase(double t, State& y, DriverContext& ctx) = 0;
  // The transition map of an event that occurred at (t, y).
  virtual std::optional<Stop> on_event(Kind kind, double t, State& y, DriverContext& ctx) = 0;
  // A phase reached its target (grid time, t_end or horizon) with no event.
  virtual std::optional<Stop> on_phase_end(double, State&, DriverContext&) { return std::nullopt; }
  // A row of the time series at a grid time or t_end.
  virtual void sample(double, const State&) {}
  // The run is over: close what is open, write the outcome into the model's result.
  virtual void finish(const RunOutcome&) {}
};

namespace hybrid_detail {
inline bool finite(double t, const State& y) { return std::isfinite(t) && y.allFinite(); }
inline Stop non_finite() {
  return {RunStatus::non_finite, "",
          "the state became NaN or infinite (parameters beyond a double's range)"};
}
}  // namespace hybrid_detail

// Runs `model` from (t0, y0) with the driver's loop (above).
template <class Kind>
RunOutcome run_hybrid(HybridModel<Kind>& model, double t0, State y0, const DriverOptions& o) {
  using hybrid_detail::finite;
  double t = t0;
  State y = std::move(y0);
  DriverContext ctx{o.zeno, 0};
  EventIntegrator ode(nullptr, o.ode);
  const bool sampling = o.sample_interval > 0.0;
  long long next_row = 0;  // the grid is t_k = k·Δ: no drift from summing Δ
  const auto grid = [&]() {
    return sampling ? static_cast<double>(next_row) * o.sample_interval
                    : std::numeric_limits<double>::infinity();
  };
  double last_row = -std::numeric_limits<double>::infinity();
  // the rows at the grid times a stretch (t0, t1] passes (those before t0 are taken)
  const StretchRows rows = [&](double, double t1, const DenseOutput& at) {
    for (; grid() <= t1; ++next_row) {
      model.sample(grid(), at(grid()));
      last_row = grid();
    }
  };

  // the wall clock is read every 1024 turns of the loop, a negligible cost
  using clock = std::chrono::steady_clock;
  auto last_report = clock::now();
  long long turns = 0;
  const auto report = [&]() {
    if (!o.on_progress || (++turns & 1023) != 0) return;
    const auto now = clock::now();
    if (std::chrono::duration<double>(now - last_report).count() < o.progress_interval_s) return;
    last_report = now;
    o.on_progress(t, ctx.events);
  };

  std::optional<Stop> stop = model.start(t, y, ctx);
  if (!stop && sampling) {
    model.sample(t, y);
    last_row = t;
    while (grid() <= t) ++next_row;
  }
  while (!stop) {
    report();
    if (t >= o.t_end) {
      if (sampling && last_row < t) model.sample(t, y);  // the last row, at t_end
      stop = Stop{o.at_t_end, "", "the time limit t_end was reached"};
      break;
    }
    Phase<Kind> ph = model.phase(t, y, ctx);
    if (ph.stop) {
      stop = std::move(ph.stop);
      break;
    }
    std::optional<Kind> hit = ph.now;
    if (!hit) {
      const double target = std::min(o.t_end, ph.horizon);
      try {
        if (ph.solver) {
          hit = ph.solver(t, y, target, rows);
        } else if (ph.rhs) {
          std::vector<Event> events;
          events.reserve(ph.events.size());
          for (const NamedEvent<Kind>& e : ph.events) events.push_back({e.g, e.direction, e.rate});
          ode.set_rhs(std::move(ph.rhs));
          const auto stretch = [&](double t0, const State& y0, double t1, const State& y1) {
            rows(t0, t1, [&](double at) { return at == t1 ? y1 : ode.step(t0, y0, at - t0); });
          };
          if (const auto h = ode.advance(t, y, target, events, stretch))
            hit = ph.events[static_cast<std::size_t>(h->index)].kind;
        } else {
          const State rest = y;  // nothing moves
          rows(t, target, [&](double) { return rest; });
        }
      } catch (const std::runtime_error& e) {
        stop = Stop{RunStatus::integrator_failed, "", e.what()};
        break;
      }
      if (!hit) t = target;  // the last step ends on the target, or at rest
    }
    if (!finite(t, y)) {
      stop = hybrid_detail::non_finite();
      break;
    }
    if (hit) {
      if (++ctx.events > o.max_events) {
        stop = Stop{RunStatus::event_limit, "", "the event budget max_events was spent"};
        break;
      }
      stop = model.on_event(*hit, t, y, ctx);
    } else {
      stop = model.on_phase_end(t, y, ctx);
    }
    if (!stop && !finite(t, y)) stop = hybrid_detail::non_finite();
  }
  RunOutcome out{*stop, t, std::move(y), ctx.events};
  model.finish(out);
  return out;
}

}  // namespace granular::impact
