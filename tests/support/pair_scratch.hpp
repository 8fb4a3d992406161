// Host storage of the pair schedule's scratch (md/schedules/pair_forces.hpp), for the tests that
// run the CUDA block's steps on the host.
#pragma once

#include <cstdint>
#include <vector>

#include "granular/md/model.hpp"
#include "granular/md/schedules/pair_forces.hpp"

namespace granular::test {

struct HostPairScratch {
  std::vector<int> touch_count, touch_pair, pair_first;
  std::vector<unsigned char> touch_slot;
  std::vector<std::uint64_t> fresh;
  std::vector<md::PairContact> pairs;
  md::PairScratch view;

  explicit HostPairScratch(const md::EnsembleModel& m) {
    const std::size_t n = static_cast<std::size_t>(m.n_disks());
    const std::size_t slots = n * static_cast<std::size_t>(m.neighbor.max_contacts);
    touch_count.assign(n, 0);
    touch_slot.assign(slots, 0);
    touch_pair.assign(slots, -1);
    fresh.assign(n, 0);
    pair_first.assign(n, 0);
    pairs.assign(n * static_cast<std::size_t>(md::pairs_per_disk(m.neighbor.max_contacts)), {});
    view = {touch_count.data(), touch_slot.data(), touch_pair.data(),
            fresh.data(),       pair_first.data(), pairs.data()};
  }
};

}  // namespace granular::test
