// Closed forms of the 3-disk system (include/granular/md/supported_disk/three_disk.hpp,
// docs/three_disk.md).
#include "granular/md/supported_disk/three_disk.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <vector>

namespace granular::three_disk {

namespace {

// The trigonometry of (4.19)–(4.22): s_i = sin α_i, c_i = cos α_i, s12 = sin 2θ0, c12 = cos 2θ0.
struct Geometry {
  double s1, c1, s2, c2, s12, c12;
};

Geometry geometry(const ThreeDiskParams& p) {
  const double alpha1 = p.theta0 - p.tilt, alpha2 = p.theta0 + p.tilt;
  return {std::sin(alpha1), std::cos(alpha1),         std::sin(alpha2),
          std::cos(alpha2), std::sin(2.0 * p.theta0), std::cos(2.0 * p.theta0)};
}

// w1, w2 of (4.27)–(4.28): s12 times the normal forces at τ01 = τ02 = 0.
struct Loads {
  double w1, w2;
};

Loads loads(const ThreeDiskParams& p, const Geometry& g) {
  const double weight = p.mass * (p.gravity + p.y_acc), push = p.mass * p.x_acc;
  return {push * g.c2 + weight * g.s2, -push * g.c1 + weight * g.s1};
}

void require_rotor_domain(const ThreeDiskParams& p, const HarmonicTorque& torque) {
  if (!(p.mass > 0.0 && p.radius > 0.0 && torque.amplitude > 0.0 && torque.frequency > 0.0))
    throw std::domain_error("three_disk: the rotor needs m, R, A_e and omega_e > 0");
  if (!(ccw_threshold(p) > 0.0 && cw_threshold(p) > 0.0))
    throw std::domain_error("three_disk: the rotor needs both slide thresholds > 0");
}

// Σ (−1)^k s^n/n! over n = first, first + 2, … below 20: the tail of a sine (first odd) or a
// cosine (first even) series. For |s| < 0.5 the first omitted term is < 1e-21 of the sum.
double series_tail(double s, int first) {
  double term = std::pow(s, first), sum = 0.0;
  for (int n = 2; n <= first; ++n) term /= n;
  for (int n = first; n < 20; n += 2) {
    sum += term;
    term *= -s * s / ((n + 1) * (n + 2));
  }
  return sum;
}

// s − sin s without cancellation at small s; above 0.5 the subtraction loses under 3 bits.
double s_minus_sin(double s) { return std::fabs(s) < 0.5 ? series_tail(s, 3) : s - std::sin(s); }

// s²/2 − (1 − cos s), likewise.
double half_square_minus_versine(double s) {
  if (std::fabs(s) < 0.5) return series_tail(s, 4);
  const double h = std::sin(0.5 * s);
  return 0.5 * s * s - 2.0 * h * h;
}

double versine(double s) {  // 1 − cos s
  const double h = std::sin(0.5 * s);
  return 2.0 * h * h;
}

// The rotor in the torque's phase u = ω_e t, with θ = (A_e / (I ω_e²)) ϑ and v = dϑ/du, so that
// a slide in direction d (+1 CCW, −1 CW) against the threshold a = A_Si/A_e obeys
// ϑ'' = sin u − d a. From (u0, v0), s = u − u0 after the start (the closed forms (5.7), (5.8)
// with any v0, rewritten so that nothing cancels when the slide starts at its threshold):
//   v(s) = v0 + E0 s − sin u0 (s − sin s) + cos u0 (1 − cos s),
//   ϑ(s) − ϑ(u0) = v0 s + E0 s²/2 − sin u0 (s²/2 − (1 − cos s)) + cos u0 (s − sin s),
// with E0 = sin u0 − d a the net forcing at the start, exactly 0 at a threshold crossing.
struct Slide {
  int direction;
  double threshold;  // a
  double u0, v0, sin_u0, cos_u0, forcing0;

