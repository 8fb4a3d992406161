// atan2(y, x), bitwise identical on every backend: written from +, −, ×, / and exact
// operations (fabs, copysign, comparisons) only, as portable_sincos.hpp's sin_cos is.
//
// Why: the skin's turn (contact_law.hpp, skin_turn) needs atan2 whenever a pair's normal has
// turned by 1e-3 rad or more since its anchor, i.e. at nearly every turn-triggered re-anchor.
// glibc's atan2 and CUDA's libdevice atan2 (a polynomial with fused multiply–adds) differ in the
// last bit for about a quarter of inputs, so CPU and GPU trajectories parted after a few
// thousand steps; glibc's atan2 also differs between glibc versions.
//
// Method: the angle θ ∈ [0, π] of (|y|, sign of x) is built as a double-double and rounded once.
//   1. t = min(|x|, |y|) / max(|x|, |y|) ∈ [0, 1] as a double-double: the quotient and its
//      exact remainder (Dekker's product; inputs scaled by a power of two away from overflow and
//      underflow, which leaves the ratio unchanged).
//   2. atan(t) = atan(c) + atan(u), u = (t − c)/(1 + t c), with c = k/16 the nearest sixteenth;
//      atan(k/16) is stored as hi + lo (mpmath at 300 bits: hi the double nearest atan(k/16), lo
//      the double nearest the rest), u as a double-double, |u| ≤ 1/32, and atan(u) its Taylor
//      series to u^13 (the first omitted term is below 2^-75 |u|).
//   3. θ = π/2 − atan(t) when |y| > |x|, then π − θ when x < 0, with π/2 and π as hi + lo.
//   4. The sign of y by copysign: atan2(−y, x) = −atan2(y, x) exactly, signed zeros and the
//      ±π branch cut included (atan2(±0, −1) = ±π, atan2(±0, +0) = ±0, atan2(±0, −0) = ±π).
// Accuracy against atan2l (tests/unit/portable_atan2_test.cpp): at most 0.5x ulp measured over
// millions of inputs in every quadrant and magnitude (see the test's printed maximum); infinite
// arguments give the exact multiples of π/4, NaN propagates.
#pragma once

#include <cmath>

#include "granular/exact_sum.hpp"
#include "granular/hd.hpp"

