// CUDA backend: thin launch glue over the GRANULAR_HD stages of step.hpp. The block path runs
// advance_packing_on_block (block_step.hpp) on one of two schedules (cuda_schedule.hpp):
//   block  a block per packing (CudaBlock): predict (a thread per disk) -> rebuild_if_needed ->
//          forces (a thread per touching pair, then each disk sums its pairs in the CPU's
//          order, no floating-point atomics) -> correct, with block barriers between the stages;
//   warp   a warp per packing, several packings to a block (CudaWarp): the same stages with
//          warp barriers and shuffles, each lane taking the disks (and pairs) 32 apart.
// The same function run by one host thread, or with its indices in any order, reproduces the
// CPU backend's trajectories bitwise (tests/unit/md/schedules/block_step_test.cpp), so every
// schedule runs the same physics. Integer atomics only set status flags and bin disks.
// Each block (warp) copies a tile of its packing (packing_tile.hpp: what its threads read of
// each other's disks, or also the disks' own state and contact history) into shared memory,
// runs all the launch's steps there and copies it back (the same steps on a tile view, tested
// on the host in tests/unit/md/schedules/packing_tile_test.cpp). A thread may take the
// registers it needs (192 for the block kernel, no spills): five 64-thread blocks share an SM,
// so 1 000 60-disk packings run in two waves on 132 SMs, and still 1.3x (Verlet) to 1.75x
// (Gear) faster than capped at 128 registers, which spilled and ran in one wave
// (docs/performance.md).
// Packings larger than `large_packing` disks take the grid-wide path of cuda_grid_path.cu
// instead (a thread per disk across the grid, CUB-sorted cell lists).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "device_ensemble.cuh"
#include "granular/md/backend.hpp"
#include "granular/md/cuda_schedule.hpp"
#include "granular/md/schedules/block_step.hpp"
#include "granular/md/schedules/packing_tile.hpp"
#include "granular/md/step.hpp"
#include "granular/md/view.hpp"

