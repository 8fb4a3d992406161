#include "granular/md/model.hpp"

#include <stdexcept>

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

int EnsembleModel::add_packing_of(const EnsembleModel& from, int p, double areal_density) {
  const std::vector<double> radii(from.radius.begin() + from.offset[p],
                                  from.radius.begin() + from.offset[p + 1]);
  PackingParams params = from.packings[p];
  params.body_first = 0;
  params.body_count = 0;
  const int q = add_packing(params, radii, areal_density);
  const PackingParams& source = from.packings[p];
  for (int b = source.body_first; b < source.body_first + source.body_count; ++b) {
    Body body = from.bodies[b];
    if (body.shape == BodyShape::disk) body.disk += offset[q] - from.offset[p];
    add_body(body);
  }
  return q;
}

void EnsembleModel::add_body(const Body& body) {
  if (packings.empty()) throw std::invalid_argument("add_body: no packing");
  const int p = n_packings() - 1;
  PackingParams& pp = packings[p];
  if (pp.body_count == 0) pp.body_first = static_cast<int>(bodies.size());
  Body b = body;
  for (AxisMotion& a : b.axis) {
    if (a.drive == AxisDrive::random) {
      a.step = random_vibration_step({a.damping, a.omega, a.amplitude}, dt);
    }
  }
  if (b.shape == BodyShape::disk) {
    if (b.disk < offset[p] || b.disk >= offset[p + 1])
      throw std::invalid_argument("add_body: the disk is not in the last packing");
    inv_mass[b.disk] = 0.0;
    inv_inertia[b.disk] = 0.0;
  } else {
    int walls = 0;
    for (int k = pp.body_first; k < pp.body_first + pp.body_count; ++k) {
      walls += bodies[k].shape == BodyShape::wall ? 1 : 0;
    }
    b.wall_slot = walls;
    wall_bodies = walls + 1 > wall_bodies ? walls + 1 : wall_bodies;
  }
  bodies.push_back(b);
  ++pp.body_count;
}

}  // namespace granular::md