  double velocity(double s) const {
    return v0 + forcing0 * s - sin_u0 * s_minus_sin(s) + cos_u0 * versine(s);
  }
  double turned(double s) const {
    return v0 * s + 0.5 * forcing0 * s * s - sin_u0 * half_square_minus_versine(s) +
           cos_u0 * s_minus_sin(s);
  }
};

// The phase in [0, π/2) where sin u = a, for 0 ≤ a < 1: atan2 of sin and cos, both exact
// (asin is ill-conditioned near 1, where slides are short).
double threshold_phase(double a) { return std::atan2(a, std::sqrt((1.0 - a) * (1.0 + a))); }

// A slide from rest where T_e crosses the threshold a (rising for d = +1, falling for d = −1).
Slide onset_slide(int direction, double a) {
  const double cos_phase = std::sqrt((1.0 - a) * (1.0 + a));
  const double u0 = direction > 0 ? threshold_phase(a) : pi + threshold_phase(a);
  return {direction, a, u0, 0.0, direction * a, direction * cos_phase, 0.0};
}

// A slide from the phase u0 with the velocity v0 (a start after a stop, or a new period).
Slide moving_slide(int direction, double a, double u0, double v0) {
  const double sin_u0 = std::sin(u0);
  return {direction, a, u0, v0, sin_u0, std::cos(u0), sin_u0 - direction * a};
}

// The first stop s ∈ (0, s_max] of a slide: where d·v, ≥ 0 at the start, first turns negative.
// v is monotonic between the phases where sin u = d a, so the interval is cut there and the
// first piece whose end has d·v < 0 holds exactly one root, found by bisection to the last bit.
std::optional<double> first_stop(const Slide& slide, double s_max) {
  std::array<double, 9> ends{};
  int count = 0;
  const double a = slide.threshold;
  if (a < 1.0) {
    const double x = slide.direction * threshold_phase(a);  // sin x = d a
    for (const double base : {x, pi - x}) {
      for (int k = -1; k <= 2; ++k) {
        const double s = base + 2.0 * pi * k - slide.u0;
        if (s > 0.0 && s < s_max) ends[count++] = s;
      }
    }
  }
  std::sort(ends.begin(), ends.begin() + count);
  ends[count++] = s_max;
  const auto moving_on = [&](double s) { return slide.direction * slide.velocity(s) >= 0.0; };
  double lo = 0.0;
  for (int i = 0; i < count; ++i) {
    double hi = ends[i];
    if (moving_on(hi)) {
      lo = hi;
      continue;
    }
    for (int iteration = 0; iteration < 200; ++iteration) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      (moving_on(mid) ? lo : hi) = mid;
    }
    return hi;
  }
  return std::nullopt;
}

}  // namespace

Point reduced_from_tau(const ThreeDiskParams& p, Point tau) {
  const double scale = 2.0 * p.k_t * p.radius;
  return {-(tau.x + tau.y) / scale, (tau.y - tau.x) / scale};
}

NormalForces normal_forces(const ThreeDiskParams& p, double tau01, double tau02) {
  const Geometry g = geometry(p);
  const Loads w = loads(p, g);
  return {(w.w1 - tau01 * g.c12 - tau02) / g.s12, (w.w2 + tau01 + tau02 * g.c12) / g.s12};
}

AmontonLines amonton_lines_tau(const ThreeDiskParams& p) {
  const Geometry g = geometry(p);
  const Loads w = loads(p, g);
  const double b_plus = g.s12 / p.mu + g.c12, b_minus = g.s12 / p.mu - g.c12;
  return {{-b_minus, 1.0, w.w1}, {b_plus, 1.0, w.w1}, {-1.0, b_minus, w.w2}, {-1.0, -b_plus, w.w2}};
}

AmontonLines amonton_lines_reduced(const ThreeDiskParams& p) {
  const Geometry g = geometry(p);
  const Loads w = loads(p, g);
  const double rk = p.radius * p.k_t, big_w1 = w.w1 / rk, big_w2 = w.w2 / rk;
  const double c_mm = g.s12 / p.mu - g.c12 - 1.0, c_mp = g.s12 / p.mu - g.c12 + 1.0;
  const double c_pp = g.s12 / p.mu + g.c12 + 1.0, c_pm = g.s12 / p.mu + g.c12 - 1.0;
  return {
      {c_mm, c_mp, big_w1}, {-c_pp, -c_pm, big_w1}, {-c_mm, c_mp, big_w2}, {c_pp, -c_pm, big_w2}};
}

Point intersect(const HalfPlane& first, const HalfPlane& second) {
  const double det = first.a * second.b - second.a * first.b;
  return {(first.c * second.b - second.c * first.b) / det,
          (first.a * second.c - second.a * first.c) / det};
}