namespace granular::md {
namespace {

// Threads per block: a thread per disk, in whole warps, at most kMaxThreads (larger packings
// give a thread several disks). kMinBlocks = 1 caps registers only at what one block of
// kMaxThreads threads may hold (255 per thread); 2 capped them at 128, which spilled.
constexpr int kMaxThreads = 256;
constexpr int kMinBlocks = 1;
// The warp schedule's blocks hold up to kMaxThreads / 32 packings; kWarpMinBlocks as kMinBlocks.
constexpr int kWarpMinBlocks = 1;
static_assert(kMaxThreads / 32 == max_packings_per_block,
              "the warp schedule fills a block of kMaxThreads with max_packings_per_block warps");
constexpr unsigned kFullWarp = 0xffffffffu;

// The sum of `value` over lanes 0 … lane of the warp (a scan by shuffles up; integers, so the
// order of the additions does not matter).
__device__ int warp_inclusive_sum(int value, int lane) {
  for (int d = 1; d < 32; d *= 2) {
    const int below = __shfl_up_sync(kFullWarp, value, d);
    if (lane >= d) value += below;
  }
  return value;
}

// The threads of a CUDA block, for advance_packing_on_block (block_step.hpp).
struct CudaBlock {
  template <class F>
  __device__ void for_each(int begin, int end, F&& f) const {
    for (int k = begin + static_cast<int>(threadIdx.x); k < end; k += blockDim.x) f(k);
  }
  __device__ bool first_thread() const { return threadIdx.x == 0; }
  __device__ void barrier() const { __syncthreads(); }
  __device__ bool barrier_or(bool any) const { return __syncthreads_or(any ? 1 : 0) != 0; }
  __device__ void raise(std::uint32_t* status, std::uint32_t flag) const { atomicOr(status, flag); }
  __device__ int add(int* a, int n) const { return atomicAdd(a, n); }
  // the packing's lowest and highest disk by atomic min/max of order-preserving keys
  __device__ HeightRange height_range(const EnsembleView& v, int first, int last) const {
    __shared__ unsigned long long lo, hi;
    if (threadIdx.x == 0) {
      lo = ~0ull;
      hi = 0;
    }
    __syncthreads();
    for (int i = first + static_cast<int>(threadIdx.x); i < last; i += blockDim.x) {
      const unsigned long long key = height_key(v.y[i]);
      atomicMin(&lo, key);
      atomicMax(&hi, key);
    }
    __syncthreads();
    return {height_of_key(lo), height_of_key(hi)};
  }
  // the drive's phase once per packing and step, not once per thread
  __device__ PackingEnvironment environment(const PackingParams& pp, double t_end) const {
    __shared__ PackingEnvironment shared;
    if (threadIdx.x == 0) shared = packing_environment(pp, t_end);
    __syncthreads();
    return shared;
  }
  // blockDim.x indices a round, each thread's own (for_each's): each warp scans its 32 by
  // shuffles, then every thread adds the totals of the warps below it and of the rounds before.
  // Thread k reads and writes only a[first + k + blockDim.x r] (its own disks' counts, which it
  // booked); the barriers guard the warps' totals.
  __device__ int exclusive_sum(int* a, int first, int last, int base) const {
    __shared__ int warp_total[kMaxThreads / 32];
    const int lane = static_cast<int>(threadIdx.x) % 32;
    const int warp = static_cast<int>(threadIdx.x) / 32;
    const int warps = static_cast<int>(blockDim.x) / 32;
    int carry = base;
    for (int round = first; round < last; round += blockDim.x) {
      const int i = round + static_cast<int>(threadIdx.x);
      const int own = i < last ? a[i] : 0;
      const int inclusive = warp_inclusive_sum(own, lane);
      __syncthreads();  // the previous round's totals are read
      if (lane == 31) warp_total[warp] = inclusive;
      __syncthreads();
      int below = 0, round_total = 0;
      for (int w = 0; w < warps; ++w) {
        below += w < warp ? warp_total[w] : 0;
        round_total += warp_total[w];
      }
      if (i < last) a[i] = carry + below + inclusive - own;
      carry += round_total;
    }
    return carry - base;
  }
};

// The 32 lanes of a warp running one packing, for advance_packing_on_block (block_step.hpp):
// the block's stages with warp barriers (the other warps of the block run other packings), the
// height range and the pair numbering by shuffles. Every lane evaluates the drive's phase
// itself (the same bits).
struct CudaWarp {
  int lane;
  template <class F>
  __device__ void for_each(int begin, int end, F&& f) const {
    for (int k = begin + lane; k < end; k += 32) f(k);
  }
  __device__ bool first_thread() const { return lane == 0; }
  __device__ void barrier() const { __syncwarp(); }
  // __syncwarp orders the lanes' memory accesses; the vote alone would not
  __device__ bool barrier_or(bool any) const {
    __syncwarp();
    return __any_sync(kFullWarp, any ? 1 : 0) != 0;
  }
  __device__ void raise(std::uint32_t* status, std::uint32_t flag) const { atomicOr(status, flag); }
  __device__ int add(int* a, int n) const { return atomicAdd(a, n); }
  // min and max of the order-preserving keys over the lanes, as CudaBlock's atomics take them
  __device__ HeightRange height_range(const EnsembleView& v, int first, int last) const {
    unsigned long long lo = ~0ull;
    unsigned long long hi = 0;
    for (int i = first + lane; i < last; i += 32) {
      const unsigned long long key = height_key(v.y[i]);
      lo = key < lo ? key : lo;
      hi = key > hi ? key : hi;
    }
    for (int d = 16; d > 0; d /= 2) {
      const unsigned long long other_lo = __shfl_xor_sync(kFullWarp, lo, d);
      const unsigned long long other_hi = __shfl_xor_sync(kFullWarp, hi, d);
      lo = other_lo < lo ? other_lo : lo;
      hi = other_hi > hi ? other_hi : hi;
    }
    return {height_of_key(lo), height_of_key(hi)};
  }
  __device__ PackingEnvironment environment(const PackingParams& pp, double t_end) const {
    return packing_environment(pp, t_end);
  }
  // 32 indices a round, each lane's own (for_each's): a scan of the round by shuffles, plus the
  // rounds before. Lane l reads and writes only a[first + l + 32 r]: no barrier is needed.
  __device__ int exclusive_sum(int* a, int first, int last, int base) const {
    int carry = base;
    for (int round = first; round < last; round += 32) {
      const int i = round + lane;
      const int own = i < last ? a[i] : 0;
      const int inclusive = warp_inclusive_sum(own, lane);
      if (i < last) a[i] = carry + inclusive - own;
      carry += __shfl_sync(kFullWarp, inclusive, 31);
    }
    return carry - base;
  }
};

// The block of packing p advances it by `steps` steps over view v (global memory or the
// packing's tile).
__device__ void advance_packing(const EnsembleView& v, const PairScratch& pairs, int p,
                                std::int64_t step0, double t0, std::int64_t steps) {
  advance_packing_on_block(CudaBlock{}, v, pairs, p, step0, t0, steps);
}

// One block primes packing blockIdx.x at time t (its lists, forces and accelerations).
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks)
    prime_kernel(EnsembleView v, PairScratch pairs, double t) {
  prime_packing_on_block(CudaBlock{}, v, pairs, blockIdx.x, t);
}

// Where a launch keeps its packings' tiles: in shared memory when `in_shared` (the launch then
// provides `stride` bytes of dynamic shared memory per packing of a block, the largest tile
// padded), holding `contents`. The kernels take the contents as a template parameter: a
// runtime choice kept every tiled pointer live and took 234 registers instead of 192.
struct TileLaunch {
  bool in_shared;
  TileContents contents;
  std::size_t stride;
};

// Calls launch(c) with c an std::integral_constant of `contents`.
template <class Launch>
void with_tile_contents(TileContents contents, Launch&& launch) {
  using C = TileContents;
  switch (contents) {
    case C::neighbours_read:
      return launch(std::integral_constant<C, C::neighbours_read>{});
    case C::disk_state:
      return launch(std::integral_constant<C, C::disk_state>{});
    case C::contact_history:
      return launch(std::integral_constant<C, C::contact_history>{});
  }
}

// One block advances packing blockIdx.x by `steps` steps, in its tile when `in_shared`.
template <TileContents kContents>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks)
    advance_kernel(EnsembleView v, PairScratch pairs, std::int64_t step0, double t0,
                   std::int64_t steps, bool in_shared) {
  const int p = blockIdx.x;
  if (!in_shared) {
    advance_packing(v, pairs, p, step0, t0, steps);
    return;
  }
  extern __shared__ __align__(tile_alignment) unsigned char tile[];
  copy_packing_to_tile(v, p, tile, threadIdx.x, blockDim.x, kContents);
  __syncthreads();
  advance_packing(tile_view(v, p, tile, kContents), pairs, p, step0, t0, steps);
  __syncthreads();
  copy_tile_to_packing(tile, v, p, threadIdx.x, blockDim.x, kContents);
}

