// The steps of one packing on a block of threads: what a CUDA block runs (a thread per disk,
// strided when the packing has more disks than threads, barriers between the stages), written
// once for the kernel (kernels/cuda_backend.cu, with CudaBlock) and for the host tests that run
// it with one thread (SerialBlock): the tests then exercise the kernel's own code, all but its
// concurrency. The CPU backend steps packings with step_packing (step.hpp) instead.
#pragma once

#include <cstdint>

#include "granular/hd.hpp"
#include "granular/md/step.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

// A block of one thread: every stage loop covers all disks before the next stage starts, as the
// barriers of a CUDA block ensure.
struct SerialBlock {
  GRANULAR_HD int thread() const { return 0; }
  GRANULAR_HD int threads() const { return 1; }
  GRANULAR_HD void barrier() const {}
  GRANULAR_HD bool barrier_or(bool any) const { return any; }
  GRANULAR_HD void raise(std::uint32_t* status, std::uint32_t flag) const { *status |= flag; }
};

// Advances packing p by `steps` steps from step `step0` (time t0 + step · dt) on `block`:
// predict -> rebuild_if_needed -> forces (per disk, full lists: each disk sums its own contacts,
// no floating-point atomics) -> correct. Stops early when the packing's status is set.
GRANULAR_HD_POLICY_TEMPLATE
template <class Block>
GRANULAR_HD void advance_packing_on_block(const Block& block, const EnsembleView& v, int p,
                                          std::int64_t step0, double t0, std::int64_t steps) {
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  std::uint32_t* status = v.status + p;
  for (std::int64_t k = 1; k <= steps; ++k) {
    if (*status != status_ok) break;  // uniform: every thread reads it after a barrier
    const double t_end = t0 + static_cast<double>(step0 + k) * v.dt;

    bool moved = false;
    for (int i = first + block.thread(); i < last; i += block.threads()) {
      predict_disk(v, i);
      moved = moved_beyond_half_skin(v, i) || moved;
    }

    // rebuild_if_needed (binning is serial within the packing, so its order is deterministic)
    if (block.barrier_or(moved)) {
      if (block.thread() == 0) bin_packing(v, p);
      block.barrier();
      for (int i = first + block.thread(); i < last; i += block.threads()) {
        const std::uint32_t flags = rebuild_disk(v, p, i);
        if (flags != 0) block.raise(status, flags);
      }
      if (block.thread() == 0) ++v.rebuild_count[p];
      block.barrier();
    }

    // forces, then correct once every disk has read the predicted positions
    const PackingWalls walls = packing_walls(v.packings[p], t_end);
    for (int i = first + block.thread(); i < last; i += block.threads()) {
      if (!disk_forces(v, p, i, walls)) block.raise(status, status_contact_overflow);
    }
    block.barrier();
    for (int i = first + block.thread(); i < last; i += block.threads()) {
      if (!correct_disk(v, i)) block.raise(status, status_non_finite);
    }
    block.barrier();
  }
}

}  // namespace granular::md