AmontonPolygon amonton_polygon(const ThreeDiskParams& p) {
  const Geometry g = geometry(p);
  const Loads w = loads(p, g);
  const double bp = g.s12 / p.mu + g.c12, bm = g.s12 / p.mu - g.c12;
  const double w1 = w.w1, w2 = w.w2, both = 1.0 + bp * bm;

  // (4.41), (4.43), (4.47), (4.49) with K = μ m g / (2 k_t R), X = ẍ/g, Y = ÿ/g
  const double k = p.mu * p.mass * p.gravity / (2.0 * p.k_t * p.radius);
  const double x = p.x_acc / p.gravity, y = p.y_acc / p.gravity, mu = p.mu;
  const double ct = std::cos(p.tilt), st = std::sin(p.tilt);
  const double c0 = std::cos(p.theta0), s0 = std::sin(p.theta0), q = 1.0 + mu * mu;
  const double s1_a = 1.0 + mu * x + y, s1_b = mu - x + mu * y;
  const double s2_a = 1.0 - mu * x + y, s2_b = mu + x + mu * y;
  const double t_dtheta = x * ct + (1.0 + y) * st, t_stretch = (1.0 + y) * ct - x * st;
  const double rk = p.radius * p.k_t, big_w1 = w1 / rk, big_w2 = w2 / rk;

  AmontonPolygon poly;
  poly.s1 = {{(bm * w1 - w2) / both, (w1 + bp * w2) / both},
             {-k * (s1_a * ct + s1_b * st) / (q * c0), -k * (s1_a * st - s1_b * ct) / (q * s0)}};
  poly.s2 = {{-(bp * w1 + w2) / both, (w1 - bm * w2) / both},
             {k * (s2_a * ct - s2_b * st) / (q * c0), k * (s2_a * st + s2_b * ct) / (q * s0)}};
  poly.t1 = {{(w2 - bm * w1) / (bm * bm - 1.0), (bm * w2 - w1) / (bm * bm - 1.0)},
             {k * t_dtheta / (s0 - mu * c0), k * t_stretch / (c0 + mu * s0)}};
  poly.t2 = {{(bp * w1 + w2) / (bp * bp - 1.0), -(w1 + bp * w2) / (bp * bp - 1.0)},
             {-k * t_dtheta / (s0 + mu * c0), -k * t_stretch / (c0 - mu * s0)}};
  poly.d1 = {{0.0, w1}, {-0.5 * big_w1, 0.5 * big_w1}};
  poly.d2 = {{-w2, 0.0}, {0.5 * big_w2, 0.5 * big_w2}};
  return poly;
}

AmontonPolygon amonton_polygon_by_linear_solve(const ThreeDiskParams& p) {
  const AmontonLines t = amonton_lines_tau(p), r = amonton_lines_reduced(p);
  AmontonPolygon poly;
  poly.s1 = {intersect(t.b, t.c), intersect(r.b, r.c)};
  poly.s2 = {intersect(t.a, t.d), intersect(r.a, r.d)};
  poly.t1 = {intersect(t.a, t.c), intersect(r.a, r.c)};
  poly.t2 = {intersect(t.b, t.d), intersect(r.b, r.d)};
  poly.d1 = {intersect(t.a, t.b), intersect(r.a, r.b)};
  poly.d2 = {intersect(t.c, t.d), intersect(r.c, r.d)};
  return poly;
}

bool contacts_stay_closed(const ThreeDiskParams& p) {
  const AmontonPolygon poly = amonton_polygon(p);
  return poly.s1.reduced.x > poly.d1.reduced.x && poly.s2.reduced.x < poly.d2.reduced.x;
}

double friction_limit_contact2(const ThreeDiskParams& p) {
  const double alpha1 = p.theta0 - p.tilt, g = p.gravity + p.y_acc;
  return (-p.x_acc * std::cos(alpha1) + g * std::sin(alpha1)) /
         (p.x_acc * std::sin(alpha1) + g * std::cos(alpha1));
}

double threshold_scale(const ThreeDiskParams& p) {
  return p.mass * p.gravity * p.mu * p.radius / (std::cos(p.theta0) * (1.0 + p.mu * p.mu));
}

double ccw_threshold(const ThreeDiskParams& p) {
  return threshold_scale(p) * (std::cos(p.tilt) - p.mu * std::sin(p.tilt));
}

