// The billiard's boundary and closest points (include/granular/impact/billiard/geometry.hpp).
#include "granular/impact/billiard/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include "granular/constants.hpp"

namespace granular::billiard {

namespace {

// Safeguarded Newton on a bracket [lo, hi] where w changes sign and is monotone.
double solve_bracketed(const std::function<double(double)>& w,
                       const std::function<double(double)>& dw, double lo, double hi) {
  double w_lo = w(lo);
  if (w_lo == 0.0) return lo;
  double s = 0.5 * (lo + hi);
  for (int it = 0; it < 100; ++it) {
    const double ws = w(s);
    if (ws == 0.0) return s;
    if ((ws < 0.0) == (w_lo < 0.0)) {
      lo = s;
      w_lo = ws;
    } else {
      hi = s;
    }
    const double d = dw(s);
    double next = d != 0.0 ? s - ws / d : 0.5 * (lo + hi);
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::fabs(next - s) <= 1e-15 * (1.0 + std::fabs(s)) ||
        hi - lo <= 1e-15 * (1.0 + std::fabs(s)))
      return next;
    s = next;
  }
  return s;
}

// Roots of w on [−bound, bound], where w' < 0 exactly on (−s_c, s_c) (s_c ≤ 0: w monotone):
// the stationary equation of L² for the parabola and the hyperbola has this shape, with
// three roots when the point lies inside the evolute (spec §3 [D]).
std::vector<double> symmetric_piece_roots(const std::function<double(double)>& w,
                                          const std::function<double(double)>& dw, double s_c,
                                          double bound) {
  std::vector<double> edges;
  bound = std::max(bound, 1.001 * std::max(s_c, 0.0)) + 1e-12;
  edges.push_back(-bound);
  if (s_c > 0.0) {
    edges.push_back(-s_c);
    edges.push_back(s_c);
  }
  edges.push_back(bound);
  std::vector<double> roots;
  for (std::size_t k = 0; k + 1 < edges.size(); ++k) {
    const double w0 = w(edges[k]);
    const double w1 = w(edges[k + 1]);
    if ((w0 <= 0.0 && w1 >= 0.0) || (w0 >= 0.0 && w1 <= 0.0))
      roots.push_back(solve_bracketed(w, dw, edges[k], edges[k + 1]));
  }
  return roots;
}

}  // namespace

std::vector<Surface> surfaces(const BilliardBoundary& b) {
  std::vector<Surface> out;
  if (b.shape == BoundaryShape::wedge) {
    out = {Surface::wedge_left, Surface::wedge_right};
  } else {
    out = {Surface::floor};
  }
  if (b.has_ceiling) out.push_back(Surface::ceiling);
  return out;
}

// the boundary shapes of Eq. 9 in the boundary frame
double floor_height(const BilliardBoundary& b, double xi) {
  switch (b.shape) {
    case BoundaryShape::parabola:
      return b.a * xi * xi + b.c;
    case BoundaryShape::wedge:
      return b.slope * std::fabs(xi) + b.c;
    case BoundaryShape::hyperbola:
      return std::sqrt(b.alpha * (1.0 + b.beta * xi * xi)) - b.delta;
    default:
      return b.c;
  }
}

double floor_slope(const BilliardBoundary& b, double xi) {
  switch (b.shape) {
    case BoundaryShape::parabola:
      return 2.0 * b.a * xi;
    case BoundaryShape::wedge:
      return xi < 0.0 ? -b.slope : (xi > 0.0 ? b.slope : 0.0);
    case BoundaryShape::hyperbola:
      return b.alpha * b.beta * xi / std::sqrt(b.alpha * (1.0 + b.beta * xi * xi));
    default:
      return 0.0;
  }
}