// Warp w of block b advances packing b · (blockDim.x / 32) + w by `steps` steps, in its tile
// (the w-th `stride` bytes of the block's shared memory) when `in_shared`. A warp without a
// packing returns at once: no stage waits for the whole block.
template <TileContents kContents>
__global__ void __launch_bounds__(kMaxThreads, kWarpMinBlocks)
    advance_warps_kernel(EnsembleView v, PairScratch pairs, int n_packings, std::int64_t step0,
                         double t0, std::int64_t steps, bool in_shared, std::size_t stride) {
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const CudaWarp lanes{static_cast<int>(threadIdx.x) % 32};
  const int p = static_cast<int>(blockIdx.x) * (static_cast<int>(blockDim.x) / 32) + warp;
  if (p >= n_packings) return;
  if (!in_shared) {
    advance_packing_on_block(lanes, v, pairs, p, step0, t0, steps);
    return;
  }
  extern __shared__ __align__(tile_alignment) unsigned char tiles_of_block[];
  unsigned char* tile = tiles_of_block + static_cast<std::size_t>(warp) * stride;
  copy_packing_to_tile(v, p, tile, lanes.lane, 32, kContents);
  __syncwarp();
  advance_packing_on_block(lanes, tile_view(v, p, tile, kContents), pairs, p, step0, t0, steps);
  __syncwarp();
  copy_tile_to_packing(tile, v, p, lanes.lane, 32, kContents);
}

