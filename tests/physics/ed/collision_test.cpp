// The event-driven method's collision times and rules (docs/ed.md; Peraza-Mues 2018, §2.3):
// the cancellation-free roots (2.30) and (2.34) against the roots of the quadratic and the
// parabola found by Newton's method in quadruple precision from the same double inputs; the
// disk–disk rule conserving momentum and angular momentum about the contact point and giving
// exactly e_n and e_t on u_n and u_t; the disk–wall rule (2.11), (2.23), (2.24) likewise.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "granular/impulse/disk_collision.hpp"
#include "granular/md/ed/collision_time.hpp"

namespace granular::md::ed {
namespace {

using impulse::collide_pair;
using impulse::collide_wall;
using impulse::ContactVelocity;
using impulse::DiskVelocity;
using impulse::pair_contact_velocity;
using impulse::wall_contact_velocity;

using quad = __float128;

// Root of a + b t + c t² near t0 by Newton's method in quadruple precision (113-bit mantissa:
// the products of doubles are exact, so the coefficients carry no rounding of their own).
double newton_root(quad a, quad b, quad c, double t0) {
  quad t = t0;
  for (int k = 0; k < 60; ++k) {
    const quad f = a + t * (b + c * t);
    const quad df = b + 2 * c * t;
    t -= f / df;
  }
  return static_cast<double>(t);
}

// |r + v t|² − R² = (r² − R²) + 2 (r·v) t + v² t²
double pair_reference(Vec2 r, Vec2 v, double contact, double t0) {
  const quad rx = r.x, ry = r.y, vx = v.x, vy = v.y, R = contact;
  return newton_root(rx * rx + ry * ry - R * R, 2 * (rx * vx + ry * vy), vx * vx + vy * vy, t0);
}

TEST(EdCollisionTime, PairTimeIsTheQuadraticsSmallerRootToRoundOff) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), angle(0.0, 2.0 * M_PI);
  const double contact = 0.04;
  // kinds of case: general, near contact (gap down to 10⁻¹⁰ R), near grazing (impact parameter
  // b up to 1 − 10⁻⁶ of the contact distance)
  double worst[3] = {0.0, 0.0, 0.0};
  for (int k = 0; k < 30000; ++k) {
    const int kind = k % 3;
    const double phi = angle(rng);
    double distance = contact * (1.0 + 4.0 * std::fabs(unit(rng)));
    if (kind == 1) distance = contact * (1.0 + std::pow(10.0, -10.0 + 9.0 * std::fabs(unit(rng))));
    const Vec2 r{distance * std::cos(phi), distance * std::sin(phi)};
    // velocity towards the partner with impact parameter b (|r × v| / |v|)
    double b = contact * std::fabs(unit(rng));
    if (kind == 2) b = contact * (1.0 - std::pow(10.0, -6.0 + 4.0 * std::fabs(unit(rng))));
    const double speed = std::pow(10.0, 2.0 * unit(rng));
    const double along = std::sqrt(distance * distance - b * b) / distance;
    const double side = b / distance;
    const Vec2 v =
        -(speed * along) * ((1.0 / distance) * r) + (speed * side) * perp((1.0 / distance) * r);
    const double t = pair_collision_time(r, v, contact);
    ASSERT_TRUE(std::isfinite(t)) << k;
    const double ref = pair_reference(r, v, contact, t);
    worst[kind] = std::max(worst[kind], std::fabs(t - ref) / ref);
  }
  // (2.30) rounds each operation once, and its r² − R² is compensated (gap_of_squares): a few
  // ulps near contact. The square root's argument (r·v)² − v²(r² − R²) cancels near grazing to
  // v²(R² − b²); its rounding then costs ε |r·v| / √(v²(R² − b²)) of the root: ≤ ~3·10³ ε for
  // b ≤ (1 − 10⁻⁶) R at distances up to 5 R, and the general cases include b up to R
  EXPECT_LT(worst[0], 1e-13);
  EXPECT_LT(worst[1], 1e-14);
  EXPECT_LT(worst[2], 1e-12);
}

TEST(EdCollisionTime, PairTimeIsInfiniteWhenNotApproachingOrMissing) {
  const double contact = 0.04;
  EXPECT_TRUE(std::isinf(pair_collision_time({0.1, 0.0}, {1.0, 0.0}, contact)));  // receding
  EXPECT_TRUE(std::isinf(pair_collision_time({0.1, 0.0}, {0.0, 1.0}, contact)));  // r·v = 0
  // approaching but passing at an impact parameter beyond the contact distance
  EXPECT_TRUE(std::isinf(pair_collision_time({0.1, 0.05}, {-1.0, 0.0}, contact)));
  // touching (by round-off: overlapping) and approaching: collide now
  EXPECT_EQ(pair_collision_time({contact * (1.0 - 1e-15), 0.0}, {-1.0, 0.0}, contact), 0.0);
}

