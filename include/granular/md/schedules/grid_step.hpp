// The steps of large packings across a whole grid of threads: what the grid-wide CUDA path
// launches (kernels/cuda_grid_path.cu), a thread per disk (or per packing, or per cell entry)
// and one launch per stage, written once for the kernels (CudaGrid) and for the host tests that
// replay it serially (SerialGrid). As block_step.hpp does for small packings, the tests then
// run the kernels' own stage code, all but its concurrency.
//
// One step, for the packings healthy at its start:
//   begin (per packing) -> predict (per disk, flags packings to rebuild)
//   -> bodies (per packing: move_bodies, flags packings whose prescribed disks moved)
//   -> [for flagged packings: height range by atomic min/max -> grid rows -> counting sort of
//       the disks by cell: zero counts, count with atomic adds, a segmented scan, copy the
//       starts, scatter with atomic cursors, sort each cell's few disks by index -> neighbor
//       lists and domain checks -> rebuild positions]
//   -> forces (per disk) -> correct (per disk).
// Every stage runs every step and does nothing for packings that need not rebuild, so the host
// never waits on the device inside a step; the work of a rebuild is spread over the grid, also
// for one packing of a million disks. The cell order within a cell is restored to ascending
// disk index, so cell_disks, the lists and every result equal the CPU's bitwise.
#pragma once

#include <cstdint>

#include "granular/hd.hpp"
#include "granular/md/step.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

// Scratch of the grid-wide step (device or host arrays, sized by the caller).
struct GridScratch {
  const int* disk_packing;   // packing of every disk (n_disks)
  const int* entry_packing;  // packing of every cell_start entry (cell_start's size)
  int* active;               // packing healthy at the start of the step (n_packings)
  int* rebuild;              // packing rebuilds this step (n_packings)
  std::uint64_t* y_lo;       // ordered keys of the lowest and highest disk heights of a
  std::uint64_t* y_hi;       //   rebuilding packing (n_packings; height_key)
  int* counts;               // per cell_start entry: counts, then fill cursors
  int* scanned;              // per cell_start entry: counts summed within each packing
};

// Packing p at the start of a step.
GRANULAR_HD inline void grid_begin(const EnsembleView& v, const GridScratch& g, int p) {
  g.active[p] = v.status[p] == status_ok ? 1 : 0;
  g.rebuild[p] = 0;
  g.y_lo[p] = ~0ull;
  g.y_hi[p] = 0;
}

// predict of disk i; flags its packing when it moved beyond half the skin.
GRANULAR_HD_POLICY_TEMPLATE
template <class Grid>
GRANULAR_HD void grid_predict(const Grid& grid, const EnsembleView& v, const GridScratch& g,
                              int i) {
  const int p = g.disk_packing[i];
  if (!g.active[p]) return;
  predict_disk(v, i);
  if (v.inv_mass[i] != 0.0 && moved_beyond_half_skin(v, i)) grid.flag(&g.rebuild[p]);
}

// Packing p's prescribed bodies to the end of the step (move_bodies), after predict.
GRANULAR_HD_POLICY_TEMPLATE
template <class Grid>
GRANULAR_HD void grid_bodies(const Grid& grid, const EnsembleView& v, const GridScratch& g, int p,
                             std::int64_t step_end, double t_end) {
  if (!g.active[p] || v.packings[p].body_count == 0) return;
  if (move_bodies(v, p, step_end, t_end)) grid.flag(&g.rebuild[p]);
}

// Disk i's height into its rebuilding packing's range.
GRANULAR_HD_POLICY_TEMPLATE
template <class Grid>
GRANULAR_HD void grid_height_range(const Grid& grid, const EnsembleView& v, const GridScratch& g,
                                   int i) {
  const int p = g.disk_packing[i];
  if (!g.rebuild[p]) return;
  const std::uint64_t key = height_key(v.y[i]);
  grid.min(&g.y_lo[p], key);
  grid.max(&g.y_hi[p], key);
}