// Device storage of the pair schedule's scratch (pair_forces.hpp), sized for the model.
struct DevicePairs {
  DeviceArray<int> touch_count, touch_pair, pair_first;
  DeviceArray<unsigned char> touch_slot;
  DeviceArray<std::uint64_t> fresh;
  DeviceArray<PairContact> pairs;

  PairScratch allocate(const EnsembleModel& m) {
    const std::size_t n = static_cast<std::size_t>(m.n_disks());
    const std::size_t slots = n * static_cast<std::size_t>(m.neighbor.max_contacts);
    const char* what = "allocation of the pair scratch";
    touch_count.resize(n, what);
    touch_slot.resize(slots, what);
    touch_pair.resize(slots, what);
    fresh.resize(n, what);
    pair_first.resize(n, what);
    pairs.resize(n * static_cast<std::size_t>(pairs_per_disk(m.neighbor.max_contacts)), what);
    return {touch_count.data(), touch_slot.data(), touch_pair.data(),
            fresh.data(),       pair_first.data(), pairs.data()};
  }
};

class CudaBackend final : public Backend {
 public:
  CudaBackend(int large_packing, const CudaSchedule& schedule)
      : large_packing_(large_packing), schedule_(schedule) {}

  void initialize(const EnsembleModel& m, EnsembleState& s) override {
    if (m.n_packings() == 0 || m.n_disks() == 0) return;  // an empty grid is a launch error
    resident_ = nullptr;
    d_.upload(m, s);
    prime_kernel<<<m.n_packings(), threads_per_packing(m)>>>(d_.view(m), pairs_.allocate(m),
                                                             s.time(m));
    check_launch("prime_kernel");
    d_.download(s, false);
  }

  void advance(const EnsembleModel& m, EnsembleState& s, std::int64_t steps) override {
    advance_resident(m, s, steps);
    download(s, Download::everything);
    resident_ = nullptr;  // the caller may change s now: upload it again next time
  }

  void advance_resident(const EnsembleModel& m, EnsembleState& s, std::int64_t steps) override {
    if (m.n_packings() == 0 || m.n_disks() == 0 || steps <= 0) {
      s.step += steps > 0 ? steps : 0;
      return;
    }
    // the device copy is current when the last call left it for this state at this step
    if (resident_ != &s || resident_step_ != s.step) d_.upload(m, s);
    if (largest_packing(m) > large_packing_) {
      advance_grid_wide(m, s, d_, steps);
    } else if (schedule_.packings_per_block == 0) {
      const TileLaunch tiles = tile_launch(m, s, 1);
      with_tile_contents(tiles.contents, [&](auto contents) {
        const auto kernel = advance_kernel<decltype(contents)::value>;
        opt_in_shared_memory(kernel, shared_bytes(tiles, 1), "advance_kernel");
        kernel<<<m.n_packings(), threads_per_packing(m), shared_bytes(tiles, 1)>>>(
            d_.view(m), pairs_.allocate(m), s.step, s.t0, steps, tiles.in_shared);
      });
      check_launch("advance_kernel");
    } else {
      const int per_block = schedule_.packings_per_block;
      const TileLaunch tiles = tile_launch(m, s, per_block);
      const int blocks = (m.n_packings() + per_block - 1) / per_block;
      with_tile_contents(tiles.contents, [&](auto contents) {
        const auto kernel = advance_warps_kernel<decltype(contents)::value>;
        opt_in_shared_memory(kernel, shared_bytes(tiles, per_block), "advance_warps_kernel");
        kernel<<<blocks, 32 * per_block, shared_bytes(tiles, per_block)>>>(
            d_.view(m), pairs_.allocate(m), m.n_packings(), s.step, s.t0, steps, tiles.in_shared,
            tiles.stride);
      });
      check_launch("advance_warps_kernel");
    }
    s.step += steps;
    resident_ = &s;
    resident_step_ = s.step;
    host_stale_ = Stale::everything;
  }

  void download(EnsembleState& s, Download what) override {
    if (resident_ != &s || host_stale_ == Stale::nothing) return;
    const bool observed = what == Download::observed;
    if (observed && host_stale_ == Stale::unobserved) return;
    d_.download(s, observed);
    host_stale_ = observed ? Stale::unobserved : Stale::nothing;
  }

