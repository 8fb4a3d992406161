// The "collision" model: one disk–disk or disk–wall collision without gravity, run through the
// packing engine, measured against the closed forms of contact_law.hpp (spec
// thesis-packings.md §3.2–3.3). This is how users and tests check the contact law.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "granular/contact_law.hpp"
#include "granular/impulse/restitution_table.hpp"
#include "granular/md/model.hpp"

namespace granular::md {

enum class CollisionKind { disk_disk, disk_wall };

struct CollisionCase {
  CollisionKind kind = CollisionKind::disk_wall;
  double radius_a = 0.02;       // [m]
  double radius_b = 0.02;       // [m] (disk–disk only)
  double areal_density = 3.57;  // [kg/m²]
  ContactParams contact{};      // the law of this contact type
  double u_n = 0.1;             // approach speed |u_n| before contact [m/s], > 0
  double u_t = 0.0;             // relative tangential contact velocity before contact [m/s]
  double omega_a = 0.0;         // spin of disk a before contact [rad/s]
  double omega_b = 0.0;         // spin of disk b before contact [rad/s] (disk–disk only)
  Integrator integrator = Integrator::gear5;
  double dt = 0.0;  // time step [s]; 0 means t_c / steps_per_collision
  double steps_per_collision = 2000.0;
  // Where first touch falls inside its step, as a fraction in (0, 1] of the step after the last
  // free one. The jump of n to γ_n|u_n| at touch (spec §2.1) costs both integrators an error
  // ≈ 2 β dt (1/2 − touch_phase) in e_n; the default, mid-step, cancels it to first order.
  double touch_phase = 0.5;
};

struct CollisionResult {
  // how the run ended: the collision's end found (measured values follow), and the engine's
  // StatusFlag bits (state.hpp) of its packing: non-zero when the run left the engine's domain
  bool ended;
  std::uint32_t engine_status;
  double m_eff;          // effective mass [kg]
  double damping_ratio;  // c = γ_n / (2 √(k_n m_eff))
  double dt;             // time step used [s]
  // measured
  double e_n;  // |u_n'/u_n|
  double e_t;  // u_t'/u_t (NaN when u_t = 0)
  double t_c;  // from first touch until n first vanished [s]
  // predicted (closed forms)
  double e_n_predicted;           // eq. 4.56
  double t_c_predicted;           // eq. 4.55
  double e_t_full_sliding;        // eq. 4.75 (NaN when u_t = 0)
  double full_sliding_threshold;  // max(μ/κ, 6μ − μ/κ): 4.75 holds above it (γ_n → 0)
  bool full_sliding_valid;        // |u_t/u_n| above the threshold
  double e_t_sticking_limit;      // cos(ω_t t_c), the small-|u_t/u_n| limit (4.79)
};

// One sample of the collision time series, taken at the end of every step.
struct CollisionSample {
  double t;        // time since first touch [s] (negative before it)
  double overlap;  // δ [m]
  double normal;   // normal force n = max(k_n δ + γ_n δ̇, 0) [N]
  double u_n;      // relative normal velocity −δ̇ [m/s] (negative while approaching)
  double u_t;      // relative tangential contact velocity (contact.hpp convention) [m/s]
};

// Runs the collision through the packing engine (one packing, no gravity, fixed walls; CPU
// backend, the model's integrator), one step at a time, and measures it:
//   start  first touch, from the free flight of the last step before contact (exact);
//   end    first zero of k_n δ + γ_n δ̇, interpolated linearly between the bracketing steps;
//   e_n, e_t from the free-flight velocities a few steps after the end.
// A collision that has not ended after 100 predicted durations, or whose packing stopped with a
// status flag, gives ended = false and NaN e_n, e_t and t_c.
// When `trace` is not null it receives one sample per step.
CollisionResult run_collision(const CollisionCase& c,
                              std::vector<CollisionSample>* trace = nullptr);

// The e_t(|u_t/u_n|) table of `law` for disk a (radius_a) on disk b (radius_b), or on a fixed
// wall when radius_b is 0, at areal density ρ [kg/m²] (thesis §4.5.2): one collision per ratio
// of impulse::RestitutionTable through run_collision. Integrated once per distinct (law, radii,
// ρ) in a process and kept (about 0.1 s each; one lock, any thread). The linear law's e_t
// depends on the ratio only, under the closed forms' assumption of a constant normal. Throws
// std::runtime_error when a collision does not end (a law outside the engine's domain).
const impulse::RestitutionTable& tangential_restitution_table(const ContactParams& law,
                                                              double radius_a, double radius_b,
                                                              double areal_density);

// Why that table cannot be integrated, or "" when it can as far as its first and last single
// collisions tell (the extremes of |u_t/u_n|, where a law outside the engine's domain shows):
// two collisions instead of the table's 121, cheap enough for validation; kept per (law, radii,
// ρ) as the tables are.
std::string restitution_table_problem(const ContactParams& law, double radius_a, double radius_b,
                                      double areal_density);

}  // namespace granular::md
