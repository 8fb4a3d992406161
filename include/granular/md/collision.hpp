// The "collision" model: one disk–disk or disk–wall collision without gravity, run through the
// packing engine, measured against the closed forms of contact_law.hpp (spec
// thesis-packings.md §3.2–3.3). This is how users and tests check the contact law.
#pragma once

#include "granular/contact_law.hpp"
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
  double dt = 0.0;              // time step [s]; 0 means t_c / steps_per_collision
  double steps_per_collision = 2000.0;
};

struct CollisionResult {
  double m_eff;                 // effective mass [kg]
  double damping_ratio;         // c = γ_n / (2 √(k_n m_eff))
  double dt;                    // time step used [s]
  // measured
  double e_n;                   // |u_n'/u_n|
  double e_t;                   // u_t'/u_t (NaN when u_t = 0)
  double t_c;                   // from first touch until n first vanished [s]
  // predicted (closed forms)
  double e_n_predicted;         // eq. 4.56
  double t_c_predicted;         // eq. 4.55
  double e_t_full_sliding;      // eq. 4.75 (NaN when u_t = 0)
  double full_sliding_threshold;  // max(μ/κ, 6μ − μ/κ): 4.75 holds above it (γ_n → 0)
  bool full_sliding_valid;      // |u_t/u_n| above the threshold
  double e_t_sticking_limit;    // cos(ω_t t_c), the small-|u_t/u_n| limit (4.79)
};

CollisionResult run_collision(const CollisionCase& c);

}  // namespace granular::md
