// The wedge map's run through the event-driven driver (hybrid.hpp): flights solved in closed
// form, a collision as the event, the scaled mean rotation Rω̄/(Aω_b) = Σ W_i τ_i / Σ τ_i
// (thesis eq. 6.1) as the result.
#pragma once

#include <string>

#include "granular/impact/wedge/impact_map.hpp"

namespace granular::wedge {

struct Result : Stop {  // how it ended: status, reason, detail
  long long collisions = 0;
  long long rejections = 0;    // FBRPA draws that would not have bounced the disk back
  double mean_rotation = 0.0;  // Rω̄/(Aω_b), eq. 6.1 over every flight after the first
  double flight_time = 0.0;    // Σ τ_i (scaled)
  long long wall_changes = 0;  // flights that ended on the other wall
  double energy_initial = 0.0, energy_final = 0.0;  // ½v² + y (scaled; without rotation)
};

Result run_wedge(const Params& p, const Options& o);

}  // namespace granular::wedge
