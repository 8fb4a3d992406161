#include "granular/md/bottom_layer.hpp"

#include <vector>

#include "granular/md/packing.hpp"

namespace granular::md {

int add_random_bottom_layer(EnsembleModel& m, const RandomBottomLayer& layer) {
  const int p = m.n_packings() - 1;
  const int first = m.offset[p];
  const std::vector<double> radii(m.radius.begin() + first, m.radius.begin() + m.offset[p + 1]);
  // the bed run_ensemble starts from (build_layouts): the same radii, width and seed
  const PackingLayout bed = build_bed(radii, m.packings[p].box_width, m.packings[p].seed);
  int layer_disks = 0;
  for (std::size_t k = 0; k < radii.size(); ++k) {
    // the front puts a disk on the floor at y = R, up to rounding
    if (!(bed.y[k] <= radii[k] * (1.0 + 1e-9))) continue;
    Body disk;
    disk.shape = BodyShape::disk;
    disk.disk = first + static_cast<int>(k);
    disk.x0 = bed.x[k];
    disk.y0 = bed.y[k];
    for (int axis = 0; axis < 2; ++axis)
      disk.axis[axis] = {AxisDrive::random, layer.amplitude, layer.omega, layer.damping, {}};
    m.add_body(disk);
    ++layer_disks;
  }
  return layer_disks;
}

}  // namespace granular::md
