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

// The model's arrays on the device, named as in EnsembleModel.
struct DeviceModelArrays {
  DeviceArray<PackingParams> packings;
  DeviceArray<int> offset;
  DeviceArray<double> radius, mass, inertia, inv_mass, inv_inertia;
  DeviceArray<Body> bodies;
};

// The state's arrays on the device, named as in EnsembleState (for_each_state_array pairs them).
struct DeviceStateArrays {
  DeviceArray<double> x, y, theta, vx, vy, omega, ax, ay, alpha, gear_high, fx, fy, torque, x_ref,
      y_ref;
  DeviceArray<int> neighbors, neighbor_count, neighbor_upper, cell_offset, cell_start, cell_disks;
  DeviceArray<CellGrid> grids;
  DeviceArray<ContactSlot> contacts, walls, body_walls;
  DeviceArray<double> body_motion;
  DeviceArray<std::uint64_t> slots_used, contact_mask;
  DeviceArray<std::uint32_t> status;
  DeviceArray<std::int64_t> rebuild_count;
};

struct DeviceEnsemble {
  DeviceModelArrays d_model;
  DeviceStateArrays d_state;

  void upload(const EnsembleModel& m, const EnsembleState& s) {
    d_model.packings.upload(m.packings, staging, "upload of the packings");
    d_model.offset.upload(m.offset, staging, "upload of the offsets");
    d_model.radius.upload(m.radius, staging, "upload of the radii");
    d_model.mass.upload(m.mass, staging, "upload of the masses");
    d_model.inertia.upload(m.inertia, staging, "upload of the inertias");
    d_model.inv_mass.upload(m.inv_mass, staging, "upload of the inverse masses");
    d_model.inv_inertia.upload(m.inv_inertia, staging, "upload of the inverse inertias");
    d_model.bodies.upload(m.bodies, staging, "upload of the prescribed bodies");
    for_each_state_array(d_state, s, [this](auto& d, const auto& h, const char*) {
      d.upload(h, staging, "upload of the state");
    });
  }

  // Every state array, or only those the observers read (observed_state_array).
  void download(EnsembleState& s, bool observed_only) {
    for_each_state_array(d_state, s, [this, observed_only](auto& d, auto& h, const char* name) {
      if (!observed_only || observed_state_array(name)) {
        d.download(h, staging, "download of the state");
      }
    });
  }

  PinnedStaging staging;  // every transfer goes through it

  EnsembleView view(const EnsembleModel& m) const {
    EnsembleView v = model_view(m, d_model);
    for_each_state_array(v, d_state,
                         [](auto*& to, auto& array, const char*) { to = array.data(); });
    return v;
  }
};

// Advances every healthy packing by `steps` steps with a thread per disk across the whole grid
// and one launch per stage (kernels/cuda_grid_path.cu): the path for packings too large for
// one block. `d` holds the uploaded ensemble; the caller downloads it afterwards.
void advance_grid_wide(const EnsembleModel& m, const EnsembleState& s, DeviceEnsemble& d,
                       std::int64_t steps);

}  // namespace granular::md
