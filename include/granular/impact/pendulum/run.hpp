// The pendulum's run: flight, impacts and the Zeno policy's persistent contact (sliding or
// rest, with Coulomb friction), through the event-driven driver (hybrid.hpp;
// docs/pendulum.md, "Method").
#pragma once

#include "granular/hd.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/pendulum/run.hpp is host-only"
#endif

#include <optional>
#include <string>
#include <vector>

#include "granular/impact/pendulum/impact_map.hpp"

namespace granular::pendulum {

// How the run treats the contact at a given moment.
enum class ContactMode { flight, sliding, rest };
inline constexpr Named<ContactMode> contact_mode_names[] = {{ContactMode::flight, "flight"},
                                                            {ContactMode::sliding, "sliding"},
                                                            {ContactMode::rest, "rest"}};


// One row of the time series.
struct PendulumSample {
  double t;
  State y;        // (ψ1, ψ2, ψ̇1, ψ̇2)
  double energy;  // [J]
  double gap;     // [m]
  JointForces joint;
  double F, T;  // contact forces at M [N] (0 in flight)
  ContactMode mode;
};

// The switch to persistent contact (Zeno policy) and where it led.
struct PendulumZeno {
  double t;               // time of the accumulating impact [s]
  double approach_speed;  // −c0 of that impact [m/s]
  int impact_index;       // its index in impacts
  int impacts_in_window;  // impacts counted by the guard's window
};

// A change of contact mode (persistent contact only): time, new mode and forces there.
struct ContactTransition {
  double t;
  ContactMode mode;
  double F, T;  // contact forces just after the switch [N]
};

// How the run ended (Stop, hybrid.hpp): completed; or model_stop with reason painleve (persistent
// sliding with γ − μσε ≤ 0: no consistent contact force) or missed_contact (the disk below the
// floor in flight: a flight shorter than a step); or non_finite, event_limit, integrator_failed
// (hybrid.hpp)
struct Result : Stop {
  std::vector<PendulumImpact> impacts;
  std::vector<PendulumSample> samples;
  std::optional<PendulumZeno> zeno;
  std::vector<ContactTransition> transitions;
  double t_final = 0.0;
  State y_final;
  ContactMode final_mode = ContactMode::flight;
};

// Runs from (ψ, ψ̇)(0) = y0 to options.t_end (spec §3, with exact event location).
Result run_pendulum(const Params& p, const State& y0, const Options& options);

}  // namespace granular::pendulum
