// The billiard's run through the event-driven driver (hybrid.hpp): flights with drag ended by
// impacts, and persistent contact after accumulating impacts (docs/billiard.md).
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/billiard/run.hpp is host-only"
#endif

#include <string>
#include <vector>

#include "granular/impact/billiard/dynamics.hpp"
#include "granular/impact/billiard/impact_map.hpp"

namespace granular::billiard {

struct BilliardCollision {
  double t;            // impact time [s]
  double q1;           // centre [m]
  double height;       // centre height q2 [m]
  double flight_time;  // t − previous impact (or − start) [s]
  double u_n_before;   // relative normal velocity before [m/s]
  double u_t_after;    // post-impact tangential speed u4 [m/s]
  double spin_after;   // post-impact spin u3 [rad/s]
  double u5_after;     // post-impact normal speed u5 [m/s]
  double energy;       // total energy after [J]
  double norm_height;  // (q2 − q2,rest) / (q2,max − q2,rest), Fig. 7 (docs/billiard.md)
  double norm_u_t;     // u4 / u4,max
  double e_used;
  Surface surface;
  bool sticking;
};

struct BilliardSample {
  double t, q1, q2, v1, v2, spin, wall_offset;
};

struct BilliardContactPhase {
  int episode;  // which accumulation (Zeno switch) led to it, from 0
  Surface surface;
  BilliardContactMode mode;
  BilliardContactEnd end;
  double t_start, t_end;                      // [s]
  double q1_start, q2_start, q1_end, q2_end;  // centre [m]
  double f_n_end;                             // normal force at the end [N]
};

// How it ended (hybrid.hpp): completed (max_collisions impacts); time_limit (t_end);
// zeno (persistent contact could not go on: why in `fallback`); model_stop with reason
// penetrated (an impact missed by a flight shorter than a step); non_finite;
// integrator_failed; event_limit.
struct Result : Stop {
  std::vector<BilliardCollision> collisions;
  std::vector<BilliardSample> trajectory;
  double t_end = 0.0;              // time reached [s]
  long long grazing = 0;           // gap zeros with no approach (no impulse applied)
  long long low_velocity = 0;      // impacts under the e = 1 rule
  long long sticking = 0;          // impacts that stuck
  long long plastic_switches = 0;  // plastic impacts (e = 0) handed over to persistent contact
  long long ceiling_hits = 0;
  std::vector<BilliardContactPhase> contact_phases;
  long long zeno_switches = 0;    // accumulations detected (each ends in a plastic impact)
  long long liftoff_at_once = 0;  // plastic impacts after which F_n <= 0 (flight goes on)
  double zeno_time = 0.0;         // when the first accumulation was detected [s]
  double zeno_q1 = 0.0, zeno_q2 = 0.0;
  std::string fallback;  // status zeno: why persistent contact could not continue
};

// Runs from `init` until max_collisions impacts, max_time, or a clean stop (an undetermined
// contact, a lost event, a non-finite state). A ball placed on a surface (gap within 1e-9 b,
// relative normal speed below zeno.min_speed) starts in persistent contact. Never throws on
// numerical trouble: the status says.
Result run_billiard(const Params& m, const Options& o, const BilliardInitial& init);

}  // namespace granular::billiard
