// The double pendulum between impacts (include/granular/impact/pendulum/dynamics.hpp).
#include "granular/impact/pendulum/dynamics.hpp"

#include <cmath>

namespace granular::pendulum {

Eigen::Matrix2d pendulum_mass_matrix(const Params& p, double psi1, double psi2) {
  // a11, a22, a12 of spec §2.1
  Eigen::Matrix2d a;
  a(0, 0) = p.I1 + p.l1 * p.l1 * (0.25 * p.m1 + p.m2);
  a(1, 1) = p.I2 + p.lc * p.lc * p.m2;
  a(0, 1) = a(1, 0) = p.l1 * p.lc * p.m2 * std::cos(psi1 - psi2);
  return a;
}

double pendulum_mass_determinant(const Params& p, double psi1, double psi2) {
  // eq. (6)
  const double l1s = p.l1 * p.l1, lcs = p.lc * p.lc, sn = std::sin(psi1 - psi2);
  return p.I1 * (p.I2 + lcs * p.m2) +
         0.25 * l1s * (p.I2 * p.m1 + 4.0 * p.I2 * p.m2 + lcs * p.m1 * p.m2) +
         l1s * lcs * p.m2 * p.m2 * sn * sn;
}

Eigen::Vector2d pendulum_generalized_forces(const Params& p, double t, const State& y) {
  // q1, q2 of spec §2.1: each torque acts on its own body in absolute terms; c2 acts on the
  // relative rotation at A
  const double psi1 = y[0], psi2 = y[1], w1 = y[2], w2 = y[3];
  const double coupling = p.l1 * p.lc * p.m2 * std::sin(psi1 - psi2);
  Eigen::Vector2d q;
  q[0] = p.M01 * std::cos(p.Omega1 * t) - (p.c1 + p.c2) * w1 + p.c2 * w2 - coupling * w2 * w2 -
         (0.5 * p.m1 + p.m2) * p.g * p.l1 * std::sin(psi1);
  q[1] = p.M02 * std::cos(p.Omega2 * t) + p.c2 * (w1 - w2) + coupling * w1 * w1 -
         p.m2 * p.g * p.lc * std::sin(psi2);
  return q;
}

void pendulum_rhs(const Params& p, double t, const State& y, State& dydt) {
  const Eigen::Vector2d acc =
      pendulum_mass_matrix(p, y[0], y[1]).ldlt().solve(pendulum_generalized_forces(p, t, y));
  dydt.resize(4);
  dydt << y[2], y[3], acc[0], acc[1];
}

double pendulum_gap(const Params& p, double psi1, double psi2) {
  return p.D - p.l1 * std::cos(psi1) - p.L() * std::cos(psi2) - p.r;
}

ContactJacobian pendulum_contact_jacobian(const Params& p, double psi1, double psi2) {
  // s and c of eqs. (31)–(33), written absolutely since the configuration is frozen (§2.3)
  ContactJacobian j;
  j.j_s << -p.l1 * std::cos(psi1), -(p.r + p.L() * std::cos(psi2));
  j.j_c << p.l1 * std::sin(psi1), p.L() * std::sin(psi2);
  return j;
}

impulse::Delassus pendulum_delassus(const Params& p, double psi1, double psi2) {
  // α = J_s A⁻¹ J_sᵀ, ε = J_s A⁻¹ J_cᵀ, γ = J_c A⁻¹ J_cᵀ (spec §2.4, compact form)
  const ContactJacobian j = pendulum_contact_jacobian(p, psi1, psi2);
  const Eigen::Matrix2d a = pendulum_mass_matrix(p, psi1, psi2);
  const double det = a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0);
  Eigen::Matrix2d inv;
  inv << a(1, 1) / det, -a(0, 1) / det, -a(1, 0) / det, a(0, 0) / det;
  const Eigen::Vector2d ai_s = inv * j.j_s;
  const Eigen::Vector2d ai_c = inv * j.j_c;
  return {j.j_c.dot(ai_c), j.j_s.dot(ai_c), j.j_s.dot(ai_s)};
}

