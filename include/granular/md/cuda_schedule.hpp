// How the CUDA backend lays the block path's packings on the device: the schedules benched
// against each other on a GPU (scripts/gpu_first_run.sh schedules, docs/performance.md). Every
// schedule runs the same stages (block_step.hpp) and gives the CPU backend's bits; the host
// replays each (tests/unit/md/schedules/).
#pragma once

#include <memory>
#include <string>

#include "granular/md/backend.hpp"
#include "granular/md/schedules/packing_tile.hpp"
#include "granular/names.hpp"

namespace granular::md {

// The most packings (warps) a block of the warp schedule holds: its 256 threads.
constexpr int max_packings_per_block = 8;

// The tile depths' names in a schedule's name.
inline constexpr Named<TileContents> tile_contents_names[] = {
    {TileContents::neighbours_read, "reads"},
    {TileContents::disk_state, "state"},
    {TileContents::contact_history, "history"}};

struct CudaSchedule {
  // 0: a block per packing, a thread per disk (up to 256 threads, several disks a thread
  // beyond); n in 1..max_packings_per_block: a warp per packing, n packings to a block,
  // several disks a lane beyond 32.
  int packings_per_block = 0;
  // how much of each packing its tile keeps in shared memory: the deepest of these that fits
  // the device's shared memory per block (packing_tile.hpp)
  TileContents tile = TileContents::neighbours_read;
};

// The schedule named "block" or "warp:N" with ":reads", ":state" or ":history" appended for the
// tile (e.g. "warp:4:state"); throws std::invalid_argument naming what is wrong.
CudaSchedule parse_cuda_schedule(const std::string& name);

// Its name, as parse_cuda_schedule reads it.
std::string cuda_schedule_name(const CudaSchedule& schedule);

// make_cuda_backend (backend.hpp) with the block path on `schedule`.
std::unique_ptr<Backend> make_cuda_backend(int large_packing, const CudaSchedule& schedule);

}  // namespace granular::md
