// Tests for the elastic skin of include/granular/md/contact.hpp (spec §2.2): the λ invariants
// of validation tier 0 item 1, dλ/dt = u_t, action and reaction in the engine, and forces
// against finite differences of the energy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "granular/contact_law.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/contact.hpp"
#include "granular/md/state.hpp"

namespace granular::md {
namespace {

const double pi = 3.141592653589793238462643383280;

// a stiff skin that never slips (μ huge), no dashpot
const ContactParams sticky = {1e4, 7.7e3, 0.0, 1e9};

Vec2 unit(double angle) { return {std::cos(angle), std::sin(angle)}; }

Vec2 rotate(Vec2 v, double angle) {
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  return {c * v.x - s * v.y, s * v.x + c * v.y};
}

// (a) disk a rolls without slip around a fixed disk b, dθ_a = ((R_a + R_b)/R_a) dβ, for two
// whole turns: λ_ab stays constant, so ξ = 0 and there is no tangential force.
TEST(SkinInvariants, RollingOnFixedDiskKeepsXiZero) {
  const double r_a = 0.02;
  const double r_b = 0.015;
  const double dist = r_a + r_b - 1e-5;
  const DiskKinematics b = {{0.3, -0.1}, {0.0, 0.0}, 0.7, r_b};
  SkinHistory h{};
  for (int k = 0; k <= 1300; ++k) {
    const double beta = 0.3 + 0.01 * k;  // angle of e = (r_b − r_a)/|r_b − r_a|
    const DiskKinematics a = {
        b.r - dist * unit(beta), {0.0, 0.0}, -1.2 + (r_a + r_b) / r_a * (beta - 0.3), r_a};
    const ContactResult c = disk_disk_contact(sticky, a, b, k == 0, h);
    const double arc = (r_a + r_b) * (beta - 0.3);
    ASSERT_NEAR(c.xi, 0.0, 1e-12 * std::max(arc, r_a)) << "beta = " << beta;
    ASSERT_NEAR(dot(c.force_a, perp(unit(beta))), 0.0, 1e-12 * sticky.k_t * std::max(arc, r_a));
    ASSERT_NEAR(c.torque_a, 0.0, 1e-12 * sticky.k_t * r_a * std::max(arc, r_a));
  }
}

// (b) counter-rotating gears: fixed centres, R_a ω_a = −R_b ω_b (u_t = 0), many turns.
TEST(SkinInvariants, CounterRotatingGearsKeepXiZero) {
  const double r_a = 0.02;
  const double r_b = 0.011;
  const DiskKinematics a0 = {{0.1, 0.2}, {0.0, 0.0}, 0.4, r_a};
  const Vec2 rb = a0.r + (r_a + r_b - 2e-5) * unit(-2.0);
  SkinHistory h{};
  for (int k = 0; k <= 1000; ++k) {
    const double phi = 0.1 * k;  // 100 rad of disk a
    const DiskKinematics a = {a0.r, {0.0, 0.0}, a0.theta + phi, r_a};
    const DiskKinematics b = {rb, {0.0, 0.0}, -3.0 - r_a / r_b * phi, r_b};
    const ContactResult c = disk_disk_contact(sticky, a, b, k == 0, h);
    ASSERT_NEAR(c.xi, 0.0, 1e-12 * std::max(r_a * phi, r_a)) << "phi = " << phi;
  }
}

// (c) a rigid rotation of the pair about an outside point, both θ turned by the same angle,
// for two whole turns.
TEST(SkinInvariants, RigidRotationOfPairKeepsXiZero) {
  const double r_a = 0.02;
  const double r_b = 0.015;
  const Vec2 pivot = {-0.05, 0.03};
  const Vec2 ra0 = {0.1, 0.2};
  const Vec2 rb0 = ra0 + (r_a + r_b - 1e-5) * unit(0.9);
  SkinHistory h{};
  for (int k = 0; k <= 1300; ++k) {
    const double phi = 0.01 * k;
    const DiskKinematics a = {pivot + rotate(ra0 - pivot, phi), {0.0, 0.0}, 2.0 + phi, r_a};
    const DiskKinematics b = {pivot + rotate(rb0 - pivot, phi), {0.0, 0.0}, -0.5 + phi, r_b};
    const ContactResult c = disk_disk_contact(sticky, a, b, k == 0, h);
    ASSERT_NEAR(c.xi, 0.0, 1e-12 * std::max((r_a + r_b) * phi, r_a)) << "phi = " << phi;
  }
}

// (d) a disk rolling without slip on a moving wall (sliding and vibrating), on the bottom wall
// (t̂ = (1, 0)) and on the left wall (t̂ = (0, −1)).
TEST(SkinInvariants, RollingOnMovingWallKeepsXiZero) {
  const double r = 0.02;
  const double overlap = 1e-5;
  SkinHistory h_bottom{};
  SkinHistory h_left{};
  for (int k = 0; k <= 2000; ++k) {
    const double t = 1e-3 * k;
    const double phi = 0.05 * k;  // 100 rad in all
    // bottom wall sliding at 0.3 m/s and vibrating vertically
    const Vec2 wall_point = {0.3 * t, 1e-3 * std::sin(60.0 * t)};
    const WallKinematics bottom = {{0.0, 1.0}, wall_point, {0.3, 0.06 * std::cos(60.0 * t)}};
    const DiskKinematics a = {
        {wall_point.x + 0.5 - r * phi, wall_point.y + r - overlap}, {0.0, 0.0}, 1.0 + phi, r};
    const ContactResult cb = disk_wall_contact(sticky, a, bottom, k == 0, h_bottom);
    ASSERT_NEAR(cb.xi, 0.0, 1e-12 * std::max(r * phi, r)) << "phi = " << phi;
    // left wall moving along x and y: s = (r_a − p)·(0, −1)
    const Vec2 left_point = {0.01 * std::sin(40.0 * t), -0.2 * t};
    const WallKinematics left = {{1.0, 0.0}, left_point, {0.4 * std::cos(40.0 * t), -0.2}};
    const DiskKinematics d = {
        {left_point.x + r - overlap, left_point.y + 0.3 + r * phi}, {0.0, 0.0}, -2.0 + phi, r};
    const ContactResult cl = disk_wall_contact(sticky, d, left, k == 0, h_left);
    ASSERT_NEAR(cl.xi, 0.0, 1e-12 * std::max(r * phi, r)) << "phi = " << phi;
  }
}

// A disk–disk contact at time s along straight-line, constant-spin motion.
struct PairMotion {
  DiskKinematics a, b;
  double omega_a, omega_b;
  DiskKinematics a_at(double s) const {
    return {a.r + s * a.v, a.v, a.theta + s * omega_a, a.radius};
  }
  DiskKinematics b_at(double s) const {
    return {b.r + s * b.v, b.v, b.theta + s * omega_b, b.radius};
  }
};

// dλ/dt from central differences of ξ against u_t = (v_a − v_b)·t̂ + R_a ω_a + R_b ω_b. It is
// exact at touching distance; with an overlap the β term carries (R_a + R_b)/|r_ab| (spec §2.2).
TEST(SkinRate, RateOfLambdaIsTangentialVelocity) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double h = 1e-5;
  for (int trial = 0; trial < 200; ++trial) {
    const double r_a = 0.01 + 0.01 * (u(rng) + 1.0);
    const double r_b = 0.01 + 0.01 * (u(rng) + 1.0);
    const double overlap = trial % 2 == 0 ? 0.0 : 1e-4 * (u(rng) + 1.0);
    const double angle = pi * u(rng);
    PairMotion m;
    m.a = {{u(rng), u(rng)}, {0.1 * u(rng), 0.1 * u(rng)}, 5.0 * u(rng), r_a};
    m.b = {m.a.r + (r_a + r_b - overlap) * unit(angle),
           {0.1 * u(rng), 0.1 * u(rng)},
           5.0 * u(rng),
           r_b};
    m.omega_a = 10.0 * u(rng);
    m.omega_b = 10.0 * u(rng);
    const Vec2 d = m.b.r - m.a.r;
    const SkinHistory h0 = skin_anchor_pair(m.a.theta, m.b.theta, (1.0 / norm(d)) * d, 0.0);
    auto xi_at = [&](double s) {
      const Vec2 ds = m.b_at(s).r - m.a_at(s).r;
      return skin_xi_disk_disk(h0, r_a, r_b, m.a_at(s).theta, m.b_at(s).theta,
                               skin_turn(h0, (1.0 / norm(ds)) * ds));
    };
    const double rate = (xi_at(h) - xi_at(-h)) / (2.0 * h);
    const Vec2 t = perp(unit(angle));
    const double u_t = dot(m.a.v - m.b.v, t) + r_a * m.omega_a + r_b * m.omega_b;
    const double expected =
        (r_a + r_b) / norm(d) * dot(m.a.v - m.b.v, t) + r_a * m.omega_a + r_b * m.omega_b;
    const double scale = std::fabs(r_a * m.omega_a) + std::fabs(r_b * m.omega_b) + 0.3;
    EXPECT_NEAR(rate, expected, 1e-8 * scale);
    if (overlap == 0.0) {
      EXPECT_NEAR(rate, u_t, 1e-8 * scale);
    }
  }
}

// Disk–wall: λ = R_a θ_a + (r_a − r_ref(t))·t̂ with the reference point moving with the wall,
// so dλ/dt = (v_a − v_w)·t̂ + R_a ω_a exactly, for any wall orientation.
TEST(SkinRate, RateOfLambdaOnMovingWall) {
  std::mt19937_64 rng(777);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double h = 1e-5;
  for (int trial = 0; trial < 200; ++trial) {
    const double r = 0.01 + 0.01 * (u(rng) + 1.0);
    const Vec2 normal = unit(pi * u(rng));
    const Vec2 p0 = {u(rng), u(rng)};
    const Vec2 v_w = {0.1 * u(rng), 0.1 * u(rng)};
    const Vec2 r0 = p0 + (r - 1e-4) * normal;
    const Vec2 v_a = {0.1 * u(rng), 0.1 * u(rng)};
    const double theta0 = 5.0 * u(rng);
    const double omega = 10.0 * u(rng);
    const Vec2 t = perp(-normal);
    const SkinHistory h0 = skin_anchor_wall(theta0, dot(r0 - p0, t), 0.0);
    auto xi_at = [&](double s) {
      const Vec2 ra = r0 + s * v_a;
      const Vec2 p = p0 + s * v_w;
      return skin_xi_disk_wall(h0, r, theta0 + s * omega, dot(ra - p, t));
    };
    const double rate = (xi_at(h) - xi_at(-h)) / (2.0 * h);
    const double u_t = dot(v_a - v_w, t) + r * omega;
    EXPECT_NEAR(rate, u_t, 1e-8 * (std::fabs(r * omega) + 0.3));
  }
}

// In the engine the force on b is exactly −(force on a) and the torques have the same sign,
// −R_a k_t ξ and −R_b k_t ξ (spec §2.2).
TEST(SkinEngine, ActionReactionAndSameSignTorques) {
  EnsembleModel m;
  PackingParams pp{};
  pp.box_width = 1.0;
  pp.gravity = 0.0;
  pp.disk_disk = {1e4, 7.7e3, 0.5, 0.5};
  pp.disk_wall = pp.disk_disk;
  const double r_a = 0.02;
  const double r_b = 0.013;
  m.add_packing(pp, {r_a, r_b}, 3.57);
  m.dt = 1e-6;
  m.neighbor.skin = 0.005;
  const Vec2 ra = {0.5, 0.5};
  const Vec2 rb = ra + (r_a + r_b - 1e-4) * unit(0.6);
  EnsembleState s = make_state(m, {ra.x, rb.x}, {ra.y, rb.y}, 0.0);
  s.vx = {0.05, -0.02};
  s.vy = {0.01, 0.03};
  auto backend = make_cpu_backend(1);
  backend->initialize(m, s);  // opens the contact: ξ = 0
  for (double turn : {1e-4, -3e-4}) {
    s.theta[0] += turn;  // stretches the skin, below the Coulomb cap
    s.theta[1] += 0.5 * turn;
    backend->initialize(m, s);
    EXPECT_EQ(s.fx[1], -s.fx[0]);
    EXPECT_EQ(s.fy[1], -s.fy[0]);
    ASSERT_NE(s.torque[0], 0.0);
    EXPECT_GT(s.torque[0] * s.torque[1], 0.0);
    EXPECT_NEAR(s.torque[0] / r_a, s.torque[1] / r_b, 1e-14 * std::fabs(s.torque[0] / r_a));
    // the tangential force on a is −k_t ξ t̂ with torque −R_a k_t ξ, ξ = R_a Δθ_a + R_b Δθ_b
    const Vec2 e = unit(0.6);
    const double tau = -dot(Vec2{s.fx[0], s.fy[0]}, perp(e));
    EXPECT_NEAR(s.torque[0], -r_a * tau, 1e-12 * std::fabs(r_a * tau));
  }
}

// Energies: V = ½ k_n δ² + ½ k_t ξ² (γ_n = 0, no slip). Central differences of V against the
// contact's forces and torques.
TEST(SkinEnergy, WallForcesAreMinusGradientOfEnergy) {
  const ContactParams p = sticky;
  const WallKinematics w = {unit(0.3), {0.1, -0.2}, {0.0, 0.0}};
  const Vec2 t = perp(-w.normal);
  const double r = 0.02;
  const DiskKinematics a0 = {w.point + (r - 2e-4) * w.normal + 0.05 * t, {0.0, 0.0}, 0.4, r};
  SkinHistory h0{};
  disk_wall_contact(p, a0, w, true, h0);
  // stretch the skin: roll the disk a little and move it along the wall
  const DiskKinematics a1 = {a0.r + 3e-5 * t, {0.0, 0.0}, a0.theta + 1e-3, r};
  auto energy = [&](const DiskKinematics& a) {
    SkinHistory h = h0;
    const ContactResult c = disk_wall_contact(p, a, w, false, h);
    return 0.5 * p.k_n * c.overlap * c.overlap + 0.5 * p.k_t * c.xi * c.xi;
  };
  SkinHistory h = h0;
  const ContactResult c = disk_wall_contact(p, a1, w, false, h);
  ASSERT_GT(std::fabs(c.xi), 1e-6);
  const double eps = 1e-8;
  auto shifted = [&](Vec2 dr, double dtheta) {
    return DiskKinematics{a1.r + dr, a1.v, a1.theta + dtheta, r};
  };
  const double fx =
      -(energy(shifted({eps, 0.0}, 0.0)) - energy(shifted({-eps, 0.0}, 0.0))) / (2 * eps);
  const double fy =
      -(energy(shifted({0.0, eps}, 0.0)) - energy(shifted({0.0, -eps}, 0.0))) / (2 * eps);
  const double tq =
      -(energy(shifted({0.0, 0.0}, eps)) - energy(shifted({0.0, 0.0}, -eps))) / (2 * eps);
  const double scale = norm(c.force_a);
  EXPECT_NEAR(fx, c.force_a.x, 1e-6 * scale);
  EXPECT_NEAR(fy, c.force_a.y, 1e-6 * scale);
  EXPECT_NEAR(tq, c.torque_a, 1e-6 * std::fabs(c.torque_a));
}

// Disk–disk: the normal force and both torques are exactly −∇V. The skin force −k_t ξ t̂ of
// eq. 4.6 is not: λ_ab depends on r_a through β, ∂β/∂r_a = −t̂/|r_ab|, so −∂V/∂r_a carries the
// factor (R_a + R_b)/|r_ab| = 1 + O(δ/R). Checked both ways.
TEST(SkinEnergy, PairForcesAreMinusGradientOfEnergy) {
  const ContactParams p = sticky;
  const double r_a = 0.02;
  const double r_b = 0.015;
  const double overlap = 3e-4;
  const double angle = 2.2;
  const DiskKinematics a0 = {{0.1, 0.2}, {0.0, 0.0}, 0.4, r_a};
  const DiskKinematics b0 = {a0.r + (r_a + r_b - overlap) * unit(angle), {0.0, 0.0}, -1.0, r_b};
  SkinHistory h0{};
  disk_disk_contact(p, a0, b0, true, h0);
  const DiskKinematics a1 = {a0.r, a0.v, a0.theta + 2e-3, r_a};
  const DiskKinematics b1 = {b0.r, b0.v, b0.theta - 5e-4, r_b};
  SkinHistory h = h0;
  const ContactResult c = disk_disk_contact(p, a1, b1, false, h);
  ASSERT_GT(std::fabs(c.xi), 1e-6);

  struct Energies {
    double normal, skin;
  };
  auto energy = [&](Vec2 dra, double dta, Vec2 drb, double dtb) {
    SkinHistory hh = h0;
    const DiskKinematics a = {a1.r + dra, a1.v, a1.theta + dta, r_a};
    const DiskKinematics b = {b1.r + drb, b1.v, b1.theta + dtb, r_b};
    const ContactResult cc = disk_disk_contact(p, a, b, false, hh);
    return Energies{0.5 * p.k_n * cc.overlap * cc.overlap, 0.5 * p.k_t * cc.xi * cc.xi};
  };
  const double eps = 1e-8;
  const Vec2 zero = {0.0, 0.0};
  const Vec2 e = unit(angle);
  const Vec2 t = perp(e);
  const double n = c.normal;
  const double tau = p.k_t * c.xi;
  const double dist = r_a + r_b - overlap;

  // gradient with respect to r_a along e and t̂
  for (Vec2 dir : {e, t}) {
    const Energies plus = energy(eps * dir, 0.0, zero, 0.0);
    const Energies minus = energy(-eps * dir, 0.0, zero, 0.0);
    const double f_normal = -(plus.normal - minus.normal) / (2 * eps);
    const double f_skin = -(plus.skin - minus.skin) / (2 * eps);
    EXPECT_NEAR(f_normal, dot(-n * e, dir), 1e-6 * n);
    const double engine_skin = dot(-tau * t, dir);
    EXPECT_NEAR(f_skin, (r_a + r_b) / dist * engine_skin, 1e-6 * std::fabs(tau));
    EXPECT_NEAR(f_skin, engine_skin, (overlap / dist) * std::fabs(tau) * 1.01);
  }
  // on b the normal force is the opposite of a's
  const Energies plus_b = energy(zero, 0.0, eps * e, 0.0);
  const Energies minus_b = energy(zero, 0.0, -eps * e, 0.0);
  EXPECT_NEAR(-(plus_b.normal - minus_b.normal) / (2 * eps), n, 1e-6 * n);
  // torques
  const Energies pa = energy(zero, eps, zero, 0.0);
  const Energies ma = energy(zero, -eps, zero, 0.0);
  const Energies pb = energy(zero, 0.0, zero, eps);
  const Energies mb = energy(zero, 0.0, zero, -eps);
  EXPECT_NEAR(-(pa.skin - ma.skin) / (2 * eps), c.torque_a, 1e-6 * std::fabs(c.torque_a));
  EXPECT_NEAR(-(pb.skin - mb.skin) / (2 * eps), c.torque_b, 1e-6 * std::fabs(c.torque_b));
}

}  // namespace
}  // namespace granular::md
