// A regular N-gon prism rolling down a ramp by pure rotation about its edges (Zhao, Liu & Ma
// 2014; spec specs/prism.md). Contact phases are a 1-DOF inverted pendulum about the rolling
// edge A (§2.1, with the corrected reaction forces); each face impact is either the Winkler
// line impact integrated in the stress impulse p* with the signed-root state (§2.3) and ended
// by the termination rule (3.29), or the classic rigid plastic point impact at the leading
// edge B (κ_c, §0) for comparison.
//
// Conventions (§1): θ is counter-clockwise, so rolling downhill has θ̇ < 0; all angular
// velocities below are θ̇ in that sign convention. λ is the angle between the next face AB and
// the ramp; it falls from 2α to 0 in a contact phase (λ̇ = θ̇).
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/prism.hpp is host-only"
#endif

#include <memory>
#include <string>
#include <vector>

#include "granular/impact/hybrid.hpp"

namespace granular::impact {

// The closed-form geometry and mass properties of §1 (per unit mass).
struct PrismGeometry {
  int n_sides;          // N
  double circumradius;  // a0, centre of mass C to each edge [m]
  double length;        // l, along the axis [m]
  double alpha;         // half central angle π/N [rad]
  double face_width;    // b = 2 a0 sinα [m]
  double apothem;       // h = a0 cosα, C to each face [m]
  double j_c;           // J/m = a0²(cos2α + 2)/6 [m²]
  double j_edge;        // J_A/m = a0²(cos2α + 8)/6, about an edge [m²]
  double j_face;        // J'/m = J/m + h², sticking face [m²]
  double area;          // cross-section (N/2) a0² sin2α [m²]
};

PrismGeometry prism_geometry(int n_sides, double circumradius, double length);

// The classic rigid plastic sticking point impact at B: κ_c = (7cos2α + 2)/(cos2α + 8) (§0).
double classic_kappa(int n_sides);

enum class PrismImpactModel { line, point };

// The model: constant during a run (STYLE §2).
struct PrismParams {
  PrismGeometry geometry;
  double mass = 0.0;      // m [kg]
  double slope = 0.0;     // β [rad]
  double gravity = 9.81;  // g [m/s²]
  double mu_s = 0.12;     // stick coefficient μ_s
  double mu_slip = 0.12;  // slip coefficient μ (the paper gives none)
  PrismImpactModel impact = PrismImpactModel::line;
};

// Reaction of the ramp at the rolling edge A in pure rotation, the corrected §2.1 forms
// (the printed (2.1) fails the static check).
struct EdgeReaction {
  double normal;      // F^n [N]
  double tangential;  // F^τ [N], + downhill
};
EdgeReaction edge_reaction(const PrismParams& p, double lambda, double theta_dot);

// ---- line impact (§2.2–2.4) ----

struct LineImpactOptions {
  double start = 1e-12;  // p* of the start-up step in units of m|ω0|/l (§2.3 start-up)
  double rtol = 1e-12;   // Dormand–Prince tolerances on the scaled state
  double atol = 1e-14;
  double max_chunk = 0.02;   // largest p* span between samples, units of m|ω0|/l
  double max_impulse = 1e3;  // gives up beyond this p* (units of m|ω0|/l)
};

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
LineImpactResult line_impact(const PrismParams& p, double omega_before,
                             const LineImpactOptions& o = {},
                             std::vector<LineImpactSample>* trace = nullptr);

// The time-domain Winkler penalty form of §2.3 (sticking only): σ = K max(0, −δ), stopped at
// v^n(B) = 0. A cross-check of line_impact; K = E*/Δ [Pa/m].
struct TimeDomainImpact {
  double kappa;
  double duration;  // [s]
  bool pivot_b;
};
TimeDomainImpact line_impact_time_domain(const PrismParams& p, double omega_before, double k);

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
PointImpactResult point_impact(const PrismParams& p, double omega_before);

// ---- the run (§3) ----

struct PrismRunOptions {
  double lambda0 = 0.0;       // release angle λ0 [rad]
  double omega0 = 0.0;        // forward rolling rate at release, ≥ 0 [rad/s] (θ̇ = −omega0)
  double ramp_length = 0.65;  // the run ends when the edge has advanced this far [m]
  double t_end = 60.0;        // [s]
  long long max_events = 100000;  // impacts (and slip/detachment events) before event_limit
  double sample_dt = 1e-3;        // rolling samples [s]
  bool stop_on_violation = true;  // slip/detachment: stop, or record and go on (paper's model)
  OdeOptions ode;                 // contact phase integrator
  LineImpactOptions line;
  // min_speed: the approach speed of B [m/s] below which the prism is at rest
  ZenoGuard zeno = [] {
    ZenoGuard z;
    z.min_speed = 1e-9;
    return z;
  }();
};

struct PrismImpactRecord {
  int index;            // 1-based
  double t;             // [s]
  double omega_before;  // θ̇⁻ [rad/s]
  double omega_after;   // θ̇⁺ [rad/s]
  double kappa;
  std::string mode;  // line: stress modes ("DS-I"); point: "point"
  bool sticking;
  double friction_demand;  // |F_τ/F_n| the impact needs to stick
  double energy_lost;      // [J]
  double lp;               // L_p at the impact (4.2)
};

struct RollingSample {
  double t;          // [s]
  int impacts;       // completed
  double lambda;     // [rad]
  double theta_dot;  // [rad/s]
  double lp;         // L_p = Nθ/(2π), faces rolled (4.2)
  double energy;     // ½J_A θ̇² + m g y_C, y_C relative to the release edge [J]
};

struct PrismRunResult {
  std::vector<PrismImpactRecord> impacts;
  std::vector<RollingSample> rolling;
  // How it ended (hybrid.hpp): completed (reason ramp_end: the rolling edge reached the end of
  // the ramp); time_limit; event_limit (max_events); zeno (reason at_rest: impacts too
  // slow or too frequent); model_stop with reason does_not_roll (released from rest at
  // λ0 ≥ α + β: it falls back), stalled (θ̇ reached 0 in a contact phase: it rocks back),
  // slip (friction demand above μ_s, contact phase or impact), detachment (F^n reached 0) or
  // impact_failed (the line impact did not end by pivoting on B); non_finite;
  // integrator_failed.
  RunStatus status = RunStatus::time_limit;
  std::string reason;    // the model's word for it
  std::string detail;    // a sentence on how the run ended
  double t_final = 0.0;  // [s]
  double lp_final = 0.0;
  double max_contact_demand = 0.0;  // largest |F^τ|/F^n seen in contact phases (samples)
  double min_normal_ratio = 0.0;    // smallest F^n/(mg) seen in contact phases (samples)
  int slip_violations = 0;          // contact-phase or impact slips recorded
  int detach_violations = 0;
};

PrismRunResult run_prism(const PrismParams& p, const PrismRunOptions& o);

}  // namespace granular::impact
