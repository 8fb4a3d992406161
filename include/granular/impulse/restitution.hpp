// Impulse-level laws of one planar contact, shared by the host impact models: Newton's and
// Poisson's restitution, the Coulomb cone with static and kinetic coefficients, and the
// stick/slip decision of a single frictional impact (Kane & Levinson's algebraic law). Part of
// contact_law.hpp, so that "e" and "μ" mean the same thing in every model.
//
// A planar contact is described by its Delassus matrix W (the inverse effective mass seen in
// contact coordinates: Δu = W P, u = (u_n, u_t), P = (P_n, P_t)), symmetric positive definite.
#pragma once

#include <cmath>

#include "granular/hd.hpp"

namespace granular::impulse {

// Contact-space inverse mass: Δu_n = w_nn P_n + w_nt P_t, Δu_t = w_nt P_n + w_tt P_t.
struct Delassus {
  double w_nn;
  double w_nt;
  double w_tt;
};

struct ContactImpulse {
  double p_n;      // normal impulse [N s], ≥ 0
  double p_t;      // tangential impulse [N s]
  bool sticking;   // the contact point ends the impact with u_t = 0
};

// Newton's law: the normal velocity after the impact is −e times the one before.
GRANULAR_HD inline double newton_rebound(double u_n_before, double e) { return -e * u_n_before; }

// Poisson's law: the total normal impulse is (1 + e) times the compression impulse.
GRANULAR_HD inline double poisson_total_impulse(double compression_impulse, double e) {
  return (1.0 + e) * compression_impulse;
}

// Coulomb's cone in impulse space.
GRANULAR_HD inline bool inside_friction_cone(double p_n, double p_t, double mu) {
  return fabs(p_t) <= mu * p_n;
}

// One frictional impact with Newton's restitution (Kane & Levinson): try sticking
// (u_n' = −e u_n, u_t' = 0); keep it if the impulse lies in the static cone |P_t| ≤ μ_s P_n,
// else slide with |P_t| = μ_k P_n opposing the pre-impact slip, keeping u_n' = −e u_n.
// u_n < 0 approaching. This algebraic law can gain energy when w_nt ≠ 0 (Kane's paradox); the
// models that need more use Routh's or Darboux–Keller's impulse-space integration instead.
GRANULAR_HD inline ContactImpulse newton_coulomb_impact(const Delassus& w, double u_n, double u_t,
                                                       double e, double mu_static,
                                                       double mu_kinetic) {
  // sticking: solve W P = (−(1 + e) u_n, −u_t)
  const double dn = -(1.0 + e) * u_n;
  const double dt = -u_t;
  const double det = w.w_nn * w.w_tt - w.w_nt * w.w_nt;
  const double p_n_stick = (w.w_tt * dn - w.w_nt * dt) / det;
  const double p_t_stick = (w.w_nn * dt - w.w_nt * dn) / det;
  if (p_n_stick >= 0.0 && inside_friction_cone(p_n_stick, p_t_stick, mu_static)) {
    return {p_n_stick, p_t_stick, true};
  }
  // sliding: P_t = −s μ_k P_n, s = sgn(u_t); the normal rebound fixes P_n
  const double s = u_t > 0.0 ? 1.0 : (u_t < 0.0 ? -1.0 : (p_t_stick > 0.0 ? -1.0 : 1.0));
  const double p_n = dn / (w.w_nn - s * mu_kinetic * w.w_nt);
  return {p_n, -s * mu_kinetic * p_n, false};
}

}  // namespace granular::impulse
