// Physics of the gravitational billiard (src/impact/billiard.cpp; spec billiard.md §4, §8):
// the stick/slip boundary in closed form, the moving-wall restitution, energy conservation of
// the elastic frictionless billiard, no energy gain in random impacts, mirror symmetry, the
// Zeno policy.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "granular/impact/billiard.hpp"

namespace granular::impact {
namespace {

const double kPi = 3.141592653589793238462643383280;

// the paper's ball and friction (spec §8, setup of the A cases)
BilliardBall paper_ball() {
  BilliardBall b;
  b.mass = 0.13028e-3;
  b.radius = 1.55e-3;
  b.inertia = 0.4 * b.mass * b.radius * b.radius;
  return b;
}

BilliardImpactLaw paper_law() {
  BilliardImpactLaw l;
  l.e = 0.393;
  l.mu_static = 0.61;
  l.mu_kinetic = 0.47;
  l.low_velocity_speed = 0.0;
  return l;
}

// Kinetic energy in the frame of a wall moving at constant velocity w [J].
double wall_frame_energy(const BilliardBall& ball, Vec2 v, double spin, Vec2 w) {
  const Vec2 rel = v - w;
  return 0.5 * ball.mass * dot(rel, rel) + 0.5 * ball.inertia * spin * spin;
}

// A6: a spinless ball on a static wall sticks iff |u4/u5| < 3.5 μ (1 + e) (J = 2/5 m b²), on
// the floor and on a tilted (wedge) wall alike; after a stick the contact point moves with
// the wall, after a slip |S1| = μ' S2.
TEST(BilliardImpact, StickSlipBoundaryOfASpinlessBallOnAStaticWall) {
  const BilliardBall ball = paper_ball();
  const BilliardImpactLaw law = paper_law();
  const double ratio = 3.5 * law.mu_static * (1.0 + law.e);
  for (double z : {0.0, std::atan(1.85), -0.4}) {
    const Vec2 c1{std::cos(z), std::sin(z)}, c2{-std::sin(z), std::cos(z)};
    for (double sign : {1.0, -1.0}) {
      const double u5 = -1.0;
      const BilliardImpactResult in = billiard_impact(ball, law, z,
          (sign * ratio * (1.0 - 1e-9)) * c1 + u5 * c2, 0.0, {0.0, 0.0});
      const BilliardImpactResult out = billiard_impact(ball, law, z,
          (sign * ratio * (1.0 + 1e-9)) * c1 + u5 * c2, 0.0, {0.0, 0.0});
      EXPECT_TRUE(in.sticking) << "z = " << z;
      EXPECT_FALSE(out.sticking) << "z = " << z;
      EXPECT_NEAR(in.u4_after + ball.radius * in.spin, 0.0, 1e-12);
      EXPECT_NEAR(in.u5_after, law.e, 1e-12);
      EXPECT_NEAR(out.u5_after, law.e, 1e-12);
      EXPECT_NEAR(std::fabs(out.p_t), law.mu_kinetic * out.p_n, 1e-15);
      EXPECT_NEAR(out.u4_after, sign * (ratio * (1.0 + 1e-9) - law.mu_kinetic * (1.0 + law.e)),
                  1e-12);
    }
  }
  // A1 and A2 of spec §8: (1, −1, 0) sticks, (5, −1, 0) slips
  EXPECT_TRUE(billiard_impact(ball, law, 0.0, {1.0, -1.0}, 0.0, {0.0, 0.0}).sticking);
  EXPECT_FALSE(billiard_impact(ball, law, 0.0, {5.0, -1.0}, 0.0, {0.0, 0.0}).sticking);
}

// A5: on a moving wall the relative normal velocity reverses with factor e, and the
// low-velocity rule turns e into 1 below its threshold.
TEST(BilliardImpact, MovingWallRestitutionAndLowVelocityRule) {
  const BilliardBall ball = paper_ball();
  BilliardImpactLaw law = paper_law();
  const double z = std::atan(1.85);
  const Vec2 c2{-std::sin(z), std::cos(z)};
  const Vec2 wall{0.3, 0.0};
  const BilliardImpactResult r = billiard_impact(ball, law, z, {0.0, -1.0}, 0.0, wall);
  EXPECT_LT(r.u_n_before, 0.0);
  EXPECT_NEAR(r.u5_after - dot(wall, c2), -law.e * r.u_n_before, 1e-12);
  law.low_velocity_speed = 2.0;
  const BilliardImpactResult elastic = billiard_impact(ball, law, z, {0.0, -1.0}, 0.0, wall);
  EXPECT_EQ(elastic.e_used, 1.0);
  EXPECT_NEAR(elastic.u5_after - dot(wall, c2), -elastic.u_n_before, 1e-12);
}

// A6: thousands of random impacts (angles, velocities, spins, wall velocities, e, μ' <= μ,
// both laws): the kinetic energy in the wall's frame never grows.
TEST(BilliardImpact, NeverGainsEnergyInRandomImpacts) {
  std::mt19937_64 rng(20110519);
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.0, 1.0);
  const BilliardBall ball = paper_ball();
  int checked = 0;
  for (int i = 0; i < 20000; ++i) {
    BilliardImpactLaw law;
    law.law = i % 5 == 0 ? ImpactLaw::gorski_srokowski : ImpactLaw::kane_levinson;
    law.e = pos(rng);
    law.mu_static = 1.5 * pos(rng);
    law.mu_kinetic = law.mu_static * pos(rng);
    law.low_velocity_speed = 0.5 * pos(rng);
    law.r = pos(rng);
    const double z = kPi * u(rng);
    const Vec2 v{3.0 * u(rng), 3.0 * u(rng)};
    const double spin = 2000.0 * u(rng);
    const Vec2 wall{u(rng), 0.0};
    const BilliardImpactResult r = billiard_impact(ball, law, z, v, spin, wall);
    if (r.u_n_before >= 0.0) continue;  // not approaching: no impact
    const double before = wall_frame_energy(ball, v, spin, wall);
    const double after = wall_frame_energy(ball, r.v, r.spin, wall);
    ASSERT_LE(after, before * (1.0 + 1e-12)) << "impact " << i;
    ++checked;
  }
  EXPECT_GT(checked, 5000);
}

// A model of the elastic, frictionless, undriven billiard without drag.
BilliardModel elastic_model(BoundaryShape shape) {
  BilliardModel m;
  m.boundary.shape = shape;
  m.boundary.has_ceiling = true;
  m.boundary.ceiling = 0.12;
  m.ball = paper_ball();
  m.law.e = 1.0;
  m.law.mu_static = 0.0;
  m.law.mu_kinetic = 0.0;
  m.drive = {0.0, 2.0 * kPi * 5.0};
  m.drag = {0.0, 0.0};
  m.ode.step = 1e-4;
  m.max_collisions = 800;
  return m;
}

// B3-like: the total energy of the elastic frictionless billiard (no drag, static boundary)
// stays constant over many bounces, for every shape and both schemes.
TEST(BilliardRun, ElasticFrictionlessBilliardConservesEnergy) {
  for (BoundaryShape shape : {BoundaryShape::parabola, BoundaryShape::wedge,
                              BoundaryShape::hyperbola}) {
    for (Scheme scheme : {Scheme::rk4, Scheme::dopri5}) {
      BilliardModel m = elastic_model(shape);
      m.ode.scheme = scheme;
      m.ode.max_step = 2e-3;
      BilliardInitial init;
      init.q1 = 0.01;
      init.q2 = 0.06;
      init.v1 = 0.3;
      init.spin = 50.0;
      const BilliardResult r = run_billiard(m, init);
      ASSERT_EQ(r.status, BilliardStatus::completed);
      ASSERT_EQ(r.collisions.size(), 800u);
      const double e0 = billiard_energy(m, {init.v1, init.v2}, init.spin, init.q2);
      double worst = 0.0;
      for (const BilliardCollision& c : r.collisions)
        worst = std::max(worst, std::fabs(c.energy / e0 - 1.0));
      EXPECT_LT(worst, 1e-9) << static_cast<int>(shape) << " " << static_cast<int>(scheme);
    }
  }
}

// Mirror symmetry: q1 → −q1, v1 → −v1, u3 → −u3 and A → −A give the mirrored run: the same
// impact times and heights, opposite u4 and spin.
TEST(BilliardRun, MirrorSymmetry) {
  for (BoundaryShape shape : {BoundaryShape::parabola, BoundaryShape::wedge,
                              BoundaryShape::hyperbola}) {
    BilliardModel m;
    m.boundary.shape = shape;
    m.boundary.has_ceiling = true;
    m.boundary.ceiling = 0.12;
    m.ball = paper_ball();
    m.drive = {0.004, 2.0 * kPi * 4.5};
    m.drag = {4.8e-7, 2.1e-6};
    m.max_collisions = 60;
    BilliardInitial init;
    init.q1 = 0.004;
    init.q2 = 0.03;
    init.v1 = 0.2;
    init.spin = 30.0;
    BilliardModel mirror_model = m;
    mirror_model.drive.amplitude = -m.drive.amplitude;
    BilliardInitial mirror = init;
    mirror.q1 = -init.q1;
    mirror.v1 = -init.v1;
    mirror.spin = -init.spin;
    const BilliardResult a = run_billiard(m, init);
    const BilliardResult b = run_billiard(mirror_model, mirror);
    ASSERT_EQ(a.collisions.size(), b.collisions.size());
    ASSERT_EQ(a.collisions.size(), 60u);
    for (std::size_t n = 0; n < a.collisions.size(); ++n) {
      const BilliardCollision& x = a.collisions[n];
      const BilliardCollision& y = b.collisions[n];
      EXPECT_NEAR(x.t, y.t, 1e-9) << n;
      EXPECT_NEAR(x.q1, -y.q1, 1e-9) << n;
      EXPECT_NEAR(x.height, y.height, 1e-9) << n;
      EXPECT_NEAR(x.u_t_after, -y.u_t_after, 1e-7) << n;
      EXPECT_NEAR(x.spin_after, -y.spin_after, 1e-4) << n;
      EXPECT_EQ(x.sticking, y.sticking) << n;
    }
  }
}

// The Zeno policy: an inelastic ball on a static flat floor without the e = 1 rule
// accumulates impacts; the run ends cleanly with status "zeno" before the accumulation time.
TEST(BilliardRun, AccumulatingImpactsEndTheRunCleanly) {
  BilliardModel m;
  m.boundary.shape = BoundaryShape::flat;
  m.boundary.c = 0.0;
  m.ball = paper_ball();
  m.law.e = 0.5;
  m.law.low_velocity_speed = 0.0;
  m.drag = {0.0, 0.0};
  m.ode.step = 1e-4;
  m.zeno.min_speed = 4.0 * 9.81 * 1e-4;
  m.max_collisions = 100000;
  BilliardInitial init;
  init.q2 = m.ball.radius + 0.01;
  const BilliardResult r = run_billiard(m, init);
  EXPECT_EQ(r.status, BilliardStatus::zeno);
  // the accumulation time of e = 0.5 from a 1 cm drop: t0 (1 + 2e/(1 − e))
  const double t0 = std::sqrt(2.0 * 0.01 / 9.81);
  EXPECT_LT(r.zeno_time, t0 * 3.0 + 1e-9);
  EXPECT_GT(r.collisions.size(), 5u);
}

// With e = 1 below its threshold, the same ball never collapses: it keeps bouncing.
TEST(BilliardRun, LowVelocityRulePreventsCollapse) {
  BilliardModel m;
  m.boundary.shape = BoundaryShape::parabola;
  m.ball = paper_ball();
  m.law = paper_law();
  m.law.low_velocity_speed = 0.05;
  m.max_collisions = 300;
  BilliardInitial init;
  init.q2 = resting_height(m, 0.0) + 1e-3;
  const BilliardResult r = run_billiard(m, init);
  EXPECT_EQ(r.status, BilliardStatus::completed);
  EXPECT_GT(r.low_velocity, 0);
}

}  // namespace
}  // namespace granular::impact