double cw_threshold(const ThreeDiskParams& p) {
  return threshold_scale(p) * (std::cos(p.tilt) + p.mu * std::sin(p.tilt));
}

double detachment_tilt(const ThreeDiskParams& p) { return p.theta0 - std::atan(p.mu); }

double max_cw_threshold(const ThreeDiskParams& p) {
  return threshold_scale(p) * std::sqrt(1.0 + p.mu * p.mu);
}

double ccw_threshold_at_detachment(const ThreeDiskParams& p) {
  return p.mass * p.gravity * p.radius * p.mu / std::sqrt(1.0 + p.mu * p.mu);
}

double onset_tilt(const ThreeDiskParams& p, double amplitude) {
  const double ratio = amplitude / max_cw_threshold(p);
  if (!(ratio > 0.0 && ratio <= 1.0))
    throw std::domain_error("three_disk::onset_tilt: needs 0 < A_e <= A_S1^max");
  return std::acos(ratio) - std::atan(p.mu);
}

TiltInterval cw_blocked_tilts(const ThreeDiskParams& p, double amplitude) {
  const double ratio = amplitude / max_cw_threshold(p);
  if (!(ratio > 0.0 && ratio <= 1.0))
    throw std::domain_error("three_disk::cw_blocked_tilts: needs 0 < A_e <= A_S1^max");
  const double peak = std::atan(p.mu), half_width = std::acos(ratio);
  return {peak - half_width, peak + half_width};
}

SlidingRegime sliding_regime(const ThreeDiskParams& p, double amplitude) {
  if (std::fabs(p.tilt) >= detachment_tilt(p)) return SlidingRegime::detached;
  const double ccw = ccw_threshold(p), cw = cw_threshold(p);
  if (amplitude <= std::min(ccw, cw)) return SlidingRegime::none;
  if (amplitude <= std::max(ccw, cw)) return SlidingRegime::unidirectional;
  return SlidingRegime::bidirectional;
}

Eq59Rotation mean_rotation_eq59(const ThreeDiskParams& p, const HarmonicTorque& torque) {
  require_rotor_domain(p, torque);
  const double inertia = 0.5 * p.mass * p.radius * p.radius;
  const double a_ccw = ccw_threshold(p) / torque.amplitude;
  const double a_cw = cw_threshold(p) / torque.amplitude;

  // One slide from rest at its threshold a, in its own direction (a CW slide is the mirror
  // image of a CCW one, T_e → −T_e): its stop s and its rotation (a − sin u_s)²/(2a) in units
  // of A_e/(I ω_e²), the (A_Si ∓ T_e(t_si))²/(2 I ω_e² A_Si) of (5.9). The stop exists below
  // s = 2π, where d·v = −2πa.
  struct FromRest {
    bool slides;
    double stop, rotation;
  };
  const auto from_rest = [](double a) -> FromRest {
    if (a >= 1.0) return {false, 0.0, 0.0};
    const Slide slide = onset_slide(+1, a);
    const double s = *first_stop(slide, 2.0 * pi);
    // a − sin(φ + s) = −2 cos(φ + s/2) sin(s/2), without cancellation near the threshold
    const double half = 0.5 * s;
    const double cos_mid = slide.cos_u0 * std::cos(half) - slide.sin_u0 * std::sin(half);
    const double excess = -2.0 * cos_mid * std::sin(half);
    return {true, s, excess * excess / (2.0 * a)};
  };
  const FromRest ccw = from_rest(a_ccw), cw = from_rest(a_cw);

  // both ways: the CCW slide (from φ2) must stop before T_e falls through −A_S1 (at π + φ1),
  // the CW slide (from π + φ1) before T_e rises through A_S2 (at 2π + φ2)
  bool valid = true;
  if (ccw.slides && cw.slides) {
    const double phi_ccw = threshold_phase(a_ccw), phi_cw = threshold_phase(a_cw);
    valid = ccw.stop <= pi + phi_cw - phi_ccw && cw.stop <= pi + phi_ccw - phi_cw;
  }
  const double per_period = ccw.rotation - cw.rotation;  // Δϑ2 + Δϑ1 in units of A_e/(I ω_e²)
  return {torque.amplitude * per_period / (2.0 * pi * inertia * torque.frequency), valid};
}

