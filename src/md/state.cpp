#include "granular/md/state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "granular/constants.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

GridShape packing_grid_shape(double box_width, double r_max, double disk_area, double skin) {
  const double min_size = 2.0 * r_max + skin;
  const double columns = std::max(1.0, std::floor(box_width / min_size));
  const double size = std::max(box_width / columns, min_size);
  return {columns, std::ceil(4.0 * disk_area / (box_width * size)) + 4.0, size};
}

EnsembleState make_state(const EnsembleModel& m, const std::vector<double>& x,
                         const std::vector<double>& y, double t0) {
  const int n = m.n_disks();
  const int n_packings = m.n_packings();
  EnsembleState s;
  s.t0 = t0;
  s.x = x;
  s.y = y;
  for (auto* a :
       {&s.theta, &s.vx, &s.vy, &s.omega, &s.ax, &s.ay, &s.alpha, &s.fx, &s.fy, &s.torque}) {
    a->assign(n, 0.0);
  }
  s.gear_high.assign(9 * static_cast<std::size_t>(n), 0.0);
  s.neighbors.assign(static_cast<std::size_t>(n) * m.neighbor.max_neighbors, -1);
  s.neighbor_count.assign(n, 0);
  s.neighbor_upper.assign(n, 0);
  // infinitely far from the last rebuild: the first step builds the lists
  s.x_ref.assign(n, std::numeric_limits<double>::infinity());
  s.y_ref.assign(n, std::numeric_limits<double>::infinity());
  s.contacts.assign(static_cast<std::size_t>(n) * m.neighbor.max_contacts, ContactSlot{-1, -1, {}});
  s.walls.assign(static_cast<std::size_t>(n) * n_walls, ContactSlot{-1, -1, {}});
  s.slots_used.assign(n, 0);
  s.contact_mask.assign(n, 0);

  // cell grids: rows for four times the height the disks would fill as a solid layer, plus a
  // margin; disks above share the top row
  s.grids.resize(n_packings);
  s.cell_offset.assign(n_packings + 1, 0);
  for (int p = 0; p < n_packings; ++p) {
    const PackingParams& pp = m.packings[p];
    double r_max = 0.0;
    double area = 0.0;
    for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
      r_max = std::max(r_max, m.radius[i]);
      area += pi * m.radius[i] * m.radius[i];
    }
    const GridShape shape = packing_grid_shape(pp.box_width, r_max, area, m.neighbor.skin);
    const int nx = static_cast<int>(shape.columns);
    const int rows = static_cast<int>(shape.rows);
    s.grids[p] = CellGrid{nx, rows, shape.size, 0.0};
    s.cell_offset[p + 1] = s.cell_offset[p] + nx * rows;
  }
  s.cell_start.assign(static_cast<std::size_t>(s.cell_offset.back()) + n_packings, 0);
  s.cell_disks.assign(n, 0);

  s.status.assign(n_packings, status_ok);
  s.rebuild_count.assign(n_packings, 0);
  return s;
}

std::size_t state_bytes_per_disk(const NeighborParams& n) {
  const std::size_t doubles = 9 + 9 + 3 + 2;  // kinematics, Gear's derivatives, forces, refs
  const std::size_t ints = static_cast<std::size_t>(n.max_neighbors) + 3;  // list, counts, cells
  const std::size_t slots = static_cast<std::size_t>(n.max_contacts) + n_walls;
  return doubles * sizeof(double) + ints * sizeof(int) + slots * sizeof(ContactSlot) +
         2 * sizeof(std::uint64_t);
}

std::size_t state_bytes(const EnsembleState& s) {
  std::size_t bytes = 0;
  const auto add = [&bytes](const auto& v) { bytes += v.size() * sizeof(v[0]); };
  for (const auto* a : {&s.x, &s.y, &s.theta, &s.vx, &s.vy, &s.omega, &s.ax, &s.ay, &s.alpha,
                        &s.gear_high, &s.fx, &s.fy, &s.torque, &s.x_ref, &s.y_ref}) {
    add(*a);
  }
  for (const auto* a : {&s.neighbors, &s.neighbor_count, &s.neighbor_upper, &s.cell_offset,
                        &s.cell_start, &s.cell_disks}) {
    add(*a);
  }
  add(s.grids);
  add(s.contacts);
  add(s.walls);
  add(s.slots_used);
  add(s.contact_mask);
  add(s.status);
  add(s.rebuild_count);
  return bytes;
}

EnsembleView make_view(const EnsembleModel& m, EnsembleState& s) {
  return EnsembleView{m.packings.data(),
                      m.offset.data(),
                      m.radius.data(),
                      m.mass.data(),
                      m.inertia.data(),
                      m.inv_mass.data(),
                      m.inv_inertia.data(),
                      m.integrator,
                      m.dt,
                      m.neighbor.skin,
                      m.neighbor.max_neighbors,
                      m.neighbor.max_contacts,
                      s.x.data(),
                      s.y.data(),
                      s.theta.data(),
                      s.vx.data(),
                      s.vy.data(),
                      s.omega.data(),
                      s.ax.data(),
                      s.ay.data(),
                      s.alpha.data(),
                      s.gear_high.data(),
                      s.fx.data(),
                      s.fy.data(),
                      s.torque.data(),
                      s.neighbors.data(),
                      s.neighbor_count.data(),
                      s.neighbor_upper.data(),
                      s.x_ref.data(),
                      s.y_ref.data(),
                      s.cell_offset.data(),
                      s.cell_start.data(),
                      s.cell_disks.data(),
                      s.grids.data(),
                      s.contacts.data(),
                      s.walls.data(),
                      s.slots_used.data(),
                      s.contact_mask.data(),
                      s.status.data(),
                      s.rebuild_count.data()};
}

}  // namespace granular::md
