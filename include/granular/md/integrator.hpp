// Time integrators of one coordinate, GRANULAR_HD: Gear's 5th-order predictor–corrector (what
// the thesis used, §2.2) and velocity Verlet.
#pragma once

#include <cmath>

#include "granular/hd.hpp"

namespace granular::md {

// Gear predictor for a 2nd-order ODE: Taylor expansion of (q, q', q'', q''', q'''', q''''')
// over dt (Allen & Tildesley, §3.2).
GRANULAR_HD inline void gear5_predict(double dt, double& q, double& v, double& a, double& d3,
                                      double& d4, double& d5) {
  const double h2 = dt * dt / 2.0;
  const double h3 = h2 * dt / 3.0;
  const double h4 = h3 * dt / 4.0;
  const double h5 = h4 * dt / 5.0;
  q += dt * v + h2 * a + h3 * d3 + h4 * d4 + h5 * d5;
  v += dt * a + h2 * d3 + h3 * d4 + h4 * d5;
  a += dt * d3 + h2 * d4 + h3 * d5;
  d3 += dt * d4 + h2 * d5;
  d4 += dt * d5;
}

// In free flight the corrector drives the higher derivatives geometrically towards zero, into
// the subnormal range, where x86 arithmetic is ~100x slower. Values this small carry no
// physics (a 5th derivative of 1e-200 m/s^5 moves nothing in any run), so they are flushed,
// the same way on every backend.
GRANULAR_HD inline double flush_tiny(double d) { return fabs(d) < 1e-200 ? 0.0 : d; }

// Gear corrector with the coefficients for velocity-dependent forces (α0 = 3/16 instead of
// 3/20, Gear 1966 / Allen & Tildesley Table E.1). In scaled form r_k += α_k Δr_2 with
// r_k = dt^k q^(k)/k!, Δr_2 = dt²/2 (a_new − a_pred); here unscaled.
GRANULAR_HD inline void gear5_correct(double dt, double a_new, double& q, double& v, double& a,
                                      double& d3, double& d4, double& d5) {
  const double delta = a_new - a;
  const double h2 = dt * dt / 2.0;
  q += (3.0 / 16.0) * h2 * delta;
  v += (251.0 / 360.0) * (dt / 2.0) * delta;
  a = a_new;
  d3 = flush_tiny(d3 + (11.0 / 18.0) * (3.0 / dt) * delta);
  d4 = flush_tiny(d4 + (1.0 / 6.0) * (12.0 / (dt * dt)) * delta);
  d5 = flush_tiny(d5 + (1.0 / 60.0) * (60.0 / (dt * dt * dt)) * delta);
}

// Velocity Verlet, first half: half kick and drift. Forces are then evaluated with the
// half-step velocity (as LAMMPS fix nve/sphere does for velocity-dependent granular forces).
GRANULAR_HD inline void verlet_predict(double dt, double& q, double& v, double a) {
  v += 0.5 * dt * a;
  q += dt * v;
}

// Velocity Verlet, second half kick with the new acceleration.
GRANULAR_HD inline void verlet_correct(double dt, double a_new, double& v, double& a) {
  v += 0.5 * dt * a_new;
  a = a_new;
}

}  // namespace granular::md
