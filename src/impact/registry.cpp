#include "granular/impact/impact_case.hpp"
#include "granular/impact/billiard.hpp"
#include "granular/impact/dimer.hpp"
#include "granular/impact/pendulum.hpp"
#include "granular/impact/prism.hpp"

namespace granular::impact {

const std::vector<ImpactModel>& impact_models() {
  static const std::vector<ImpactModel> models = {
      {"billiard", load_billiard_case},
      {"dimer", load_dimer_case},
      {"pendulum", load_pendulum_case},
      {"prism", load_prism_case},
  };
  return models;
}

}  // namespace granular::impact