  void model_changed(EnsembleState& s) override {
    download(s, Download::everything);
    resident_ = nullptr;  // the next advance uploads the new model with the state
  }

  std::string name() const override { return "cuda"; }

 private:
  // dynamic shared memory a block gets without opting in
  static constexpr std::size_t kDefaultSharedMemory = 48 * 1024;
  // the most dynamic shared memory a block can opt in to on this device (227 KB on an H100)
  static std::size_t shared_memory_per_block() {
    int device = 0;
    int bytes = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
          "cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin)");
    return static_cast<std::size_t>(bytes);
  }
  // The deepest tile of the schedule's contents or shallower whose `per_block` copies fit a
  // block's shared memory, or none.
  TileLaunch tile_launch(const EnsembleModel& m, EnsembleState& s, int per_block) const {
    const EnsembleView host = make_view(m, s);
    const std::size_t available = shared_memory_per_block();
    for (int depth = static_cast<int>(schedule_.tile); depth >= 0; --depth) {
      const auto contents = static_cast<TileContents>(depth);
      const std::size_t stride = tile_padded(largest_tile_bytes(host, m.n_packings(), contents));
      if (stride * static_cast<std::size_t>(per_block) <= available) {
        return {true, contents, stride};
      }
    }
    return {false, TileContents::neighbours_read, 0};
  }
  static std::size_t shared_bytes(const TileLaunch& tiles, int per_block) {
    return tiles.in_shared ? tiles.stride * static_cast<std::size_t>(per_block) : 0;
  }
  // lets `kernel` take more than the default dynamic shared memory when `bytes` needs it
  template <class Kernel>
  static void opt_in_shared_memory(Kernel kernel, std::size_t bytes, const char* name) {
    if (bytes <= kDefaultSharedMemory) return;
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(bytes)),
          (std::string("cudaFuncSetAttribute(") + name + ")").c_str());
  }
  static int largest_packing(const EnsembleModel& m) {
    int largest = 1;
    for (int p = 0; p < m.n_packings(); ++p) largest = std::max(largest, m.packing_size(p));
    return largest;
  }
  // a thread per disk of the largest packing, in whole warps, at most kMaxThreads
  static int threads_per_packing(const EnsembleModel& m) {
    return std::min(kMaxThreads, (largest_packing(m) + 31) / 32 * 32);
  }

  int large_packing_;  // packings above this many disks take the grid-wide path
  CudaSchedule schedule_;
  DeviceEnsemble d_;   // the device copy, allocated once and reused by every call
  DevicePairs pairs_;  // the pair schedule's scratch, likewise
  // the state whose newest copy is on the device (advance_resident), at which step, and
  // whether the host's arrays lag behind it
  const EnsembleState* resident_ = nullptr;
  std::int64_t resident_step_ = 0;
  // what of the host's arrays lags behind the device copy
  enum class Stale { nothing, unobserved, everything } host_stale_ = Stale::nothing;
};

}  // namespace

bool cuda_backend_built() { return true; }

std::string cuda_unavailable_reason() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    return std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e) + " (" +
           cudaGetErrorName(e) + ")";
  }
  return count > 0 ? "" : "no CUDA device is present";
}

bool cuda_device_available() { return cuda_unavailable_reason().empty(); }

namespace {

// The rank's index among the ranks of its node, as MPI launchers give it (OpenMPI, MPICH,
// Slurm), or -1 outside a launcher.
int node_local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    if (const char* value = std::getenv(name)) return std::atoi(value);
  }
  return -1;
}

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(int large_packing) {
  return make_cuda_backend(large_packing, CudaSchedule{});
}

std::unique_ptr<Backend> make_cuda_backend(int large_packing, const CudaSchedule& schedule) {
  const std::string why = cuda_unavailable_reason();
  if (!why.empty()) throw std::runtime_error("no CUDA device is available: " + why);
  // one device per rank when a node has several (docs/mpi.md): the node-local rank picks it
  int count = 0;
  check(cudaGetDeviceCount(&count), "counting the devices");
  const int local = node_local_rank();
  if (count > 1 && local >= 0) check(cudaSetDevice(local % count), "selecting the rank's device");
  return std::make_unique<CudaBackend>(large_packing, schedule);
}

}  // namespace granular::md
