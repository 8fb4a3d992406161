// The steps of one packing on a block of threads: what a CUDA block runs (barriers between the
// stages, each stage's work spread over the threads), written once for the kernel
// (kernels/cuda_backend.cu, with CudaBlock) and for the host tests, which run it with one
// thread in order (SerialBlock) or in a scrambled order (tests): the tests then exercise the
// kernel's own code, all but its concurrency. The CPU backend steps packings with step_packing
// (step.hpp) instead; both give the same bits.
//
// A Block policy provides: for_each(begin, end, f) (a stage's indices over the threads, index k
// to the same thread in every stage), first_thread(), barrier(), barrier_or(any),
// raise(status, flags) (an atomic or), add(int*, n) (an atomic add returning the old value),
// height_range(v, first, last) (the lowest and highest y of the disks, block-wide),
// environment(pp, t) (packing_environment, evaluated once) and exclusive_sum(a, first, last,
// base) (a[i] for i in [first, last), each written by the thread for_each gives i, replaced by
// base plus the sum of a[first..i), in integers, so in any order; returns the sum of all, to
// every thread; afterwards the thread for_each gives i sees a[i]).
//
// Where a stage's thread reads only what the same thread wrote (its own disk), no barrier
// separates the stages: the mapping of indices to threads is the same in every stage.
#pragma once

#include <cstdint>

#include "granular/hd.hpp"
#include "granular/md/schedules/pair_forces.hpp"
#include "granular/md/step.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

// The lowest and highest height of a packing's disks.
struct HeightRange {
  double lo;
  double hi;
};

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
  GRANULAR_HD int add(int* a, int n) const {
    const int old = *a;
    *a += n;
    return old;
  }
  GRANULAR_HD HeightRange height_range(const EnsembleView& v, int first, int last) const {
    HeightRange r{v.y[first], v.y[first]};
    for (int i = first; i < last; ++i) {
      r.lo = fmin(r.lo, v.y[i]);
      r.hi = fmax(r.hi, v.y[i]);
    }
    return r;
  }
  GRANULAR_HD PackingEnvironment environment(const PackingParams& pp, double t_end) const {
    return packing_environment(pp, t_end);
  }
  GRANULAR_HD int exclusive_sum(int* a, int first, int last, int base) const {
    int next = base;
    for (int i = first; i < last; ++i) {
      const int count = a[i];
      a[i] = next;
      next += count;
    }
    return next - base;
  }
};

// bin_packing (step.hpp) spread over the block: the height range block-wide, the cell counts by
// atomic adds, the sums on the first thread (a few hundred cells), the disks scattered by
// atomic cursors and each cell's few disks put back in ascending order. cell_start, cell_disks,
// the grid and the rebuild positions end as bin_packing leaves them.
GRANULAR_HD_POLICY_TEMPLATE
template <class Block>
GRANULAR_HD void bin_packing_on_block(const Block& block, const EnsembleView& v, int p) {
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  const HeightRange range = block.height_range(v, first, last);
  if (block.first_thread()) set_grid_rows(v, p, range.lo, range.hi);
  block.barrier();
  const CellGrid g = v.grids[p];
  const int n_cells = g.nx * g.ny;
  int* start = packing_cell_start(v, p);
  block.for_each(0, n_cells + 1, [&](int c) { start[c] = 0; });
  block.barrier();
  block.for_each(first, last,
                 [&](int i) { block.add(&start[disk_cell(g, v.x[i], v.y[i]) + 1], 1); });
  block.barrier();
  if (block.first_thread()) {
    for (int c = 0; c < n_cells; ++c) start[c + 1] += start[c];
  }
  block.barrier();
  // start[c] is the fill cursor of cell c, which ends as the start of cell c + 1
  block.for_each(first, last, [&](int i) {
    v.cell_disks[first + block.add(&start[disk_cell(g, v.x[i], v.y[i])], 1)] = i;
  });
  block.barrier();
  if (block.first_thread()) {
    for (int c = n_cells; c > 0; --c) start[c] = start[c - 1];
    start[0] = 0;
  }
  block.barrier();
  block.for_each(0, n_cells, [&](int c) {
    int* disks = v.cell_disks + first;
    for (int k = start[c] + 1; k < start[c + 1]; ++k) {
      const int disk = disks[k];
      int at = k;
      while (at > start[c] && disks[at - 1] > disk) {
        disks[at] = disks[at - 1];
        --at;
      }
      disks[at] = disk;
    }
  });
  block.for_each(first, last, [&](int i) {
    v.x_ref[i] = v.x[i];
    v.y_ref[i] = v.y[i];
  });
  block.barrier();
}

