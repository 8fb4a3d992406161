#include "granular/impact/billiard.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "granular/contact_law.hpp"

namespace granular::impact {
namespace {

// state vector of the flight: (q1, q2, v1, v2, u3)
enum { kQ1 = 0, kQ2, kV1, kV2, kSpin, kSize };

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
    if (std::fabs(next - s) <= 1e-15 * (1.0 + std::fabs(s)) || hi - lo <= 1e-15 * (1.0 + std::fabs(s)))
      return next;
    s = next;
  }
  return s;
}

// Roots of w on [−bound, bound], where w' < 0 exactly on (−s_c, s_c) (s_c ≤ 0: w monotone):
// the stationary equation of L² for the parabola and the hyperbola has this shape, with
// three roots when the point lies inside the evolute (spec §3 [D]).
std::vector<double> symmetric_piece_roots(const std::function<double(double)>& w,
                                          const std::function<double(double)>& dw,
                                          double s_c, double bound) {
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

const char* surface_name(Surface s) {
  switch (s) {
    case Surface::floor:
      return "floor";
    case Surface::wedge_left:
      return "left";
    case Surface::wedge_right:
      return "right";
    default:
      return "ceiling";
  }
}

const char* status_name(BilliardStatus s) {
  switch (s) {
    case BilliardStatus::completed:
      return "completed";
    case BilliardStatus::max_time:
      return "max_time";
    case BilliardStatus::zeno:
      return "zeno";
    case BilliardStatus::penetrated:
      return "penetrated";
    default:
      return "non_finite";
  }
}

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
  const double pi = 3.141592653589793238462643383280;
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

BilliardImpactResult billiard_impact(const BilliardBall& ball, const BilliardImpactLaw& law,
                                     double z, Vec2 v, double spin, Vec2 wall_velocity) {
  // contact frame (spec §4): c1 tangent, c2 normal into the domain, P = centre − b c2
  const Vec2 c1{std::cos(z), std::sin(z)};
  const Vec2 c2{-std::sin(z), std::cos(z)};
  const double b = ball.radius;
  const double u4 = dot(v, c1), u5 = dot(v, c2);
  const double u4w = dot(wall_velocity, c1), u5w = dot(wall_velocity, c2);
  BilliardImpactResult r{};
  r.u_n_before = u5 - u5w;
  r.u_t_before = u4 + b * spin - u4w;
  // the low-velocity rule (Sec. V): e = 1 below the collapse threshold
  r.e_used = std::fabs(r.u_n_before) < law.low_velocity_speed ? 1.0 : law.e;

  double u4_after = u4, u5_after = u5, spin_after = spin;
  if (law.law == ImpactLaw::gorski_srokowski) {
    // Eq. 12 in the wall's frame: both components of the relative velocity scale by r
    u5_after = u5w - law.r * (u5 - u5w);
    u4_after = u4w + law.r * (u4 - u4w);
    r.sticking = false;
  } else {
    // Kane–Levinson (Eqs. 24–46): Δu5 = S2/m, Δu4 = S1/m, Δu3 = b S1/J, so the contact's
    // Delassus matrix is diag(1/m, 1/m + b²/J) (k of Eq. 40); the trial stick keeps
    // u4 + b u3 = u4' if |S1| <= μ S2, else slip with |S1| = μ' S2 against the approach slip
    const double k = 1.0 / ball.mass + b * b / ball.inertia;
    const impulse::Delassus w{1.0 / ball.mass, 0.0, k};
    const impulse::ContactImpulse p = impulse::newton_coulomb_impact(
        w, r.u_n_before, r.u_t_before, r.e_used, law.mu_static, law.mu_kinetic);
    r.p_n = p.p_n;
    r.p_t = p.p_t;
    r.sticking = p.sticking;
    u5_after = u5 + p.p_n / ball.mass;
    u4_after = u4 + p.p_t / ball.mass;
    spin_after = spin + b * p.p_t / ball.inertia;
  }
  r.u4_after = u4_after;
  r.u5_after = u5_after;
  r.spin = spin_after;
  r.v = u4_after * c1 + u5_after * c2;
  return r;
}

double resting_height(const BilliardModel& m, double q1) {
  // bisection on the smallest floor gap, which grows with q2 above the floor
  const double xi = q1 - m.drive.amplitude * std::sin(0.0);
  const auto gap = [&](double q2) {
    double g = std::numeric_limits<double>::infinity();
    for (Surface s : surfaces(m.boundary))
      if (s != Surface::ceiling)
        g = std::min(g, surface_contact(m.boundary, s, xi, q2, m.ball.radius).gap);
    return g;
  };
  double lo = floor_height(m.boundary, xi), hi = lo + m.ball.radius;
  while (gap(hi) < 0.0) hi += 2.0 * m.ball.radius;
  for (int it = 0; it < 200 && hi - lo > 1e-15 * (1.0 + std::fabs(hi)); ++it) {
    const double mid = 0.5 * (lo + hi);
    (gap(mid) < 0.0 ? lo : hi) = mid;
  }
  return hi;
}

double billiard_energy(const BilliardModel& m, Vec2 v, double spin, double q2) {
  return 0.5 * m.ball.mass * dot(v, v) + 0.5 * m.ball.inertia * spin * spin +
         m.ball.mass * m.gravity * q2;
}

BilliardResult run_billiard(const BilliardModel& m, const BilliardInitial& init) {
  const double A = m.drive.amplitude, w = m.drive.omega;
  const double b = m.ball.radius;
  const std::vector<Surface> list = surfaces(m.boundary);

  // flight (Eqs. 1–6): m dv/dt = −m g n2 − v (C1 + C2 |v|), spin constant
  const double c1 = m.drag.c1 / m.ball.mass, c2 = m.drag.c2 / m.ball.mass, g = m.gravity;
  const Rhs rhs = [=](double, const State& y, State& f) {
    f.resize(kSize);
    const double speed = std::hypot(y[kV1], y[kV2]);
    const double k = c1 + c2 * speed;
    f << y[kV1], y[kV2], -k * y[kV1], -g - k * y[kV2], 0.0;
  };
  EventIntegrator ode(rhs, m.ode);

  // one falling-gap event per surface, in the frame moving with the boundary
  const auto gap = [&](Surface s, double t, const State& y) {
    return surface_contact(m.boundary, s, y[kQ1] - A * std::sin(w * t), y[kQ2], b).gap;
  };
  std::vector<Event> events;
  for (Surface s : list)
    events.push_back({[&gap, s](double t, const State& y) { return gap(s, t, y); },
                      Direction::falling});

  BilliardResult out;
  ZenoGuard zeno = m.zeno;
  State y(kSize);
  y << init.q1, init.q2, init.v1, init.v2, init.spin;
  double t = 0.0, t_last = 0.0;
  double next_sample = m.sample_interval > 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
  // an event can only be missed by a flight shorter than a step; the ball then sinks through
  // the wall, which this depth flags (the event tolerance leaves ~1e-12 m)
  const double lost_depth = -0.05 * b;
  const double chunk = 100.0 * m.ode.step;
  const auto sample = [&]() {
    out.trajectory.push_back({t, y[kQ1], y[kQ2], y[kV1], y[kV2], y[kSpin], A * std::sin(w * t)});
  };

  while (static_cast<long long>(out.collisions.size()) < m.max_collisions) {
    if (t >= m.max_time) {
      out.status = BilliardStatus::max_time;
      break;
    }
    if (t >= next_sample) {
      sample();
      next_sample += m.sample_interval;
    }
    const double t_end = std::min({m.max_time, next_sample, t + chunk});
    std::optional<EventHit> hit;
    try {
      hit = ode.advance(t, y, t_end, events);
    } catch (const std::runtime_error&) {
      out.status = BilliardStatus::non_finite;
      break;
    }
    if (!y.allFinite()) {
      out.status = BilliardStatus::non_finite;
      break;
    }
    bool lost = false;
    for (Surface s : list) lost = lost || gap(s, t, y) < lost_depth;
    if (lost) {
      out.status = BilliardStatus::penetrated;
      break;
    }
    if (!hit) continue;

    // the impact map at the event (spec §4); the wall moves with v' = ωA cos(ωt) n1 (Eq. 17)
    const Surface s = list[static_cast<std::size_t>(hit->index)];
    const double xi = y[kQ1] - A * std::sin(w * t);
    const SurfaceContact sc = surface_contact(m.boundary, s, xi, y[kQ2], b);
    const Vec2 wall{A * w * std::cos(w * t), 0.0};
    const Vec2 v{y[kV1], y[kV2]};
    const BilliardImpactResult r = billiard_impact(m.ball, m.law, sc.z, v, y[kSpin], wall);
    if (r.u_n_before >= 0.0) {
      // the gap closed without an approach (grazing): nothing to resolve
      ++out.grazing;
      continue;
    }
    y[kV1] = r.v.x;
    y[kV2] = r.v.y;
    y[kSpin] = r.spin;

    // the record of spec §5, with the Fig. 7 normalisation read literally: E = ½ m v² + m g q2
    // after the impact (lab frame, zero at q2 = 0, rotation excluded)
    BilliardCollision c{};
    c.t = t;
    c.q1 = y[kQ1];
    c.height = y[kQ2];
    c.flight_time = t - t_last;
    c.u_n_before = r.u_n_before;
    c.u_t_after = r.u4_after;
    c.spin_after = r.spin;
    c.u5_after = r.u5_after;
    c.energy = billiard_energy(m, r.v, r.spin, y[kQ2]);
    const double e_trans = 0.5 * m.ball.mass * dot(r.v, r.v) + m.ball.mass * g * y[kQ2];
    c.norm_height = e_trans > 0.0 ? y[kQ2] / (e_trans / (m.ball.mass * g)) : 0.0;
    c.norm_u_t = e_trans > 0.0 ? r.u4_after / std::sqrt(2.0 * e_trans / m.ball.mass) : 0.0;
    c.e_used = r.e_used;
    c.surface = s;
    c.sticking = r.sticking;
    out.collisions.push_back(c);
    t_last = t;
    if (r.e_used == 1.0 && m.law.e != 1.0) ++out.low_velocity;
    if (r.sticking) ++out.sticking;
    if (s == Surface::ceiling) ++out.ceiling_hits;

    // the Zeno policy: accumulating impacts end the run cleanly (reported as "zeno")
    if (zeno.accumulating(t, -r.u_n_before)) {
      out.status = BilliardStatus::zeno;
      out.zeno_time = t;
      out.zeno_q1 = y[kQ1];
      out.zeno_q2 = y[kQ2];
      break;
    }
  }
  out.t_end = t;
  if (m.sample_interval > 0.0) sample();
  return out;
}

}  // namespace granular::impact
