// What the threads of a CUDA block share of ONE packing, in one contiguous buffer (a "tile"),
// so that the block can keep it in shared memory for all the steps of a launch
// (kernels/cuda_backend.cu); the host runs the same functions over a host buffer (tests).
//
// A tile holds only the arrays one thread reads of another's disk: the radii (copied in only),
// x, y, θ, vx, vy (a pair's thread reads both disks' kinematics; ω never enters a contact), the
// masks of used history slots (a pair's thread finds the partner's copy), and the cell lists
// (a disk's list is built from its neighbours' cells). Each array is padded to 16 bytes. What
// a thread reads only of its own disk (ω, accelerations, Gear's derivatives, forces, rebuild
// positions, neighbor list, wall slots) and the history slots themselves (480 B per disk, read
// by a pair's thread a few times per step) stay in global memory, where each thread's accesses
// go through L1 without taking shared memory from the other blocks of the SM.
//
// tile_view returns an EnsembleView whose tiled pointers point into the buffer shifted back by
// the packing's first global index, so the step stages index it exactly like the global view
// (v.x[i], v.cell_start + cell_offset[p] + p). Cell lists keep global disk indices.
//
// Size: 60 B per disk (6 doubles, a mask, a cell entry) plus 4 B per cell: a 60-disk thesis
// packing (0.40 m box, skin 3 mm, 126 cells) takes 4 112 B, so the shared memory of an H100's
// SM holds the tiles of 8 such blocks and more; every packing of the block path (up to 2 048
// disks) fits a block's opt-in shared memory on an A100 and an H100
// (tests/unit/md/schedules/packing_tile_test.cpp).
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
}

// The same for the state arrays a tile holds (what other threads read).
template <class Visit>
GRANULAR_HD void for_each_tile_state_array(const EnsembleView& v, int p, Visit&& visit) {
  const std::ptrdiff_t first = v.offset[p];
  const std::ptrdiff_t n = v.offset[p + 1] - first;
  double* EnsembleView::*const shared_doubles[] = {&EnsembleView::x, &EnsembleView::y,
                                                   &EnsembleView::theta, &EnsembleView::vx,
                                                   &EnsembleView::vy};
  for (double* EnsembleView::*member : shared_doubles) visit(member, first, n);
  visit(&EnsembleView::slots_used, first, n);
  // one extra cell_start entry per packing (bin_packing's v.cell_start + v.cell_offset[p] + p)
  visit(&EnsembleView::cell_start, std::ptrdiff_t{v.cell_offset[p]} + p,
        std::ptrdiff_t{v.cell_offset[p + 1]} - v.cell_offset[p] + 1);
  visit(&EnsembleView::cell_disks, first, n);
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
