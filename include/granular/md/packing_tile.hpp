// The per-disk state of ONE packing in one contiguous buffer (a "tile"), so that a CUDA block
// can keep a small packing in shared memory and advance it many steps per launch
// (kernels/cuda_backend.cu); the host runs the same functions over a host buffer (tests).
//
// A tile holds, for the disks [first, last) of packing p, in this order and each array padded
// to 16 bytes: radius, mass, inv_mass, inv_inertia (read by the stages every step, copied in
// only), x … y_ref, gear_high, neighbors, neighbor_count, neighbor_upper, cell_start (the
// packing's cells + 1), cell_disks, contacts, walls, slots_used, contact_mask. Per-packing
// scalars (grids, status, rebuild_count) and the other model arrays stay in global memory.
//
// tile_view returns an EnsembleView whose tiled pointers point into the buffer shifted back by
// the packing's first global index, so the step stages index it exactly like the global view
// (v.x[i], v.contacts + i * max_contacts, v.cell_start + cell_offset[p] + p). Neighbor lists
// and contact partners keep global disk indices.
//
// Size with the default capacities (24 neighbor slots, 10 contact slots of 48 B): 964 B per
// disk (contact slots 480, wall slots 144, neighbor list 96, 23 doubles of kinematics, forces
// and rebuild positions 184, 4 model doubles 32, 3 ints 12, 2 masks 16) plus 4 B per cell.
// A 60-disk thesis packing (0.40 m box, skin 3 mm, 126 cells) takes 58 352 B; the largest
// thesis-mix packing that fits in an H100 block's 227 KB (232 448 B) has 237 disks, in an
// A100's 163 KB (166 912 B) 171 (tests/unit/md/packing_tile_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "granular/hd.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

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

// Bytes of `count` elements of an array in a tile.
template <class Member>
GRANULAR_HD std::size_t tile_array_bytes(Member, std::ptrdiff_t count) {
  return tile_padded(static_cast<std::size_t>(count) * sizeof(TileElement<Member>));
}

// Calls visit(member, begin, count) for each model array a tile holds: `member` points to the
// EnsembleView member, `begin` is the global index of the packing's first element and `count`
// its number of elements.
template <class Visit>
GRANULAR_HD void for_each_tile_model_array(const EnsembleView& v, int p, Visit&& visit) {
  const std::ptrdiff_t first = v.offset[p];
  const std::ptrdiff_t n = v.offset[p + 1] - first;
  visit(&EnsembleView::radius, first, n);
  visit(&EnsembleView::mass, first, n);
  visit(&EnsembleView::inv_mass, first, n);
  visit(&EnsembleView::inv_inertia, first, n);
}

// The same for the state arrays a tile holds (everything the step stages write per disk).
template <class Visit>
GRANULAR_HD void for_each_tile_state_array(const EnsembleView& v, int p, Visit&& visit) {
  const std::ptrdiff_t first = v.offset[p];
  const std::ptrdiff_t n = v.offset[p + 1] - first;
  double* EnsembleView::*const per_disk_doubles[] = {
      &EnsembleView::x,     &EnsembleView::y,     &EnsembleView::theta, &EnsembleView::vx,
      &EnsembleView::vy,    &EnsembleView::omega, &EnsembleView::ax,    &EnsembleView::ay,
      &EnsembleView::alpha, &EnsembleView::fx,    &EnsembleView::fy,    &EnsembleView::torque,
      &EnsembleView::x_ref, &EnsembleView::y_ref};
  for (double* EnsembleView::*member : per_disk_doubles) visit(member, first, n);
  visit(&EnsembleView::gear_high, 9 * first, 9 * n);
  visit(&EnsembleView::neighbors, first * v.max_neighbors, n * v.max_neighbors);
  visit(&EnsembleView::neighbor_count, first, n);
  visit(&EnsembleView::neighbor_upper, first, n);
  // one extra cell_start entry per packing (bin_packing's v.cell_start + v.cell_offset[p] + p)
  visit(&EnsembleView::cell_start, std::ptrdiff_t{v.cell_offset[p]} + p,
        std::ptrdiff_t{v.cell_offset[p + 1]} - v.cell_offset[p] + 1);
  visit(&EnsembleView::cell_disks, first, n);
  visit(&EnsembleView::contacts, first * v.max_contacts, n * v.max_contacts);
  visit(&EnsembleView::walls, first * n_walls, n * n_walls);
  visit(&EnsembleView::slots_used, first, n);
  visit(&EnsembleView::contact_mask, first, n);
}

