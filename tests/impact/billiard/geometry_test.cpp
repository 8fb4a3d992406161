// Tests for the closest-point geometry of src/impact/billiard/geometry.cpp (docs/billiard.md §3,
// A7): the stationary points of L² against brute-force minimisation, inside the evolute too.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "granular/impact/billiard/run.hpp"

namespace granular::billiard {
namespace {

// min over a dense grid of s, refined by golden-section search around the best grid point
double brute_force_distance2(const BilliardBoundary& b, double xi, double eta) {
  const auto l2 = [&](double s) {
    const double dx = xi - s, dy = eta - floor_height(b, s);
    return dx * dx + dy * dy;
  };
  const double span = 0.2, n = 40000;
  double best_s = 0.0, best = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= n; ++i) {
    const double s = -span + 2.0 * span * i / n;
    if (l2(s) < best) {
      best = l2(s);
      best_s = s;
    }
  }
  double lo = best_s - 2.0 * span / n, hi = best_s + 2.0 * span / n;
  for (int it = 0; it < 100; ++it) {
    const double m1 = lo + 0.382 * (hi - lo), m2 = hi - 0.382 * (hi - lo);
    (l2(m1) < l2(m2) ? hi : lo) = l2(m1) < l2(m2) ? m2 : m1;
  }
  return std::min(best, l2(0.5 * (lo + hi)));
}

TEST(BilliardGeometry, ClosestPointMatchesBruteForce) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> x(-0.06, 0.06), h(0.0, 0.1);
  for (BoundaryShape shape : {BoundaryShape::parabola, BoundaryShape::hyperbola,
                              BoundaryShape::wedge, BoundaryShape::flat}) {
    BilliardBoundary b;
    b.shape = shape;
    for (int i = 0; i < 300; ++i) {
      // half of the points near the axis, above the vertex centre of curvature (three roots)
      const double xi = i % 2 ? x(rng) : 0.05 * x(rng);
      const double eta = floor_height(b, xi) + h(rng);
      const Surface s = shape == BoundaryShape::wedge
                            ? (xi >= 0.0 ? Surface::wedge_right : Surface::wedge_left)
                            : Surface::floor;
      double got = surface_contact(b, s, xi, eta, 0.0).dist2;
      if (shape == BoundaryShape::wedge) {
        const Surface other =
            s == Surface::wedge_right ? Surface::wedge_left : Surface::wedge_right;
        got = std::min(got, surface_contact(b, other, xi, eta, 0.0).dist2);
      }
      const double want = brute_force_distance2(b, xi, eta);
      ASSERT_NEAR(std::sqrt(got), std::sqrt(want), 1e-9)
          << static_cast<int>(shape) << " " << xi << " " << eta;
    }
  }
}

// Inside the parabola's evolute (on the axis, above the centre of curvature c + 1/(2a)) the
// cubic has three real roots and the minimum is one of the symmetric pair, not the vertex.
TEST(BilliardGeometry, ThreeRootsInsideTheEvolute) {
  BilliardBoundary b;
  b.shape = BoundaryShape::parabola;
  const double eta = b.c + 1.0 / (2.0 * b.a) + 0.01;
  EXPECT_EQ(floor_stationary_points(b, 1e-6, eta).size(), 3u);
  const SurfaceContact c = surface_contact(b, Surface::floor, 1e-6, eta, 0.0);
  EXPECT_GT(std::fabs(c.foot), 0.005);
  EXPECT_LT(c.dist2, (eta - b.c) * (eta - b.c));
  // below the centre of curvature a single root, the vertex
  EXPECT_EQ(floor_stationary_points(b, 0.0, b.c + 0.5 / (2.0 * b.a)).size(), 1u);
}

// The contact angle is the tangent's: tan z = f'(s*); the gap is signed.
TEST(BilliardGeometry, ContactAngleAndSignedGap) {
  BilliardBoundary b;
  b.shape = BoundaryShape::hyperbola;
  const SurfaceContact c = surface_contact(b, Surface::floor, 0.03, 0.05, 1e-3);
  EXPECT_NEAR(std::tan(c.z), floor_slope(b, c.foot), 1e-12);
  const SurfaceContact below =
      surface_contact(b, Surface::floor, 0.03, floor_height(b, 0.03) - 1e-4, 1e-3);
  EXPECT_LT(below.gap, -1e-3);
  b.has_ceiling = true;
  b.ceiling = 0.1;
  EXPECT_NEAR(surface_contact(b, Surface::ceiling, 0.0, 0.09, 1e-3).gap, 0.009, 1e-15);
}

}  // namespace
}  // namespace granular::billiard
