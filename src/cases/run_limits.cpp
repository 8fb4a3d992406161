#include "granular/cases/run_limits.hpp"

namespace granular::cases {

void check_integration_steps(const io::JsonObject& where, const std::string& key, double duration,
                             double step, double runs) {
  const double steps = runs * duration / step;
  if (steps <= max_integration_steps) return;  // false for NaN too
  where.fail(key, "gives " + io::format_number(steps, 3) + " integration steps (" +
                      (runs > 1.0 ? io::format_number(runs) + " runs × " : std::string()) +
                      "duration / step), more than " + io::format_number(max_integration_steps));
}

}  // namespace granular::cases
