// The dimer's impact map (Zhao, Liu & Brogliato 2009, §2.5, §3; docs/dimer.md): Darboux–Keller
// impulse dynamics over the tips in the impact set.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/dimer/impact_map.hpp is host-only"
#endif

#include "granular/impact/dimer/dynamics.hpp"
#include "granular/impulse/darboux_keller.hpp"

namespace granular::dimer {

struct DimerImpact {
  double t;
  bool tips[2];     // tips in the impact set
  bool plastic[2];  // the approach was below impact_to_contact (e = 0)
  double d_dot_before[2], d_dot_after[2];
  double vt_before[2], vt_after[2];
  double p_n[2], p_t[2];
  impulse::DkSlip slip[2];
  int primary;  // first primary contact
  double theta;
  double energy_before, energy_after;  // kinetic energy in the plate frame [J]
  bool converged;
};

// One impact at time t (spec §2.5): the approaching open tips and the closed tips take part;
// an approach slower than impact_to_contact is plastic (e = 0), so the tip stays on the plate
// (the impact → contact switch of spec §3). Tips leaving with ḋ⁺ ≤ 0 close: `mode` is updated.
DimerImpact dimer_impact(const Params& p, const Options& o, double t, State& y, TipMode mode[2]);

}  // namespace granular::dimer
