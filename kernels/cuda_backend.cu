// CUDA backend: thin launch glue over the GRANULAR_HD stages of step.hpp. A block per
// packing, a thread per disk (strided when the packing has more disks than threads), barriers
// between the stages: predict -> rebuild_if_needed -> forces (per disk, full lists: each disk
// sums its own contacts, no floating-point atomics) -> correct. This stage order, run serially
// on the host, reproduces the CPU backend's trajectories bitwise (tests/unit/md/step_test.cpp,
// StepForceSchedules), so both backends run the same physics. Integer atomics only set status
// flags.
// Not yet: packing state in shared memory, and a sorted cell list (CUB) for packings of more
// than a few thousand disks, whose binning here is serial in thread 0.
#include <cuda_runtime.h>
#include <thrust/device_vector.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "granular/md/backend.hpp"
#include "granular/md/step.hpp"

namespace granular::md {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e));
}

__global__ void prime_kernel(EnsembleView v, int n_packings, double t) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n_packings) prime_packing(v, p, t);
}

// One block advances packing blockIdx.x by `steps` steps.
__global__ void advance_kernel(EnsembleView v, std::int64_t step0, double t0, std::int64_t steps) {
  const int p = blockIdx.x;
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  std::uint32_t* status = v.status + p;
  for (std::int64_t k = 1; k <= steps; ++k) {
    if (*status != status_ok) break;  // uniform: read by every thread after a barrier
    const double t_end = t0 + static_cast<double>(step0 + k) * v.dt;

    // predict
    int moved = 0;
    for (int i = first + threadIdx.x; i < last; i += blockDim.x) {
      predict_disk(v, i);
      moved |= moved_beyond_half_skin(v, i) ? 1 : 0;
    }

    // rebuild_if_needed (binning is serial within the packing, so its order is deterministic)
    if (__syncthreads_or(moved)) {
      if (threadIdx.x == 0) bin_packing(v, p);
      __syncthreads();
      for (int i = first + threadIdx.x; i < last; i += blockDim.x) {
        if (!build_neighbors(v, p, i)) atomicOr(status, status_neighbor_overflow);
      }
      if (threadIdx.x == 0) ++v.rebuild_count[p];
      __syncthreads();
    }

    // forces, then correct once every disk has read the predicted positions
    const PackingWalls walls = packing_walls(v.packings[p], t_end);
    for (int i = first + threadIdx.x; i < last; i += blockDim.x) {
      if (!disk_forces(v, p, i, walls)) atomicOr(status, status_contact_overflow);
    }
    __syncthreads();
    for (int i = first + threadIdx.x; i < last; i += blockDim.x) {
      if (!correct_disk(v, i)) atomicOr(status, status_non_finite);
    }
    __syncthreads();
  }
}