// rebuild_neighbors (step.hpp) on the block: binning, then each disk's list and domain check.
GRANULAR_HD_POLICY_TEMPLATE
template <class Block>
GRANULAR_HD void rebuild_on_block(const Block& block, const EnsembleView& v, int p) {
  bin_packing_on_block(block, v, p);
  block.for_each(v.offset[p], v.offset[p + 1], [&](int i) {
    const std::uint32_t flags = rebuild_disk(v, p, i);
    if (flags != 0) block.raise(v.status + p, flags);
  });
  if (block.first_thread()) ++v.rebuild_count[p];
  block.barrier();
}

// Every disk's force and torque at time t (pair_forces.hpp: a pair per thread). Book, number
// and list need no barrier between them (each thread numbers and lists the disks it booked;
// the policy's exclusive_sum synchronizes what it must). Ends without a barrier: the thread
// that summed disk i's force is the one that reads it next.
GRANULAR_HD_POLICY_TEMPLATE
template <class Block>
GRANULAR_HD void forces_on_block(const Block& block, const EnsembleView& v,
                                 const PairScratch& pairs, int p, double t) {
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  const PackingEnvironment env = block.environment(v.packings[p], t);
  block.for_each(first, last, [&](int i) {
    if (!book_disk_contacts(v, pairs, i)) block.raise(v.status + p, status_contact_overflow);
  });
  const int n_pairs = block.exclusive_sum(pairs.pair_first, first, last, first_pair_index(v, p));
  block.for_each(first, last, [&](int i) { list_disk_pairs(v, pairs, i); });
  block.barrier();
  block.for_each(0, n_pairs, [&](int q) { evaluate_pair(v, pairs, p, q); });
  block.barrier();
  block.for_each(first, last, [&](int i) { sum_disk_forces(v, pairs, p, i, env); });
}

// prime_packing (step.hpp) on the block: the lists, the forces of the initial state at time t
// and the accelerations they give.
GRANULAR_HD_POLICY_TEMPLATE
template <class Block>
GRANULAR_HD void prime_packing_on_block(const Block& block, const EnsembleView& v,
                                        const PairScratch& pairs, int p, double t) {
  bool moved = false;
  block.for_each(v.offset[p], v.offset[p + 1],
                 [&](int i) { moved = moved_beyond_half_skin(v, i) || moved; });
  if (block.barrier_or(moved)) rebuild_on_block(block, v, p);
  forces_on_block(block, v, pairs, p, t);
  block.for_each(v.offset[p], v.offset[p + 1], [&](int i) {
    v.ax[i] = v.fx[i] * v.inv_mass[i];
    v.ay[i] = v.fy[i] * v.inv_mass[i];
    v.alpha[i] = v.torque[i] * v.inv_inertia[i];
  });
  block.barrier();
}

// Advances packing p by `steps` steps from step `step0` (time t0 + step · dt) on `block`:
// predict (then move_bodies on the first thread) -> rebuild_if_needed -> forces -> correct.
// Stops early when the packing's status is set. `pairs` is the pair schedule's scratch.
GRANULAR_HD_POLICY_TEMPLATE
template <class Block>
GRANULAR_HD void advance_packing_on_block(const Block& block, const EnsembleView& v,
                                          const PairScratch& pairs, int p, std::int64_t step0,
                                          double t0, std::int64_t steps) {
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  for (std::int64_t k = 1; k <= steps; ++k) {
    if (v.status[p] != status_ok) break;  // uniform: every thread reads it after a barrier
    const double t_end = t0 + static_cast<double>(step0 + k) * v.dt;

    bool moved = false;
    block.for_each(first, last, [&](int i) {
      predict_disk(v, i);
      moved = (v.inv_mass[i] != 0.0 && moved_beyond_half_skin(v, i)) || moved;
    });
    if (v.packings[p].body_count > 0) {  // uniform over the block
      block.barrier();
      if (block.first_thread()) moved = move_bodies(v, p, step0 + k, t_end) || moved;
    }
    if (block.barrier_or(moved)) rebuild_on_block(block, v, p);
    forces_on_block(block, v, pairs, p, t_end);
    block.for_each(first, last, [&](int i) {
      if (!correct_disk(v, i)) block.raise(v.status + p, status_non_finite);
    });
    block.barrier();
  }
}

}  // namespace granular::md
