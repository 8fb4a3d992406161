// Limits on the work a host impact case may ask for (docs/cases.md, "Requested work"): the
// loaders refuse more, naming the key and the number, before anything runs. A request beyond
// them is a typo or a unit slip (t_end = 1e300, step = 1e-300), not a simulation.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/run_limits.hpp is host-only"
#endif

#include <string>

#include "granular/io/json_reader.hpp"

namespace granular::cases {

// Integration steps of one case, summed over its runs (a sweep's points): 10^10, hours of one
// core for these small systems (the shipped cases take 10^4–10^6).
constexpr double max_integration_steps = 1e10;

// Rejects `runs` runs of `duration` [s] at steps of `step` [s] (the largest step, for adaptive
// schemes: the fewest steps they can take) when that is more than max_integration_steps, or
// not a number: "<pointer>/<key>: gives 1e+304 integration steps (t_end / step), more than
// 1e+10".
void check_integration_steps(const io::JsonObject& where, const std::string& key, double duration,
                             double step, double runs = 1.0);

}  // namespace granular::cases
