// Device mirrors of an ensemble's model and state arrays (d_ prefix: device memory), shared
// by the CUDA launch paths. Uploaded before and downloaded after every Backend call.
#pragma once

#include <thrust/copy.h>
#include <thrust/device_vector.h>

#include <cstdint>
#include <vector>

#include "granular/md/model.hpp"
#include "granular/md/state.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

struct DeviceEnsemble {
  thrust::device_vector<PackingParams> d_packings;
  thrust::device_vector<int> d_offset;
  thrust::device_vector<double> d_radius, d_mass, d_inertia, d_inv_mass, d_inv_inertia;
  thrust::device_vector<double> d_x, d_y, d_theta, d_vx, d_vy, d_omega, d_ax, d_ay, d_alpha,
      d_gear_high, d_fx, d_fy, d_torque, d_x_ref, d_y_ref;
  thrust::device_vector<int> d_neighbors, d_neighbor_count, d_neighbor_upper, d_cell_offset,
      d_cell_start, d_cell_disks;
  thrust::device_vector<CellGrid> d_grids;
  thrust::device_vector<ContactSlot> d_contacts, d_walls;
  thrust::device_vector<std::uint64_t> d_slots_used, d_contact_mask;
  thrust::device_vector<std::uint32_t> d_status;
  thrust::device_vector<std::int64_t> d_rebuild_count;

  void upload(const EnsembleModel& m, const EnsembleState& s) {
    d_packings = m.packings;
    d_offset = m.offset;
    d_radius = m.radius;
    d_mass = m.mass;
    d_inertia = m.inertia;
    d_inv_mass = m.inv_mass;
    d_inv_inertia = m.inv_inertia;
    d_x = s.x;
    d_y = s.y;
    d_theta = s.theta;
    d_vx = s.vx;
    d_vy = s.vy;
    d_omega = s.omega;
    d_ax = s.ax;
    d_ay = s.ay;
    d_alpha = s.alpha;
    d_gear_high = s.gear_high;
    d_fx = s.fx;
    d_fy = s.fy;
    d_torque = s.torque;
    d_x_ref = s.x_ref;
    d_y_ref = s.y_ref;
    d_neighbors = s.neighbors;
    d_neighbor_count = s.neighbor_count;
    d_neighbor_upper = s.neighbor_upper;
    d_cell_offset = s.cell_offset;
    d_cell_start = s.cell_start;
    d_cell_disks = s.cell_disks;
    d_grids = s.grids;
    d_contacts = s.contacts;
    d_walls = s.walls;
    d_slots_used = s.slots_used;
    d_contact_mask = s.contact_mask;
    d_status = s.status;
    d_rebuild_count = s.rebuild_count;
  }

  template <class T>
  static void copy_back(const thrust::device_vector<T>& d, std::vector<T>& h) {
    thrust::copy(d.begin(), d.end(), h.begin());
  }

  void download(EnsembleState& s) const {
    copy_back(d_x, s.x);
    copy_back(d_y, s.y);
    copy_back(d_theta, s.theta);
    copy_back(d_vx, s.vx);
    copy_back(d_vy, s.vy);
    copy_back(d_omega, s.omega);
    copy_back(d_ax, s.ax);
    copy_back(d_ay, s.ay);
    copy_back(d_alpha, s.alpha);
    copy_back(d_gear_high, s.gear_high);
    copy_back(d_fx, s.fx);
    copy_back(d_fy, s.fy);
    copy_back(d_torque, s.torque);
    copy_back(d_x_ref, s.x_ref);
    copy_back(d_y_ref, s.y_ref);
    copy_back(d_neighbors, s.neighbors);
    copy_back(d_neighbor_count, s.neighbor_count);
    copy_back(d_neighbor_upper, s.neighbor_upper);
    copy_back(d_cell_start, s.cell_start);
    copy_back(d_cell_disks, s.cell_disks);
    copy_back(d_grids, s.grids);
    copy_back(d_contacts, s.contacts);
    copy_back(d_walls, s.walls);
    copy_back(d_slots_used, s.slots_used);
    copy_back(d_contact_mask, s.contact_mask);
    copy_back(d_status, s.status);
    copy_back(d_rebuild_count, s.rebuild_count);
  }

  EnsembleView view(const EnsembleModel& m) {
    using thrust::raw_pointer_cast;
    return EnsembleView{raw_pointer_cast(d_packings.data()),
                        raw_pointer_cast(d_offset.data()),
                        raw_pointer_cast(d_radius.data()),
                        raw_pointer_cast(d_mass.data()),
                        raw_pointer_cast(d_inertia.data()),
                        raw_pointer_cast(d_inv_mass.data()),
                        raw_pointer_cast(d_inv_inertia.data()),
                        m.integrator,
                        m.dt,
                        m.neighbor.skin,
                        m.neighbor.max_neighbors,
                        m.neighbor.max_contacts,
                        raw_pointer_cast(d_x.data()),
                        raw_pointer_cast(d_y.data()),
                        raw_pointer_cast(d_theta.data()),
                        raw_pointer_cast(d_vx.data()),
                        raw_pointer_cast(d_vy.data()),
                        raw_pointer_cast(d_omega.data()),
                        raw_pointer_cast(d_ax.data()),
                        raw_pointer_cast(d_ay.data()),
                        raw_pointer_cast(d_alpha.data()),
                        raw_pointer_cast(d_gear_high.data()),
                        raw_pointer_cast(d_fx.data()),
                        raw_pointer_cast(d_fy.data()),
                        raw_pointer_cast(d_torque.data()),
                        raw_pointer_cast(d_neighbors.data()),
                        raw_pointer_cast(d_neighbor_count.data()),
                        raw_pointer_cast(d_neighbor_upper.data()),
                        raw_pointer_cast(d_x_ref.data()),
                        raw_pointer_cast(d_y_ref.data()),
                        raw_pointer_cast(d_cell_offset.data()),
                        raw_pointer_cast(d_cell_start.data()),
                        raw_pointer_cast(d_cell_disks.data()),
                        raw_pointer_cast(d_grids.data()),
                        raw_pointer_cast(d_contacts.data()),
                        raw_pointer_cast(d_walls.data()),
                        raw_pointer_cast(d_slots_used.data()),
                        raw_pointer_cast(d_contact_mask.data()),
                        raw_pointer_cast(d_status.data()),
                        raw_pointer_cast(d_rebuild_count.data())};
  }
};

// Advances every healthy packing by `steps` steps with a thread per disk across the whole grid
// and one launch per stage (kernels/cuda_grid_path.cu): the path for packings too large for
// one block. `d` holds the uploaded ensemble; the caller downloads it afterwards.
void advance_grid_wide(const EnsembleModel& m, const EnsembleState& s, DeviceEnsemble& d,
                       std::int64_t steps);

}  // namespace granular::md
