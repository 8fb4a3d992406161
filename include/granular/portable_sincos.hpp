// sin and cos bitwise identical on every backend: of the drive phase ω t (the vibrated walls and
// bodies) and of the Box–Muller angle of the random draws (random.hpp).
//
// Why: the bottom wall moves as y_b = A sin(ω t), v_b = A ω cos(ω t) (md/contact.hpp). glibc's
// sin/cos and CUDA's libdevice differ in the last bit for some arguments, which would make the
// CUDA backend drift from the CPU reference. sin_cos() uses only +, −, ×, / and floor/fabs/
// copysign, each rounded exactly as IEEE 754 prescribes on the host and on the device, so with
// FMA contraction off (-ffp-contract=off, --fmad=false; see CMakeLists.txt) both give the same
// bits.
//
// Method: Cody–Waite reduction φ = n π/2 + r with π/2 = p1 + p2 + p3 + p4, where p1..p3 carry
// 30 significant bits each (so n p1, n p2, n p3 are exact for n < 2^23) and p4 the next 53;
// the reduced argument r is kept as a double-double (hi + lo) through error-free sums (π/2 to
// 2^-147 relative). The closest double to a multiple of π/2 below 1.3e7 lies 2^-60.5 away
// (φ ≈ 45.55), so r keeps full relative precision there too. Then Taylor polynomials on
// |r| ≤ π/4 (sin to r^17, cos to r^18, truncation < 2e-19 relative) in Horner form, the
// quadrant n mod 4, and sin(−φ) = −sin(φ), cos(−φ) = cos(φ) exactly.
//
// Accuracy against sinl/cosl (tests/unit/portable_sincos_test.cpp): at most 0.78 ulp (sin) and
// 0.79 ulp (cos) measured for |φ| ≤ 1.3e7 rad (n < 2^23: 7 h of drive at 80 Hz), so within one
// ulp of glibc's sin/cos; sin_cos(0) = {0, 1} exactly. Beyond 1.3e7 rad n p1 rounds and r carries
// an absolute error of about ulp(φ), as large as the rounding of ω t itself; host and device
// still agree bitwise.
#pragma once

#include <cmath>

#include "granular/exact_sum.hpp"
#include "granular/hd.hpp"

namespace granular {

struct SinCos {
  double sin;
  double cos;
};

// sin(phase) and cos(phase), the same bits on host and device; see the header comment.
GRANULAR_HD inline SinCos sin_cos(double phase) {
  using exact::two_sum;
  // π/2 = p1 + p2 + p3 + p4 (p1..p3: 30 significant bits, p4: 53)
  const double pio2_1 = 0x1.921fb548p+0;
  const double pio2_2 = -0x1.de973dc8p-31;
  const double pio2_3 = -0x1.9d9cceb8p-62;
  const double pio2_4 = -0x1.1fc8f8cbb5bf7p-93;
  const double two_over_pi = 0x1.45f306dc9c883p-1;

  // reduce |φ| (odd/even symmetry then holds bitwise): n = nearest integer to |φ|/(π/2)
  const double a = fabs(phase);
  const double n = floor(a * two_over_pi + 0.5);
  const double r = a - n * pio2_1;  // exact: n p1 is exact and within a factor 2 of a
  const auto [h1, e1] = two_sum(r, -(n * pio2_2));
  const auto [h2, e2] = two_sum(h1, -(n * pio2_3));
  const auto [hi, lo] = two_sum(h2, (e1 + e2) - n * pio2_4);

  // sin and cos of hi + lo on |hi| ≤ π/4 (Taylor; lo enters to first order)
  const double z = hi * hi;
  const double sin_poly =
      -1.0 / 6.0 +
      z * (1.0 / 120.0 +
           z * (-1.0 / 5040.0 +
                z * (1.0 / 362880.0 +
                     z * (-1.0 / 39916800.0 +
                          z * (1.0 / 6227020800.0 +
                               z * (-1.0 / 1307674368000.0 + z * (1.0 / 355687428096000.0)))))));
  const double cos_poly =
      1.0 / 24.0 +
      z * (-1.0 / 720.0 +
           z * (1.0 / 40320.0 +
                z * (-1.0 / 3628800.0 +
                     z * (1.0 / 479001600.0 +
                          z * (-1.0 / 87178291200.0 +
                               z * (1.0 / 20922789888000.0 + z * (-1.0 / 6402373705728000.0)))))));
  const double half_z = 0.5 * z;
  const double s = hi + ((hi * z) * sin_poly + lo * (1.0 - half_z));
  // 1 − z/2 rounds to w; (1 − w) − z/2 is that rounding error, exactly
  const double w = 1.0 - half_z;
  const double c = w + (((1.0 - w) - half_z) + ((z * z) * cos_poly - hi * lo));

  // quadrant n mod 4 (exact in doubles; selects, no conversion of n to an integer type)
  const double quadrant = n - 4.0 * floor(0.25 * n);
  const bool swap = quadrant == 1.0 || quadrant == 3.0;
  const double sin_abs = (quadrant >= 2.0 ? -1.0 : 1.0) * (swap ? c : s);
  const double cos_abs = (quadrant == 1.0 || quadrant == 2.0 ? -1.0 : 1.0) * (swap ? s : c);
  return {copysign(1.0, phase) * sin_abs, cos_abs};
}

}  // namespace granular
