// The schema pieces the two models of the MD engine share (packing_ensemble and collision): a
// contact's parameters, the integrator with its time-step rule and its limits, and the disks'
// inertia (docs/cases.md).
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/md_schema.hpp is host-only"
#endif

#include <string>

#include "granular/cases/description.hpp"
#include "granular/contact_law.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/md/ensemble/case.hpp"
#include "granular/md/model.hpp"

namespace granular::cases {

// Rejects disks whose mass ρπr² or moment of inertia m r²/2 is 0 or infinite in a double (a
// density or radius far outside physics): every time scale would be NaN.
void check_disk_inertia(const io::JsonObject& where, const std::string& key, double areal_density,
                        double radius);

// {"k_n", "k_t", "gamma_n", "mu"}.
ContactParams read_contact(const io::JsonObject& o);

// "scheme": "gear5" (default) or "velocity_verlet".
md::Integrator read_scheme(const io::JsonObject& integrator);

// The time-step rule of an "integrator" object: exactly one of dt and steps_per_collision.
struct StepRule {
  bool given_dt;               // dt given directly
  double dt;                   // [s] when given_dt
  double steps_per_collision;  // when !given_dt
};
StepRule read_step_rule(const io::JsonObject& integrator, double default_steps);

// Rejects a step above `limit` [s] (largest_time_step), naming the key that set it.
void check_time_step(const io::JsonObject& integrator, const StepRule& rule, double dt,
                     double limit);

// Rejects a time step so fine that a collision takes more than `most` steps: with
// steps_per_collision or dt far below any use, the run would never end.
void check_steps_per_collision(const io::JsonObject& integrator, const StepRule& rule,
                               double steps_per_collision, double most);

// A "run" object: settle_time, transient_time, measure_time, sample_interval [s], the sampling
// interval within the measurement.
md::RunSchedule read_schedule(const io::JsonObject& run);

// The steps of the schedule at time step dt (md::plan_run), after refusing one sampled more
// finely than dt or longer than max_run_steps steps of it: every count derived from the run's
// times comes from here, checked, so none overflows.
md::RunSteps checked_run_steps(const io::JsonObject& run, const md::RunSchedule& s, double dt);

// One line of `granular validate` per contact type and mass: m_eff, damping ratio c, e_n, t_c
// (eqs. 4.55–4.56), recorded in d's current group as m_eff, c, e_n, t_c.
void describe_contact(Description& d, const char* label, const ContactParams& p, double m_eff);

}  // namespace granular::cases
