// The groups every host impact case shares, one key per concept and one parser per group
// (docs/cases.md, "Shared keys of the impact models"):
//   run/{t_end, sample_interval, max_events}             the time limit, the rows, the budget
//   integrator/{scheme, step, max_step, rtol, atol, event_time_tol}   the ODE and its events
//   zeno/{min_speed, max_impacts, window}                the accumulation test
// A model adds its own keys to a group and chooses the defaults that fit its physical scale;
// the rules are the same for all. Keys of earlier versions are refused with the new name.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/impact_schema.hpp is host-only"
#endif

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "granular/impact/hybrid.hpp"
#include "granular/io/json_reader.hpp"

namespace granular::cases {

// The shared groups of the impact models' cases (docs/cases.md): "run" always, "integrator"
// and "zeno" where the model lists them; a group it does not list is refused, not ignored.
// "run": the time limit, the rows, the event budget, and the model's own keys.
struct RunGroup {
  bool t_end_required = false;          // run/t_end has no default
  bool rows = true;                     // false: no time series: run/sample_interval refused
  std::vector<std::string> model_keys;  // the model's own keys in "run"
  double runs = 1.0;                    // runs of one case (a sweep's points): the step limit
};
// "integrator": the ODE's scheme, steps, tolerances and event location.
struct IntegratorGroup {};
// "zeno": the guard against accumulating impacts. An impact is seen at step ends only, so a
// flight must last a few steps h: zeno/min_speed >= 2 g h (event.hpp).
struct ZenoGroup {
  double flight_gravity = 0.0;   // g of the model's flights [m/s²]; 0: no flights, no floor
  double min_speed_in_gh = 0.0;  // default min_speed = max(zeno.min_speed, this·g h)
  bool counts_impacts = true;    // zeno/max_impacts and zeno/window apply
};

// The groups a model lists, and its defaults: its run options' own (t_end, sample_interval,
// max_events, the ODE, the Zeno thresholds), so that they are written once.
struct DriverSchema {
  impact::DriverOptions base;
  RunGroup run;
  std::optional<IntegratorGroup> integrator;  // none: no ODE (flights in closed form)
  std::optional<ZenoGroup> zeno;              // only with an integrator
};

// Parses run, integrator and zeno of `root` into the driver's options. Rules: t_end > 0;
// sample_interval >= 0 with at most 1e7 rows over t_end; max_events >= 1; scheme rk4 or
// dopri5; step, max_step, rtol, atol, event_time_tol > 0 and step <= t_end; at most
// max_integration_steps steps (run_limits.hpp); min_speed >= 2 g h; max_impacts >= 2,
// window > 0.
impact::DriverOptions parse_driver_options(const io::JsonObject& root, const DriverSchema& d);

// Refuses keys of earlier versions: "<file>: <pointer>/<old>: renamed: use <new pointer>".
// Sets o.on_progress to print "<model>: t = … s (…% of t_end), … events, … s" on `progress`
// (the share of t_end only where t_end is a real limit); nothing when progress is null.
void report_progress(impact::DriverOptions& o, std::ostream* progress, const std::string& model);

// The shared groups' renames are checked by parse_driver_options; a model passes its own.
void reject_renamed(const io::JsonObject& where,
                    const std::vector<std::pair<std::string, std::string>>& old_to_new);

}  // namespace granular::cases