std::vector<double> floor_stationary_points(const BilliardBoundary& b, double xi, double eta) {
  switch (b.shape) {
    case BoundaryShape::parabola: {
      // dL²/ds = 0: 2a² s³ + (1 + 2a(c − η)) s − ξ = 0 (spec §3, step 2)
      const double k3 = 2.0 * b.a * b.a;
      const double p = 1.0 + 2.0 * b.a * (b.c - eta);
      const auto w = [=](double s) { return (k3 * s * s + p) * s - xi; };
      const auto dw = [=](double s) { return 3.0 * k3 * s * s + p; };
      const double s_c = p < 0.0 ? std::sqrt(-p / (3.0 * k3)) : 0.0;
      // Cauchy's bound of the monic cubic s³ + (p/k3) s − ξ/k3
      const double bound = 1.0 + std::max(std::fabs(p / k3), std::fabs(xi / k3));
      return symmetric_piece_roots(w, dw, s_c, bound);
    }
    case BoundaryShape::hyperbola: {
      // dL²/ds = 0 with f f' = αβ s: s(1 + αβ) − ξ − αβ(δ + η) s / √(α(1 + βs²)) = 0, whose
      // square is the quartic of spec §3; solved unsquared so that no root is spurious
      const double ab = b.alpha * b.beta;
      const double k = ab * (b.delta + eta);
      const auto w = [=](double s) {
        return s * (1.0 + ab) - xi - k * s / std::sqrt(b.alpha * (1.0 + b.beta * s * s));
      };
      const auto dw = [=](double s) {
        const double r = b.alpha * (1.0 + b.beta * s * s);
        return (1.0 + ab) - k * b.alpha / (r * std::sqrt(r));
      };
      double s_c = 0.0;
      if (k > 0.0) {
        const double r_c = std::cbrt(std::pow(k * b.alpha / (1.0 + ab), 2.0));
        if (r_c > b.alpha) s_c = std::sqrt((r_c / b.alpha - 1.0) / b.beta);
      }
      const double bound = (std::fabs(xi) + std::fabs(k) / std::sqrt(ab)) / (1.0 + ab);
      return symmetric_piece_roots(w, dw, s_c, bound);
    }
    case BoundaryShape::wedge: {
      // per branch the condition is linear (spec §3 [D]); the foot is clamped to the branch
      const double d = 1.0 + b.slope * b.slope;
      const double right = std::max((xi + b.slope * (eta - b.c)) / d, 0.0);
      const double left = std::min((xi - b.slope * (eta - b.c)) / d, 0.0);
      return {left, right};
    }
    default:
      return {xi};
  }
}

SurfaceContact surface_contact(const BilliardBoundary& b, Surface s, double xi, double eta,
                               double radius) {
  // the ceiling: a line η = H with normal −n2 (spec §3)
  if (s == Surface::ceiling) {
    const double d = b.ceiling - eta;
    return {xi, d * d, d - radius, pi};
  }
  // a wedge branch: a half-line from the corner; beyond the corner the corner itself
  if (s == Surface::wedge_left || s == Surface::wedge_right) {
    const double dir = s == Surface::wedge_right ? 1.0 : -1.0;
    const double d = 1.0 + b.slope * b.slope;
    double foot = (xi + dir * b.slope * (eta - b.c)) / d;
    const bool corner = dir * foot < 0.0;
    if (corner) foot = 0.0;
    const double fx = foot, fy = b.c + b.slope * std::fabs(foot);
    const double dx = xi - fx, dy = eta - fy;
    const double dist2 = dx * dx + dy * dy;
    const double side = eta >= b.slope * std::fabs(xi) + b.c ? 1.0 : -1.0;
    double z = std::atan(dir * b.slope);
    if (corner && dist2 > 0.0) z = std::atan2(-dx * side, dy * side);
    return {foot, dist2, side * std::sqrt(dist2) - radius, z};
  }
  // parabola, hyperbola, flat: the global minimum of L² over the stationary points
  double best_s = xi, best = std::numeric_limits<double>::infinity();
  for (double r : floor_stationary_points(b, xi, eta)) {
    const double dx = xi - r, dy = eta - floor_height(b, r);
    const double l2 = dx * dx + dy * dy;
    if (l2 < best) {
      best = l2;
      best_s = r;
    }
  }
  const double side = eta >= floor_height(b, xi) ? 1.0 : -1.0;
  return {best_s, best, side * std::sqrt(best) - radius, std::atan(floor_slope(b, best_s))};
}

double resting_height(const Params& m, double q1) {
  // bisection on the smallest floor gap, which grows with q2 above the floor
  const double xi = q1 - m.drive.amplitude * std::sin(0.0);
  const auto gap = [&](double q2) {
    double g = std::numeric_limits<double>::infinity();
    for (Surface s : surfaces(m.boundary))
      if (s != Surface::ceiling)
        g = std::min(g, surface_contact(m.boundary, s, xi, q2, m.ball.radius).gap);
    return g;
  };
  // an upper bracket by doubling steps (a steep or narrow floor holds the ball far above its
  // lowest point), then bisection; both bounded, so no boundary can make this loop for ever
  const double lo_start = floor_height(m.boundary, xi);
  double lo = lo_start, step = m.ball.radius, hi = lo + step;
  for (int it = 0; it < 2100 && !(gap(hi) >= 0.0); ++it) {
    step *= 2.0;
    hi = lo + step;
  }
  if (!(gap(hi) >= 0.0) || !std::isfinite(hi) || lo_start + m.ball.radius == lo_start) {
    char where[32];
    std::snprintf(where, sizeof where, "%g", q1);
    throw std::domain_error(std::string("the ball finds no resting height on the floor at q1 = ") +
                            where +
                            " m (positions there are coarser than its radius, or the "
                            "floor's geometry is out of range)");
  }
  for (int it = 0; it < 200 && hi - lo > 1e-15 * (1.0 + std::fabs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    (gap(mid) < 0.0 ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace granular::billiard