// The rows of rebuilding packing p's grid, as bin_packing sets them.
GRANULAR_HD inline void grid_rows(const EnsembleView& v, const GridScratch& g, int p) {
  if (!g.rebuild[p]) return;
  set_grid_rows(v, p, height_of_key(g.y_lo[p]), height_of_key(g.y_hi[p]));
}

// Cell_start entry e of a rebuilding packing: its count set to 0.
GRANULAR_HD inline void grid_zero_count(const GridScratch& g, int e) {
  if (g.rebuild[g.entry_packing[e]]) g.counts[e] = 0;
}

// Disk i counted in its cell (entry c + 1, as bin_packing counts).
GRANULAR_HD_POLICY_TEMPLATE
template <class Grid>
GRANULAR_HD void grid_count(const Grid& grid, const EnsembleView& v, const GridScratch& g, int i) {
  const int p = g.disk_packing[i];
  if (!g.rebuild[p]) return;
  const int c = disk_cell(v.grids[p], v.x[i], v.y[i]);
  grid.add(&g.counts[v.cell_offset[p] + p + c + 1], 1);
}

// After the scan (scanned = counts summed from each packing's first entry): the starts of the
// cells in use of a rebuilding packing, and the fill cursors of the scatter.
GRANULAR_HD inline void grid_copy_start(const EnsembleView& v, const GridScratch& g, int e) {
  const int p = g.entry_packing[e];
  if (!g.rebuild[p]) return;
  const CellGrid& grid = v.grids[p];
  if (e - (v.cell_offset[p] + p) > grid.nx * grid.ny) return;  // rows not in use stay as they were
  v.cell_start[e] = g.scanned[e];
  g.counts[e] = g.scanned[e];
}

// Disk i into its cell's next free place (in any order; grid_sort_cell restores the order).
GRANULAR_HD_POLICY_TEMPLATE
template <class Grid>
GRANULAR_HD void grid_scatter(const Grid& grid, const EnsembleView& v, const GridScratch& g,
                              int i) {
  const int p = g.disk_packing[i];
  if (!g.rebuild[p]) return;
  const int c = disk_cell(v.grids[p], v.x[i], v.y[i]);
  const int at = grid.add(&g.counts[v.cell_offset[p] + p + c], 1);
  v.cell_disks[v.offset[p] + at] = i;
}

// The disks of the cell of entry e in ascending index, as bin_packing leaves them (a cell holds a
// few disks: insertion sort).
GRANULAR_HD inline void grid_sort_cell(const EnsembleView& v, const GridScratch& g, int e) {
  const int p = g.entry_packing[e];
  if (!g.rebuild[p]) return;
  const CellGrid& grid = v.grids[p];
  const int c = e - (v.cell_offset[p] + p);
  if (c >= grid.nx * grid.ny) return;
  int* disks = v.cell_disks + v.offset[p];
  for (int k = v.cell_start[e] + 1; k < v.cell_start[e + 1]; ++k) {
    const int disk = disks[k];
    int at = k;
    while (at > v.cell_start[e] && disks[at - 1] > disk) {
      disks[at] = disks[at - 1];
      --at;
    }
    disks[at] = disk;
  }
}

// Disk i's neighbor list and domain check (rebuild_disk).
GRANULAR_HD_POLICY_TEMPLATE
template <class Grid>
GRANULAR_HD void grid_neighbors(const Grid& grid, const EnsembleView& v, const GridScratch& g,
                                int i) {
  const int p = g.disk_packing[i];
  if (!g.rebuild[p]) return;
  const std::uint32_t flags = rebuild_disk(v, p, i);
  if (flags != 0) grid.raise(&v.status[p], flags);
}

// Disk i's rebuild position, once every list has been built; the packing's rebuild counted.
GRANULAR_HD inline void grid_reference(const EnsembleView& v, const GridScratch& g, int i) {
  const int p = g.disk_packing[i];
  if (!g.rebuild[p]) return;
  v.x_ref[i] = v.x[i];
  v.y_ref[i] = v.y[i];
  if (i == v.offset[p]) ++v.rebuild_count[p];
}

