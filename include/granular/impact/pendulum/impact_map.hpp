// The pendulum's impact map: Routh's method with Poisson's restitution at the frozen
// configuration, and the joint reaction impulses (Sypniewska-Kamińska et al. 2017, §2.3–2.6).
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/pendulum/impact_map.hpp is host-only"
#endif

#include <Eigen/Dense>

#include "granular/impact/pendulum/dynamics.hpp"
#include "granular/impulse/routh.hpp"

namespace granular::pendulum {

// Impulses at the joints (spec §2.3: H, V at A; R, P at O), [N s].
struct JointImpulses {
  double H, V, R, P;
};

// One impact, frozen configuration (spec §2.6).
struct PendulumImpact {
  double t;           // [s]
  double psi1, psi2;  // ψ* [rad], unwrapped
  double gap;         // f at the located impact (≤ 0, within the event tolerance) [m]
  Eigen::Vector2d omega_before;
  Eigen::Vector2d omega_after;  // [rad/s]
  double s_before, c_before;    // s0, c0 [m/s]
  impulse::Delassus w;          // {γ, ε, α} [1/kg]
  impulse::RouthImpact routh;   // impulses, s_f, c_f, case
  JointImpulses joint;
  double energy_before, energy_after;  // [J]
  bool plastic;  // applied with k = 0 on entering persistent contact (Zeno policy)
};

// Applies Routh's method at the state y (pre-impact); k and mu as given (spec §2.5–2.6).
// routh.routh_case == not_an_impact when c0 ≥ 0: then omega_after = omega_before.
PendulumImpact pendulum_impact(const Params& p, double t, const State& y, double k, double mu);

}  // namespace granular::pendulum
