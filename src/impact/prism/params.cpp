// The prism's geometry and mass properties (include/granular/impact/prism/params.hpp).
#include "granular/impact/prism/params.hpp"

#include <cmath>

#include "granular/constants.hpp"

namespace granular::prism {

PrismGeometry prism_geometry(int n_sides, double circumradius, double length) {
  PrismGeometry g;
  g.n_sides = n_sides;
  g.circumradius = circumradius;
  g.length = length;
  g.alpha = pi / n_sides;
  g.face_width = 2.0 * circumradius * std::sin(g.alpha);
  g.apothem = circumradius * std::cos(g.alpha);
  const double c = std::cos(2.0 * g.alpha);
  const double a2 = circumradius * circumradius;
  g.j_c = a2 * (c + 2.0) / 6.0;
  g.j_edge = a2 * (c + 8.0) / 6.0;
  g.j_face = g.j_c + g.apothem * g.apothem;
  g.area = 0.5 * n_sides * a2 * std::sin(2.0 * g.alpha);
  return g;
}

}  // namespace granular::prism
