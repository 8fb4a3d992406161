// The pendulum's impact map by Routh's method (include/granular/impact/pendulum/impact_map.hpp).
#include "granular/impact/pendulum/impact_map.hpp"

#include <cmath>

namespace granular::pendulum {

PendulumImpact pendulum_impact(const Params& p, double t, const State& y, double k, double mu) {
  PendulumImpact im{};
  im.t = t;
  im.psi1 = y[0];
  im.psi2 = y[1];
  im.gap = pendulum_gap(p, y[0], y[1]);
  im.omega_before = Eigen::Vector2d(y[2], y[3]);
  im.plastic = false;
  const ContactJacobian j = pendulum_contact_jacobian(p, y[0], y[1]);
  im.s_before = j.j_s.dot(im.omega_before);
  im.c_before = j.j_c.dot(im.omega_before);
  im.w = pendulum_delassus(p, y[0], y[1]);
  im.routh = impulse::routh_poisson_impact(im.w, im.c_before, im.s_before, k, mu);

  // Δω = A⁻¹(J_sᵀ T̄ + J_cᵀ F̄) (spec §2.6)
  const Eigen::Matrix2d a = pendulum_mass_matrix(p, y[0], y[1]);
  const Eigen::Vector2d dw = a.ldlt().solve(j.j_s * im.routh.p_t + j.j_c * im.routh.p_n);
  im.omega_after = im.omega_before + dw;

  // joint impulses from (21)–(24) (spec §2.6); (25)–(26) then hold identically
  const double c1 = std::cos(y[0]), s1 = std::sin(y[0]);
  const double c2 = std::cos(y[1]), s2 = std::sin(y[1]);
  im.joint.H = im.routh.p_t + p.m2 * (p.l1 * dw[0] * c1 + p.lc * dw[1] * c2);
  im.joint.V = im.routh.p_n - p.m2 * (p.l1 * dw[0] * s1 + p.lc * dw[1] * s2);
  im.joint.R = im.joint.H + 0.5 * p.l1 * p.m1 * dw[0] * c1;
  im.joint.P = 0.5 * p.l1 * p.m1 * dw[0] * s1 - im.joint.V;

  State after = y;
  after[2] = im.omega_after[0];
  after[3] = im.omega_after[1];
  im.energy_before = pendulum_energy(p, y);
  im.energy_after = pendulum_energy(p, after);
  return im;
}

}  // namespace granular::pendulum
