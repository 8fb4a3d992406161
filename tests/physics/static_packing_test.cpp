// A settled packing carries its weight. Newton's third law makes the disk–disk forces cancel,
// so at rest the walls hold the packing: the vertical forces of the disks on the bottom and on
// the two side walls add up to −Σ m g. With wall friction the side walls carry part of the
// weight (Janssen); with μ_wall = 0 they can carry no vertical force and the bottom carries all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "granular/md/backend.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/state.hpp"

namespace granular::md {
namespace {

constexpr double box_width = 0.4;  // [m]
constexpr double gravity = 9.8;    // [m/s²]

// Two 60-disk packings of the thesis' radii (20 each of 1.5, 2.0 and 2.5 cm), identical but for
// the disk–wall friction: packing 0 has μ_wall = 0.1, packing 1 μ_wall = 0. Dropped from a loose
// lattice onto the fixed bottom (A = 0) with a damping ratio c ≈ 0.3 for disk pairs (γ_n = 3
// kg/s, k_n = 10⁴ N/m, m_eff ≈ 2.2 g), then settled.
struct Settled {
  EnsembleModel m;
  EnsembleState s;
};

Settled settle() {
  Settled out;
  EnsembleModel& m = out.m;
  m.integrator = Integrator::gear5;
  m.dt = 1e-5;
  m.neighbor.skin = 0.004;
  std::vector<double> radii;
  for (double r : {0.015, 0.02, 0.025}) radii.insert(radii.end(), 20, r);
  std::mt19937_64 rng(99);
  std::shuffle(radii.begin(), radii.end(), rng);
  PackingParams pp{};
  pp.box_width = box_width;
  pp.gravity = gravity;
  pp.disk_disk = {1e4, 7.7e3, 3.0, 0.1};
  for (double mu_wall : {0.1, 0.0}) {
    pp.disk_wall = {1e4, 7.7e3, 3.0, mu_wall};
    m.add_packing(pp, radii, 3.57);
  }

  // a loose staggered lattice, 7 disks per row 5.2 cm apart, odd rows shifted by half a
  // spacing, jittered so that the disks do not stack in columns
  std::uniform_real_distribution<double> jitter(-0.004, 0.004);
  std::vector<double> x, y;
  for (int i = 0; i < 60; ++i) {
    const int row = i / 7;
    x.push_back(0.03 + 0.052 * (i % 7) + 0.026 * (row % 2) + jitter(rng));
    y.push_back(0.03 + 0.055 * row);
  }
  x.insert(x.end(), x.begin(), x.end());
  y.insert(y.end(), y.begin(), y.end());
  out.s = make_state(m, x, y, 0.0);
  auto backend = make_cpu_backend(2);
  backend->initialize(m, out.s);

  // settle for 2.5 s: a lone disk may keep rolling (no rolling resistance) or, on the
  // frictionless bottom, sliding or spinning, so the kinetic energy need not vanish; the
  // translational kinetic energy is checked by the tests
  backend->advance(m, out.s, static_cast<std::int64_t>(std::llround(2.5 / m.dt)));
  return out;
}

const Settled& settled() {
  static const Settled s = settle();
  return s;
}

double weight(const EnsembleModel& m, int p) {
  double w = 0.0;
  for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) w += m.mass[i] * gravity;
  return w;
}

TEST(StaticPacking, WallsCarryTheWeight) {
  const Settled& st = settled();
  for (int p = 0; p < 2; ++p) {
    ASSERT_EQ(st.s.status[p], status_ok);
    // settled: below 1e-7 J of translational kinetic energy (60 disks at ≈ 1 mm/s)
    EXPECT_LT(packing_energy(st.m, st.s, p).kinetic, 1e-7);
    const double w = weight(st.m, p);
    const Vec2 bottom = wall_force(st.m, st.s, p, wall_bottom);
    const Vec2 left = wall_force(st.m, st.s, p, wall_left);
    const Vec2 right = wall_force(st.m, st.s, p, wall_right);
    std::printf("packing %d: weight %.6f N, bottom %.6f N, sides %.6f %.6f N (vertical)\n", p, w,
                -bottom.y, -left.y, -right.y);
    // the disks push the walls down with their whole weight
    EXPECT_NEAR(-(bottom.y + left.y + right.y), w, 1e-3 * w);
    // horizontal balance; the disks push the side walls outwards
    EXPECT_NEAR(left.x + right.x + bottom.x, 0.0, 1e-3 * w);
    EXPECT_LT(left.x, 0.0);
    EXPECT_GT(right.x, 0.0);
  }
}

TEST(StaticPacking, FrictionlessWallsPutTheWholeWeightOnTheBottom) {
  const Settled& st = settled();
  const int p = 1;  // μ_wall = 0
  const double w = weight(st.m, p);
  EXPECT_EQ(wall_force(st.m, st.s, p, wall_left).y, 0.0);
  EXPECT_EQ(wall_force(st.m, st.s, p, wall_right).y, 0.0);
  EXPECT_NEAR(-wall_force(st.m, st.s, p, wall_bottom).y, w, 1e-3 * w);
}

TEST(StaticPacking, WallFrictionCarriesPartOfTheWeight) {
  // with μ_wall = 0.1 the side walls take a measurable share of the weight (of either sign: it
  // depends on how the disks slid along the walls while settling), so "bottom = weight" would
  // be wrong; the share cannot exceed μ times the side walls' normal load (Coulomb cap)
  const Settled& st = settled();
  const int p = 0;
  const double w = weight(st.m, p);
  const Vec2 left = wall_force(st.m, st.s, p, wall_left);
  const Vec2 right = wall_force(st.m, st.s, p, wall_right);
  const double side_vertical = -(left.y + right.y);
  EXPECT_LE(std::fabs(side_vertical), 0.1 * (std::fabs(left.x) + std::fabs(right.x)) + 1e-12);
  EXPECT_GT(std::fabs(side_vertical), 1e-3 * w);
}

}  // namespace
}  // namespace granular::md
