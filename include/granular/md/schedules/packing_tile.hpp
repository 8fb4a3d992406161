// What the threads of a CUDA block (or warp) share of ONE packing, in one contiguous buffer (a
// "tile"), so that the block can keep it in shared memory for all the steps of a launch
// (kernels/cuda_backend.cu); the host runs the same functions over a host buffer (tests).
//
// How much of the packing a tile holds is a choice (TileContents), benched on the device
// (docs/performance.md):
//   neighbours_read  only the arrays one thread reads of another's disk: the radii (copied in
//                    only), x, y, θ, vx, vy (a pair's thread reads both disks' kinematics; ω
//                    never enters a contact), the masks of used history slots (a pair's thread
//                    finds the partner's copy) and the cell lists (a disk's list is built from
//                    its neighbours' cells). What a thread reads only of its own disk goes
//                    through L1 without taking shared memory from the other blocks of the SM.
//   disk_state       also each disk's own step state: ω, accelerations, Gear's higher
//                    derivatives, forces, rebuild positions, neighbour list, and the masses the
//                    integrator reads: all a step reads or writes but the history slots.
//   contact_history  also the disk–disk and wall history slots (480 + 144 B per disk).
// Each array is padded to 16 bytes.
//
// tile_view returns an EnsembleView whose tiled pointers point into the buffer shifted back by
// the packing's first global index, so the step stages index it exactly like the global view
// (v.x[i], v.cell_start + cell_offset[p] + p, gear_column(v, k)[i]). Cell lists and neighbour
// lists keep global disk indices.
//
// Size: neighbours_read takes 60 B per disk (6 doubles, a mask, a cell entry) plus 4 B per
// cell: a 60-disk thesis packing (0.40 m box, skin 3 mm, 126 cells) takes 4 112 B, so the
// shared memory of an H100's SM holds the tiles of 8 such blocks and more; every packing of the
// block path (up to 2 048 disks) fits a block's opt-in shared memory on an A100 and an H100.
// disk_state adds 272 B per disk (20 432 B for the thesis packing), contact_history another
// 624 B (57 872 B) (tests/unit/md/schedules/packing_tile_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "granular/hd.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

// How much of a packing its tile holds (above).
enum class TileContents { neighbours_read, disk_state, contact_history };

// Every tile array starts on this boundary (the widest vector load of a CUDA thread).
constexpr std::size_t tile_alignment = 16;

GRANULAR_HD inline std::size_t tile_padded(std::size_t bytes) {
  return (bytes + tile_alignment - 1) / tile_alignment * tile_alignment;
}

// The element type, without const, of a pointer to an EnsembleView array member:
// TileElement<decltype(&EnsembleView::radius)> is double.
template <class Member>
struct TileElementOf;
template <class T>
struct TileElementOf<T * EnsembleView::*> {
  using type = std::remove_const_t<T>;
};
template <class Member>
using TileElement = typename TileElementOf<Member>::type;

// Bytes of `count` elements (in each of `columns` columns) of an array in a tile.
template <class Member>
GRANULAR_HD std::size_t tile_array_bytes(Member, std::ptrdiff_t count, int columns = 1) {
  return tile_padded(static_cast<std::size_t>(count) * static_cast<std::size_t>(columns) *
                     sizeof(TileElement<Member>));
}

// Calls visit(member, begin, count, columns) for each model array a tile holds: `member`
// points to the EnsembleView member, `begin` is the global index of the packing's first
// element, `count` its number of elements and `columns` 1 (gear_high's columns: below).
template <class Visit>
GRANULAR_HD void for_each_tile_model_array(const EnsembleView& v, int p, TileContents contents,
                                           Visit&& visit) {
  const std::ptrdiff_t first = v.offset[p];
  const std::ptrdiff_t n = v.offset[p + 1] - first;
  visit(&EnsembleView::radius, first, n, 1);
  if (contents == TileContents::neighbours_read) return;
  const double* EnsembleView::*const own_masses[] = {&EnsembleView::mass, &EnsembleView::inv_mass,
                                                     &EnsembleView::inv_inertia};
  for (const double* EnsembleView::*member : own_masses) visit(member, first, n, 1);
}

// The same for the state arrays a tile holds. gear_high comes as its 9 columns of `count`
// elements each (gear_column, view.hpp): in a tile view, disk_count is the column length.
template <class Visit>
GRANULAR_HD void for_each_tile_state_array(const EnsembleView& v, int p, TileContents contents,
                                           Visit&& visit) {
  const std::ptrdiff_t first = v.offset[p];
  const std::ptrdiff_t n = v.offset[p + 1] - first;
  double* EnsembleView::*const shared_doubles[] = {&EnsembleView::x, &EnsembleView::y,
                                                   &EnsembleView::theta, &EnsembleView::vx,
                                                   &EnsembleView::vy};
  for (double* EnsembleView::*member : shared_doubles) visit(member, first, n, 1);
  visit(&EnsembleView::slots_used, first, n, 1);
  // one extra cell_start entry per packing (bin_packing's v.cell_start + v.cell_offset[p] + p)
  visit(&EnsembleView::cell_start, std::ptrdiff_t{v.cell_offset[p]} + p,
        std::ptrdiff_t{v.cell_offset[p + 1]} - v.cell_offset[p] + 1, 1);
  visit(&EnsembleView::cell_disks, first, n, 1);
  if (contents == TileContents::neighbours_read) return;
  double* EnsembleView::*const own_doubles[] = {
      &EnsembleView::omega,  &EnsembleView::ax,    &EnsembleView::ay,
      &EnsembleView::alpha,  &EnsembleView::fx,    &EnsembleView::fy,
      &EnsembleView::torque, &EnsembleView::x_ref, &EnsembleView::y_ref};
  for (double* EnsembleView::*member : own_doubles) visit(member, first, n, 1);
  visit(&EnsembleView::gear_high, first, n, gear_columns);
  visit(&EnsembleView::neighbor_count, first, n, 1);
  visit(&EnsembleView::neighbor_upper, first, n, 1);
  visit(&EnsembleView::neighbors, first * v.max_neighbors, n * v.max_neighbors, 1);
  if (contents == TileContents::disk_state) return;
  visit(&EnsembleView::contacts, first * v.max_contacts, n * v.max_contacts, 1);
  visit(&EnsembleView::walls, first * n_walls, n * n_walls, 1);
}

