// StaggeredAllocator: host storage for the ensemble's per-disk arrays that starts each large
// array at a different cache line within a page.
//
// A packing's disks are one segment of every array (x, y, ..., Gear's columns, forces, lists),
// and a step touches ~30 of them at once. Large blocks from malloc all start at the same offset
// within a page, so the segments of one packing fell on the same L1 sets (and loads and stores
// 4 KiB apart stall on 4K aliasing): 1 024 packings of 60 disks ran 19 % slower per contact
// than one packing (docs/performance.md). Each array of 16 KiB or more is instead page-aligned
// and shifted by the next of 64 cache-line offsets, visited in an order that puts consecutive
// allocations far apart. Where an array lies changes no result.
#pragma once

#include <cstddef>
#include <vector>

namespace granular::md {

// the raw storage: a block of `bytes` aligned to 64 bytes, staggered when large
void* staggered_allocate(std::size_t bytes);
void staggered_deallocate(void* p, std::size_t bytes) noexcept;

template <class T>
struct StaggeredAllocator {
  using value_type = T;

  StaggeredAllocator() = default;
  template <class U>
  StaggeredAllocator(const StaggeredAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) { return static_cast<T*>(staggered_allocate(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { staggered_deallocate(p, n * sizeof(T)); }

  friend bool operator==(const StaggeredAllocator&, const StaggeredAllocator&) { return true; }
  friend bool operator!=(const StaggeredAllocator&, const StaggeredAllocator&) { return false; }
};

// an array over the ensemble: its disks, packings or cells
template <class T>
using EnsembleArray = std::vector<T, StaggeredAllocator<T>>;

}  // namespace granular::md
