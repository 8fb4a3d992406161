// Tests for src/md/state.cpp: the memory footprint of the state.
#include "granular/md/state.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "../../support/scenes.hpp"

namespace granular::md {
namespace {

// Issue 3: an ensemble of 10^6 disks must fit in under 1 GB with the default capacities
// (24 neighbor slots, 10 contact slots per disk): state plus model under 1000 bytes per disk.
TEST(StateMemory, AMillionDisksFitInAGigabyte) {
  const EnsembleModel m = test::thesis_sized_model(200);
  const std::vector<double> zeros(m.n_disks(), 0.0);
  const EnsembleState s = make_state(m, zeros, zeros, 0.0);
  const double model_bytes = 5.0 * sizeof(double) * m.n_disks() +
                             static_cast<double>(sizeof(PackingParams)) * m.n_packings();
  const double per_disk = (static_cast<double>(state_bytes(s)) + model_bytes) / m.n_disks();
  EXPECT_LT(per_disk, 1000.0);
  EXPECT_GT(per_disk, 500.0);  // the contact slots alone are 10 x 48 bytes
  RecordProperty("bytes_per_disk", static_cast<int>(per_disk));
}

// The one list of the state's arrays (for_each_state_array) holds every array of EnsembleState:
// the checkpoint, the device mirror and the views read and write exactly the list, so an array
// added to the state but not to the list would be lost on resume and never reach a kernel.
TEST(StateArrays, TheOneListHoldsEveryArrayOfTheState) {
  EnsembleState s;
  std::size_t arrays = 0;
  for_each_state_array(s, s, [&arrays](auto&, auto&, const char*) { ++arrays; });
  EXPECT_EQ(sizeof(EnsembleState),
            arrays * sizeof(std::vector<double>) + sizeof(s.step) + sizeof(s.t0));
}

}  // namespace
}  // namespace granular::md
