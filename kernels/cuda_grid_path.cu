// The grid-wide CUDA path for large packings: launch glue over the stages of
// include/granular/md/schedules/grid_step.hpp (a thread per disk, packing or cell entry; one launch
// per stage; CUB's scan by key between counting and scattering). The host replays the same stages
// serially in tests/unit/md/schedules/grid_step_test.cpp, bitwise against the CPU backend. Nothing
// in a step waits for the host: the rebuild stages run every step and skip the packings that need
// none, and the only synchronisation is at the end of advance().
#include <cuda_runtime.h>

#include <cstdint>
#include <cub/device/device_scan.cuh>
#include <vector>

#include "device_ensemble.cuh"
#include "granular/md/schedules/grid_step.hpp"

namespace granular::md {
namespace {

constexpr int kThreads = 128;

unsigned blocks_for(int n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// The device's atomics for the grid stages.
struct CudaGrid {
  __device__ void flag(int* f) const { *f = 1; }  // every writer writes 1
  __device__ void min(std::uint64_t* a, std::uint64_t key) const {
    atomicMin(reinterpret_cast<unsigned long long*>(a), static_cast<unsigned long long>(key));
  }
  __device__ void max(std::uint64_t* a, std::uint64_t key) const {
    atomicMax(reinterpret_cast<unsigned long long*>(a), static_cast<unsigned long long>(key));
  }
  __device__ int add(int* a, int n) const { return atomicAdd(a, n); }
  __device__ void raise(std::uint32_t* status, std::uint32_t flags) const {
    atomicOr(status, flags);
  }
};

__global__ void begin_kernel(EnsembleView v, GridScratch g, int n) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) grid_begin(v, g, p);
}
__global__ void predict_kernel(EnsembleView v, GridScratch g, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grid_predict(CudaGrid{}, v, g, i);
}
__global__ void bodies_kernel(EnsembleView v, GridScratch g, int n, std::int64_t step_end,
                              double t_end) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) grid_bodies(CudaGrid{}, v, g, p, step_end, t_end);
}
__global__ void height_range_kernel(EnsembleView v, GridScratch g, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grid_height_range(CudaGrid{}, v, g, i);
}
__global__ void rows_kernel(EnsembleView v, GridScratch g, int n) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) grid_rows(v, g, p);
}
__global__ void zero_count_kernel(GridScratch g, int n) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n) grid_zero_count(g, e);
}
__global__ void count_kernel(EnsembleView v, GridScratch g, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grid_count(CudaGrid{}, v, g, i);
}
__global__ void copy_start_kernel(EnsembleView v, GridScratch g, int n) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n) grid_copy_start(v, g, e);
}
__global__ void scatter_kernel(EnsembleView v, GridScratch g, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grid_scatter(CudaGrid{}, v, g, i);
}
__global__ void sort_cell_kernel(EnsembleView v, GridScratch g, int n) {
  const int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n) grid_sort_cell(v, g, e);
}
__global__ void neighbor_kernel(EnsembleView v, GridScratch g, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grid_neighbors(CudaGrid{}, v, g, i);
}
__global__ void reference_kernel(EnsembleView v, GridScratch g, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grid_reference(v, g, i);
}
__global__ void forces_kernel(EnsembleView v, GridScratch g, int n, double t_end) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grid_forces(CudaGrid{}, v, g, i, t_end);
}
__global__ void correct_kernel(EnsembleView v, GridScratch g, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) grid_correct(CudaGrid{}, v, g, i);
}

}  // namespace

void advance_grid_wide(const EnsembleModel& m, const EnsembleState& s, DeviceEnsemble& d,
                       std::int64_t steps) {
  const int n_disks = m.n_disks();
  const int n_packings = m.n_packings();
  const int entries = static_cast<int>(s.cell_start.size());
  const EnsembleView v = d.view(m);

  // the packing of every disk and of every cell_start entry
  std::vector<int> disk_packing(n_disks), entry_packing(entries);
  for (int p = 0; p < n_packings; ++p) {
    for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) disk_packing[i] = p;
    for (int e = s.cell_offset[p] + p; e <= s.cell_offset[p + 1] + p; ++e) entry_packing[e] = p;
  }
  DeviceArray<int> d_disk_packing, d_entry_packing, d_active, d_rebuild, d_counts, d_scanned;
  DeviceArray<std::uint64_t> d_y_lo, d_y_hi;
  d_disk_packing.upload(disk_packing, d.staging, "upload of the disks' packings");
  d_entry_packing.upload(entry_packing, d.staging, "upload of the cell entries' packings");
  d_active.resize(n_packings, "allocation of the grid scratch");
  d_rebuild.resize(n_packings, "allocation of the grid scratch");
  d_y_lo.resize(n_packings, "allocation of the grid scratch");
  d_y_hi.resize(n_packings, "allocation of the grid scratch");
  d_counts.resize(entries, "allocation of the grid scratch");
  d_scanned.resize(entries, "allocation of the grid scratch");
  const GridScratch g{d_disk_packing.data(), d_entry_packing.data(), d_active.data(),
                      d_rebuild.data(),      d_y_lo.data(),          d_y_hi.data(),
                      d_counts.data(),       d_scanned.data()};

  // CUB's scratch for the scan by packing, sized once
  std::size_t scan_bytes = 0;
  check(cub::DeviceScan::InclusiveSumByKey(nullptr, scan_bytes, g.entry_packing, g.counts,
                                           g.scanned, entries),
        "scan sizing");
  DeviceArray<unsigned char> d_scan_scratch;
  d_scan_scratch.resize(scan_bytes, "allocation of the scan's scratch");

  const unsigned disk_blocks = blocks_for(n_disks);
  const unsigned packing_blocks = blocks_for(n_packings);
  const unsigned entry_blocks = blocks_for(entries);
  for (std::int64_t k = 1; k <= steps; ++k) {
    const double t_end = s.t0 + static_cast<double>(s.step + k) * m.dt;
    begin_kernel<<<packing_blocks, kThreads>>>(v, g, n_packings);
    predict_kernel<<<disk_blocks, kThreads>>>(v, g, n_disks);
    bodies_kernel<<<packing_blocks, kThreads>>>(v, g, n_packings, s.step + k, t_end);
    height_range_kernel<<<disk_blocks, kThreads>>>(v, g, n_disks);
    rows_kernel<<<packing_blocks, kThreads>>>(v, g, n_packings);
    zero_count_kernel<<<entry_blocks, kThreads>>>(g, entries);
    count_kernel<<<disk_blocks, kThreads>>>(v, g, n_disks);
    check(cub::DeviceScan::InclusiveSumByKey(d_scan_scratch.data(), scan_bytes, g.entry_packing,
                                             g.counts, g.scanned, entries),
          "scan of the cell counts");
    copy_start_kernel<<<entry_blocks, kThreads>>>(v, g, entries);
    scatter_kernel<<<disk_blocks, kThreads>>>(v, g, n_disks);
    sort_cell_kernel<<<entry_blocks, kThreads>>>(v, g, entries);
    neighbor_kernel<<<disk_blocks, kThreads>>>(v, g, n_disks);
    reference_kernel<<<disk_blocks, kThreads>>>(v, g, n_disks);
    forces_kernel<<<disk_blocks, kThreads>>>(v, g, n_disks, t_end);
    correct_kernel<<<disk_blocks, kThreads>>>(v, g, n_disks);
    check(cudaGetLastError(), "grid-wide step launches");
  }
  check(cudaDeviceSynchronize(), "grid-wide advance");
}

}  // namespace granular::md
