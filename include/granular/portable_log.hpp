// The natural logarithm, bitwise identical on every backend: written from +, −, ×, / and exact
// bit operations only, as portable_sincos.hpp's sin_cos and portable_atan2.hpp's atan2 are.
//
// Why: normal deviates for random drives (random.hpp) need a logarithm (Box–Muller), and
// glibc's log and CUDA's libdevice log differ in the last bit for some arguments, which would
// part CPU and GPU runs driven by the same random numbers.
//
// Method (the classic one of Sun's fdlibm, e_log.c, 1993): x = 2^k · m with m ∈ [√½, √2) by
// the bits of x (subnormals scaled by 2^54 first), f = m − 1 exactly, s = f/(2 + f), and
// log(m) = log(1 + f) = f − f²/2 + s (f²/2 + R(s²)), R a minimax polynomial of degree 14 in s
// with |error| < 2^-58.45; k·ln 2 is added with ln 2 split into a head of 32 significant bits
// (k·head is exact) and a tail. Accuracy against logl (tests/unit/random_test.cpp): below one
// ulp; log(1) = 0 exactly.
//
// Domain: finite x > 0 (callers pass uniforms in (0, 1]); 0 gives −inf, negative or NaN give NaN.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "granular/hd.hpp"

namespace granular {

GRANULAR_HD inline double portable_log(double x) {
  if (!(x > 0.0)) return x == 0.0 ? -HUGE_VAL : (x - x) / (x - x);  // −inf; NaN
  if (x > 1.7976931348623157e308) return x;                         // +inf
  constexpr double two54 = 18014398509481984.0;                     // 2^54
  constexpr double ln2_hi = 6.93147180369123816490e-01;
  constexpr double ln2_lo = 1.90821492927058770002e-10;
  constexpr double lg1 = 6.666666666666735130e-01, lg2 = 3.999999999940941908e-01,
                   lg3 = 2.857142874366239149e-01, lg4 = 2.222219843214978396e-01,
                   lg5 = 1.818357216161805012e-01, lg6 = 1.531383769920937332e-01,
                   lg7 = 1.479819860511658591e-01;
  int k = 0;
  if (x < 2.2250738585072014e-308) {  // subnormal: scale into the normal range
    x *= two54;
    k = -54;
  }
  std::uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  k += static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;  // m ∈ [1, 2)
  double m;
  memcpy(&m, &bits, sizeof m);
  if (m > 1.4142135623730951) {  // m ∈ [√½, √2): halve (exact)
    m *= 0.5;
    ++k;
  }
  const double f = m - 1.0;  // exact (Sterbenz)
  const double s = f / (2.0 + f);
  const double z = s * s, w = z * z;
  const double t1 = w * (lg2 + w * (lg4 + w * lg6));
  const double t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)));
  const double r = t2 + t1;
  const double hfsq = 0.5 * f * f;
  const double dk = static_cast<double>(k);
  return dk * ln2_hi - ((hfsq - (s * (hfsq + r) + dk * ln2_lo)) - f);
}

}  // namespace granular