impulse::Delassus pendulum_delassus_closed_form(const Params& p, double psi1, double psi2) {
  // eq. (36) with K = 4 I1 + l1²(m1 + 4 m2), ρ = r + L cos ψ2; the bracket of E_i read as
  // lc m2 (l2 + r(1 + cos ψ2)) (spec §2.4)
  const double l1s = p.l1 * p.l1, L = p.L(), lc = p.lc, m2 = p.m2;
  const double K = 4.0 * p.I1 + l1s * (p.m1 + 4.0 * m2);
  const double rho = p.r + L * std::cos(psi2);
  const double s1 = std::sin(psi1), s2 = std::sin(psi2);
  const double i2c = p.I2 + lc * lc * m2;
  const double a_i =
      4.0 * l1s * std::cos(psi1) * (i2c * std::cos(psi1) - lc * m2 * rho * std::cos(psi1 - psi2)) +
      K * rho * rho - 2.0 * l1s * lc * m2 * rho * (std::cos(2.0 * psi1 - psi2) + std::cos(psi2));
  const double g_i = K * L * L * s2 * s2 + 4.0 * l1s * s1 * s1 * (i2c - lc * m2 * L * s2 * s2) -
                     2.0 * l1s * lc * m2 * L *
                         (2.0 * s1 * s1 * s2 * s2 + std::sin(2.0 * psi1) * std::sin(2.0 * psi2));
  const double e_i =
      2.0 * l1s * (lc * m2 * (p.l2 + p.r * (1.0 + std::cos(psi2))) - i2c) * std::sin(2.0 * psi1) +
      p.r * (4.0 * l1s * lc * m2 * s1 * s1 - L * K) * s2 +
      L * (2.0 * l1s * lc * m2 - 0.5 * L * K) * std::sin(2.0 * psi2);
  const double den = 4.0 * pendulum_mass_determinant(p, psi1, psi2);
  return {g_i / den, e_i / den, a_i / den};
}

double pendulum_energy(const Params& p, const State& y) {
  const Eigen::Vector2d w(y[2], y[3]);
  const double kinetic = 0.5 * w.dot(pendulum_mass_matrix(p, y[0], y[1]) * w);
  return kinetic - (0.5 * p.m1 + p.m2) * p.g * p.l1 * std::cos(y[0]) -
         p.m2 * p.g * p.lc * std::cos(y[1]);
}

JointForces pendulum_joint_forces(const Params& p, const State& y, const Eigen::Vector2d& psi_ddot,
                                  double F, double T) {
  // accelerations of C1 and C2 along X (= −x, the bob's direction for increasing ψ) and Z (up),
  // spec §2.7; the force balances follow the signs of (13)–(16)
  const double c1 = std::cos(y[0]), s1 = std::sin(y[0]);
  const double c2 = std::cos(y[1]), s2 = std::sin(y[1]);
  const double w1s = y[2] * y[2], w2s = y[3] * y[3];
  const double b1x = psi_ddot[0] * c1 - w1s * s1, b1z = psi_ddot[0] * s1 + w1s * c1;
  const double b2x = psi_ddot[1] * c2 - w2s * s2, b2z = psi_ddot[1] * s2 + w2s * c2;
  const double a1x = 0.5 * p.l1 * b1x, a1z = 0.5 * p.l1 * b1z;
  const double a2x = p.l1 * b1x + p.lc * b2x, a2z = p.l1 * b1z + p.lc * b2z;
  JointForces f;
  f.H = T + p.m2 * a2x;
  f.V = F - p.m2 * (a2z + p.g);
  f.R = f.H + p.m1 * a1x;
  f.P = p.m1 * (a1z + p.g) + p.m2 * (a2z + p.g) - F;
  return f;
}

}  // namespace granular::pendulum
