// Tests for include/granular/portable_atan2.hpp: within one ulp of atan2l (long double, 64-bit
// significand) in every quadrant and over the whole range of magnitudes, densely where the
// skin's turn uses it (cosine ≈ 1, sine from 1e-3 up), with the exact symmetries, signed zeros,
// the branch cut, infinities and NaN.
#include "granular/portable_atan2.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <random>

namespace granular {
namespace {

// |value − reference| in ulps of the double nearest the reference.
double ulps(double value, long double reference) {
  const double nearest = static_cast<double>(reference);
  const double ulp = std::nextafter(std::fabs(nearest), INFINITY) - std::fabs(nearest);
  return static_cast<double>(std::fabs(static_cast<long double>(value) - reference) / ulp);
}

// The largest error over the pairs `next` gives.
template <class Next>
double max_ulps(int count, Next next, double* worst_y = nullptr, double* worst_x = nullptr) {
  double worst = 0.0;
  for (int k = 0; k < count; ++k) {
    const auto [y, x] = next();
    const double e = ulps(portable_atan2(y, x), atan2l(static_cast<long double>(y), x));
    if (e > worst) {
      worst = e;
      if (worst_y) *worst_y = y;
      if (worst_x) *worst_x = x;
    }
  }
  return worst;
}

struct Pair {
  double y, x;
};

TEST(PortableAtan2, WithinOneUlpEverywhere) {
  std::mt19937_64 random(20261124);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-60, 60);
  // every quadrant, ratios over 2^±120
  const double wide = max_ulps(2000000, [&] {
    return Pair{std::ldexp(unit(random), exponent(random)),
                std::ldexp(unit(random), exponent(random))};
  });
  // the whole range of magnitudes, subnormals excluded
  std::uniform_int_distribution<int> any_exponent(-1000, 1000);
  const double range = max_ulps(300000, [&] {
    return Pair{std::ldexp(unit(random), any_exponent(random)),
                std::ldexp(unit(random), any_exponent(random))};
  });
  // skin_turn: a unit normal turned by 1e-3 to 1 rad from its anchor, either way
  std::uniform_real_distribution<double> turn(-7.0, 0.0);
  const double skin = max_ulps(1000000, [&] {
    const double angle = std::copysign(std::pow(10.0, turn(random) / 2.3), unit(random));
    return Pair{std::sin(angle), std::cos(angle)};
  });
  // near the axes and the diagonals, and around the sixteenths of the reduction
  std::uniform_real_distribution<double> near(-1e-6, 1e-6);
  std::uniform_int_distribution<int> sixteenth(0, 16);
  const double special = max_ulps(500000, [&] {
    const double t = sixteenth(random) / 16.0 + near(random);
    const double sx = unit(random) < 0 ? -1.0 : 1.0;
    return unit(random) < 0 ? Pair{t, sx} : Pair{sx, t};
  });
  std::printf(
      "portable_atan2 max error: %.3f ulp (quadrants), %.3f (all magnitudes), %.3f (skin "
      "turns), %.3f (axes, diagonals, sixteenths)\n",
      wide, range, skin, special);
  EXPECT_LE(wide, 1.0);
  EXPECT_LE(range, 1.0);
  EXPECT_LE(skin, 1.0);
  EXPECT_LE(special, 1.0);
}

TEST(PortableAtan2, ExactSymmetries) {
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> unit(-3.0, 3.0);
  for (int k = 0; k < 100000; ++k) {
    const double y = unit(random);
    const double x = unit(random);
    const double a = portable_atan2(y, x);
    EXPECT_EQ(portable_atan2(-y, x), -a);
    // a mirror in x: π − θ, rounded from the same double-double, within one ulp of it
    EXPECT_LE(std::fabs(portable_atan2(y, -x) - std::copysign(M_PI, y) + a), 4.5e-16);
  }
  // tiny ratios: atan(t) = t to within rounding
  EXPECT_EQ(portable_atan2(1e-300, 1.0), 1e-300);
  EXPECT_EQ(portable_atan2(1.0, 1.0), M_PI / 4);
}

TEST(PortableAtan2, SignedZerosBranchCutInfinitiesAndNaN) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(portable_atan2(0.0, 1.0), 0.0);
  EXPECT_TRUE(std::signbit(portable_atan2(-0.0, 1.0)));
  EXPECT_EQ(portable_atan2(0.0, -1.0), M_PI);
  EXPECT_EQ(portable_atan2(-0.0, -1.0), -M_PI);
  EXPECT_EQ(portable_atan2(0.0, 0.0), 0.0);
  EXPECT_EQ(portable_atan2(0.0, -0.0), M_PI);
  EXPECT_EQ(portable_atan2(-0.0, -0.0), -M_PI);
  EXPECT_EQ(portable_atan2(1.0, 0.0), M_PI / 2);
  EXPECT_EQ(portable_atan2(-1.0, -0.0), -M_PI / 2);
  EXPECT_EQ(portable_atan2(inf, inf), M_PI / 4);
  EXPECT_EQ(portable_atan2(inf, -inf), 3 * M_PI / 4);
  EXPECT_EQ(portable_atan2(-inf, 5.0), -M_PI / 2);
  EXPECT_EQ(portable_atan2(5.0, inf), 0.0);
  EXPECT_EQ(portable_atan2(-5.0, -inf), -M_PI);
  EXPECT_TRUE(std::isnan(portable_atan2(NAN, 1.0)));
  EXPECT_TRUE(std::isnan(portable_atan2(1.0, NAN)));
  // subnormal and huge arguments
  EXPECT_LE(ulps(portable_atan2(4e-320, 3e-320), atan2l(4e-320L, 3e-320L)), 1.0);
  EXPECT_LE(ulps(portable_atan2(1.7e308, 1.1e308), atan2l(1.7e308L, 1.1e308L)), 1.0);
  EXPECT_LE(ulps(portable_atan2(1e-300, 1e300), atan2l(1e-300L, 1e300L)), 1.0);
}

}  // namespace
}  // namespace granular