template <class Visit>
GRANULAR_HD void for_each_tile_array(const EnsembleView& v, int p, Visit&& visit) {
  for_each_tile_model_array(v, p, visit);
  for_each_tile_state_array(v, p, visit);
}

// Bytes of packing p's tile.
GRANULAR_HD inline std::size_t tile_bytes(const EnsembleView& v, int p) {
  std::size_t bytes = 0;
  for_each_tile_array(v, p, [&bytes](auto member, std::ptrdiff_t, std::ptrdiff_t count) {
    bytes += tile_array_bytes(member, count);
  });
  return bytes;
}

// The largest tile of packings [0, n_packings): the shared memory a launch must provide.
GRANULAR_HD inline std::size_t largest_tile_bytes(const EnsembleView& v, int n_packings) {
  std::size_t largest = 0;
  for (int p = 0; p < n_packings; ++p) {
    const std::size_t bytes = tile_bytes(v, p);
    largest = bytes > largest ? bytes : largest;
  }
  return largest;
}

// The view of packing p with its tiled arrays in `tile` (tile_bytes(global, p) bytes, aligned
// to tile_alignment), indexed by global disk index; everything else as in `global`. The
// shifted base pointers lie outside the buffer, but every index a stage uses for packing p
// lands inside it.
GRANULAR_HD inline EnsembleView tile_view(const EnsembleView& global, int p, void* tile) {
  EnsembleView v = global;
  unsigned char* cursor = static_cast<unsigned char*>(tile);
  for_each_tile_array(
      global, p, [&v, &cursor](auto member, std::ptrdiff_t begin, std::ptrdiff_t count) {
        v.*member = reinterpret_cast<TileElement<decltype(member)>*>(cursor) - begin;
        cursor += tile_array_bytes(member, count);
      });
  return v;
}

// Copies elements [begin, begin + count) of one array, element k by thread k mod stride.
template <class T>
GRANULAR_HD void copy_strided(T* to, const T* from, std::ptrdiff_t begin, std::ptrdiff_t count,
                              int thread, int stride) {
  for (std::ptrdiff_t k = begin + thread; k < begin + count; k += stride) to[k] = from[k];
}

// Copies packing p's model and state into its tile. Each of `stride` threads calls it with its
// own `thread` in [0, stride) (a CUDA block: threadIdx.x, blockDim.x; the host: 0, 1); the
// tile is complete once all have returned (a barrier on the device).
GRANULAR_HD inline void copy_packing_to_tile(const EnsembleView& global, int p, void* tile,
                                             int thread, int stride) {
  const EnsembleView t = tile_view(global, p, tile);
  for_each_tile_array(global, p, [&](auto member, std::ptrdiff_t begin, std::ptrdiff_t count) {
    // the model arrays are const in a view, but the tile's bytes are ours to fill
    using Element = TileElement<decltype(member)>;
    copy_strided(const_cast<Element*>(t.*member), global.*member, begin, count, thread, stride);
  });
}

// Copies packing p's state back from its tile into the global arrays (the model is unchanged);
// threads as in copy_packing_to_tile, after a barrier that ends the tile's last step.
GRANULAR_HD inline void copy_tile_to_packing(void* tile, const EnsembleView& global, int p,
                                             int thread, int stride) {
  const EnsembleView t = tile_view(global, p, tile);
  for_each_tile_state_array(global, p,
                            [&](auto member, std::ptrdiff_t begin, std::ptrdiff_t count) {
                              copy_strided(global.*member, t.*member, begin, count, thread, stride);
                            });
}

}  // namespace granular::md