TEST(EdCollisionTime, WallTimeIsTheParabolasRootToRoundOff) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  double worst = 0.0;
  for (int k = 0; k < 30000; ++k) {
    const double gap = 0.1 * std::pow(10.0, -12.0 * std::fabs(unit(rng)));
    const double v_n = std::pow(10.0, 2.0 * unit(rng)) * (unit(rng) < 0.0 ? -1.0 : 1.0);
    const double g_n = k % 4 == 0 ? 0.0 : 9.8;
    const double t = wall_collision_time(gap, v_n, g_n);
    if (g_n == 0.0 && v_n >= 0.0) {
      EXPECT_TRUE(std::isinf(t));
      continue;
    }
    // gap + v_n t − (g_n/2) t² = 0; the root is the smaller positive one while approaching,
    // the one after the apex while receding (Newton from the result converges to it)
    const double ref = newton_root(gap, v_n, -0.5 * static_cast<quad>(g_n), t);
    ASSERT_GT(ref, 0.0);
    worst = std::max(worst, std::fabs(t - ref) / ref);
    if (v_n < 0.0 && g_n > 0.0) {
      // the other root is negative: the disk is on its way down
      const quad disc = static_cast<quad>(v_n) * v_n + 2 * static_cast<quad>(g_n) * gap;
      EXPECT_LT(static_cast<double>(v_n - std::sqrt(static_cast<double>(disc))) / g_n, 0.0);
    }
  }
  EXPECT_LT(worst, 1e-14);  // a few roundings
  // on the wall and receding: the flight to the apex and back, 2 v_n / g, not the contact now
  EXPECT_DOUBLE_EQ(wall_collision_time(0.0, 1.0, 9.8), 2.0 / 9.8);
  EXPECT_EQ(wall_collision_time(-1e-18, -1.0, 9.8), 0.0);  // overlapping by round-off
}

TEST(EdCollisionRules, DiskDiskConservesMomentumAndGivesExactRestitution) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), restitution(0.0, 1.0);
  for (int k = 0; k < 1000; ++k) {
    const double r_a = 0.015 + 0.01 * restitution(rng), r_b = 0.015 + 0.01 * restitution(rng);
    const double m_a = 3.57 * M_PI * r_a * r_a, m_b = 3.57 * M_PI * r_b * r_b;
    const double phi = M_PI * unit(rng);
    const Vec2 e{std::cos(phi), std::sin(phi)};
    DiskVelocity a{{unit(rng), unit(rng)}, 50.0 * unit(rng)};
    DiskVelocity b{{unit(rng), unit(rng)}, 50.0 * unit(rng)};
    const double e_n = restitution(rng), e_t = 2.0 * restitution(rng) - 1.0;
    const ContactVelocity u = pair_contact_velocity(a, b, r_a, r_b, e);
    const Vec2 p = m_a * a.v + m_b * b.v;
    // angular momentum of each disk about the contact point: I ω − R m (v·t̂) (eqs. 2.13–2.14)
    const Vec2 t = perp(e);
    const auto l_a = [&](const DiskVelocity& d) {
      return 0.5 * m_a * r_a * r_a * d.omega - r_a * m_a * dot(d.v, t);
    };
    const auto l_b = [&](const DiskVelocity& d) {
      return 0.5 * m_b * r_b * r_b * d.omega + r_b * m_b * dot(d.v, t);
    };
    const double la = l_a(a), lb = l_b(b);
    collide_pair(a, b, m_a, m_b, r_a, r_b, e, e_n, e_t);
    const ContactVelocity w = pair_contact_velocity(a, b, r_a, r_b, e);
    // a few roundings of quantities of order 1 (velocities ~1 m/s, Rω ~ 1 m/s)
    EXPECT_NEAR(w.u_n, -e_n * u.u_n, 1e-14);
    EXPECT_NEAR(w.u_t, e_t * u.u_t, 1e-14);
    const Vec2 q = m_a * a.v + m_b * b.v;
    EXPECT_NEAR(q.x, p.x, 1e-16);  // momenta ~1e-2 kg m/s
    EXPECT_NEAR(q.y, p.y, 1e-16);
    EXPECT_NEAR(l_a(a), la, 1e-17);  // ~1e-4 kg m²/s
    EXPECT_NEAR(l_b(b), lb, 1e-17);
  }
}

TEST(EdCollisionRules, DiskWallGivesExactRestitutionOnAMovingWall) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), restitution(0.0, 1.0);
  const Vec2 normals[] = {{1.0, 0.0}, {-1.0, 0.0}, {0.0, 1.0}};
  for (int k = 0; k < 1000; ++k) {
    const Vec2 n = normals[k % 3];
    const double r = 0.02;
    DiskVelocity d{{unit(rng), unit(rng)}, 50.0 * unit(rng)};
    const double v_b = k % 3 == 2 ? 0.1 * unit(rng) : 0.0;
    const double e_n = restitution(rng), e_t = 2.0 * restitution(rng) - 1.0;
    const ContactVelocity u = wall_contact_velocity(d, r, n, v_b);
    const double l = 0.5 * r * r * d.omega - r * dot(d.v, perp(-n));  // per unit mass
    collide_wall(d, r, n, v_b, e_n, e_t);
    const ContactVelocity w = wall_contact_velocity(d, r, n, v_b);
    EXPECT_NEAR(w.u_n, -e_n * u.u_n, 1e-15);  // (2.7)
    EXPECT_NEAR(w.u_t, e_t * u.u_t, 1e-15);   // (2.8)
    EXPECT_NEAR(0.5 * r * r * d.omega - r * dot(d.v, perp(-n)), l, 1e-17);
  }
}

}  // namespace
}  // namespace granular::md::ed
