// Physics of the gravitational billiard (src/impact/billiard/; spec
// billiard.md §4, §8): the stick/slip boundary in closed form, the moving-wall restitution,
// energy conservation of the elastic frictionless billiard, no energy gain in random impacts,
// mirror symmetry, the Zeno policy and persistent contact (rolling, sliding, lift-off).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "granular/impact/billiard/run.hpp"

namespace granular::billiard {
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
      const BilliardImpactResult in = billiard_impact(
          ball, law, z, (sign * ratio * (1.0 - 1e-9)) * c1 + u5 * c2, 0.0, {0.0, 0.0});
      const BilliardImpactResult out = billiard_impact(
          ball, law, z, (sign * ratio * (1.0 + 1e-9)) * c1 + u5 * c2, 0.0, {0.0, 0.0});
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
Params elastic_model(BoundaryShape shape) {
  Params m;
  m.boundary.shape = shape;
  m.boundary.has_ceiling = true;
  m.boundary.ceiling = 0.12;
  m.ball = paper_ball();
  m.law.e = 1.0;
  m.law.mu_static = 0.0;
  m.law.mu_kinetic = 0.0;
  m.drive = {0.0, 2.0 * kPi * 5.0};
  m.drag = {0.0, 0.0};
  return m;
}

// Its run: fixed steps of 0.1 ms, 800 impacts.
Options elastic_options() {
  Options o;
  o.driver.ode.step = 1e-4;
  o.max_collisions = 800;
  return o;
}

// B3-like: the total energy of the elastic frictionless billiard (no drag, static boundary)
// stays constant over many bounces, for every shape and both schemes.
TEST(BilliardRun, ElasticFrictionlessBilliardConservesEnergy) {
  for (BoundaryShape shape :
       {BoundaryShape::parabola, BoundaryShape::wedge, BoundaryShape::hyperbola}) {
    for (Scheme scheme : {Scheme::rk4, Scheme::dopri5}) {
      Params m = elastic_model(shape);
      Options o = elastic_options();
      o.driver.ode.scheme = scheme;
      o.driver.ode.max_step = 2e-3;
      BilliardInitial init;
      init.q1 = 0.01;
      init.q2 = 0.06;
      init.v1 = 0.3;
      init.spin = 50.0;
      const Result r = run_billiard(m, o, init);
      ASSERT_EQ(r.status, RunStatus::completed);
      ASSERT_EQ(r.collisions.size(), 800u);
      const double e0 = billiard_energy(m, {init.v1, init.v2}, init.spin, init.q2);
      double worst = 0.0;
      for (const BilliardCollision& c : r.collisions)
        worst = std::max(worst, std::fabs(c.energy / e0 - 1.0));
      EXPECT_LT(worst, 1e-9) << static_cast<int>(shape) << " " << static_cast<int>(scheme);
    }
  }
}

// The paper's ball in a driven boundary of the paper's shape under a ceiling, without drag.
Params driven_model(BoundaryShape shape, double ceiling, double amplitude, double frequency) {
  Params m;
  m.boundary.shape = shape;
  m.boundary.has_ceiling = true;
  m.boundary.ceiling = ceiling;
  m.ball = paper_ball();
  m.drive = {amplitude, 2.0 * kPi * frequency};
  return m;
}

// Mirror symmetry: q1 → −q1, v1 → −v1, u3 → −u3 and A → −A give the mirrored run: the same
// impact times and heights, opposite u4 and spin.
TEST(BilliardRun, MirrorSymmetry) {
  for (BoundaryShape shape :
       {BoundaryShape::parabola, BoundaryShape::wedge, BoundaryShape::hyperbola}) {
    Params m = driven_model(shape, 0.12, 0.004, 4.5);
    Options o;
    m.drag = {4.8e-7, 2.1e-6};
    o.max_collisions = 60;
    BilliardInitial init;
    init.q1 = 0.004;
    init.q2 = 0.03;
    init.v1 = 0.2;
    init.spin = 30.0;
    Params mirror_model = m;
    mirror_model.drive.amplitude = -m.drive.amplitude;
    BilliardInitial mirror = init;
    mirror.q1 = -init.q1;
    mirror.v1 = -init.v1;
    mirror.spin = -init.spin;
    const Result a = run_billiard(m, o, init);
    const Result b = run_billiard(mirror_model, o, mirror);
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

// The Zeno policy: an inelastic ball on a static flat floor without the e = 1 rule, launched
// sideways, accumulates impacts before the accumulation time; the last impact is plastic and
// the ball goes on in persistent contact, ending up rolling on the floor (u_s = 0, q2 = b).
TEST(BilliardContact, AccumulatingImpactsSwitchToPersistentContact) {
  Params m;
  Options o;
  m.boundary.shape = BoundaryShape::flat;
  m.boundary.c = 0.0;
  m.ball = paper_ball();
  m.law.e = 0.5;
  m.law.low_velocity_speed = 0.0;
  m.drag = {0.0, 0.0};
  o.driver.ode.step = 1e-4;
  o.driver.zeno.min_speed = 4.0 * 9.81 * 1e-4;
  o.max_collisions = 100000;
  o.driver.t_end = 0.3;
  o.driver.sample_interval = 0.1;
  BilliardInitial init;
  init.q2 = m.ball.radius + 0.01;
  init.v1 = 0.2;
  const Result r = run_billiard(m, o, init);
  EXPECT_EQ(r.status, RunStatus::time_limit);
  EXPECT_GE(r.zeno_switches, 1);
  // the accumulation time of e = 0.5 from a 1 cm drop: t0 (1 + 2e/(1 − e))
  const double t0 = std::sqrt(2.0 * 0.01 / 9.81);
  EXPECT_LT(r.zeno_time, t0 * 3.0 + 1e-9);
  EXPECT_GT(r.collisions.size(), 5u);
  EXPECT_EQ(r.collisions.back().e_used, 0.0);
  ASSERT_FALSE(r.contact_phases.empty());
  EXPECT_EQ(r.contact_phases.front().t_start, r.zeno_time);
  EXPECT_EQ(r.contact_phases.back().mode, BilliardContactMode::roll);
  EXPECT_EQ(r.contact_phases.back().end, BilliardContactEnd::run_end);
  const BilliardSample& last = r.trajectory.back();
  EXPECT_NEAR(last.t, o.driver.t_end, 1e-12);
  EXPECT_NEAR(last.q2, m.ball.radius, 1e-12);
  EXPECT_NEAR(last.v2, 0.0, 1e-12);
  EXPECT_GT(last.v1, 0.0);
  EXPECT_NEAR(last.v1 + m.ball.radius * last.spin, 0.0, 1e-12);
}

// The ball placed on the surface: centre = foot + b c2, velocity u_t c1 (static wall).
BilliardInitial placed(const Params& m, Surface s, double foot, double u_t, double spin) {
  const BilliardOnSurface on{s, foot, u_t, spin};
  const State y = billiard_from_surface(m, 0.0, on);
  BilliardInitial init;
  init.q1 = y[0];
  init.q2 = y[1];
  init.v1 = y[2];
  init.v2 = y[3];
  init.spin = y[4];
  return init;
}

// A static, drag-free model for the contact tests.
Params static_model(BoundaryShape shape, double mu_static, double mu_kinetic) {
  Params m;
  m.boundary.shape = shape;
  m.ball = paper_ball();
  m.law.mu_static = mu_static;
  m.law.mu_kinetic = mu_kinetic;
  m.drive = {0.0, 2.0 * kPi * 5.0};
  m.drag = {0.0, 0.0};
  return m;
}

// Its run: fixed steps of 0.1 ms.
Options static_options() {
  Options o;
  o.driver.ode.step = 1e-4;
  return o;
}

// A ball placed at the bottom of a static parabola with a small tangential speed rolls (μ
// large): it never slips (u_s = 0), and with no drag its energy, translational + rotational +
// potential, is conserved, as rolling friction does no work.
TEST(BilliardContact, RollsInAStaticParabolaConservingEnergy) {
  Params m = static_model(BoundaryShape::parabola, 10.0, 10.0);
  Options o = static_options();
  o.driver.t_end = 1.0;
  o.driver.sample_interval = 0.01;
  const double u0 = 0.05;
  const BilliardInitial init = placed(m, Surface::floor, 0.0, u0, -u0 / m.ball.radius);
  const Result r = run_billiard(m, o, init);
  EXPECT_EQ(r.status, RunStatus::time_limit);
  ASSERT_EQ(r.contact_phases.size(), 1u);
  EXPECT_EQ(r.contact_phases[0].mode, BilliardContactMode::roll);
  EXPECT_EQ(r.contact_phases[0].end, BilliardContactEnd::run_end);
  EXPECT_TRUE(r.collisions.empty());
  const double e0 = billiard_energy(m, {init.v1, init.v2}, init.spin, init.q2);
  const double kinetic0 = e0 - m.ball.mass * m.gravity * init.q2;
  double q1_min = 0.0, q1_max = 0.0;
  for (const BilliardSample& x : r.trajectory) {
    const double e = billiard_energy(m, {x.v1, x.v2}, x.spin, x.q2);
    EXPECT_LT(std::fabs(e - e0), 1e-9 * kinetic0) << "t = " << x.t;
    State y(5);
    y << x.q1, x.q2, x.v1, x.v2, x.spin;
    const BilliardOnSurface on = billiard_to_surface(m, Surface::floor, x.t, y);
    EXPECT_NEAR(on.u_t + m.ball.radius * on.spin, 0.0, 1e-12) << "t = " << x.t;
    EXPECT_NEAR(surface_contact(m.boundary, Surface::floor, x.q1, x.q2, m.ball.radius).gap, 0.0,
                1e-15);
    q1_min = std::min(q1_min, x.q1);
    q1_max = std::max(q1_max, x.q1);
  }
  // it oscillates about the bottom (period 2π √(1.4 (R − b)/g) ≈ 0.32 s, R = 1/(2a))
  EXPECT_LT(q1_min, -1e-3);
  EXPECT_GT(q1_max, 1e-3);
}

// On a static line steeper than rolling allows (tan θ > (1 + m b²/J) μ) a ball placed at rest
// slides down with a = g (sin θ − μ' cos θ) and spins up with J du3/dt = b μ' m g cos θ; on a
// gentler line it rolls down with a = g sin θ / (1 + J/(m b²)). Constant accelerations: the
// integration is exact up to rounding.
TEST(BilliardContact, SlidesOrRollsDownALineWithTheClosedFormAcceleration) {
  for (double slope : {3.0, 1.85}) {
    Params m = static_model(BoundaryShape::wedge, 0.61, 0.47);
    Options o = static_options();
    m.boundary.slope = slope;
    o.driver.t_end = 0.05;
    o.driver.sample_interval = 0.05;
    const BilliardInitial init = placed(m, Surface::wedge_right, 0.05, 0.0, 0.0);
    const Result r = run_billiard(m, o, init);
    EXPECT_EQ(r.status, RunStatus::time_limit);
    ASSERT_EQ(r.contact_phases.size(), 1u);
    const bool slides = slope > 3.5 * m.law.mu_static;
    EXPECT_EQ(r.contact_phases[0].mode,
              slides ? BilliardContactMode::slide : BilliardContactMode::roll);
    EXPECT_EQ(r.contact_phases[0].end, BilliardContactEnd::run_end);

    const double theta = std::atan(slope), T = o.driver.t_end, g = m.gravity;
    const double mb2 = m.ball.mass * m.ball.radius * m.ball.radius;
    const double a = slides ? g * (std::sin(theta) - m.law.mu_kinetic * std::cos(theta))
                            : g * std::sin(theta) / (1.0 + m.ball.inertia / mb2);
    const double spin = slides ? m.ball.radius * m.law.mu_kinetic * m.ball.mass * g *
                                     std::cos(theta) * T / m.ball.inertia
                               : a * T / m.ball.radius;
    const BilliardSample& last = r.trajectory.back();
    ASSERT_NEAR(last.t, T, 1e-12);
    const Vec2 c1{std::cos(theta), std::sin(theta)};
    EXPECT_NEAR(last.v1, -a * T * c1.x, 1e-12);
    EXPECT_NEAR(last.v2, -a * T * c1.y, 1e-12);
    EXPECT_NEAR(last.q1, init.q1 - 0.5 * a * T * T * c1.x, 1e-12);
    EXPECT_NEAR(last.q2, init.q2 - 0.5 * a * T * T * c1.y, 1e-12);
    EXPECT_NEAR(last.spin, spin, 1e-9 * spin);
  }
}

// A frictionless ball on a wedge branch (a line at angle z) of a boundary driven as
// A sin(ωt): the wall's acceleration ẇ = −Aω² sin(ωt) makes F_n = m (g cos z − ẇ sin z), which
// reaches zero first at ωt* = π + asin(g cot z / (Aω²)); the lift-off event locates t*, and the
// foot is where u_t = −g sin z t − (w(t) − w(0)) cos z, integrated, puts it.
TEST(BilliardContact, LiftsOffWhenTheWallAcceleratesAway) {
  Params m = static_model(BoundaryShape::wedge, 0.0, 0.0);
  Options o = static_options();
  m.drive = {0.0254, 2.0 * kPi * 5.8};
  o.driver.t_end = 0.5;
  o.max_collisions = 1;
  const double s0 = 0.08;
  const BilliardInitial init = placed(m, Surface::wedge_right, s0, 0.0, 0.0);
  const Result r = run_billiard(m, o, init);
  // it slides down, then up as the wall swings back (u_t changes sign: a reversal), then
  // lifts off
  ASSERT_EQ(r.contact_phases.size(), 2u);
  EXPECT_EQ(r.contact_phases[0].end, BilliardContactEnd::reverse);
  const BilliardContactPhase& p = r.contact_phases[1];
  EXPECT_EQ(p.surface, Surface::wedge_right);
  EXPECT_EQ(p.mode, BilliardContactMode::slide);
  EXPECT_EQ(p.end, BilliardContactEnd::liftoff);
  EXPECT_NEAR(p.f_n_end, 0.0, 1e-9 * m.ball.mass * m.gravity);

  const double A = m.drive.amplitude, w = m.drive.omega, g = m.gravity, b = m.ball.radius;
  const double z = std::atan(m.boundary.slope), cz = std::cos(z), sz = std::sin(z);
  const double t_star = (kPi + std::asin(g * cz / sz / (A * w * w))) / w;
  EXPECT_NEAR(p.t_end, t_star, 1e-9);
  const double s = s0 + cz * (-0.5 * g * sz * t_star * t_star -
                              cz * (A * std::sin(w * t_star) - A * w * t_star));
  ASSERT_GT(s, 0.0);
  EXPECT_NEAR(p.q1_end, s - b * sz + A * std::sin(w * t_star), 1e-9);
  EXPECT_NEAR(p.q2_end, m.boundary.c + m.boundary.slope * s + b * cz, 1e-9);
  // after the lift-off the ball flies until it hits the boundary again
  ASSERT_EQ(r.collisions.size(), 1u);
  EXPECT_GT(r.collisions[0].t, p.t_end);
}

// The paper's runs (spec §6, cases/billiard_hyperbola_5p8hz.json and
// billiard_parabola_4p5hz.json) used to stop at "zeno" after 657 and 1 997 collisions; with
// persistent contact they go on (the full 25 000 collisions take 6 s and 13 s, checked by
// hand; here a shorter run past the former stop).
TEST(BilliardRun, PaperCasesRunPastTheirFormerZenoStop) {
  struct Case {
    BoundaryShape shape;
    double frequency;
    long long collisions;
  };
  for (const Case& c :
       {Case{BoundaryShape::hyperbola, 5.8, 1000}, Case{BoundaryShape::parabola, 4.5, 2300}}) {
    Params m;
    Options o;
    m.boundary.shape = c.shape;
    m.boundary.has_ceiling = true;
    m.boundary.ceiling = 0.15;
    m.ball = paper_ball();
    m.drive = {0.0254, 2.0 * kPi * c.frequency};
    const double d = 2.0 * m.ball.radius;
    m.drag = {1.55e-4 * d, 0.22 * d * d};
    o.driver.zeno.min_speed = 4.0 * m.gravity * o.driver.ode.step;
    o.driver.zeno.window = 0.05;
    o.max_collisions = c.collisions;
    BilliardInitial init;
    init.q2 = resting_height(m, 0.0) + 1e-3;
    const Result r = run_billiard(m, o, init);
    EXPECT_EQ(r.status, RunStatus::completed) << r.fallback;
    EXPECT_EQ(static_cast<long long>(r.collisions.size()), c.collisions);
    EXPECT_GE(r.zeno_switches, 1);
    for (const BilliardContactPhase& p : r.contact_phases) {
      EXPECT_LE(p.t_start, p.t_end);
      EXPECT_NE(p.end, BilliardContactEnd::undetermined);
    }
  }
}

// Fig. 7's coordinates measure heights from the centre resting in the vertex (docs/billiard.md):
// its height is the closed form (the floor's vertex plus b, b√(1 + s²) in the wedge's corner),
// and after every impact the normalised height and the squared normalised tangential and
// normal velocities share the energy above it: they sum to 1, each part in [0, 1].
TEST(BilliardRun, Fig7CoordinatesShareTheEnergyAboveTheRestingCentre) {
  for (BoundaryShape shape :
       {BoundaryShape::parabola, BoundaryShape::wedge, BoundaryShape::hyperbola}) {
    const Params m = driven_model(shape, 0.15, 0.0254, 6.0);
    Options o;
    o.max_collisions = 400;
    const double b = m.ball.radius;
    const double rest = shape == BoundaryShape::wedge
                            ? floor_height(m.boundary, 0.0) +
                                  b * std::sqrt(1.0 + m.boundary.slope * m.boundary.slope)
                            : floor_height(m.boundary, 0.0) + b;
    EXPECT_NEAR(resting_height(m, 0.0), rest, 1e-12) << static_cast<int>(shape);
    BilliardInitial init;
    init.q2 = rest + 1e-3;
    const Result r = run_billiard(m, o, init);
    ASSERT_EQ(r.status, RunStatus::completed) << static_cast<int>(shape);
    const double mass = m.ball.mass, g = m.gravity;
    for (const BilliardCollision& c : r.collisions) {
      const double spin_energy = 0.5 * m.ball.inertia * c.spin_after * c.spin_after;
      const double e_above = c.energy - spin_energy - mass * g * rest;  // ½mv² + mgh
      ASSERT_GT(e_above, 0.0);
      const double u_max = std::sqrt(2.0 * e_above / mass);
      const double normal = c.u5_after / u_max;
      EXPECT_NEAR(c.norm_height + c.norm_u_t * c.norm_u_t + normal * normal, 1.0, 1e-9);
      EXPECT_NEAR(c.norm_height, (c.height - rest) * mass * g / e_above, 1e-9);
      EXPECT_GE(c.norm_height, 0.0);
      EXPECT_LE(c.norm_height, 1.0);
    }
  }
}

// A rebound shorter than one integrator step: a ball dropped at v0 = 1 mm/s onto a static flat
// floor leaves the first impact at e v0, a flight of 2 e v0 / g = 80 µs < 100 µs. The gap event
// starts that flight on its far side (the impact is located there), so the step ends saw no
// crossing and the ball sank through the floor (status penetrated, issue: billiard at
// low_velocity_speed = 0.01); the gap's rate finds every rebound at its closed-form time.
TEST(BilliardRun, AFlightShorterThanAStepIsNotMissed) {
  for (Scheme scheme : {Scheme::rk4, Scheme::dopri5}) {
    Params m;
    Options o;
    m.boundary.shape = BoundaryShape::flat;
    m.ball = paper_ball();
    m.law = paper_law();
    o.driver.ode.scheme = scheme;
    o.driver.ode.max_step = 1e-4;
    o.driver.zeno.min_speed = 1e-9;  // no plastic switch: every rebound is a flight
    o.max_collisions = 6;
    const double v0 = 1e-3, g = m.gravity, e = m.law.e;
    ASSERT_LT(2.0 * e * v0 / g, o.driver.ode.step);
    BilliardInitial init;
    init.q2 = m.boundary.c + m.ball.radius + v0 * v0 / (2.0 * g);
    const Result r = run_billiard(m, o, init);
    ASSERT_EQ(r.status, RunStatus::completed) << r.reason << ": " << r.detail;
    ASSERT_EQ(r.collisions.size(), 6u);
    double speed = v0;
    for (std::size_t n = 0; n < r.collisions.size(); ++n) {
      const BilliardCollision& c = r.collisions[n];
      EXPECT_NEAR(c.u_n_before, -speed, 1e-10) << n;
      if (n > 0) EXPECT_NEAR(c.flight_time, 2.0 * speed / g, 1e-11) << n;
      EXPECT_NEAR(c.height, init.q2 - v0 * v0 / (2.0 * g), 1e-12) << n;
      speed *= e;
    }
  }
}

// The report's case: the 5.8 Hz hyperbola with e = 1 only below 1 cm/s (low_velocity_speed =
// 0.01, `granular run cases/billiard_hyperbola_5p8hz.json --set
// /impact/low_velocity_speed=0.01`) rolls along the floor at ~1 m/s with 0.2 ms hops held
// down by the curvature (κ u_t² ≈ 50 m/s²); impact 4 095 left at 4 mm/s, a 90 µs flight, and
// the run stopped as penetrated at t = 67.9 s. It now runs past it.
TEST(BilliardRun, HyperbolaWithASlowLowVelocityRuleRunsPastTheMissedFlight) {
  Params m;
  Options o;
  m.boundary.shape = BoundaryShape::hyperbola;
  m.boundary.has_ceiling = true;
  m.boundary.ceiling = 0.15;
  m.ball = paper_ball();
  m.drive = {0.0254, 2.0 * kPi * 5.8};
  const double d = 2.0 * m.ball.radius;
  m.drag = {1.55e-4 * d, 0.22 * d * d};
  m.law = paper_law();
  m.law.low_velocity_speed = 0.01;
  o.driver.zeno.min_speed = 4.0 * m.gravity * o.driver.ode.step;
  o.max_collisions = 4200;
  BilliardInitial init;
  init.q2 = resting_height(m, 0.0) + 1e-3;
  const Result r = run_billiard(m, o, init);
  EXPECT_EQ(r.status, RunStatus::completed) << r.reason << ": " << r.detail;
  EXPECT_EQ(static_cast<long long>(r.collisions.size()), o.max_collisions);
}

// With e = 1 below its threshold, the same ball never collapses: it keeps bouncing.
TEST(BilliardRun, LowVelocityRulePreventsCollapse) {
  Params m;
  Options o;
  m.boundary.shape = BoundaryShape::parabola;
  m.ball = paper_ball();
  m.law = paper_law();
  m.law.low_velocity_speed = 0.05;
  o.max_collisions = 300;
  BilliardInitial init;
  init.q2 = resting_height(m, 0.0) + 1e-3;
  const Result r = run_billiard(m, o, init);
  EXPECT_EQ(r.status, RunStatus::completed);
  EXPECT_GT(r.low_velocity, 0);
}

}  // namespace
}  // namespace granular::billiard
