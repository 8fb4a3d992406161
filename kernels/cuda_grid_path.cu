// The grid-wide CUDA path for large packings: a thread per disk across the whole grid and one
// launch per stage, over the same GRANULAR_HD stage functions as the block path and the CPU:
//   predict (+ rebuild test) -> [rebuild: cell grid per packing, CUB radix sort of the disks by
//   cell, cell starts by binary search, neighbor lists] -> forces (per disk) -> correct.
// A neighbor list is sorted by partner index whatever the order of the disks within a cell, so
// the sort needs no tie rule to reproduce the CPU's lists. The rebuild decision is copied to
// the host every step (one small transfer), which keeps the launch sequence simple.
#include <cuda_runtime.h>

#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_ensemble.cuh"
#include "granular/md/step.hpp"

namespace granular::md {
namespace {

constexpr int kThreads = 128;

int blocks_for(int n) { return (n + kThreads - 1) / kThreads; }

// predict every disk of the packings that are healthy at the start of the step; records that
// health in `active` for the later stages of the step and flags packings that must rebuild.
__global__ void predict_kernel(EnsembleView v, const int* disk_packing, int n_disks, int* active,
                               int* rebuild) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_disks) return;
  const int p = disk_packing[i];
  const int ok = v.status[p] == status_ok ? 1 : 0;
  if (i == v.offset[p]) active[p] = ok;
  if (!ok) return;
  predict_disk(v, i);
  if (moved_beyond_half_skin(v, i)) rebuild[p] = 1;  // every writer writes 1
}

// The cell grid of each rebuilding packing from the range of its heights (as bin_packing).
__global__ void grid_kernel(EnsembleView v, const int* rebuild) {
  const int p = blockIdx.x;
  if (!rebuild[p]) return;
  __shared__ double lo[kThreads];
  __shared__ double hi[kThreads];
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  double my_lo = v.y[first];
  double my_hi = v.y[first];
  for (int i = first + threadIdx.x; i < last; i += blockDim.x) {
    my_lo = fmin(my_lo, v.y[i]);
    my_hi = fmax(my_hi, v.y[i]);
  }
  lo[threadIdx.x] = my_lo;
  hi[threadIdx.x] = my_hi;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      lo[threadIdx.x] = fmin(lo[threadIdx.x], lo[threadIdx.x + stride]);
      hi[threadIdx.x] = fmax(hi[threadIdx.x], hi[threadIdx.x + stride]);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    CellGrid& g = v.grids[p];
    const int rows_allocated = (v.cell_offset[p + 1] - v.cell_offset[p]) / g.nx;
    g.y_min = lo[0];
    const int rows = static_cast<int>(floor((hi[0] - lo[0]) / g.size)) + 1;
    g.ny = rows < rows_allocated ? (rows > 0 ? rows : 1) : rows_allocated;
  }
}

// Sort keys: the global cell index of every disk (cells of packing p are numbered from
// cell_offset[p], so one sort groups the disks by packing, then by cell).
__global__ void cell_key_kernel(EnsembleView v, const int* disk_packing, int n_disks,
                                unsigned* keys, int* ids) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_disks) return;
  const int p = disk_packing[i];
  const CellGrid& g = v.grids[p];
  keys[i] =
      static_cast<unsigned>(v.cell_offset[p] + cell_row(g, v.y[i]) * g.nx + cell_column(g, v.x[i]));
  ids[i] = i;
}

// First position in sorted[lo, hi) whose key is >= key.
__device__ int lower_bound(const unsigned* sorted, int lo, int hi, unsigned key) {
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (sorted[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Cell starts of each rebuilding packing, relative to its first disk (as bin_packing's counting
// sort leaves them), and the disks in cell order.
__global__ void cell_start_kernel(EnsembleView v, const int* rebuild, const unsigned* sorted_keys,
                                  const int* sorted_ids) {
  const int p = blockIdx.x;
  if (!rebuild[p]) return;
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  const CellGrid& g = v.grids[p];
  int* start = v.cell_start + v.cell_offset[p] + p;
  const int n_cells = g.nx * g.ny;
  for (int c = threadIdx.x; c <= n_cells; c += blockDim.x) {
    start[c] =
        lower_bound(sorted_keys, first, last, static_cast<unsigned>(v.cell_offset[p] + c)) - first;
  }
  for (int k = first + threadIdx.x; k < last; k += blockDim.x) v.cell_disks[k] = sorted_ids[k];
}

// Neighbor lists of the disks of rebuilding packings, and their rebuild positions.
__global__ void neighbor_kernel(EnsembleView v, const int* disk_packing, int n_disks,
                                const int* rebuild) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_disks) return;
  const int p = disk_packing[i];
  if (!rebuild[p]) return;
  const std::uint32_t flags = rebuild_disk(v, p, i);
  if (flags != 0) atomicOr(v.status + p, flags);
  if (i == v.offset[p]) ++v.rebuild_count[p];
}

// Rebuild positions, once every list of the packing has read the current ones.
__global__ void reference_kernel(EnsembleView v, const int* disk_packing, int n_disks,
                                 const int* rebuild) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_disks || !rebuild[disk_packing[i]]) return;
  v.x_ref[i] = v.x[i];
  v.y_ref[i] = v.y[i];
}

