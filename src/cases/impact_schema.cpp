// The shared groups of the impact cases (include/granular/cases/impact_schema.hpp).
#include "granular/cases/impact_schema.hpp"

#include <algorithm>
#include <chrono>
#include <ostream>

#include "granular/cases/run_limits.hpp"
#include "granular/io/output.hpp"

namespace granular::cases {

namespace {

using io::Bound;
using io::JsonObject;

// Rows of one time series: more is a unit slip, not a plot.
constexpr double kMaxRows = 1e7;

std::vector<std::string> with(std::vector<std::string> keys, const std::vector<std::string>& own) {
  keys.insert(keys.end(), own.begin(), own.end());
  return keys;
}

}  // namespace

void reject_renamed(const JsonObject& where,
                    const std::vector<std::pair<std::string, std::string>>& old_to_new) {
  for (const auto& [old_key, new_pointer] : old_to_new)
    if (where.has(old_key)) where.fail(old_key, "renamed: use " + new_pointer);
}

impact::DriverOptions parse_driver_options(const JsonObject& root, const DriverSchema& d) {
  impact::DriverOptions o;

  // groups and keys the model does not have are refused, not ignored
  if (!d.integrator)
    root.forbid("integrator", "this model integrates no ODE (its flights are solved exactly)");
  if (!d.zeno) root.forbid("zeno", "this model has no Zeno guard");
  if (!d.run.rows)
    root.object_or_empty("run").forbid("sample_interval", "this model writes no time series");

  // run: the time limit, the rows, the event budget
  const JsonObject run = root.object_or_empty("run");
  reject_renamed(run, {{"max_time", "/run/t_end"},
                       {"output_interval", "/run/sample_interval"},
                       {"sample_dt", "/run/sample_interval"},
                       {"trajectory_interval", "/run/sample_interval"},
                       {"max_impacts", "/run/max_events"},
                       {"zeno_min_speed", "/zeno/min_speed"}});
  run.allow_only(with({"t_end", "sample_interval", "max_events"}, d.run.model_keys));
  o = d.base;
  o.t_end = d.run.t_end_required ? run.number("t_end", Bound::positive)
                                 : run.number_or("t_end", d.base.t_end, Bound::positive);
  if (d.run.rows)
    o.sample_interval =
        run.number_or("sample_interval", d.base.sample_interval, Bound::non_negative);
  if (o.sample_interval > 0.0 && o.t_end / o.sample_interval > kMaxRows)
    run.fail("sample_interval",
             "gives more than " + io::format_number(kMaxRows) +
                 " rows over t_end; must be >= " + io::format_number(o.t_end / kMaxRows));
  o.max_events = run.integer_or("max_events", d.base.max_events, 1);

  if (!d.integrator) return o;  // and no Zeno guard: the models without an ODE

  // integrator: the scheme, its steps and tolerances, the event location
  const JsonObject integ = root.object_or_empty("integrator");
  reject_renamed(integ,
                 {{"first_step", "/integrator/step"}, {"event_tol", "/integrator/event_time_tol"}});
  integ.allow_only({"scheme", "step", "max_step", "rtol", "atol", "event_time_tol"});
  o.ode.scheme = integ.choice_of("scheme", impact::scheme_names, "integrator scheme",
                                 std::optional(d.base.ode.scheme));
  o.ode.step = integ.number_or("step", d.base.ode.step, Bound::positive);
  o.ode.max_step = integ.number_or("max_step", d.base.ode.max_step, Bound::positive);
  o.ode.rtol = integ.number_or("rtol", d.base.ode.rtol, Bound::positive);
  o.ode.atol = integ.number_or("atol", d.base.ode.atol, Bound::positive);
  o.ode.event_time_tol =
      integ.number_or("event_time_tol", d.base.ode.event_time_tol, Bound::positive);
  if (o.ode.step > o.t_end) integ.fail("step", "must be <= t_end");
  const bool fixed = o.ode.scheme == impact::Scheme::rk4;
  check_integration_steps(integ, fixed ? "step" : "max_step", o.t_end,
                          fixed ? o.ode.step : o.ode.max_step, d.run.runs);

  if (!d.zeno) return o;

  // zeno: impacts are seen at step ends only, so the slowest approach the guard lets through
  // must allow a flight of a few steps (event.hpp)
  const JsonObject zeno = root.object_or_empty("zeno");
  if (d.zeno->counts_impacts)
    zeno.allow_only({"min_speed", "max_impacts", "window"});
  else
    zeno.allow_only({"min_speed"});
  const double gh = d.zeno->flight_gravity * (fixed ? o.ode.step : o.ode.max_step);
  o.zeno.min_speed =
      zeno.number_or("min_speed", std::max(d.base.zeno.min_speed, d.zeno->min_speed_in_gh * gh),
                     Bound::non_negative);
  if (o.zeno.min_speed < 2.0 * gh)
    zeno.fail("min_speed", io::format_number(o.zeno.min_speed) +
                               " m/s must be >= 2 g h = " + io::format_number(2.0 * gh) +
                               " m/s (a flight must last a few steps to be seen)");
  if (d.zeno->counts_impacts) {
    o.zeno.max_impacts =
        static_cast<int>(zeno.integer_or("max_impacts", d.base.zeno.max_impacts, 2));
    o.zeno.window = zeno.number_or("window", d.base.zeno.window, Bound::positive);
  }
  return o;
}

void report_progress(impact::DriverOptions& o, std::ostream* progress, const std::string& model) {
  if (!progress) return;
  const double t_end = o.t_end;
  const auto start = std::chrono::steady_clock::now();
  o.on_progress = [progress, model, t_end, start](double t, long long events) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    *progress << '\r' << model << ": ";  // a periodic line (RunContext::progress)
    if (t_end < 1e299) {
      *progress << "t = " << io::format_value("%.6g", t) << " s ("
                << io::format_value("%.3g", 100.0 * t / t_end) << "% of t_end), ";
    }
    *progress << events << " events, " << io::format_value("%.3g", elapsed) << " s\n";
  };
}

}  // namespace granular::cases
