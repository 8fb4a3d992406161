// Tests for src/impact/wedge/, the event-driven map of a disk in a vibrated wedge (thesis §6.3;
// docs/wedge.md): the flight maps against a direct parabola–line intersection, energy
// conservation with e_n = 1 and μ = 0 on fixed walls, e_t within [−1, 1], FBRPA's large-|v_n|
// moments (2.45)–(2.46) and its shadowing, the mirror symmetry ω̄(−θ_T) = −ω̄(θ_T), and the
// results' dependence on the parameters the thesis names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "granular/impact/wedge/impact_map.hpp"
#include "granular/impact/wedge/run.hpp"
#include "granular/md/collision/collision.hpp"
#include "granular/random.hpp"

namespace granular::wedge {
namespace {

constexpr double kPi = 3.141592653589793;

Params wedge(double aperture_deg, double tilt_deg) {
  Params p;
  p.aperture = aperture_deg * kPi / 180.0;
  p.tilt = tilt_deg * kPi / 180.0;
  return p;
}

TEST(WedgeMap, FlightMapsAgreeWithADirectParabolaLineIntersection) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  int checked = 0, cross = 0, same = 0;
  for (int i = 0; i < 20000; ++i) {
    const Params p = wedge(60.0 + 100.0 * u(rng), -20.0 + 40.0 * u(rng));
    const Wall from = u(rng) < 0.5 ? Wall::left : Wall::right;
    const double th = from == Wall::right ? p.theta_right() : p.theta_left();
    const double x = (from == Wall::right ? 1.0 : -1.0) * (0.01 + 2.0 * u(rng));
    const WallVelocity v{0.05 + 2.0 * u(rng), -2.0 + 4.0 * u(rng)};
    const auto map = next_flight(p, from, x, v);
    double vx, vy;
    from_wall(th, v, vx, vy);
    // the direct intersection, from just off the wall (the start itself is a root)
    const double eps = 1e-9;
    double sx = x, sy = std::tan(th) * x, svx = vx, svy = vy;
    fly(eps, sx, sy, svx, svy);
    const auto direct = first_hit(p, sx, sy, svx, svy);
    ASSERT_EQ(map.has_value(), direct.has_value()) << i;
    if (!map) continue;
    ++checked;
    (map->to == from ? same : cross) += 1;
    EXPECT_EQ(map->to, direct->to) << i;
    EXPECT_NEAR(map->time, direct->time + eps, 1e-9 * (1.0 + map->time)) << i;
    EXPECT_NEAR(map->v.vn, direct->v.vn, 1e-8 * (1.0 + std::fabs(map->v.vn))) << i;
    EXPECT_NEAR(map->v.vt, direct->v.vt, 1e-8 * (1.0 + std::fabs(map->v.vt))) << i;
    EXPECT_NEAR(map->y, direct->y, 1e-8 * (1.0 + std::fabs(map->y))) << i;
  }
  EXPECT_GT(checked, 15000);
  EXPECT_GT(same, 1000);
  EXPECT_GT(cross, 1000);
}

TEST(WedgeMap, ElasticFrictionlessFixedWallsConserveEnergy) {
  Params p = wedge(100.0, 7.0);
  p.wall.e_n = 1.0;
  p.wall.rule = impulse::TangentialRule::none;
  p.motion = WallMotion::fixed;
  Options o;
  o.collisions = 20000;
  const Result r = run_wedge(p, o);
  EXPECT_EQ(r.status, RunStatus::completed) << r.detail;
  EXPECT_EQ(r.collisions, 20000);
  EXPECT_NEAR(r.energy_final, r.energy_initial, 1e-9 * r.energy_initial);
  EXPECT_EQ(r.mean_rotation, 0.0);  // no friction, no spin
  EXPECT_GT(r.wall_changes, 100);
}

// The sawtooth wall (thesis §2.3.3) rises at Aω_b at every collision: nothing is drawn, so no
// draw is rejected and the seed changes nothing; the tilted wedge still turns the disk.
TEST(WedgeMap, ASawtoothWallDrawsNothing) {
  Params p = wedge(120.0, 10.0);
  p.motion = WallMotion::sawtooth;
  Options o;
  o.collisions = 20000;
  const Result a = run_wedge(p, o);
  p.seed = 7;
  const Result b = run_wedge(p, o);
  EXPECT_EQ(a.status, RunStatus::completed) << a.detail;
  EXPECT_EQ(a.rejections, 0);
  EXPECT_EQ(a.mean_rotation, b.mean_rotation);
  EXPECT_GT(std::fabs(a.mean_rotation), 0.1);
}

// The tabulated law as the map uses it: a table whose samples overshoot [−1, 1] by their
// discretisation error (as integrated collisions can) still gives e_t within it at every ratio,
// in and beyond the table's range, and the samples within [−1, 1] unchanged.
TEST(WedgeMap, TangentialRestitutionStaysWithinPlusMinusOne) {
  Params p;
  p.wall.rule = impulse::TangentialRule::contact_law;
  p.wall.e_n = 0.8;
  p.wall.mu = 0.1;
  for (std::size_t k = 0; k < impulse::restitution_table_size; ++k)
    p.wall.table.e_t.push_back(k % 3 == 0 ? -1.02 : (k % 3 == 1 ? 1.03 : 0.25));
  double lowest = 1.0, highest = -1.0;
  for (double x = -5.0; x <= 5.0; x += 0.001) {
    const double et = p.wall.e_t(std::pow(10.0, x));
    lowest = std::min(lowest, et);
    highest = std::max(highest, et);
  }
  EXPECT_EQ(lowest, -1.0);  // reached, never passed
  EXPECT_EQ(highest, 1.0);
  EXPECT_NEAR(p.wall.e_t(p.wall.table.ratio(2)), 0.25,
              1e-12);               // a sample (up to the log10)
  EXPECT_EQ(p.wall.e_t(0.0), 1.0);  // no slip to change
  // above the table the full-sliding e_t (4.75); the large-κ law is its floor at 0
  EXPECT_DOUBLE_EQ(p.wall.e_t(1e4), 1.0 - 3.0 * 0.1 * 1.8 / 1e4);
  p.wall.rule = impulse::TangentialRule::large_kappa;
  EXPECT_DOUBLE_EQ(p.wall.e_t(1.0), 1.0 - 3.0 * 0.1 * 1.8);
  EXPECT_EQ(p.wall.e_t(0.1), 0.0);
}

// The thesis' ED rule (thesis_rule): the full-sliding e_t (4.75) wherever (4.76) holds,
// |u_t/u_n| > μ/κ, clamped; the contact law's table below. Between μ/κ and 3μ(1 + e_n)/2 the
// rule gives e_t = −1 where the table does not: the region the erratum finds it wrong.
TEST(WedgeMap, TheThesisRuleIsTheFullSlidingLawAbove4_76AndTheTableBelow) {
  Params p;
  p.wall.rule = impulse::TangentialRule::thesis_rule;
  p.wall.e_n = 0.9;
  p.wall.mu = 0.15;
  p.wall.kappa = 0.773;
  for (std::size_t k = 0; k < impulse::restitution_table_size; ++k)
    p.wall.table.e_t.push_back(0.5);              // a stand-in table, flat
  const double onset = p.wall.mu / p.wall.kappa;  // 0.194
  EXPECT_EQ(p.wall.e_t(0.9 * onset), 0.5);
  EXPECT_EQ(p.wall.e_t(1.1 * onset), -1.0);  // (4.75) = −1.84, clamped
  EXPECT_DOUBLE_EQ(p.wall.e_t(2.0), 1.0 - 3.0 * 0.15 * 1.9 / 2.0);
  p.wall.rule = impulse::TangentialRule::contact_law;
  EXPECT_EQ(p.wall.e_t(1.1 * onset), 0.5);
  EXPECT_DOUBLE_EQ(p.wall.e_t(2.0), 0.5);  // inside the table's range
}

// e_t of the contact law (thesis §4.5.2), tabulated from single collisions for the ch. 6 wall
// (k_n = 4.5e6, κ = 0.773, γ_n = 9.84, μ = 0.1, m = 4.5 g): the sticking limit cos(ω_t t_c)
// (4.79) at small ratios, the full-sliding e_t (4.75) above max(μ/κ, 6μ − μ/κ), in [−1, 1].
TEST(WedgeMap, TheContactLawsTangentialRestitutionHasItsLimits) {
  const ContactParams wall{4.5e6, 0.773 * 4.5e6, 9.84, 0.1};
  const double radius = 0.02, density = 0.0045 / (kPi * radius * radius);
  Params p;
  p.wall.rule = impulse::TangentialRule::contact_law;
  p.wall.mu = wall.mu;
  const NormalRestitution nr = linear_dashpot_restitution(wall.k_n, wall.gamma_n, 0.0045);
  p.wall.e_n = nr.e_n;
  p.wall.table = md::tangential_restitution_table(wall, radius, 0.0, density);
  EXPECT_NEAR(p.wall.e_n, 0.9, 0.01);  // the thesis' e_n = 0.9 for this wall
  for (double e : p.wall.table.e_t) {
    EXPECT_GE(e, -1.0);
    EXPECT_LE(e, 1.0);
  }
  EXPECT_NEAR(p.wall.e_t(1e-3), sticking_limit_e_t(wall.k_t, 0.0045, nr.t_c), 0.02);
  const double threshold = full_sliding_threshold(wall.mu, 0.773);
  for (double ratio : {1.2 * threshold, 3.0, 30.0, 1e4})
    EXPECT_NEAR(p.wall.e_t(ratio), full_sliding_e_t(p.wall.e_n, wall.mu, ratio), 2e-3) << ratio;
  // and it lies below the large-κ approximation's floor of 0 somewhere: e_t < 0 is possible
  double lowest = 1.0;
  for (double e : p.wall.table.e_t) lowest = std::min(lowest, e);
  EXPECT_LT(lowest, 0.0);
}

TEST(WedgeMap, FbrpaHasTheLargeSpeedMomentsAndShadowsSlowDisks) {
  // (2.45)–(2.46) on a horizontal wall: ⟨v_b⟩ = −(Aω)²/(2 v_n), ⟨v_b²⟩ = (Aω)²/2 for |v_n| ≫ Aω
  // (fbrpa_moments, what `granular validate` reports), with standard errors that say so
  for (double vn : {-10.0, -30.0}) {
    const FbrpaMoments m = fbrpa_moments(vn, 0.0, 200000, 5);
    EXPECT_NEAR(m.mean, -1.0 / (2.0 * vn), 0.1 / std::fabs(vn)) << vn;
    EXPECT_NEAR(m.mean_square, 0.5, 0.01) << vn;
    // V is nearly sin φ at a uniform phase: var V ≈ 1/2, var V² ≈ 1/8
    EXPECT_NEAR(m.mean_se, std::sqrt(0.5 / 200000), 0.05 * std::sqrt(0.5 / 200000)) << vn;
    EXPECT_NEAR(m.mean_square_se, std::sqrt(0.125 / 200000), 0.05 * std::sqrt(0.125 / 200000));
    EXPECT_LT(std::fabs(m.mean_square - 0.5), 4.0 * m.mean_square_se + 0.02 / std::fabs(vn));
  }
  // shadowing: the disk meets the wall first where the wall is not moving down faster than the
  // disk (V cos θ ≥ v_n), so slower disks meet it moving up more often
  double mean_slow = 0.0;
  for (double theta : {0.0, 0.5}) {
    for (int k = 0; k < 20000; ++k) {
      const double vn = -0.05 - 3.0 * uniform_open(random_words({7, 0, 1}, k).v[0]);
      const double v =
          fbrpa_wall_velocity(vn, theta, uniform_open(random_words({6, 0, 0}, k).v[0]));
      EXPECT_GE(v * std::cos(theta), vn - 1e-9);
      EXPECT_LE(std::fabs(v), 1.0);
      if (theta == 0.0 && k < 10000)
        mean_slow += fbrpa_wall_velocity(-1.0, 0.0, uniform_open(random_words({8, 0, 0}, k).v[0]));
    }
  }
  EXPECT_GT(mean_slow / 10000, 2.0 * (1.0 / 20.0));  // above the v_n = −10 value, 1/20
}

TEST(WedgeMap, MirrorImagesRotateOppositeWays) {
  // ω̄(−θ_T) = −ω̄(θ_T): the mirrored wedge with the same random stream is the mirror image
  // (released at the mirrored point); every operation of the map is mirror-symmetric in
  // floating point too (sin, tan odd, cos even), so the mirror image is exact to the bit
  Options o, mirrored;
  o.collisions = mirrored.collisions = 40000;
  mirrored.release_x = -o.release_x;
  for (double tilt : {5.0, 15.0}) {
    const Result a = run_wedge(wedge(120.0, tilt), o);
    const Result b = run_wedge(wedge(120.0, -tilt), mirrored);
    ASSERT_EQ(a.status, RunStatus::completed) << a.detail;
    ASSERT_EQ(b.status, RunStatus::completed) << b.detail;
    EXPECT_NE(a.mean_rotation, 0.0);
    EXPECT_EQ(a.mean_rotation, -b.mean_rotation) << tilt;
    EXPECT_EQ(a.rejections, b.rejections);
  }
}

TEST(WedgeMap, AWallSteeperThanTheReleasePointStartsTheDiskOnTheOtherSide) {
  // A 90° wedge tilted by 0.8 θ_0 = 36°: its right wall rises at 81°, steeper than the default
  // release point's atan(1 / 0.2) = 78.7°, so that point lies inside the wall and the run used
  // to end at once as "escaped" (the full report's aperture scan, thesis §6.3). The disk now
  // starts at the mirrored point, so the run is the exact mirror image of the −36° run from the
  // default point.
  Options o;
  o.collisions = 20000;
  const Result steep = run_wedge(wedge(90.0, 36.0), o);
  const Result mirror = run_wedge(wedge(90.0, -36.0), o);
  ASSERT_EQ(steep.status, RunStatus::completed) << steep.reason << ": " << steep.detail;
  ASSERT_EQ(mirror.status, RunStatus::completed) << mirror.detail;
  EXPECT_EQ(steep.collisions, o.collisions);
  EXPECT_NE(steep.mean_rotation, 0.0);
  EXPECT_EQ(steep.mean_rotation, -mirror.mean_rotation);
}

TEST(WedgeMap, RotationVanishesWithoutTiltOrFriction) {
  Options o;
  o.collisions = 200000;
  // symmetric wedge: ω̄ = 0 within noise; |ω̄| at a tilt is far above that noise
  const double level = run_wedge(wedge(120.0, 0.0), o).mean_rotation;
  const double tilted = run_wedge(wedge(120.0, 10.0), o).mean_rotation;
  EXPECT_LT(std::fabs(level), 0.1 * std::fabs(tilted));
  Params smooth = wedge(120.0, 10.0);
  smooth.wall.mu = 0.0;
  EXPECT_EQ(run_wedge(smooth, o).mean_rotation, 0.0);
  std::printf("R w/(A w_b): tilt 0: %.4g, tilt 10 deg: %.4g\n", level, tilted);
}

}  // namespace
}  // namespace granular::wedge