__global__ void forces_kernel(EnsembleView v, const int* disk_packing, int n_disks,
                              const int* active, double t_end) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_disks) return;
  const int p = disk_packing[i];
  if (!active[p]) return;
  if (!disk_forces(v, p, i, packing_walls(v.packings[p], t_end))) {
    atomicOr(v.status + p, status_contact_overflow);
  }
}

__global__ void correct_kernel(EnsembleView v, const int* disk_packing, int n_disks,
                               const int* active) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_disks) return;
  const int p = disk_packing[i];
  if (!active[p]) return;
  if (!correct_disk(v, i)) atomicOr(v.status + p, status_non_finite);
}

}  // namespace

void advance_grid_wide(const EnsembleModel& m, const EnsembleState& s, DeviceEnsemble& d,
                       std::int64_t steps) {
  const int n_disks = m.n_disks();
  const int n_packings = m.n_packings();
  const EnsembleView v = d.view(m);

  // the packing of every disk
  std::vector<int> h_disk_packing(n_disks);
  for (int p = 0; p < n_packings; ++p) {
    for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) h_disk_packing[i] = p;
  }
  DeviceArray<int> d_disk_packing, d_active, d_rebuild, d_ids, d_sorted_ids;
  DeviceArray<unsigned> d_keys, d_sorted_keys;
  d_disk_packing.upload(h_disk_packing, "upload of the disks' packings");
  d_active.resize(n_packings, "allocation of the active flags");
  d_rebuild.resize(n_packings, "allocation of the rebuild flags");
  d_keys.resize(n_disks, "allocation of the sort keys");
  d_sorted_keys.resize(n_disks, "allocation of the sort keys");
  d_ids.resize(n_disks, "allocation of the sort values");
  d_sorted_ids.resize(n_disks, "allocation of the sort values");
  const int* disk_packing = d_disk_packing.data();
  int* active = d_active.data();
  int* rebuild = d_rebuild.data();

  // CUB's scratch space for the radix sort, sized once
  std::size_t scratch_bytes = 0;
  check(cub::DeviceRadixSort::SortPairs(nullptr, scratch_bytes, d_keys.data(),
                                        d_sorted_keys.data(), d_ids.data(), d_sorted_ids.data(),
                                        n_disks),
        "radix sort sizing");
  DeviceArray<unsigned char> d_scratch;
  d_scratch.resize(scratch_bytes, "allocation of the radix sort's scratch");

  std::vector<int> h_rebuild(n_packings);
  const int disk_blocks = blocks_for(n_disks);
  for (std::int64_t k = 1; k <= steps; ++k) {
    const double t_end = s.t0 + static_cast<double>(s.step + k) * m.dt;
    d_rebuild.zero("reset of the rebuild flags");
    predict_kernel<<<disk_blocks, kThreads>>>(v, disk_packing, n_disks, active, rebuild);
    check(cudaGetLastError(), "predict_kernel");

    // rebuild_if_needed, for the packings that asked
    d_rebuild.download(h_rebuild, "download of the rebuild flags");
    bool any = false;
    for (int r : h_rebuild) any = any || r != 0;
    if (any) {
      grid_kernel<<<n_packings, kThreads>>>(v, rebuild);
      cell_key_kernel<<<disk_blocks, kThreads>>>(v, disk_packing, n_disks, d_keys.data(),
                                                 d_ids.data());
      check(cub::DeviceRadixSort::SortPairs(d_scratch.data(), scratch_bytes, d_keys.data(),
                                            d_sorted_keys.data(), d_ids.data(),
                                            d_sorted_ids.data(), n_disks),
            "radix sort");
      cell_start_kernel<<<n_packings, kThreads>>>(v, rebuild, d_sorted_keys.data(),
                                                  d_sorted_ids.data());
      neighbor_kernel<<<disk_blocks, kThreads>>>(v, disk_packing, n_disks, rebuild);
      reference_kernel<<<disk_blocks, kThreads>>>(v, disk_packing, n_disks, rebuild);
      check(cudaGetLastError(), "rebuild kernels");
    }

    forces_kernel<<<disk_blocks, kThreads>>>(v, disk_packing, n_disks, active, t_end);
    correct_kernel<<<disk_blocks, kThreads>>>(v, disk_packing, n_disks, active);
    check(cudaGetLastError(), "forces and correct kernels");
  }
  check(cudaDeviceSynchronize(), "grid-wide advance");
}

}  // namespace granular::md
