#include "granular/reproduce/plot_axis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace granular::reproduce {

namespace {

// Rounding slack when deciding whether a round value lies inside the range: a range that ends
// on 0.3 computed as 0.30000000000000004 still shows its tick at 0.3.
constexpr double kSlack = 1e-9;

// m × 10^k, as exactly as a double holds it (dividing by an exact power of ten rounds once;
// multiplying by 0.01 would round twice).
double scaled(double m, int k) {
  if (k < -300) return m * std::pow(10.0, k);  // 10^-k would overflow: subnormal data
  return k >= 0 ? m * std::pow(10.0, k) : m / std::pow(10.0, -k);
}

// A round value and the power of ten of the step it was chosen at (its label's decimals).
struct Round {
  double value;
  int exponent;
};

std::vector<Round> linear_ticks(double lo, double hi, int max_count) {
  if (!std::isfinite(hi - lo)) return {};  // a range beyond the doubles has no round step
  if (!(hi > lo)) return {{lo, -6}};
  int k = static_cast<int>(std::floor(std::log10((hi - lo) / max_count))) - 1;
  for (;; ++k)
    for (const int m : {1, 2, 5}) {
      const double step = scaled(m, k);
      const double first = std::ceil(lo / step - kSlack), last = std::floor(hi / step + kSlack);
      if (last - first + 1 > max_count) continue;
      std::vector<Round> ticks;
      for (double i = first; i <= last; ++i) ticks.push_back({scaled(i * m, k), k});
      return ticks;
    }
}

std::vector<Round> log_ticks(double lo, double hi, int max_count) {
  const double llo = std::log10(lo), lhi = std::log10(hi);
  const int first = static_cast<int>(std::ceil(llo - kSlack));
  const int last = static_cast<int>(std::floor(lhi + kSlack));
  const int decades = last - first + 1;
  if (decades >= 3) {
    // every `every`-th decade, the fewest skipped that keeps max_count
    for (int every = 1;; every = every < 3 ? every + 1 : every == 3 ? 5 : every * 2) {
      std::vector<Round> ticks;
      for (int d = first; d <= last; ++d)
        if (d % every == 0) ticks.push_back({scaled(1, d), d});
      if (static_cast<int>(ticks.size()) <= max_count) return ticks;
    }
  }
  // few decades: 1, 2 and 5 in each, when they fit
  std::vector<Round> dense, plain;
  for (int d = first - 1; d <= last; ++d)
    for (const int m : {1, 2, 5}) {
      const double value = scaled(m, d);
      const double u = std::log10(value);
      if (u < llo - kSlack || u > lhi + kSlack) continue;
      dense.push_back({value, d});
      if (m == 1) plain.push_back(dense.back());
    }
  const std::size_t n = dense.size();
  if (n >= 3 && n <= static_cast<std::size_t>(max_count)) return dense;
  // within a decade, round linear steps placed on the log scale, when they give more ticks
  // (10, 20, 30 rather than 10, 20)
  if (hi <= 10.0 * lo) {
    std::vector<Round> linear = linear_ticks(lo, hi, max_count);
    if (linear.size() > n) return linear;
  }
  if (n >= 2 && n <= static_cast<std::size_t>(max_count)) return dense;
  if (decades == 2) return plain;
  return linear_ticks(lo, hi, max_count);
}

// Whether `value` is written in e-notation: far from 1.
bool far_from_one(double value) {
  if (value == 0.0 || !std::isfinite(value)) return false;
  const int e = static_cast<int>(std::floor(std::log10(std::fabs(value)) + kSlack));
  return e >= 6 || e <= -4;
}

std::string label(double value, int step_exponent, bool scientific) {
  if (value == 0.0 || !std::isfinite(value)) return value == 0.0 ? "0" : "?";
  const int e = static_cast<int>(std::floor(std::log10(std::fabs(value)) + kSlack));
  char text[64];
  if (scientific) {
    // the mantissa carries as many decimals as the step has below the leading digit
    std::snprintf(text, sizeof text, "%.*fe%d", std::max(0, e - step_exponent),
                  value / scaled(1, e), e);
  } else {
    std::snprintf(text, sizeof text, "%.*f", std::max(0, -step_exponent), value);
  }
  std::string s = text;
  if (s.find_first_not_of("-0.e") == std::string::npos) return "0";  // no "-0"
  return s;
}

}  // namespace

std::vector<Tick> axis_ticks(double lo, double hi, bool log, int max_count) {
  max_count = std::max(max_count, 2);
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
  const std::vector<Round> rounds =
      log && lo > 0.0 && hi > lo ? log_ticks(lo, hi, max_count) : linear_ticks(lo, hi, max_count);
  // one notation along an axis: "1e-3, 1e-4", not "0.001, 1e-4"
  bool scientific = false;
  for (const Round& r : rounds) scientific = scientific || far_from_one(r.value);
  std::vector<Tick> ticks;
  for (const Round& r : rounds) ticks.push_back({r.value, label(r.value, r.exponent, scientific)});
  return ticks;
}

std::string tick_label(double value, int step_exponent) {
  return label(value, step_exponent, far_from_one(value));
}

Axis Axis::covering(const std::vector<double>& values, bool log) {
  Axis axis;
  axis.log = log;
  bool any = false;
  for (const double x : values) {
    if (!axis.shows(x)) continue;
    const double u = axis.coordinate(x);
    axis.lo = any ? std::min(axis.lo, u) : u;
    axis.hi = any ? std::max(axis.hi, u) : u;
    any = true;
  }
  if (!any) {
    axis.lo = 0.0;
    axis.hi = 1.0;
  } else if (axis.hi == axis.lo) {
    // one value: half a unit each side, or half a decade, or 10 % of a large value
    const double half = log ? 0.5 : std::max(0.5, 0.1 * std::fabs(axis.lo));
    axis.lo -= half;
    axis.hi += half;
  }
  const double pad = 0.05 * (axis.hi - axis.lo);
  if (std::isfinite(axis.lo - pad) && std::isfinite(axis.hi + pad)) {
    axis.lo -= pad;
    axis.hi += pad;
  }
  return axis;
}

bool Axis::shows(double x) const { return std::isfinite(x) && (!log || x > 0.0); }

double Axis::coordinate(double x) const { return log ? std::log10(x) : x; }

double Axis::data_lo() const { return log ? std::pow(10.0, lo) : lo; }

double Axis::data_hi() const { return log ? std::pow(10.0, hi) : hi; }

}  // namespace granular::reproduce
