// The dimer's run (Zhao, Liu & Brogliato 2009, §3; docs/dimer.md): the event-driven scheme
// through the driver (hybrid.hpp), the mean drift and the motion mode.
#pragma once

#include "granular/hd.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/dimer/run.hpp is host-only"
#endif

#include <string>
#include <vector>

#include "granular/impact/dimer/impact_map.hpp"

namespace granular::dimer {

// A phase interval of one tip: open (flight), stick or slip.
struct DimerPhase {
  int tip;
  TipMode mode;
  double t_start, t_end;
};

struct DimerSample {
  double t;
  double x[2], y[2];      // sphere centres [m]
  double d[2], d_dot[2];  // gaps and their rates [m, m/s]
  double v_t[2];          // slip velocities of the tips [m/s]
  double vx[2];           // horizontal velocities of the sphere centres [m/s]
  double theta, theta_dot, y_plate;
  double f_n[2], f_t[2];
  TipMode mode[2];
};

enum class DimerMotion { rest, drift, jump, flutter, mixed };
inline constexpr Named<DimerMotion> motion_names[] = {{DimerMotion::rest, "rest"},
                                                      {DimerMotion::drift, "drift"},
                                                      {DimerMotion::jump, "jump"},
                                                      {DimerMotion::flutter, "flutter"},
                                                      {DimerMotion::mixed, "mixed"}};

// How it ended (hybrid.hpp): completed at t_end; event_limit (max_events); model_stop with
// reason impact_not_converged (Darboux–Keller within impulse_steps) or singular_contact (no
// contact forces for the closed tips); non_finite (then the drifts are NaN);
// integrator_failed.
struct Result : Stop {
  double t_final = 0.0;
  State y_final;
  std::vector<DimerSample> samples;
  std::vector<DimerImpact> impacts;
  std::vector<DimerPhase> phases;
  double mean_drift = 0.0;        // ⟨u⟩ of the left sphere over [average_from, t_end] [m/s]
  double mean_drift_right = 0.0;  // the same for the right sphere [m/s]
  DimerMotion motion = DimerMotion::mixed;
  // in drift: the tip lying on the plate (-1 otherwise), and ⟨u⟩ counted positive towards the
  // bouncing end, the paper's convention (spec §1), whichever sphere ended up bouncing [m/s]
  int resting_tip = -1;
  double drift_to_bouncing_end = 0.0;
  // the impact pattern behind the classification (per tip, over the averaging window)
  double impacts_per_period[2] = {0.0, 0.0};  // impacts with approach above 10% of Aω
  double contact_fraction[2] = {0.0, 0.0};    // time fraction closed
  long events = 0;
};

// Runs the event-driven scheme of spec §3 from y0 at t = 0.
Result run_dimer(const Params& p, const State& y0, const Options& o);

// Motion mode from the impact pattern and contact fractions (src/impact/dimer/mode.cpp).
DimerMotion classify_dimer_motion(const Params& p, const Result& run, const Options& o,
                                  double impacts_per_period[2], double contact_fraction[2]);

}  // namespace granular::dimer
