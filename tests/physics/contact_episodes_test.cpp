// md::ContactEpisodes (contact_episodes.hpp): contacts followed step by step in an MD packing.
// A head-on collision of two free disks is one isolated episode whose normal velocity after is
// the linear dashpot's −e_n u_n (eq. 4.56); a disk that hits two at once is in no isolated one;
// a disk dropped on the floor makes a wall episode; contacts open at the start are not recorded.
#include "granular/md/contact_episodes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "granular/contact_law.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/state.hpp"

namespace granular::md {
namespace {

constexpr double radius = 0.01;
constexpr double density = 3.57;

// One packing of n disks of one radius in a 1 m box, no gravity and, unless `walls`, no walls.
EnsembleModel free_disks(int n, bool walls, double gravity = 0.0) {
  EnsembleModel m;
  m.dt = 1e-5;
  m.neighbor.skin = 0.2 * radius;
  PackingParams pp{};
  pp.box_width = 1.0;
  pp.gravity = gravity;
  pp.disk_disk = {1e4, 7.7e3, 0.1, 0.1};
  pp.disk_wall = pp.disk_disk;
  pp.box_walls = walls ? all_box_walls : 0u;
  m.add_packing(pp, std::vector<double>(n, radius), density);
  return m;
}

std::vector<ContactEpisode> follow(const EnsembleModel& m, EnsembleState& s, int steps) {
  auto backend = make_cpu_backend(1);
  backend->initialize(m, s);
  ContactEpisodes tracker(m, s);
  std::vector<ContactEpisode> closed;
  for (int k = 0; k < steps; ++k) {
    backend->advance(m, s, 1);
    tracker.observe(m, s, closed);
  }
  return closed;
}

TEST(ContactEpisodes, AHeadOnCollisionReboundsWithTheDashpotsRestitution) {
  const EnsembleModel m = free_disks(2, false);
  EnsembleState s = make_state(m, {0.5, 0.5 + 2.0 * radius + 1e-4}, {0.5, 0.5}, 0.0);
  const double v = 0.1;
  s.vx[0] = v;
  s.omega[0] = 2.0;  // a tangential slip: u_t = R ω_a = 0.02 m/s
  const std::vector<ContactEpisode> e = follow(m, s, 5000);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(e[0].isolated);
  EXPECT_EQ(e[0].a, 0);
  EXPECT_EQ(e[0].b, 1);
  // the step before the centres overlap: the Gear predictor may have felt the contact already
  EXPECT_NEAR(e[0].u_n, v, 1e-3 * v);
  EXPECT_NEAR(e[0].u_t, radius * 2.0, 1e-3 * radius * 2.0);
  const double m_eff = 0.5 * m.mass[0];
  EXPECT_DOUBLE_EQ(e[0].m_eff, m_eff);
  const NormalRestitution closed = linear_dashpot_restitution(1e4, 0.1, m_eff);
  // the Gear corrector's dt = t_c/150 against the closed form
  EXPECT_NEAR(e[0].u_n_after / e[0].u_n, -closed.e_n, 2e-3);
  EXPECT_NEAR(static_cast<double>(e[0].steps) * m.dt, closed.t_c, 0.05 * closed.t_c);
  EXPECT_LT(std::fabs(e[0].u_t_after), std::fabs(e[0].u_t));  // friction took slip away
}

TEST(ContactEpisodes, ADiskThatHitsTwoAtOnceIsInNoIsolatedCollision) {
  const EnsembleModel m = free_disks(3, false);
  const double gap = 2.0 * radius + 1e-4;
  EnsembleState s = make_state(m, {0.5, 0.5 + gap, 0.5 - gap}, {0.5, 0.5, 0.5}, 0.0);
  s.vx[1] = -0.1;
  s.vx[2] = 0.1;
  const std::vector<ContactEpisode> e = follow(m, s, 5000);
  ASSERT_EQ(e.size(), 2u);
  for (const ContactEpisode& x : e) EXPECT_FALSE(x.isolated);
}

TEST(ContactEpisodes, AFallingDiskHitsTheFloorAndOpenContactsAreNotRecorded) {
  const EnsembleModel m = free_disks(2, true, 9.8);
  // disk 0 on the floor from the start; disk 1 falls 1 mm onto the floor beside it
  EnsembleState s = make_state(m, {0.3, 0.6}, {radius * (1.0 - 1e-4), radius + 1e-3}, 0.0);
  const std::vector<ContactEpisode> e = follow(m, s, 3000);
  ASSERT_GE(e.size(), 1u);
  EXPECT_EQ(e[0].a, 1);
  EXPECT_EQ(e[0].b, partner_of_wall(wall_bottom));
  EXPECT_TRUE(e[0].isolated);
  EXPECT_NEAR(e[0].u_n, std::sqrt(2.0 * 9.8 * 1e-3), 1e-3);  // fell 1 mm
  EXPECT_LT(e[0].u_n_after, 0.0);
  EXPECT_DOUBLE_EQ(e[0].m_eff, m.mass[1]);
  for (const ContactEpisode& x : e) EXPECT_NE(x.a, 0);  // the resting disk's contact was open
}

}  // namespace
}  // namespace granular::md
