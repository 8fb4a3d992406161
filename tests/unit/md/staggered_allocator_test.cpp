// Tests for src/md/staggered_allocator.cpp: where the ensemble's arrays start in memory.
#include "granular/md/staggered_allocator.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <type_traits>
#include <vector>

#include "../../support/scenes.hpp"
#include "granular/md/state.hpp"

namespace granular::md {
namespace {

std::uintptr_t line_in_page(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 4096 / 64;
}

// Large arrays start on a cache line and, 64 in a row, on every line of a page once; small ones
// start on a cache line; what is written into either reads back.
TEST(StaggeredAllocator, LargeArraysStartOnEveryLineOfAPageOnce) {
  std::vector<EnsembleArray<double>> large;
  std::set<std::uintptr_t> lines;
  for (int k = 0; k < 64; ++k) {
    large.emplace_back(4096 + k, static_cast<double>(k));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(large.back().data()) % 64, 0u);
    lines.insert(line_in_page(large.back().data()));
  }
  EXPECT_EQ(lines.size(), 64u);
  for (int k = 0; k < 64; ++k) {
    EXPECT_EQ(large[k].size(), 4096u + k);
    EXPECT_EQ(large[k].front(), k);
    EXPECT_EQ(large[k].back(), k);
  }
  const EnsembleArray<int> small(100, 7);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small.data()) % 64, 0u);
  EXPECT_EQ(small[99], 7);
}

// The per-disk and per-cell arrays of a large ensemble (1 024 packings of 60 disks) start on
// different lines of their pages, so a packing's segments of them do not compete for the same
// cache sets: from malloc they all started 16 bytes into a page, and 1 024 packings ran 19 %
// slower per contact than one (docs/performance.md).
TEST(StaggeredAllocator, TheStatesPerDiskArraysStartOnDifferentLines) {
  const EnsembleModel m = test::thesis_sized_model(1024);
  const std::vector<double> zeros(m.n_disks(), 0.0);
  const EnsembleState s = make_state(m, zeros, zeros, 0.0);
  std::set<std::uintptr_t> lines;
  int arrays = 0;
  for_each_state_array(s, s, [&](const auto& a, const auto&, const char*) {
    using Array = std::decay_t<decltype(a)>;
    // the per-packing arrays are plain vectors, anywhere; the bodies' are small
    if constexpr (std::is_same_v<Array, EnsembleArray<typename Array::value_type>>) {
      if (a.size() * sizeof(a[0]) < 16384) return;
      lines.insert(line_in_page(a.data()));
      ++arrays;
    }
  });
  EXPECT_GE(arrays, 20);
  EXPECT_EQ(lines.size(), static_cast<std::size_t>(arrays));
}

}  // namespace
}  // namespace granular::md
