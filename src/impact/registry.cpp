#include "granular/impact/impact_case.hpp"

namespace granular::impact {

const std::vector<ImpactModel>& impact_models() {
  static const std::vector<ImpactModel> models = {};
  return models;
}

}  // namespace granular::impact
