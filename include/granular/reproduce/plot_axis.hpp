// The axes of the report's figures: a data range on a linear or log axis mapped to pixels, and
// its ticks at round values with compact labels (no tick at 0.008333: a referee reads values off
// the axis).
#pragma once

#include <string>
#include <vector>

namespace granular::reproduce {

struct Tick {
  double value = 0.0;  // in data units
  std::string label;
};

// At most `max_count` (>= 2) ticks at round values inside [lo, hi] (data units; lo > 0 on a log
// axis). Linear: steps of 1, 2 or 5 × 10^k, the finest that gives no more than max_count. Log:
// the decades (every 2nd, 3rd, 5th, ... when they are too many); with 1, 2 and 5 in each decade
// when fewer than three decades show; linear steps within a decade when those give more. The
// labels are tick_label's, in e-notation all along the axis when one of them is.
std::vector<Tick> axis_ticks(double lo, double hi, bool log, int max_count);

// A tick's label: `value`, a multiple of 10^step_exponent, with the decimals that step needs
// ("0.01", "250", "2.5"), and in e-notation far from 1 ("2e-5", "1.5e6"); never "-0".
std::string tick_label(double value, int step_exponent);

// An axis: [lo, hi] in its own coordinates (log10 of the data on a log axis) mapped onto the
// pixels [a, b].
struct Axis {
  double lo = 0.0, hi = 1.0;
  bool log = false;
  double a = 0.0, b = 1.0;

  // The range of `values` (the positive ones on a log axis; the non-finite ignored), widened by
  // 5 % at each end so that no point sits on the frame; [0, 1] (1 to 10 on a log axis) when no
  // value can be drawn.
  static Axis covering(const std::vector<double>& values, bool log);

  // Whether `x` can be drawn on this axis: finite, and positive on a log axis.
  bool shows(double x) const;
  // `x` in the axis' coordinates: log10 x on a log axis.
  double coordinate(double x) const;
  // The pixel of data value `x`, and of coordinate `u`.
  double at(double x) const { return at_coordinate(coordinate(x)); }
  // (halves, which are exact: a range of ±1e308 does not overflow)
  double at_coordinate(double u) const {
    return a + (b - a) * ((0.5 * u - 0.5 * lo) / (0.5 * hi - 0.5 * lo));
  }
  // The ends of the range in data units.
  double data_lo() const;
  double data_hi() const;
};

}  // namespace granular::reproduce
