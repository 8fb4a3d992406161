// The steps of one packing on a block of threads: what a CUDA block runs (barriers between the
// stages, each stage's work spread over the threads), written once for the kernel
// (kernels/cuda_backend.cu, with CudaBlock) and for the host tests, which run it with one
// thread in order (SerialBlock) or in a scrambled order (tests): the tests then exercise the
// kernel's own code, all but its concurrency. The CPU backend steps packings with step_packing
// (step.hpp) instead; both give the same bits.
#pragma once

#include <cstdint>

#include "granular/hd.hpp"
#include "granular/md/pair_forces.hpp"
#include "granular/md/step.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

// A block of one thread: every stage covers all its indices, in order, before the next starts,
// as the barriers of a CUDA block ensure.
struct SerialBlock {
  template <class F>
  GRANULAR_HD void for_each(int begin, int end, F&& f) const {
    for (int k = begin; k < end; ++k) f(k);
  }
  GRANULAR_HD bool first_thread() const { return true; }
  GRANULAR_HD void barrier() const {}
  GRANULAR_HD bool barrier_or(bool any) const { return any; }
  GRANULAR_HD void raise(std::uint32_t* status, std::uint32_t flag) const { *status |= flag; }
  // The packing's walls at t_end, evaluated once for the block.
  GRANULAR_HD PackingWalls walls(const PackingParams& pp, double t_end) const {
    return packing_walls(pp, t_end);
  }
};

// Advances packing p by `steps` steps from step `step0` (time t0 + step · dt) on `block`:
// predict -> rebuild_if_needed -> forces per touching pair (pair_forces.hpp) -> correct.
// Stops early when the packing's status is set. `pairs` is the pair schedule's scratch.
GRANULAR_HD_POLICY_TEMPLATE
template <class Block>
GRANULAR_HD void advance_packing_on_block(const Block& block, const EnsembleView& v,
                                          const PairScratch& pairs, int p, std::int64_t step0,
                                          double t0, std::int64_t steps) {
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  std::uint32_t* status = v.status + p;
  for (std::int64_t k = 1; k <= steps; ++k) {
    if (*status != status_ok) break;  // uniform: every thread reads it after a barrier
    const double t_end = t0 + static_cast<double>(step0 + k) * v.dt;

    bool moved = false;
    block.for_each(first, last, [&](int i) {
      predict_disk(v, i);
      moved = moved_beyond_half_skin(v, i) || moved;
    });

    // rebuild_if_needed (binning is serial within the packing, so its order is deterministic)
    if (block.barrier_or(moved)) {
      if (block.first_thread()) bin_packing(v, p);
      block.barrier();
      block.for_each(first, last, [&](int i) {
        const std::uint32_t flags = rebuild_disk(v, p, i);
        if (flags != 0) block.raise(status, flags);
      });
      if (block.first_thread()) ++v.rebuild_count[p];
      block.barrier();
    }

    // forces, a pair per thread, then correct once every disk has its force
    const PackingWalls walls = block.walls(v.packings[p], t_end);
    block.for_each(first, last, [&](int i) {
      if (!book_disk_contacts(v, pairs, i)) block.raise(status, status_contact_overflow);
    });
    block.barrier();
    if (block.first_thread()) number_packing_pairs(v, pairs, p);
    block.barrier();
    block.for_each(first, last, [&](int i) { list_disk_pairs(v, pairs, i); });
    block.barrier();
    block.for_each(0, pairs.pair_total[p], [&](int q) { evaluate_pair(v, pairs, p, q); });
    block.barrier();
    block.for_each(first, last, [&](int i) { sum_disk_forces(v, pairs, p, i, walls); });
    block.barrier();
    block.for_each(first, last, [&](int i) {
      if (!correct_disk(v, i)) block.raise(status, status_non_finite);
    });
    block.barrier();
  }
}

}  // namespace granular::md
