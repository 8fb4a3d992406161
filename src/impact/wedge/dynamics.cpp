// Flights of the disk in the wedge (include/granular/impact/wedge/dynamics.hpp).
#include "granular/impact/wedge/dynamics.hpp"

#include <cmath>

namespace granular::wedge {

namespace {

double angle(const Params& p, Wall w) {
  return w == Wall::right ? p.theta_right() : p.theta_left();
}

Wall other(Wall w) { return w == Wall::right ? Wall::left : Wall::right; }

// The landing point lies on the wall's half-line: x > 0 on the right wall, x < 0 on the left.
bool on_half_line(Wall w, double x) { return w == Wall::right ? x > 0.0 : x < 0.0; }

}  // namespace

WallVelocity to_wall(double theta, double vx, double vy) {
  const double s = std::sin(theta), c = std::cos(theta);
  return {-s * vx + c * vy, c * vx + s * vy};
}

void from_wall(double theta, WallVelocity v, double& vx, double& vy) {
  const double s = std::sin(theta), c = std::cos(theta);
  vx = -s * v.vn + c * v.vt;
  vy = c * v.vn + s * v.vt;
}

void fly(double t, double& x, double& y, double& vx, double& vy) {
  x += vx * t;
  y += vy * t - 0.5 * t * t;
  vy -= t;
}

std::optional<Flight> next_flight(const Params& p, Wall from, double x_k, WallVelocity v) {
  const double ti = angle(p, from), si = std::sin(ti), ci = std::cos(ti);
  const double y_k = std::tan(ti) * x_k;
  const double vx = -si * v.vn + ci * v.vt;  // constant in flight
  std::optional<Flight> best;
  const auto consider = [&](Flight f) {
    if (!(f.time > 0.0) || !on_half_line(f.to, x_k + vx * f.time)) return;
    if (!best || f.time < best->time) best = f;
  };
  // the same wall, (6.21)–(6.25): a flight of 2 v'_n/(g cos θ)
  if (v.vn > 0.0) {
    const double tan_i = std::tan(ti);
    consider({2.0 * v.vn / ci,
              from,
              {-v.vn, v.vt - 2.0 * tan_i * v.vn},
              y_k - 2.0 * tan_i * v.vn * (tan_i * v.vn - v.vt)});
  }
  // the other wall, (6.16)–(6.20); 2(c_f/s_i) s_if y_k written as 2 c_f s_if x_k/c_i, which
  // is the same where s_i ≠ 0 and stays finite on a horizontal wall
  const Wall to = other(from);
  const double tf = angle(p, to), cf = std::cos(tf);
  const double sif = std::sin(ti - tf), cif = std::cos(ti - tf);
  const double P = cif * v.vn + sif * v.vt;
  const double disc = P * P + 2.0 * cf * sif * x_k / ci;
  if (disc >= 0.0) {
    const double root = std::sqrt(disc);
    const double t = (P + root) / cf;
    const double vy = ci * v.vn + si * v.vt;
    consider({t, to, {-root, vx / cf + std::tan(tf) * -root}, y_k + vy * t - 0.5 * t * t});
  }
  return best;
}

std::optional<Flight> first_hit(const Params& p, double x, double y, double vx, double vy) {
  std::optional<Flight> best;
  for (Wall w : {Wall::left, Wall::right}) {
    const double th = angle(p, w), s = std::sin(th), c = std::cos(th);
    const double d0 = -s * x + c * y;          // distance to the wall line along its normal
    const double P = -s * vx + c * vy;         // its rate
    const double disc = P * P + 2.0 * c * d0;  // d(t) = d0 + P t − c t²/2
    if (disc < 0.0) continue;
    const double t = (P + std::sqrt(disc)) / c;
    if (!(t > 0.0) || !on_half_line(w, x + vx * t)) continue;
    if (best && best->time <= t) continue;
    double lx = x, ly = y, lvx = vx, lvy = vy;
    fly(t, lx, ly, lvx, lvy);
    best = Flight{t, w, to_wall(th, lvx, lvy), ly};
  }
  return best;
}

}  // namespace granular::wedge
