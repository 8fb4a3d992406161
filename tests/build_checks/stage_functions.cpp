// The stage functions the CPU backend and the CUDA kernels share, instantiated in one object
// whose undefined symbols a build check lists (tests/CMakeLists.txt, BuildCheck.*): no libm
// function but the correctly rounded sqrt may appear, since the device's versions of sin,
// atan2, exp, ... give other bits than glibc's.
#include "granular/md/schedules/block_step.hpp"
#include "granular/md/schedules/grid_step.hpp"
#include "granular/md/step.hpp"

namespace granular::md {

void shared_stages(const EnsembleView& v, const PairScratch& pairs, const GridScratch& grid, int p,
                   double t) {
  step_packing(v, p, 1, t);
  prime_packing(v, p, t);
  advance_packing_on_block(SerialBlock{}, v, pairs, p, 0, t, 1);
  prime_packing_on_block(SerialBlock{}, v, pairs, p, t);
  serial_grid_step(v, grid, 1, 1, 1, 1, t);
}

}  // namespace granular::md