template <class Visit>
GRANULAR_HD void for_each_tile_array(const EnsembleView& v, int p, TileContents contents,
                                     Visit&& visit) {
  for_each_tile_model_array(v, p, contents, visit);
  for_each_tile_state_array(v, p, contents, visit);
}

// Bytes of packing p's tile.
GRANULAR_HD inline std::size_t tile_bytes(const EnsembleView& v, int p,
                                          TileContents contents = TileContents::neighbours_read) {
  std::size_t bytes = 0;
  for_each_tile_array(v, p, contents,
                      [&bytes](auto member, std::ptrdiff_t, std::ptrdiff_t count, int columns) {
                        bytes += tile_array_bytes(member, count, columns);
                      });
  return bytes;
}

// The largest tile of packings [0, n_packings): the shared memory a launch must provide.
GRANULAR_HD inline std::size_t largest_tile_bytes(
    const EnsembleView& v, int n_packings, TileContents contents = TileContents::neighbours_read) {
  std::size_t largest = 0;
  for (int p = 0; p < n_packings; ++p) {
    const std::size_t bytes = tile_bytes(v, p, contents);
    largest = bytes > largest ? bytes : largest;
  }
  return largest;
}

// The view of packing p with its tiled arrays in `tile` (tile_bytes(global, p) bytes, aligned
// to tile_alignment), indexed by global disk index; everything else as in `global`. The
// shifted base pointers lie outside the buffer, but every index a stage uses for packing p
// lands inside it.
GRANULAR_HD inline EnsembleView tile_view(const EnsembleView& global, int p, void* tile,
                                          TileContents contents = TileContents::neighbours_read) {
  EnsembleView v = global;
  unsigned char* cursor = static_cast<unsigned char*>(tile);
  for_each_tile_array(
      global, p, contents,
      [&v, &cursor](auto member, std::ptrdiff_t begin, std::ptrdiff_t count, int columns) {
        v.*member = reinterpret_cast<TileElement<decltype(member)>*>(cursor) - begin;
        if (columns > 1) v.disk_count = static_cast<int>(count);
        cursor += tile_array_bytes(member, count, columns);
      });
  return v;
}

// Copies elements [begin, begin + count) of one array, element k by thread k mod stride.
template <class T>
GRANULAR_HD void copy_strided(T* to, const T* from, std::ptrdiff_t begin, std::ptrdiff_t count,
                              int thread, int stride) {
  for (std::ptrdiff_t k = begin + thread; k < begin + count; k += stride) to[k] = from[k];
}

// The same for each of `columns` columns, `to_column` and `from_column` elements apart.
template <class T>
GRANULAR_HD void copy_columns_strided(T* to, std::ptrdiff_t to_column, const T* from,
                                      std::ptrdiff_t from_column, std::ptrdiff_t begin,
                                      std::ptrdiff_t count, int columns, int thread, int stride) {
  for (int c = 0; c < columns; ++c) {
    copy_strided(to + c * to_column, from + c * from_column, begin, count, thread, stride);
  }
}

// Copies packing p's model and state into its tile. Each of `stride` threads calls it with its
// own `thread` in [0, stride) (a CUDA block: threadIdx.x, blockDim.x; the host: 0, 1); the
// tile is complete once all have returned (a barrier on the device).
GRANULAR_HD inline void copy_packing_to_tile(
    const EnsembleView& global, int p, void* tile, int thread, int stride,
    TileContents contents = TileContents::neighbours_read) {
  const EnsembleView t = tile_view(global, p, tile, contents);
  for_each_tile_array(global, p, contents,
                      [&](auto member, std::ptrdiff_t begin, std::ptrdiff_t count, int columns) {
                        // the model arrays are const in a view, but the tile's bytes are ours to
                        // fill
                        using Element = TileElement<decltype(member)>;
                        copy_columns_strided(const_cast<Element*>(t.*member), t.disk_count,
                                             global.*member, global.disk_count, begin, count,
                                             columns, thread, stride);
                      });
}

// Copies packing p's state back from its tile into the global arrays (the model is unchanged);
// threads as in copy_packing_to_tile, after a barrier that ends the tile's last step.
GRANULAR_HD inline void copy_tile_to_packing(
    void* tile, const EnsembleView& global, int p, int thread, int stride,
    TileContents contents = TileContents::neighbours_read) {
  const EnsembleView t = tile_view(global, p, tile, contents);
  for_each_tile_state_array(
      global, p, contents,
      [&](auto member, std::ptrdiff_t begin, std::ptrdiff_t count, int columns) {
        copy_columns_strided(global.*member, global.disk_count, t.*member, t.disk_count, begin,
                             count, columns, thread, stride);
      });
}

}  // namespace granular::md
