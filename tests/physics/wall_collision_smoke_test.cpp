// Smoke test of the engine: a disk dropped on the fixed bottom wall without gravity rebounds
// with the closed-form e_n (linear dashpot, collision ends when n vanishes).
#include <gtest/gtest.h>

#include <cmath>

#include "granular/md/backend.hpp"
#include "granular/md/state.hpp"

namespace granular::md {
namespace {

TEST(WallCollisionSmoke, ReboundMatchesClosedForm) {
  EnsembleModel m;
  PackingParams pp{};
  pp.box_width = 1.0;
  pp.gravity = 0.0;
  pp.disk_wall = {1e4, 7.7e3, 0.5, 0.1};
  pp.disk_disk = pp.disk_wall;
  const double r = 0.02;
  m.add_packing(pp, {r}, 3.57);
  const double mass = m.mass[0];
  const auto closed = linear_dashpot_restitution(pp.disk_wall.k_n, pp.disk_wall.gamma_n, mass);
  m.dt = closed.t_c / 2000;
  m.neighbor.skin = 0.005;
  EnsembleState s = make_state(m, {0.5}, {r + 1e-4}, 0.0);
  s.vy[0] = -0.1;
  auto backend = make_cpu_backend(1);
  backend->initialize(m, s);
  backend->advance(m, s, static_cast<std::int64_t>(3 * closed.t_c / m.dt));
  EXPECT_NEAR(s.vy[0] / 0.1, closed.e_n, 2e-3);
}

}  // namespace
}  // namespace granular::md
