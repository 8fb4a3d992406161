// EnsembleView: the model and state as plain pointers, the only thing the GRANULAR_HD step
// functions see. The CPU backend builds it over host vectors; the CUDA glue over device copies
// (h_/d_ prefixes there).
#pragma once

#include <cstddef>
#include <cstdint>

#include "granular/contact_law.hpp"
#include "granular/md/model.hpp"
#include "granular/md/state.hpp"

namespace granular::md {

struct EnsembleView {
  // model (constant)
  const PackingParams* packings;
  const int* offset;
  const double* radius;
  const double* mass;
  const double* inertia;
  const double* inv_mass;
  const double* inv_inertia;
  const Body* bodies;
  int wall_bodies;
  Integrator integrator;
  double dt;
  double skin;
  int max_neighbors;
  int max_contacts;
  // state
  double* x;
  double* y;
  double* theta;
  double* vx;
  double* vy;
  double* omega;
  double* ax;
  double* ay;
  double* alpha;
  double* gear_high;
  double* fx;
  double* fy;
  double* torque;
  int* neighbors;
  int* neighbor_count;
  int* neighbor_upper;
  double* x_ref;
  double* y_ref;
  const int* cell_offset;
  int* cell_start;
  int* cell_disks;
  CellGrid* grids;
  ContactSlot* contacts;
  ContactSlot* walls;
  double* body_motion;
  ContactSlot* body_walls;
  std::uint64_t* slots_used;
  std::uint64_t* contact_mask;
  std::uint32_t* status;
  std::int64_t* rebuild_count;
  int disk_count;  // the length of each gear_high column: the ensemble's disks (a tile's: its own)
};

// gear_high's columns: the 3rd, 4th and 5th derivatives of x, y and θ.
constexpr int gear_columns = 9;

// Column k of gear_high (state.hpp): the (k % 3 + 3)-th derivative of coordinate k / 3.
GRANULAR_HD inline double* gear_column(const EnsembleView& v, int k) {
  return v.gear_high + static_cast<std::ptrdiff_t>(k) * v.disk_count;
}

// The model's part of a view: its constants from m, its arrays from `arrays`, which names them
// as EnsembleModel does (the model itself, or its device mirror); the state's arrays are set
// by for_each_state_array (state.hpp). Each field is set by name, so none can be swapped.
template <class ModelArrays>
EnsembleView model_view(const EnsembleModel& m, const ModelArrays& arrays) {
  EnsembleView v{};
  v.packings = arrays.packings.data();
  v.offset = arrays.offset.data();
  v.radius = arrays.radius.data();
  v.mass = arrays.mass.data();
  v.inertia = arrays.inertia.data();
  v.inv_mass = arrays.inv_mass.data();
  v.inv_inertia = arrays.inv_inertia.data();
  v.bodies = arrays.bodies.data();
  v.wall_bodies = m.wall_bodies;
  v.integrator = m.integrator;
  v.dt = m.dt;
  v.skin = m.neighbor.skin;
  v.max_neighbors = m.neighbor.max_neighbors;
  v.max_contacts = m.neighbor.max_contacts;
  v.disk_count = m.n_disks();
  return v;
}

// A view over host memory.
EnsembleView make_view(const EnsembleModel& m, EnsembleState& s);

}  // namespace granular::md
