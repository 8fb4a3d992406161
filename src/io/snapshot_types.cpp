// The disk types of the snapshots (include/granular/io/snapshot.hpp).
#include <algorithm>
#include <vector>

#include "granular/io/snapshot.hpp"

namespace granular::io {

std::vector<double> distinct_radii(const md::PackingFrame& f) {
  std::vector<double> radii = f.radius;
  std::sort(radii.begin(), radii.end());
  radii.erase(std::unique(radii.begin(), radii.end()), radii.end());
  return radii;
}

int radius_type(const std::vector<double>& radii, double r) {
  return static_cast<int>(std::lower_bound(radii.begin(), radii.end(), r) - radii.begin()) + 1;
}

}  // namespace granular::io
