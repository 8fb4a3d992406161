// Names of the driver's run statuses (include/granular/impact/hybrid.hpp).
#include "granular/impact/hybrid.hpp"

namespace granular::impact {

const char* run_status_name(RunStatus s) {
  switch (s) {
    case RunStatus::completed:
      return "completed";
    case RunStatus::time_limit:
      return "time_limit";
    case RunStatus::event_limit:
      return "event_limit";
    case RunStatus::zeno:
      return "zeno";
    case RunStatus::non_finite:
      return "non_finite";
    case RunStatus::integrator_failed:
      return "integrator_failed";
    case RunStatus::model_stop:
      return "model_stop";
  }
  return "unknown";
}

}  // namespace granular::impact
