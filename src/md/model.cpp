#include "granular/md/model.hpp"

namespace granular::md {

int EnsembleModel::add_packing(const PackingParams& params, const std::vector<double>& radii,
                               double areal_density) {
  if (offset.empty()) offset.push_back(0);
  packings.push_back(params);
  for (double r : radii) {
    const double m = disk_mass(areal_density, r);
    radius.push_back(r);
    mass.push_back(m);
    inertia.push_back(disk_inertia(m, r));
    inv_mass.push_back(1.0 / mass.back());
    inv_inertia.push_back(1.0 / inertia.back());
  }
  offset.push_back(offset.back() + static_cast<int>(radii.size()));
  return n_packings() - 1;
}

}  // namespace granular::md
