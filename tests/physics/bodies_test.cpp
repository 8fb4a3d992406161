// Prescribed bodies, tilt and applied torque in the MD engine (md/bodies.hpp,
// md/supported_disk/systems.hpp) against closed forms: the static normal forces of the 3-disk
// system (Peraza-Mues 2018, eqs. 4.29–4.30 at τ = 0), a disk rolling and sliding down a tilted
// wall, the spin-up of a free disk under A_e sin(ω_e t) + rate·t, prescribed motions followed
// exactly, the energy of a disk bouncing in a static frictionless wedge, and bitwise
// determinism of randomly driven runs for any thread count and ensemble size.
#include "granular/md/bodies.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "granular/constants.hpp"
#include "granular/portable_sincos.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/state.hpp"
#include "granular/md/supported_disk/systems.hpp"
#include "granular/random.hpp"

namespace granular::md {
namespace {

struct System {
  EnsembleModel model;
  EnsembleState state;
};

// The thesis' ch. 5 3-disk system (k_n = 10³, k_t = 10⁶, γ = 10, μ = 0.1, m = 0.1, R = 1,
// g = 10) at a coarser dt than the thesis' 10⁻⁶: 160 steps per period of the stiffest mode.
System three_disk(const ThreeDiskParams& p, int copies = 1) {
  System s;
  s.model.dt = 2e-5;
  s.model.neighbor.skin = 0.05;
  std::vector<double> x, y;
  for (int k = 0; k < copies; ++k) add_three_disk(s.model, p, x, y);
  s.state = make_state(s.model, x, y, -0.5);
  return s;
}

void run(System& s, std::int64_t steps, int threads = 1) {
  auto backend = make_cpu_backend(threads);
  backend->initialize(s.model, s.state);
  backend->advance(s.model, s.state, steps);
}

// Normal force of the contact between disks a < b, from the stored state.
double pair_normal(const System& s, int a, int b) {
  const double dx = s.state.x[b] - s.state.x[a], dy = s.state.y[b] - s.state.y[a];
  const double overlap = s.model.radius[a] + s.model.radius[b] - std::sqrt(dx * dx + dy * dy);
  return s.model.packings[0].disk_disk.k_n * overlap;
}

TEST(Bodies, ThreeDiskStaticNormalForcesMatchTheClosedForm) {
  const ThreeDiskParams p;
  System s = three_disk(p);
  // the upper disk at its equilibrium height, where 2 k_n δ cos θ = mg: the skins then open
  // unstretched (τ = 0); placed touching, its settling would stretch them (Θ ≠ 0)
  const double d = s.state.x[2] - s.state.x[0];
  double lo = 0.0, hi = 2.0 * p.radius;
  for (int k = 0; k < 200; ++k) {
    const double h = 0.5 * (lo + hi), reach = std::sqrt(d * d + h * h);
    const double weight_held = 2.0 * p.contact.k_n * (2.0 * p.radius - reach) * h / reach;
    (weight_held > p.mass * p.gravity ? lo : hi) = h;
  }
  s.state.y[0] = s.state.y[1] + 0.5 * (lo + hi);
  run(s, 25000);  // 0.5 s: the normal modes (damping rate ≥ γ/2m = 50/s) decay by e^-25
  // at θ_T = 0 and τ = 0: n01 = n02 = mg sin θ0 / sin 2θ0 (eqs. 4.29–4.30), with θ0 the
  // contact's angle (the nominal π/6 turned by the overlap, 3e-4 of it)
  const double reach = std::hypot(d, s.state.y[0] - s.state.y[1]);
  const double half_angle = std::asin(d / reach);
  const double expected = p.mass * p.gravity * std::sin(half_angle) / std::sin(2 * half_angle);
  EXPECT_NEAR(pair_normal(s, 0, 1), expected, 1e-9 * expected);
  EXPECT_NEAR(pair_normal(s, 0, 2), expected, 1e-9 * expected);
  EXPECT_NEAR(half_angle, p.half_angle, 1e-3);
  EXPECT_LT(std::fabs(s.state.theta[0]), 1e-12);  // symmetric: no torque, no turn
  // the supports stayed where they were put
  EXPECT_EQ(s.state.x[1], s.model.bodies[0].x0);
  EXPECT_EQ(s.state.y[2], s.model.bodies[1].y0);
  EXPECT_EQ(s.state.status[0], status_ok);
}

// A disk on a straight wall body through the origin at angle `wall_angle`, gravity turned by
// `tilt`; the disk starts at rest, resting on the wall (overlap mg cos/k_n).
System disk_on_wall(double wall_angle, double tilt, double mu) {
  System s;
  s.model.dt = 1e-5;
  s.model.neighbor.skin = 0.002;
  PackingParams pp{};
  pp.box_width = 0.4;
  pp.gravity = 9.81;
  pp.tilt = tilt;
  pp.box_walls = 0;
  pp.disk_wall = {4.5e5, 3.5e5, 2.0, mu};
  pp.disk_disk = pp.disk_wall;
  const double r = 0.02;
  s.model.add_packing(pp, {r}, 3.57);
  Body wall;
  wall.shape = BodyShape::wall;
  wall.theta0 = wall_angle;
  wall.s_min = -std::numeric_limits<double>::infinity();
  wall.s_max = std::numeric_limits<double>::infinity();
  s.model.add_body(wall);
  // centre on the wall's normal (−sin, cos) through the origin, at the static overlap
  const double rest = r - s.model.mass[0] * pp.gravity * std::cos(wall_angle - tilt) / 4.5e5;
  s.state = make_state(s.model, {-rest * std::sin(wall_angle)}, {rest * std::cos(wall_angle)}, 0.0);
  return s;
}

// Velocity along the wall and spin after time t of a disk released on an incline α: rolling
// without slip (μ ≥ tan α / 3) a = (2/3) g sin α; sliding a = g (sin α − μ cos α) with
// ω̇ = 2μ g cos α / R (uniform disk, I = mR²/2).
TEST(Bodies, ADiskRollsAndSlidesDownATiltedWallAsTheClosedForms) {
  const double alpha = 0.5235987755982988;  // 30°
  const double g = 9.81, r = 0.02, t = 0.3;
  for (double mu : {1.0, 0.05}) {
    const bool rolls = mu >= std::tan(alpha) / 3.0;
    const double a =
        rolls ? 2.0 / 3.0 * g * std::sin(alpha) : g * (std::sin(alpha) - mu * std::cos(alpha));
    const double spin_rate = rolls ? a / r : 2.0 * mu * g * std::cos(alpha) / r;
    System tilted = disk_on_wall(0.0, alpha, mu);  // the set-up turned counter-clockwise
    run(tilted, static_cast<std::int64_t>(std::lround(t / tilted.model.dt)));
    // down the slope is −x; a disk rolling towards −x turns counter-clockwise
    // the skin rings undamped (no tangential dashpot): 0.2 % of the mean
    EXPECT_NEAR(tilted.state.vx[0], -a * t, 2e-3 * a * t) << mu;
    EXPECT_NEAR(tilted.state.omega[0], spin_rate * t, 2e-3 * spin_rate * t) << mu;
    EXPECT_NEAR(tilted.state.vy[0], 0.0, 1e-6) << mu;

    // the same in the laboratory: the wall turned by α, gravity vertical; the two runs differ
    // by the rotation, to rounding
    System turned = disk_on_wall(alpha, 0.0, mu);
    run(turned, static_cast<std::int64_t>(std::lround(t / turned.model.dt)));
    const double c = std::cos(alpha), s = std::sin(alpha);
    const double vx_back = c * turned.state.vx[0] + s * turned.state.vy[0];
    const double vy_back = -s * turned.state.vx[0] + c * turned.state.vy[0];
    EXPECT_NEAR(vx_back, tilted.state.vx[0], 1e-8 * a * t) << mu;
    EXPECT_NEAR(vy_back, tilted.state.vy[0], 1e-8 * a * t) << mu;
    EXPECT_NEAR(turned.state.omega[0], tilted.state.omega[0], 1e-8 * spin_rate * t) << mu;
  }
}

// ω(t) = [A_e (1 − cos ω_e t)/ω_e + rate t²/2] / I for a free disk, no gravity, no contact.
TEST(Bodies, AnAppliedTorqueSpinsAFreeDiskAsTheClosedForm) {
  System s;
  s.model.dt = 1e-4;
  s.model.neighbor.skin = 0.002;
  PackingParams pp{};
  pp.box_width = 1.0;
  pp.gravity = 0.0;
  pp.box_walls = 0;
  pp.disk_disk = {1e4, 1e4, 0.0, 0.1};
  pp.disk_wall = pp.disk_disk;
  pp.torque = {0, 2e-4, 7.0, 3e-5};
  s.model.add_packing(pp, {0.02}, 3.57);
  s.state = make_state(s.model, {0.5}, {0.5}, -0.1);  // no torque before t = 0
  run(s, 21000);                                      // to t = 2 s
  const double t = s.state.time(s.model);
  const double inertia = s.model.inertia[0];
  const double expected =
      (pp.torque.amplitude * (1.0 - std::cos(pp.torque.omega * t)) / pp.torque.omega +
       0.5 * pp.torque.rate * t * t) /
      inertia;
  // Gear's predictor meets the kink of the torque's rate at t = 0: 1e-8 of ω after it
  EXPECT_NEAR(s.state.omega[0], expected, 1e-7 * std::fabs(expected));
  EXPECT_EQ(s.state.vx[0], 0.0);
  EXPECT_EQ(s.state.x[0], 0.5);
}

// Sine coordinates are A sin(ω t) at every step; random ones the exact process of
// random_vibration.hpp with the packing's stream, from its stationary start.
TEST(Bodies, PrescribedDisksFollowTheirMotionExactly) {
  ThreeDiskParams p;
  p.supports = {SupportDrive::random, 1e-3, 20.0 * pi, 0.5};
  System s = three_disk(p);
  const Body left = s.model.bodies[0];
  // the reference process of the left support's x
  const PackingParams& pp = s.model.packings[0];
  const NormalQuad start = random_normals(body_axis_key(pp, 0, 0), ~0ull);
  double x = p.supports.amplitude * start.n[0];
  double v = p.supports.omega * p.supports.amplitude * start.n[1];
  const std::int64_t steps = 500;
  const std::int64_t step0 = s.state.step;
  run(s, steps);
  for (std::int64_t k = step0 + 1; k <= step0 + steps; ++k) {
    const NormalQuad n = random_normals(body_axis_key(pp, 0, 0), static_cast<std::uint64_t>(k));
    advance_random_vibration(left.axis[0].step, x, v, n.n[0], n.n[1]);
  }
  EXPECT_EQ(s.state.x[1], left.x0 + x);
  EXPECT_EQ(s.state.vx[1], v);
  EXPECT_NE(s.state.y[2], s.model.bodies[1].y0);  // the other coordinates move too

  // a sine body: the wedge's walls
  System w;
  w.model.dt = 1e-6;
  w.model.neighbor.skin = 0.002;
  WedgeDiskParams wedge;
  wedge.tilt = 0.2;
  wedge.amplitude = 1e-4;
  wedge.omega = 500.0;
  std::vector<double> wx, wy;
  add_wedge_disk(w.model, wedge, wx, wy);
  w.state = make_state(w.model, wx, wy, 0.0);
  run(w, 1234);
  const double t = w.state.time(w.model);
  const SinCos phase = sin_cos(wedge.omega * t);
  const double* motion = w.state.body_motion.data();
  EXPECT_EQ(motion[0], wedge.amplitude * std::sin(wedge.tilt) * phase.sin);
  EXPECT_EQ(motion[1], wedge.amplitude * std::cos(wedge.tilt) * phase.sin);
  EXPECT_EQ(motion[4], wedge.amplitude * std::cos(wedge.tilt) * wedge.omega * phase.cos);

  // sine supports of a tilted 3-disk system: both along the laboratory's vertical
  ThreeDiskParams shaken;
  shaken.tilt = 0.1;
  shaken.supports = {SupportDrive::sine, 1e-3, 30.0, 0.5};
  System d = three_disk(shaken);
  run(d, 25000 + 777);  // past the settling half second, when the drive starts
  const double td = d.state.time(d.model);
  const SinCos at = sin_cos(shaken.supports.omega * td);
  for (int k : {1, 2}) {
    const Body& support = d.model.bodies[k - 1];
    EXPECT_EQ(d.state.x[k],
              support.x0 + shaken.supports.amplitude * std::sin(shaken.tilt) * at.sin);
    EXPECT_EQ(d.state.y[k],
              support.y0 + shaken.supports.amplitude * std::cos(shaken.tilt) * at.sin);
    EXPECT_EQ(d.state.vy[k],
              shaken.supports.amplitude * std::cos(shaken.tilt) * shaken.supports.omega * at.cos);
  }
}

// A disk bouncing in a static wedge with γ_n = 0 and μ = 0 keeps its energy: exactly in
// flight, and to the integrator's error at each bounce (first order in dt, from the kink of the
// force at touch, as md/collision/collision.hpp measures for e_n: 3e-6 of the energy per bounce
// here).
TEST(Bodies, ADiskInAStaticFrictionlessWedgeKeepsItsEnergy) {
  System s;
  s.model.dt = 5e-7;  // t_col/200
  s.model.neighbor.skin = 0.004;
  WedgeDiskParams wedge;
  wedge.contact = {4.5e6, 3.4785e6, 0.0, 0.0};
  std::vector<double> x, y;
  add_wedge_disk(s.model, wedge, x, y);
  x[0] += 0.01;  // off the bisector and 1 cm up: it bounces from wall to wall
  y[0] += 0.01;
  s.state = make_state(s.model, x, y, 0.0);
  auto backend = make_cpu_backend(1);
  backend->initialize(s.model, s.state);
  const double e0 = packing_energy(s.model, s.state, 0).total();
  int bounces = 0;
  bool touching = false;
  double flight_energy = e0;
  for (int chunk = 0; chunk < 15000; ++chunk) {  // 0.3 s in chunks of 20 µs
    backend->advance(s.model, s.state, 40);
    const PackingEnergy e = packing_energy(s.model, s.state, 0);
    ASSERT_NEAR(e.total(), e0, 1e-4 * e0) << chunk;
    if (e.wall_contacts == 0) {
      if (!touching) {
        EXPECT_NEAR(e.total(), flight_energy, 1e-12 * e0) << chunk;
      }
      flight_energy = e.total();
    }
    bounces += e.wall_contacts > 0 && !touching;
    touching = e.wall_contacts > 0;
  }
  EXPECT_GE(bounces, 4);
  EXPECT_EQ(s.state.status[0], status_ok);
}

// Randomly driven systems: the same bits for one or two threads, and packing k of an ensemble
// equals the same system run alone.
TEST(Bodies, RandomDrivesAreBitwiseDeterministic) {
  ThreeDiskParams p;
  p.tilt = 0.1;
  p.supports = {SupportDrive::random, 5e-4, 20.0 * pi, 0.5};
  ThreeDiskParams other = p;
  other.seed = 99;  // a different stream
  System ensemble;
  ensemble.model.dt = 2e-5;
  ensemble.model.neighbor.skin = 0.05;
  std::vector<double> x, y;
  add_three_disk(ensemble.model, other, x, y);
  add_three_disk(ensemble.model, p, x, y);
  add_three_disk(ensemble.model, other, x, y);
  ensemble.state = make_state(ensemble.model, x, y, 0.0);
  System two_threads = ensemble;
  System alone = three_disk(p);
  alone.state =
      make_state(alone.model, {x.begin() + 3, x.begin() + 6}, {y.begin() + 3, y.begin() + 6}, 0.0);
  run(ensemble, 5000, 1);
  run(two_threads, 5000, 2);
  run(alone, 5000, 1);
  EXPECT_EQ(ensemble.state.x, two_threads.state.x);
  EXPECT_EQ(ensemble.state.theta, two_threads.state.theta);
  EXPECT_EQ(ensemble.state.body_motion, two_threads.state.body_motion);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(ensemble.state.x[3 + k], alone.state.x[k]);
    EXPECT_EQ(ensemble.state.y[3 + k], alone.state.y[k]);
    EXPECT_EQ(ensemble.state.theta[3 + k], alone.state.theta[k]);
  }
  EXPECT_NE(ensemble.state.theta[0], ensemble.state.theta[3]);  // other streams, other paths
  EXPECT_NE(ensemble.state.theta[3], 0.0);
}

}  // namespace
}  // namespace granular::md
