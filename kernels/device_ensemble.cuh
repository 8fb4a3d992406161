// Device mirrors of an ensemble's model and state arrays (d_ prefix: device memory), shared
// by the CUDA launch paths. The backend keeps one for its lifetime, so the allocations are made
// once; transfers go through page-locked staging.
#pragma once

#include <cstdint>
#include <vector>

#include "device_array.cuh"
#include "granular/md/model.hpp"
#include "granular/md/state.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

struct DeviceEnsemble {
  DeviceArray<PackingParams> d_packings;
  DeviceArray<int> d_offset;
  DeviceArray<double> d_radius, d_mass, d_inertia, d_inv_mass, d_inv_inertia;
  DeviceArray<double> d_x, d_y, d_theta, d_vx, d_vy, d_omega, d_ax, d_ay, d_alpha, d_gear_high,
      d_fx, d_fy, d_torque, d_x_ref, d_y_ref;
  DeviceArray<int> d_neighbors, d_neighbor_count, d_neighbor_upper, d_cell_offset, d_cell_start,
      d_cell_disks;
  DeviceArray<CellGrid> d_grids;
  DeviceArray<ContactSlot> d_contacts, d_walls, d_body_walls;
  DeviceArray<Body> d_bodies;
  DeviceArray<double> d_body_motion;
  DeviceArray<std::uint64_t> d_slots_used, d_contact_mask;
  DeviceArray<std::uint32_t> d_status;
  DeviceArray<std::int64_t> d_rebuild_count;

  // Calls f(device array, host array, name) for every state array: one list for both ways.
  template <class State, class F>
  void for_each_state_array(State& s, F&& f) {
    f(d_x, s.x, "x");
    f(d_y, s.y, "y");
    f(d_theta, s.theta, "theta");
    f(d_vx, s.vx, "vx");
    f(d_vy, s.vy, "vy");
    f(d_omega, s.omega, "omega");
    f(d_ax, s.ax, "ax");
    f(d_ay, s.ay, "ay");
    f(d_alpha, s.alpha, "alpha");
    f(d_gear_high, s.gear_high, "gear_high");
    f(d_fx, s.fx, "fx");
    f(d_fy, s.fy, "fy");
    f(d_torque, s.torque, "torque");
    f(d_x_ref, s.x_ref, "x_ref");
    f(d_y_ref, s.y_ref, "y_ref");
    f(d_neighbors, s.neighbors, "neighbors");
    f(d_neighbor_count, s.neighbor_count, "neighbor_count");
    f(d_neighbor_upper, s.neighbor_upper, "neighbor_upper");
    f(d_cell_offset, s.cell_offset, "cell_offset");
    f(d_cell_start, s.cell_start, "cell_start");
    f(d_cell_disks, s.cell_disks, "cell_disks");
    f(d_grids, s.grids, "grids");
    f(d_contacts, s.contacts, "contacts");
    f(d_walls, s.walls, "walls");
    f(d_body_motion, s.body_motion, "body_motion");
    f(d_body_walls, s.body_walls, "body_walls");
    f(d_slots_used, s.slots_used, "slots_used");
    f(d_contact_mask, s.contact_mask, "contact_mask");
    f(d_status, s.status, "status");
    f(d_rebuild_count, s.rebuild_count, "rebuild_count");
  }

  void upload(const EnsembleModel& m, const EnsembleState& s) {
    d_packings.upload(m.packings, staging, "upload of the packings");
    d_offset.upload(m.offset, staging, "upload of the offsets");
    d_radius.upload(m.radius, staging, "upload of the radii");
    d_mass.upload(m.mass, staging, "upload of the masses");
    d_inertia.upload(m.inertia, staging, "upload of the inertias");
    d_inv_mass.upload(m.inv_mass, staging, "upload of the inverse masses");
    d_inv_inertia.upload(m.inv_inertia, staging, "upload of the inverse inertias");
    d_bodies.upload(m.bodies, staging, "upload of the prescribed bodies");
    for_each_state_array(s, [this](auto& d, const auto& h, const char*) {
      d.upload(h, staging, "upload of the state");
    });
  }

  // Every state array, or only those the observers read (observed_state_array).
  void download(EnsembleState& s, bool observed_only) {
    for_each_state_array(s, [this, observed_only](auto& d, auto& h, const char* name) {
      if (!observed_only || observed_state_array(name)) {
        d.download(h, staging, "download of the state");
      }
    });
  }

  PinnedStaging staging;  // every transfer goes through it

  EnsembleView view(const EnsembleModel& m) const {
    return EnsembleView{d_packings.data(),
                        d_offset.data(),
                        d_radius.data(),
                        d_mass.data(),
                        d_inertia.data(),
                        d_inv_mass.data(),
                        d_inv_inertia.data(),
                        d_bodies.data(),
                        m.wall_bodies,
                        m.integrator,
                        m.dt,
                        m.neighbor.skin,
                        m.neighbor.max_neighbors,
                        m.neighbor.max_contacts,
                        d_x.data(),
                        d_y.data(),
                        d_theta.data(),
                        d_vx.data(),
                        d_vy.data(),
                        d_omega.data(),
                        d_ax.data(),
                        d_ay.data(),
                        d_alpha.data(),
                        d_gear_high.data(),
                        d_fx.data(),
                        d_fy.data(),
                        d_torque.data(),
                        d_neighbors.data(),
                        d_neighbor_count.data(),
                        d_neighbor_upper.data(),
                        d_x_ref.data(),
                        d_y_ref.data(),
                        d_cell_offset.data(),
                        d_cell_start.data(),
                        d_cell_disks.data(),
                        d_grids.data(),
                        d_contacts.data(),
                        d_walls.data(),
                        d_body_motion.data(),
                        d_body_walls.data(),
                        d_slots_used.data(),
                        d_contact_mask.data(),
                        d_status.data(),
                        d_rebuild_count.data(),
                        m.n_disks()};
  }
};

// Advances every healthy packing by `steps` steps with a thread per disk across the whole grid
// and one launch per stage (kernels/cuda_grid_path.cu): the path for packings too large for
// one block. `d` holds the uploaded ensemble; the caller downloads it afterwards.
void advance_grid_wide(const EnsembleModel& m, const EnsembleState& s, DeviceEnsemble& d,
                       std::int64_t steps);

}  // namespace granular::md