namespace granular {

namespace atan2_detail {

struct DoubleDouble {
  double hi;
  double lo;
};

// hi + lo, renormalized (|lo| ≤ ulp(hi)/2).
GRANULAR_HD inline DoubleDouble normalized(double hi, double lo) {
  const exact::TwoSum s = exact::quick_two_sum(hi, lo);
  return {s.sum, s.err};
}

// a − b for double-doubles (π/2 − θ, π − θ): the leading parts by an error-free sum.
GRANULAR_HD inline DoubleDouble difference(DoubleDouble a, DoubleDouble b) {
  const exact::TwoSum d = exact::two_sum(a.hi, -b.hi);
  return normalized(d.sum, d.err + (a.lo - b.lo));
}

// n/d ∈ [0, 1] for 0 ≤ n ≤ d, both well inside the normal range, as a double-double.
GRANULAR_HD inline DoubleDouble quotient(double n, double d) {
  const double q = n / d;
  const exact::TwoProduct qd = exact::two_product(q, d);
  // n − q d exactly (Sterbenz: q d is within a factor 2 of n), divided by d
  return {q, ((n - qd.product) - qd.err) / d};
}

// atan(t) for t = t.hi + t.lo ∈ [0, 1] as a double-double.
GRANULAR_HD inline DoubleDouble atan_unit(DoubleDouble t) {
  // atan(k/16), k = 1 … 16: the nearest double and the nearest double to the remainder
  constexpr double table[16][2] = {
      {0x1.ff55bb72cfdeap-5, -0x1.c934d86d23f1dp-60},
      {0x1.fd5ba9aac2f6ep-4, -0x1.cd37686760c17p-59},
      {0x1.7b97b4bce5b02p-3, 0x1.347b0b4f881cap-58},
      {0x1.f5b75f92c80ddp-3, 0x1.8ab6e3cf7afbdp-57},
      {0x1.362773707ebccp-2, -0x1.963a544b672d8p-57},
      {0x1.6f61941e4def1p-2, -0x1.c63aae6f6e918p-56},
      {0x1.a64eec3cc23fdp-2, -0x1.24dec1b50b7ffp-56},
      {0x1.dac670561bb4fp-2, 0x1.a2b7f222f65e2p-56},
      {0x1.0657e94db30d0p-1, -0x1.d5b495f6349e6p-56},
      {0x1.1e00babdefeb4p-1, -0x1.928df287a668fp-58},
      {0x1.345f01cce37bbp-1, 0x1.1021137c71102p-55},
      {0x1.4978fa3269ee1p-1, 0x1.2419a87f2a458p-56},
      {0x1.5d58987169b18p-1, 0x1.0028e4bc5e7cap-57},
      {0x1.700a7c5784634p-1, -0x1.8c34d25aadef6p-56},
      {0x1.819d0b7158a4dp-1, -0x1.bf76229d3b917p-56},
      {0x1.921fb54442d18p-1, 0x1.1a62633145c07p-55},
  };
  const int k = static_cast<int>(t.hi * 16.0 + 0.5);  // nearest sixteenth, 0 … 16
  DoubleDouble base = {0.0, 0.0};
  DoubleDouble u = t;
  if (k > 0) {
    const double c = 0.0625 * k;
    base = {table[k - 1][0], table[k - 1][1]};
    // u = (t − c) / (1 + t c): t.hi − c is exact (Sterbenz), 1 + t c is kept to 2^-106
    const double num_hi = t.hi - c;
    const exact::TwoProduct tc = exact::two_product(t.hi, c);
    const exact::TwoSum den = exact::two_sum(1.0, tc.product);
    const double den_lo = den.err + (tc.err + t.lo * c);
    const double u_hi = num_hi / den.sum;
    const exact::TwoProduct back = exact::two_product(u_hi, den.sum);
    const double u_lo = (((num_hi - back.product) - back.err) + t.lo - u_hi * den_lo) / den.sum;
    u = {u_hi, u_lo};
  }
  // atan(u) = u + u³ p(u²), |u| ≤ 1/32: Taylor to u^13
  const double z = u.hi * u.hi;
  const double p =
      -1.0 / 3.0 +
      z * (1.0 / 5.0 + z * (-1.0 / 7.0 + z * (1.0 / 9.0 + z * (-1.0 / 11.0 + z * (1.0 / 13.0)))));
  const exact::TwoSum s = exact::two_sum(base.hi, u.hi);
  return normalized(s.sum, s.err + (base.lo + (u.lo + (u.hi * z) * p)));
}

}  // namespace atan2_detail

// atan2(y, x) [rad] in [−π, π]; the same bits on host and device. See the header comment.
GRANULAR_HD inline double portable_atan2(double y, double x) {
  using atan2_detail::DoubleDouble;
  constexpr DoubleDouble half_pi = {0x1.921fb54442d18p+0, 0x1.1a62633145c07p-54};
  constexpr DoubleDouble pi_dd = {0x1.921fb54442d18p+1, 0x1.1a62633145c07p-53};
  constexpr double quarter_pi = 0x1.921fb54442d18p-1;
  constexpr double three_quarter_pi = 0x1.2d97c7f3321d2p+1;
  constexpr double largest = 1.7976931348623157e308;
  if (y != y || x != x) return x + y;  // NaN

  const double a = fabs(y);
  const double b = fabs(x);
  const bool x_negative = copysign(1.0, x) < 0.0;  // −0 counts as negative (branch cut)
  double theta;
  if (a == 0.0) {
    theta = x_negative ? pi_dd.hi : 0.0;
  } else if (b == 0.0) {
    theta = half_pi.hi;
  } else if (a > largest || b > largest) {
    if (a > largest && b > largest) {
      theta = x_negative ? three_quarter_pi : quarter_pi;
    } else if (a > largest) {
      theta = half_pi.hi;
    } else {
      theta = x_negative ? pi_dd.hi : 0.0;
    }
  } else {
    // a power of two away from the ends of the range: the ratio stays, the products are exact
    double n = a < b ? a : b;
    double d = a < b ? b : a;
    if (d > 0x1p+900) {
      n *= 0x1p-400;
      d *= 0x1p-400;
    } else if (d < 0x1p-900) {
      n *= 0x1p+400;
      d *= 0x1p+400;
    }
    DoubleDouble angle = atan2_detail::atan_unit(atan2_detail::quotient(n, d));
    if (a > b) angle = atan2_detail::difference(half_pi, angle);
    if (x_negative) angle = atan2_detail::difference(pi_dd, angle);
    theta = angle.hi + angle.lo;
  }
  return copysign(theta, y);
}

}  // namespace granular
