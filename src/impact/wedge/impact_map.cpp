// A collision with a wall of the wedge and the FBRPA wall velocity
// (include/granular/impact/wedge/impact_map.hpp).
#include "granular/impact/wedge/impact_map.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "granular/md/collision.hpp"

namespace granular::wedge {

double tangential_restitution(const WedgeParams& p, double ratio) {
  if (p.law == TangentialLaw::none || ratio == 0.0) return 1.0;  // u_t = 0: nothing to change
  if (p.law == TangentialLaw::large_kappa)
    return std::max(0.0, 1.0 - 3.0 * p.mu * (1.0 + p.e_n) / ratio);
  const RestitutionTable& t = p.table;
  const double x = (std::log10(ratio) - t.log_min) / t.log_step;
  if (x <= 0.0) return t.e_t.front();
  const std::size_t last = t.e_t.size() - 1;
  if (x >= static_cast<double>(last)) return full_sliding_e_t(p.e_n, p.mu, ratio);
  const std::size_t k = static_cast<std::size_t>(x);
  const double f = x - static_cast<double>(k);
  return (1.0 - f) * t.e_t[k] + f * t.e_t[k + 1];
}

RestitutionTable tabulate_wall_restitution(const ContactParams& wall, double radius,
                                           double areal_density) {
  RestitutionTable t;
  md::CollisionCase c;
  c.kind = md::CollisionKind::disk_wall;
  c.radius_a = radius;
  c.areal_density = areal_density;
  c.contact = wall;
  c.u_n = 1.0;  // the linear law's e_t depends on the ratio only
  for (int k = 0; k <= 120; ++k) {
    c.u_t = std::pow(10.0, t.log_min + k * t.log_step);
    const md::CollisionResult r = md::run_collision(c);
    if (!r.ended || !std::isfinite(r.e_t))
      throw std::runtime_error("the single collision at |u_t/u_n| = " + std::to_string(c.u_t) +
                               " did not end: the contact law is outside the engine's domain");
    t.e_t.push_back(r.e_t);
  }
  return t;
}

double fbrpa_wall_velocity(double vn, double theta, double u) {
  // in units of the wall's normal displacement amplitude A cos θ and of 1/ω_b: the wall is at
  // sin φ, the disk on the line s(φ − φ0) with s = v_n/(Aω_b cos θ) < 0; the first crossing
  // lies within one period after φ_a = φ0 − 1/|s|, where the line is at the wall's crest
  const double s = vn / std::cos(theta);
  const double pi = 3.141592653589793;
  const double phi0 = 2.0 * pi * u;
  const auto h = [&](double phi) { return s * (phi - phi0) - std::sin(phi); };
  double a = phi0 + 1.0 / s;
  if (!(h(a) > 0.0)) return std::cos(a);
  const double step = 2.0 * pi / 256.0;
  double b = a;
  for (int k = 0; k < 258; ++k) {
    b = a + step;
    if (h(b) <= 0.0) break;
    a = b;
  }
  for (int it = 0; it < 80 && b - a > 1e-15 * (1.0 + std::fabs(a)); ++it) {
    const double m = 0.5 * (a + b);
    (h(m) > 0.0 ? a : b) = m;
  }
  return std::cos(b);  // the wall's vertical velocity, units of Aω_b
}

bool collide(const WedgeParams& p, double theta, WallVelocity v, double w, double wall_v,
             Collision& out) {
  const double vbn = wall_v * std::cos(theta), vbt = wall_v * std::sin(theta);
  const double un = v.vn - vbn;      // < 0 on approach
  const double ut = v.vt - vbt + w;  // slip of the contact point (w = Rω/(Aω_b))
  out.e_t = un != 0.0 ? tangential_restitution(p, std::fabs(ut / un)) : 1.0;
  out.v.vn = -p.e_n * v.vn + (1.0 + p.e_n) * vbn;  // (2.11)
  out.v.vt = v.vt - (1.0 - out.e_t) * ut / 3.0;    // (2.23)
  out.w = w - 2.0 * (1.0 - out.e_t) * ut / 3.0;    // (2.24), times R/(Aω_b)
  return out.v.vn > 0.0;
}

}  // namespace granular::wedge
