// The prism's face impacts (Zhao, Liu & Ma 2014, §0, §2.2–2.4, §6.3): the Winkler line impact
// in the stress impulse p* with its termination rule (3.29), its time-domain cross-check, and
// the classic rigid plastic point impact at the leading edge B.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/prism/impact_map.hpp is host-only"
#endif

#include <string>
#include <vector>

#include "granular/impact/prism/params.hpp"

namespace granular::prism {

// The classic rigid plastic sticking point impact at B: κ_c = (7cos2α + 2)/(cos2α + 8) (§0).
double classic_kappa(int n_sides);

// ---- line impact (§2.2–2.4) ----


enum class LineImpactOutcome {
  pivot_b,       // (3.29) with v^n(B) = 0: the prism pivots forward on B (§2.4)
  rock_back_a,   // (3.29) with v^n(A) = 0: it would rock back onto A (outside the paper)
  lost_contact,  // every ζ ≤ 0: free flight, excluded by A3
  unfinished     // no termination within max_impulse, or the integrator failed
};

// One sample of the impact, at the end of each p* chunk.
struct LineImpactSample {
  double p_star;          // [Pa s]
  double u, w, omega;     // v_C·n, v_C·τ [m/s], θ̇ [rad/s]
  double zeta_a, zeta_b;  // signed roots of the energy density at A and B [√(J/m²)]
  double kinetic;         // ½m(u² + w²) + ½Jω² [J]
  double layer;           // l∫_{D2} ζ² dξ, elastic energy in the layer [J]
  double s;               // zero of the stress line [m] (NaN when both ζ have one sign)
  const char* mode;       // "DS-I" ... "DS-IV", "none"
  bool sticking;
};

struct LineImpactResult {
  LineImpactOutcome outcome = LineImpactOutcome::unfinished;
  double omega_after = 0.0;             // θ̇⁺ [rad/s]
  double kappa = 0.0;                   // θ̇⁺/θ̇⁻
  double u_after = 0.0, w_after = 0.0;  // C velocity after [m/s]
  double slip_velocity = 0.0;           // v^τ at termination [m/s] (0 when sticking)
  double p_star = 0.0;                  // final stress impulse [Pa s]
  double normal_impulse = 0.0;          // P_n [N s]
  double tangential_impulse = 0.0;      // P_τ [N s]
  double friction_demand = 0.0;         // largest |F_τ/F_n| that sticking needs (§2.3)
  double s_end = 0.0;                   // s at termination [m]
  double kinetic_before = 0.0, kinetic_after = 0.0;  // [J]
  double layer_energy = 0.0;                         // discarded at termination [J]
  double invariant_error = 0.0;  // max |KE + layer + friction work − KE0| / KE0 over samples
  std::string modes;             // stress modes seen, e.g. "DS-I"
  bool sticking = true;          // never slipped
  int samples = 0;
};

// Integrates one line impact from the pre-impact pure rotation about A with θ̇⁻ = omega_before
// (< 0). `trace`, if given, receives one sample per chunk.
LineImpactResult line_impact(const Params& p, double omega_before, const LineImpactOptions& o = {},
                             std::vector<LineImpactSample>* trace = nullptr);

// The time-domain Winkler penalty form of §2.3 (sticking only): σ = K max(0, −δ), stopped at
// v^n(B) = 0. A cross-check of line_impact; K = E*/Δ [Pa/m].
struct TimeDomainImpact {
  double kappa;
  double duration;  // [s]
  bool pivot_b;
};
TimeDomainImpact line_impact_time_domain(const Params& p, double omega_before, double k);

// ---- classic point impact at B (§0, §6.3) ----

struct PointImpactResult {
  double omega_after;         // θ̇⁺ [rad/s]
  double kappa;               // θ̇⁺/θ̇⁻
  double normal_impulse;      // P_n at B [N s]
  double tangential_impulse;  // P_τ at B [N s]
  double friction_demand;     // |P_τ/P_n| that sticking needs
  double v_n_a_after;         // normal velocity of A after [m/s]; ≥ 0: A lifts off
  bool sticking;
};
// Rigid plastic (e = 0) impact at B through the shared Newton–Coulomb law (impulse/restitution).
PointImpactResult point_impact(const Params& p, double omega_before);

}  // namespace granular::prism
