// The prism's run (Zhao, Liu & Ma 2014, §3): contact phases ended by the next face landing,
// whose impact starts the roll about the next edge, through the event-driven driver
// (hybrid.hpp).
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/prism/run.hpp is host-only"
#endif

#include <string>
#include <vector>

#include "granular/impact/prism/dynamics.hpp"
#include "granular/impact/prism/impact_map.hpp"

namespace granular::prism {

// ---- the run (§3) ----


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

// How it ended (hybrid.hpp): completed (reason ramp_end: the rolling edge reached the end of
// the ramp); time_limit; event_limit (max_events); zeno (reason at_rest: impacts too
// slow or too frequent); model_stop with reason does_not_roll (released from rest at
// λ0 ≥ α + β: it falls back), stalled (θ̇ reached 0 in a contact phase: it rocks back),
// slip (friction demand above μ_s, contact phase or impact), detachment (F^n reached 0) or
// impact_failed (the line impact did not end by pivoting on B); non_finite;
// integrator_failed.
struct Result : Stop {
  std::vector<PrismImpactRecord> impacts;
  std::vector<RollingSample> rolling;
  double t_final = 0.0;  // [s]
  double lp_final = 0.0;
  double max_contact_demand = 0.0;  // largest |F^τ|/F^n seen in contact phases (samples)
  double min_normal_ratio = 0.0;    // smallest F^n/(mg) seen in contact phases (samples)
  int slip_violations = 0;          // contact-phase or impact slips recorded
  int detach_violations = 0;
};

Result run_prism(const Params& p, const Options& o);

}  // namespace granular::prism