// Disk i's forces at the end of the step (t_end), its own contacts in full (disk_forces).
GRANULAR_HD_POLICY_TEMPLATE
template <class Grid>
GRANULAR_HD void grid_forces(const Grid& grid, const EnsembleView& v, const GridScratch& g, int i,
                             double t_end) {
  const int p = g.disk_packing[i];
  if (!g.active[p]) return;
  if (!disk_forces(v, p, i, packing_environment(v.packings[p], t_end))) {
    grid.raise(&v.status[p], status_contact_overflow);
  }
}

GRANULAR_HD_POLICY_TEMPLATE
template <class Grid>
GRANULAR_HD void grid_correct(const Grid& grid, const EnsembleView& v, const GridScratch& g,
                              int i) {
  const int p = g.disk_packing[i];
  if (!g.active[p]) return;
  if (!correct_disk(v, i)) grid.raise(&v.status[p], status_non_finite);
}

// The grid's stages run by one host thread, each over all its indices before the next: what the
// launches of kernels/cuda_grid_path.cu do, but for their concurrency. Its atomics are plain.
struct SerialGrid {
  void flag(int* f) const { *f = 1; }
  void min(std::uint64_t* a, std::uint64_t key) const { *a = key < *a ? key : *a; }
  void max(std::uint64_t* a, std::uint64_t key) const { *a = key > *a ? key : *a; }
  int add(int* a, int n) const {
    const int old = *a;
    *a += n;
    return old;
  }
  void raise(std::uint32_t* status, std::uint32_t flags) const { *status |= flags; }
};

// The segmented scan between grid_count and grid_copy_start: scanned[e] = the sum of counts
// from the first entry of e's packing to e (the device uses CUB's scan by key).
inline void serial_scan_by_packing(const GridScratch& g, int entries) {
  for (int e = 0; e < entries; ++e) {
    const bool first = e == 0 || g.entry_packing[e] != g.entry_packing[e - 1];
    g.scanned[e] = (first ? 0 : g.scanned[e - 1]) + g.counts[e];
  }
}

// One grid-wide step of every healthy packing on the host, stage by stage: the tests' replay
// of kernels/cuda_grid_path.cu.
inline void serial_grid_step(const EnsembleView& v, const GridScratch& g, int n_packings,
                             int n_disks, int entries, std::int64_t step_end, double t_end) {
  const SerialGrid grid;
  for (int p = 0; p < n_packings; ++p) grid_begin(v, g, p);
  for (int i = 0; i < n_disks; ++i) grid_predict(grid, v, g, i);
  for (int p = 0; p < n_packings; ++p) grid_bodies(grid, v, g, p, step_end, t_end);
  for (int i = 0; i < n_disks; ++i) grid_height_range(grid, v, g, i);
  for (int p = 0; p < n_packings; ++p) grid_rows(v, g, p);
  for (int e = 0; e < entries; ++e) grid_zero_count(g, e);
  for (int i = 0; i < n_disks; ++i) grid_count(grid, v, g, i);
  serial_scan_by_packing(g, entries);
  for (int e = 0; e < entries; ++e) grid_copy_start(v, g, e);
  for (int i = 0; i < n_disks; ++i) grid_scatter(grid, v, g, i);
  for (int e = 0; e < entries; ++e) grid_sort_cell(v, g, e);
  for (int i = 0; i < n_disks; ++i) grid_neighbors(grid, v, g, i);
  for (int i = 0; i < n_disks; ++i) grid_reference(v, g, i);
  for (int i = 0; i < n_disks; ++i) grid_forces(grid, v, g, i, t_end);
  for (int i = 0; i < n_disks; ++i) grid_correct(grid, v, g, i);
}

}  // namespace granular::md
