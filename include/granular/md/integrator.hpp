// Time integrators of one coordinate, GRANULAR_HD: Gear's 5th-order predictor–corrector (what
// the thesis used, §2.2) and velocity Verlet.
#pragma once

#include <cmath>

#include "granular/hd.hpp"

namespace granular::md {

// The constants of one Gear step of length dt, computed once per step rather than for every
// coordinate (five divisions each time: 7 % of a 60-disk Gear step); the expressions are those
// of the textbook forms, so the values are the same.
struct Gear5Step {
  double dt;
  double h2, h3, h4, h5;    // predictor: dt^k / k!
  double q, v, d3, d4, d5;  // corrector: gain of each derivative per unit change of a
};

GRANULAR_HD inline Gear5Step gear5_step(double dt) {
  Gear5Step s;
  s.dt = dt;
  s.h2 = dt * dt / 2.0;
  s.h3 = s.h2 * dt / 3.0;
  s.h4 = s.h3 * dt / 4.0;
  s.h5 = s.h4 * dt / 5.0;
  // Gear's coefficients for velocity-dependent forces (α0 = 3/16 instead of 3/20, Gear 1966 /
  // Allen & Tildesley Table E.1). In scaled form r_k += α_k Δr_2 with r_k = dt^k q^(k)/k!,
  // Δr_2 = dt²/2 (a_new − a_pred); here unscaled.
  s.q = (3.0 / 16.0) * s.h2;
  s.v = (251.0 / 360.0) * (dt / 2.0);
  s.d3 = (11.0 / 18.0) * (3.0 / dt);
  s.d4 = (1.0 / 6.0) * (12.0 / (dt * dt));
  s.d5 = (1.0 / 60.0) * (60.0 / (dt * dt * dt));
  return s;
}

// Gear predictor for a 2nd-order ODE: Taylor expansion of (q, q', q'', q''', q'''', q''''')
// over dt (Allen & Tildesley, §3.2).
GRANULAR_HD inline void gear5_predict(const Gear5Step s, double& q, double& v, double& a,
                                      double& d3, double& d4, double& d5) {
  q += s.dt * v + s.h2 * a + s.h3 * d3 + s.h4 * d4 + s.h5 * d5;
  v += s.dt * a + s.h2 * d3 + s.h3 * d4 + s.h4 * d5;
  a += s.dt * d3 + s.h2 * d4 + s.h3 * d5;
  d3 += s.dt * d4 + s.h2 * d5;
  d4 += s.dt * d5;
}

// In free flight the corrector drives the higher derivatives geometrically towards zero, into
// the subnormal range, where x86 arithmetic is ~100x slower. Values this small carry no
// physics (a 5th derivative of 1e-200 m/s^5 moves nothing in any run), so they are flushed,
// the same way on every backend.
GRANULAR_HD inline double flush_tiny(double d) { return fabs(d) < 1e-200 ? 0.0 : d; }

// Gear corrector with the new acceleration a_new.
GRANULAR_HD inline void gear5_correct(const Gear5Step s, double a_new, double& q, double& v,
                                      double& a, double& d3, double& d4, double& d5) {
  const double delta = a_new - a;
  q += s.q * delta;
  v += s.v * delta;
  a = a_new;
  d3 = flush_tiny(d3 + s.d3 * delta);
  d4 = flush_tiny(d4 + s.d4 * delta);
  d5 = flush_tiny(d5 + s.d5 * delta);
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