RotorRotation mean_rotation_rotor(const ThreeDiskParams& p, const HarmonicTorque& torque) {
  require_rotor_domain(p, torque);
  const double inertia = 0.5 * p.mass * p.radius * p.radius;
  const double a_ccw = ccw_threshold(p) / torque.amplitude;
  const double a_cw = cw_threshold(p) / torque.amplitude;
  const double scale = torque.amplitude / (2.0 * pi * inertia * torque.frequency);
  const double two_pi = 2.0 * pi;
  // where a stuck rotor starts to slide: T_e rises through A_S2, or falls through −A_S1
  const double ccw_onset = a_ccw < 1.0 ? threshold_phase(a_ccw) : INFINITY;
  const double cw_onset = a_cw < 1.0 ? pi + threshold_phase(a_cw) : INFINITY;

  constexpr int max_periods = 100000;
  std::vector<double> per_period;  // Δϑ of each period, in units of A_e/(I ω_e²)
  std::optional<Slide> sliding;    // empty: stuck
  // each period runs over u ∈ [0, 2π): the phase restarts at 0, so sin u keeps full accuracy
  for (int period = 0; period < max_periods; ++period) {
    double turned = 0.0, u = 0.0;
    // a period holds at most two slides each way and the stuck phases between them
    for (int piece = 0;; ++piece) {
      if (piece > 16) throw std::logic_error("three_disk: the rotor makes no progress");
      if (!sliding) {
        const double forcing = std::sin(u);
        if (forcing > a_ccw) {
          sliding = moving_slide(+1, a_ccw, u, 0.0);
        } else if (forcing < -a_cw) {
          sliding = moving_slide(-1, a_cw, u, 0.0);
        } else {
          const double next_ccw = ccw_onset > u ? ccw_onset : INFINITY;
          const double next_cw = cw_onset > u ? cw_onset : INFINITY;
          if (next_ccw >= two_pi && next_cw >= two_pi) break;  // stuck to the period's end
          sliding = next_ccw < next_cw ? onset_slide(+1, a_ccw) : onset_slide(-1, a_cw);
        }
      }
      const Slide slide = *sliding;
      const double rest_of_period = two_pi - slide.u0;
      if (const std::optional<double> stop = first_stop(slide, rest_of_period)) {
        turned += slide.turned(*stop);
        u = slide.u0 + *stop;
        sliding.reset();
        continue;
      }
      turned += slide.turned(rest_of_period);
      sliding = moving_slide(slide.direction, slide.threshold, 0.0, slide.velocity(rest_of_period));
      break;
    }
    per_period.push_back(turned);
    if (period > 0) {
      const double previous = per_period[period - 1];
      if (std::fabs(turned - previous) <= 1e-12 * std::fabs(turned))
        return {scale * turned, period + 1, true};
    }
  }
  double sum = 0.0;
  for (int k = max_periods / 2; k < max_periods; ++k) sum += per_period[k];
  return {scale * sum / (max_periods - max_periods / 2), max_periods, false};
}

double mean_rotation_times_frequency(const ThreeDiskParams& p, double amplitude) {
  const HarmonicTorque unit_frequency{amplitude, 1.0};
  const Eq59Rotation exact = mean_rotation_eq59(p, unit_frequency);
  return exact.valid ? exact.mean_omega : mean_rotation_rotor(p, unit_frequency).mean_omega;
}

SlidingPointTorques sliding_point_torques(const ThreeDiskParams& p) {
  const double mu = p.mu, scale = p.mass * p.gravity * p.radius * mu;
  const double ct = std::cos(p.tilt), st = std::sin(p.tilt);
  const double c0 = std::cos(p.theta0), s0 = std::sin(p.theta0);
  return {scale * (ct + mu * st) / ((1.0 + mu * mu) * c0),
          -scale * (ct - mu * st) / ((1.0 + mu * mu) * c0), -scale * st / (s0 - mu * c0),
          scale * st / (s0 + mu * c0)};
}

double equal_time_mean_torque(const ThreeDiskParams& p) {
  const double mu = p.mu, mu2 = mu * mu, c0 = std::cos(p.theta0), t0 = std::tan(p.theta0);
  return p.mass * p.gravity * p.radius * mu2 * (mu2 + (1.0 + mu2) * std::cos(2.0 * p.theta0)) *
         std::sin(p.tilt) / (c0 * c0 * c0 * 2.0 * (1.0 + mu2) * (mu2 - t0 * t0));
}

}  // namespace granular::three_disk