// Device mirrors of the model and state arrays (d_ prefix: device memory).
struct DeviceEnsemble {
  thrust::device_vector<PackingParams> d_packings;
  thrust::device_vector<int> d_offset;
  thrust::device_vector<double> d_radius, d_mass, d_inertia, d_inv_mass, d_inv_inertia;
  thrust::device_vector<double> d_x, d_y, d_theta, d_vx, d_vy, d_omega, d_ax, d_ay, d_alpha,
      d_gear_high, d_fx, d_fy, d_torque, d_x_ref, d_y_ref;
  thrust::device_vector<int> d_neighbors, d_neighbor_count, d_neighbor_upper, d_cell_offset,
      d_cell_start,
      d_cell_disks;
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
    d_x = s.x; d_y = s.y; d_theta = s.theta; d_vx = s.vx; d_vy = s.vy; d_omega = s.omega;
    d_ax = s.ax; d_ay = s.ay; d_alpha = s.alpha; d_gear_high = s.gear_high;
    d_fx = s.fx; d_fy = s.fy; d_torque = s.torque; d_x_ref = s.x_ref; d_y_ref = s.y_ref;
    d_neighbors = s.neighbors; d_neighbor_count = s.neighbor_count;
    d_neighbor_upper = s.neighbor_upper;
    d_cell_offset = s.cell_offset; d_cell_start = s.cell_start; d_cell_disks = s.cell_disks;
    d_grids = s.grids; d_contacts = s.contacts; d_walls = s.walls;
    d_slots_used = s.slots_used;
    d_contact_mask = s.contact_mask;
    d_status = s.status; d_rebuild_count = s.rebuild_count;
  }

  template <class T>
  static void copy_back(const thrust::device_vector<T>& d, std::vector<T>& h) {
    thrust::copy(d.begin(), d.end(), h.begin());
  }

  void download(EnsembleState& s) const {
    copy_back(d_x, s.x); copy_back(d_y, s.y); copy_back(d_theta, s.theta);
    copy_back(d_vx, s.vx); copy_back(d_vy, s.vy); copy_back(d_omega, s.omega);
    copy_back(d_ax, s.ax); copy_back(d_ay, s.ay); copy_back(d_alpha, s.alpha);
    copy_back(d_gear_high, s.gear_high); copy_back(d_fx, s.fx); copy_back(d_fy, s.fy);
    copy_back(d_torque, s.torque); copy_back(d_x_ref, s.x_ref); copy_back(d_y_ref, s.y_ref);
    copy_back(d_neighbors, s.neighbors); copy_back(d_neighbor_count, s.neighbor_count);
    copy_back(d_neighbor_upper, s.neighbor_upper);
    copy_back(d_cell_start, s.cell_start); copy_back(d_cell_disks, s.cell_disks);
    copy_back(d_grids, s.grids); copy_back(d_contacts, s.contacts); copy_back(d_walls, s.walls);
    copy_back(d_slots_used, s.slots_used);
    copy_back(d_contact_mask, s.contact_mask);
    copy_back(d_status, s.status); copy_back(d_rebuild_count, s.rebuild_count);
  }

  EnsembleView view(const EnsembleModel& m) {
    using thrust::raw_pointer_cast;
    return EnsembleView{raw_pointer_cast(d_packings.data()), raw_pointer_cast(d_offset.data()),
                        raw_pointer_cast(d_radius.data()), raw_pointer_cast(d_mass.data()),
                        raw_pointer_cast(d_inertia.data()), raw_pointer_cast(d_inv_mass.data()),
                        raw_pointer_cast(d_inv_inertia.data()), m.integrator, m.dt,
                        m.neighbor.skin, m.neighbor.max_neighbors, m.neighbor.max_contacts,
                        raw_pointer_cast(d_x.data()), raw_pointer_cast(d_y.data()),
                        raw_pointer_cast(d_theta.data()), raw_pointer_cast(d_vx.data()),
                        raw_pointer_cast(d_vy.data()), raw_pointer_cast(d_omega.data()),
                        raw_pointer_cast(d_ax.data()), raw_pointer_cast(d_ay.data()),
                        raw_pointer_cast(d_alpha.data()), raw_pointer_cast(d_gear_high.data()),
                        raw_pointer_cast(d_fx.data()), raw_pointer_cast(d_fy.data()),
                        raw_pointer_cast(d_torque.data()), raw_pointer_cast(d_neighbors.data()),
                        raw_pointer_cast(d_neighbor_count.data()),
                        raw_pointer_cast(d_neighbor_upper.data()), raw_pointer_cast(d_x_ref.data()),
                        raw_pointer_cast(d_y_ref.data()), raw_pointer_cast(d_cell_offset.data()),
                        raw_pointer_cast(d_cell_start.data()), raw_pointer_cast(d_cell_disks.data()),
                        raw_pointer_cast(d_grids.data()), raw_pointer_cast(d_contacts.data()),
                        raw_pointer_cast(d_walls.data()), raw_pointer_cast(d_slots_used.data()),
                        raw_pointer_cast(d_contact_mask.data()),
                        raw_pointer_cast(d_status.data()),
                        raw_pointer_cast(d_rebuild_count.data())};
  }
};

class CudaBackend final : public Backend {
 public:
  void initialize(const EnsembleModel& m, EnsembleState& s) override {
    DeviceEnsemble d;
    d.upload(m, s);
    const int n = m.n_packings();
    prime_kernel<<<blocks(n), kThreads>>>(d.view(m), n, s.time(m));
    check(cudaGetLastError(), "prime_kernel launch");
    check(cudaDeviceSynchronize(), "prime_kernel");
    d.download(s);
  }

  void advance(const EnsembleModel& m, EnsembleState& s, std::int64_t steps) override {
    DeviceEnsemble d;
    d.upload(m, s);
    const int n = m.n_packings();
    advance_kernel<<<n, threads_per_packing(m)>>>(d.view(m), s.step, s.t0, steps);
    check(cudaGetLastError(), "advance_kernel launch");
    check(cudaDeviceSynchronize(), "advance_kernel");
    d.download(s);
    s.step += steps;
  }

  std::string name() const override { return "cuda"; }

 private:
  static constexpr int kThreads = 64;
  static int blocks(int n) { return (n + kThreads - 1) / kThreads; }
  // a thread per disk of the largest packing, in whole warps, at most 256
  static int threads_per_packing(const EnsembleModel& m) {
    int largest = 1;
    for (int p = 0; p < m.n_packings(); ++p) largest = std::max(largest, m.packing_size(p));
    return std::min(256, (largest + 31) / 32 * 32);
  }
};

}  // namespace

bool cuda_backend_built() { return true; }

bool cuda_device_available() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

std::unique_ptr<Backend> make_cuda_backend() {
  if (!cuda_device_available()) throw std::runtime_error("no CUDA device is available");
  return std::make_unique<CudaBackend>();
}

}  // namespace granular::md
