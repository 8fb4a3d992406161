// The prism's contact phase (Zhao, Liu & Ma 2014, §2.1; docs/prism.md): pure rotation about
// the rolling edge A and the ramp's reaction there.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/prism/dynamics.hpp is host-only"
#endif

#include "granular/impact/prism/params.hpp"

namespace granular::prism {

// Reaction of the ramp at the rolling edge A in pure rotation, the corrected §2.1 forms
// (the printed (2.1) fails the static check).
struct EdgeReaction {
  double normal;      // F^n [N]
  double tangential;  // F^τ [N], + downhill
};
EdgeReaction edge_reaction(const Params& p, double lambda, double theta_dot);

}  // namespace granular::prism
