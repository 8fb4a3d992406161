// Tests for include/granular/portable_sincos.hpp: sin_cos() against the long-double sinl/cosl and
// against std::sin/std::cos, its symmetries and its exact values at 0.
//
// Errors are measured in ulps of the exact value everywhere, also next to the zeros of sin and
// cos: the reduction keeps r = φ − n π/2 to full relative precision (the closest double to a
// multiple of π/2 in range is 2^-60.5 away), so no absolute bound is needed there. The x87
// long double reference carries 11 more bits than a double, enough to resolve 0.01 ulp.
#include "granular/portable_sincos.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <random>
#include <vector>

#include "granular/constants.hpp"

namespace granular {
namespace {

// ulp of a double of the magnitude of `exact`.
double ulp_at(long double exact) {
  const double magnitude = std::fabs(static_cast<double>(exact));
  if (magnitude < DBL_MIN) return std::ldexp(1.0, -1074);
  return std::ldexp(1.0, std::ilogb(magnitude) - 52);
}

double ulp_error(double value, long double exact) {
  return static_cast<double>(std::fabs(static_cast<long double>(value) - exact)) / ulp_at(exact);
}

// Steps of one ulp between two doubles of the same sign (0 when equal).
double ulp_distance(double a, double b) { return std::fabs(a - b) / ulp_at(b); }

// Arguments: uniform over [−1e6, 1e6], log-uniform magnitudes from 1e-30 to 1e6 (dense near 0),
// multiples of π/2 up to 1e6 rad with their neighbours, tiny and special values, and the
// doubles closest to a multiple of π/2 (found by continued fractions of 2^e / (π/2)).
std::vector<double> test_phases() {
  std::vector<double> phases;
  std::mt19937_64 rng(20240611);
  std::uniform_real_distribution<double> uniform(-1e6, 1e6);
  for (int i = 0; i < 500000; ++i) phases.push_back(uniform(rng));
  std::uniform_real_distribution<double> decade(-30.0, 6.0);
  for (int i = 0; i < 200000; ++i) {
    const double magnitude = std::pow(10.0, decade(rng));
    phases.push_back(i % 2 ? magnitude : -magnitude);
  }
  for (int k = 1; k * (pi / 2.0) < 1e6; k += 7) {
    const double near_multiple = k * (pi / 2.0);
    phases.push_back(near_multiple);
    phases.push_back(std::nextafter(near_multiple, 0.0));
    phases.push_back(std::nextafter(near_multiple, 2e6));
  }
  for (double special :
       {DBL_TRUE_MIN, DBL_MIN, 1e-300, 1e-160, 0x1p-30, 0x1p-27, 1e-8, pi / 4.0, pi / 2.0, pi,
        2.0 * pi, 45.553093477052002, 46066.743875913933, 321307.9594422229, 642615.9188844458}) {
    phases.push_back(special);
    phases.push_back(-special);
  }
  return phases;
}

TEST(PortableSinCos, WithinOneUlpOfTheExactValue) {
  double worst_sin = 0.0, worst_cos = 0.0;
  double worst_sin_at = 0.0, worst_cos_at = 0.0;
  for (double phase : test_phases()) {
    const SinCos sc = sin_cos(phase);
    const double sin_error = ulp_error(sc.sin, sinl(static_cast<long double>(phase)));
    const double cos_error = ulp_error(sc.cos, cosl(static_cast<long double>(phase)));
    if (sin_error > worst_sin) {
      worst_sin = sin_error;
      worst_sin_at = phase;
    }
    if (cos_error > worst_cos) {
      worst_cos = cos_error;
      worst_cos_at = phase;
    }
  }
  // measured: 0.78 ulp (sin) and 0.79 ulp (cos)
  EXPECT_LT(worst_sin, 1.0) << "at phase " << worst_sin_at;
  EXPECT_LT(worst_cos, 1.0) << "at phase " << worst_cos_at;
}

// glibc rounds sin/cos almost always correctly; sin_cos differs from it by at most one ulp.
TEST(PortableSinCos, WithinTwoUlpOfStdSinCos) {
  double worst_sin = 0.0, worst_cos = 0.0;
  for (double phase : test_phases()) {
    const SinCos sc = sin_cos(phase);
    worst_sin = std::fmax(worst_sin, ulp_distance(sc.sin, std::sin(phase)));
    worst_cos = std::fmax(worst_cos, ulp_distance(sc.cos, std::cos(phase)));
  }
  EXPECT_LE(worst_sin, 2.0);
  EXPECT_LE(worst_cos, 2.0);
}

TEST(PortableSinCos, PythagoreanIdentity) {
  double worst = 0.0;
  for (double phase : test_phases()) {
    const SinCos sc = sin_cos(phase);
    const long double s = sc.sin, c = sc.cos;
    worst = std::fmax(worst, static_cast<double>(std::fabs(s * s + c * c - 1.0L)));
  }
  EXPECT_LE(worst, 2.0 * DBL_EPSILON);  // measured: 1.04 eps
}

TEST(PortableSinCos, OddSineEvenCosineBitwise) {
  for (double phase : test_phases()) {
    const SinCos plus = sin_cos(phase);
    const SinCos minus = sin_cos(-phase);
    ASSERT_EQ(std::signbit(minus.sin), !std::signbit(plus.sin)) << phase;
    ASSERT_EQ(minus.sin, -plus.sin) << phase;
    ASSERT_EQ(minus.cos, plus.cos) << phase;
  }
}

TEST(PortableSinCos, ExactAtZeroAndTinyPhases) {
  const SinCos zero = sin_cos(0.0);
  EXPECT_EQ(zero.sin, 0.0);
  EXPECT_FALSE(std::signbit(zero.sin));
  EXPECT_EQ(zero.cos, 1.0);
  const SinCos negative_zero = sin_cos(-0.0);
  EXPECT_EQ(negative_zero.cos, 1.0);
  EXPECT_TRUE(std::signbit(negative_zero.sin));
  // below 2^-27, sin φ = φ and cos φ = 1 after rounding
  for (double tiny : {DBL_TRUE_MIN, DBL_MIN, 1e-300, 1e-20, 0x1p-28}) {
    EXPECT_EQ(sin_cos(tiny).sin, tiny);
    EXPECT_EQ(sin_cos(tiny).cos, 1.0);
  }
}

}  // namespace
}  // namespace granular
