// Kinematics, Delassus matrix and contact-phase forces of the dimer
// (include/granular/impact/dimer/dynamics.hpp).
#include "granular/impact/dimer/dynamics.hpp"

#include <Eigen/Dense>
#include <cmath>

namespace granular::dimer {
namespace {

// Jacobian rows in COM coordinates (spec §2.2): n_i = [0, 1, s_i (l/2) cosθ],
// t_i = [1, 0, r − s_i (l/2) sinθ]; rows 0,1 normals, rows 2,3 tangents.
void jacobian(const Params& p, double theta, double k[4][3]) {
  const double half = 0.5 * p.l;
  for (int i = 0; i < 2; ++i) {
    const double s = side(i);
    k[i][0] = 0.0;
    k[i][1] = 1.0;
    k[i][2] = s * half * std::cos(theta);
    k[2 + i][0] = 1.0;
    k[2 + i][1] = 0.0;
    k[2 + i][2] = p.r - s * half * std::sin(theta);
  }
}

}  // namespace

PlateMotion plate_motion(const Params& p, double t) {
  const double phase = p.omega * t + p.phase;
  const double y = p.amplitude * std::cos(phase);
  return {y, -p.amplitude * p.omega * std::sin(phase), -p.omega * p.omega * y};
}

DimerBCoefficients dimer_b_coefficients(const Params& p, double theta) {
  // (3.2) with J_b = 2 m_b r²/5, J_r = m_r (l − 2r)²/12 and the squared l of b₆ (erratum 3)
  const double j_b = 0.4 * p.m_b * p.r * p.r;
  const double rod = p.l - 2.0 * p.r;
  const double j_r = p.m_r * rod * rod / 12.0;
  DimerBCoefficients b;
  b.beta = p.m_b * p.l * p.l + 4.0 * j_b + 2.0 * j_r;
  b.b1 = b.beta / (2.0 * p.m_b + p.m_r);
  const double s = std::sin(theta);
  b.b4 = (p.m_b + 0.5 * p.m_r) * p.l * p.l * s * s / (2.0 * p.m_b + p.m_r);
  b.b5 = 2.0 * p.r * p.l * s + 2.0 * p.r * p.r;
  b.b6 = (0.5 * p.l * p.l * s + p.r * p.l) * std::cos(theta);
  return b;
}

void dimer_delassus(const Params& p, double theta, double w[4][4]) {
  // W = K M⁻¹ Kᵀ with M = diag(m, m, J) in COM coordinates (spec §2.3)
  double k[4][3];
  jacobian(p, theta, k);
  const double inv[3] = {1.0 / p.mass(), 1.0 / p.mass(), 1.0 / p.inertia()};
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      w[a][b] =
          k[a][0] * k[b][0] * inv[0] + k[a][1] * k[b][1] * inv[1] + k[a][2] * k[b][2] * inv[2];
}

double dimer_mu_stick_single(const Params& p, double theta) {
  const DimerBCoefficients b = dimer_b_coefficients(p, theta);
  return std::fabs(b.b6) / (b.b1 + b.b4 + b.b5);
}

TipKinematics dimer_tip(const Params& p, double t, const State& y, int tip) {
  const double s = side(tip);
  const double half = 0.5 * p.l;
  const double c = std::cos(y[2]), sn = std::sin(y[2]);
  const PlateMotion plate = plate_motion(p, t);
  return {y[1] + s * half * sn - p.r - plate.y, y[4] + s * half * c * y[5] - plate.v,
          y[3] + (p.r - s * half * sn) * y[5]};
}

double dimer_kinetic_energy(const Params& p, const State& y) {
  return 0.5 * p.mass() * (y[3] * y[3] + y[4] * y[4]) + 0.5 * p.inertia() * y[5] * y[5];
}

DimerForces dimer_forces(const Params& p, double t, const State& y, const TipMode mode[2]) {
  DimerForces out{};
  double w[4][4];
  dimer_delassus(p, y[2], w);
  const double half = 0.5 * p.l;
  const double c = std::cos(y[2]), sn = std::sin(y[2]);
  const double rate2 = y[5] * y[5];
  const PlateMotion plate = plate_motion(p, t);

  // contact accelerations without contact forces: gravity and the centripetal terms (§2.2)
  double free[4];
  for (int i = 0; i < 2; ++i) {
    const double s = side(i);
    free[i] = -p.g - s * half * sn * rate2 - plate.a;
    free[2 + i] = -s * half * c * rate2;
  }

  // unknowns: one column of the force vector (F_n0, F_n1, F_t0, F_t1) each; slip folds
  // F_t = −μ_c σ F_n into the normal column (2.5a), stick adds a tangential unknown (2.5b)
  double cols[4][4] = {};
  int rows[4];
  int n = 0;
  const bool both_stick = mode[0] == TipMode::stick && mode[1] == TipMode::stick;
  const double det_t = w[2][2] * w[3][3] - w[2][3] * w[3][2];
  out.superstatic = both_stick && std::fabs(det_t) <= 1e-8 * w[2][2] * w[3][3];
  for (int i = 0; i < 2; ++i) {
    if (mode[i] == TipMode::open) continue;
    cols[n][i] = 1.0;
    if (mode[i] == TipMode::slip_positive) cols[n][2 + i] = -p.mu_c;
    if (mode[i] == TipMode::slip_negative) cols[n][2 + i] = p.mu_c;
    rows[n++] = i;
  }
  if (out.superstatic) {
    cols[n][2] = cols[n][3] = 0.5;
    rows[n++] = 2;
  } else {
    for (int i = 0; i < 2; ++i) {
      if (mode[i] != TipMode::stick) continue;
      cols[n][2 + i] = 1.0;
      rows[n++] = 2 + i;
    }
  }

  // solve the selected rows of free + W F = 0
  double force[4] = {0.0, 0.0, 0.0, 0.0};
  if (n > 0) {
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 4, 4> a(n, n);
    Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 4, 1> b(n);
    for (int row = 0; row < n; ++row) {
      b[row] = -free[rows[row]];
      for (int col = 0; col < n; ++col) {
        double v = 0.0;
        for (int k = 0; k < 4; ++k) v += w[rows[row]][k] * cols[col][k];
        a(row, col) = v;
      }
    }
    const Eigen::FullPivLU<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 4, 4>> lu(a);
    if (!lu.isInvertible()) out.singular = true;
    const auto z = lu.solve(b);
    for (int col = 0; col < n; ++col)
      for (int k = 0; k < 4; ++k) force[k] += z[col] * cols[col][k];
  }

  // accelerations of the body and of the contacts
  for (int i = 0; i < 2; ++i) {
    out.f_n[i] = force[i];
    out.f_t[i] = force[2 + i];
  }
  for (int i = 0; i < 2; ++i) {
    out.d_ddot[i] = free[i];
    out.vt_dot[i] = free[2 + i];
    for (int k = 0; k < 4; ++k) {
      out.d_ddot[i] += w[i][k] * force[k];
      out.vt_dot[i] += w[2 + i][k] * force[k];
    }
  }
  const double fx = force[2] + force[3];
  const double fy = force[0] + force[1];
  double torque = 0.0;
  for (int i = 0; i < 2; ++i) {
    const double s = side(i);
    torque += s * half * c * force[i] + (p.r - s * half * sn) * force[2 + i];
  }
  out.accel[0] = fx / p.mass();
  out.accel[1] = fy / p.mass() - p.g;
  out.accel[2] = torque / p.inertia();
  return out;
}

void dimer_apply_impulse(const Params& p, State& y, const double p_n[2], const double p_t[2]) {
  const double half = 0.5 * p.l;
  const double c = std::cos(y[2]), sn = std::sin(y[2]);
  double torque = 0.0;
  for (int i = 0; i < 2; ++i) {
    const double s = side(i);
    torque += s * half * c * p_n[i] + (p.r - s * half * sn) * p_t[i];
  }
  y[3] += (p_t[0] + p_t[1]) / p.mass();
  y[4] += (p_n[0] + p_n[1]) / p.mass();
  y[5] += torque / p.inertia();
}

State dimer_initial_state(const Params& p, double h0, double theta0) {
  // the left (lower) sphere's lowest point h₀ above y = 0, the body at rest (spec §1)
  State y = State::Zero(6);
  y[1] = h0 + p.r + 0.5 * p.l * std::sin(theta0);
  y[2] = theta0;
  return y;
}

}  // namespace granular::dimer
