// Error-free transformations of IEEE 754 doubles (Knuth's two-sum, Dekker's two-product with
// Veltkamp's split), written from +, −, × alone so that they give the same bits on the host and
// on a CUDA device (FMA contraction is off in both builds). portable_sincos.hpp and
// portable_atan2.hpp carry their intermediate results as double-doubles with them.
#pragma once

#include "granular/hd.hpp"

namespace granular::exact {

// a + b = sum + err exactly, for any a, b (round to nearest).
struct TwoSum {
  double sum;
  double err;
};

GRANULAR_HD inline TwoSum two_sum(double a, double b) {
  const double sum = a + b;
  const double b_part = sum - a;
  const double a_part = sum - b_part;
  return {sum, (a - a_part) + (b - b_part)};
}

// The same when |a| ≥ |b| (or a = 0): three operations instead of six.
GRANULAR_HD inline TwoSum quick_two_sum(double a, double b) {
  const double sum = a + b;
  return {sum, b - (sum - a)};
}

// a × b = product + err exactly, for |a|, |b| below 2^996 and a product far from underflow.
struct TwoProduct {
  double product;
  double err;
};

// a = hi + lo with hi holding the upper 26 significant bits (Veltkamp).
struct Split {
  double hi;
  double lo;
};

GRANULAR_HD inline Split split(double a) {
  const double c = 134217729.0 * a;  // 2^27 + 1
  const double hi = c - (c - a);
  return {hi, a - hi};
}

GRANULAR_HD inline TwoProduct two_product(double a, double b) {
  const double p = a * b;
  const Split sa = split(a);
  const Split sb = split(b);
  const double err = ((sa.hi * sb.hi - p) + sa.hi * sb.lo + sa.lo * sb.hi) + sa.lo * sb.lo;
  return {p, err};
}

}  // namespace granular::exact
