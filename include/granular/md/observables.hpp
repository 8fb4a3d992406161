// Observables of a vibrated packing (spec thesis-packings-ch2-3.md §5): the online rotation
// statistics of one disk (ω̄, ρ²_{θ,t}, σ_a), the energy budget and contact count of one
// packing, and the force the disks exert on a wall.
//
// Rotation statistics are accumulated online, O(1) memory per disk, from samples θ(t_k) of the
// unwrapped angle. Times and angles are measured from the first sample (τ = t − t_first,
// φ = θ − θ_first) and the moments are Welford-style co-moments, so long runs with large t and
// many turns lose no precision. Definitions:
//   ω̄     = (θ_last − θ_first) / (t_last − t_first)       total excursion over time [rad/s]
//   ρ²    = C_τφ² / (M_ττ M_φφ)                             R² of the least-squares line θ vs t;
//           defined as 0 when θ has zero variance (a disk that never turned is no rotator)
//   w_k   = (θ_k − θ_{k−1}) / (t_k − t_{k−1})               per-interval mean velocity [rad/s]
//   σ_ω̄   = population standard deviation of the w_k        (divides by the number of intervals)
//   σ_a   = σ_ω̄ / (|ω̄| + σ_ω̄)                               eq. 3.1; defined as 1 in the 0/0 case
//           (no motion at all), the same side as ρ² = 0: a disk at rest carries no steady rotation
// With fewer than two samples ω̄, ρ² and σ_a are NaN (undefined).
#pragma once

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "granular/hd.hpp"
#include "granular/md/contact.hpp"
#include "granular/md/model.hpp"
#include "granular/md/state.hpp"
#include "granular/vec2.hpp"

namespace granular::md {

// Online accumulators of one disk's rotation samples; plain data, so it can live in a
// checkpoint next to the state.
struct RotationStats {
  std::int64_t count = 0;    // samples taken
  double t_first = 0.0;      // time of the first sample [s]
  double theta_first = 0.0;  // θ at the first sample [rad]
  double t_last = 0.0;       // time of the latest sample [s]
  double theta_last = 0.0;   // θ at the latest sample [rad]
  // Welford moments of τ = t − t_first and φ = θ − θ_first over the samples
  double mean_tau = 0.0;   // mean τ [s]
  double mean_phi = 0.0;   // mean φ [rad]
  double m2_tau = 0.0;     // Σ (τ − mean τ)² [s²]
  double m2_phi = 0.0;     // Σ (φ − mean φ)² [rad²]
  double c_tau_phi = 0.0;  // Σ (τ − mean τ)(φ − mean φ) [s rad]
  // Welford moments of the per-interval velocities w_k (count − 1 of them)
  double mean_rate = 0.0;  // mean w [rad/s]
  double m2_rate = 0.0;    // Σ (w − mean w)² [rad²/s²]
};

// Adds the sample θ(t) [rad] at time t [s]; t must increase from sample to sample.
GRANULAR_HD inline void add_sample(RotationStats& s, double t, double theta) {
  if (s.count == 0) {
    s.t_first = t;
    s.theta_first = theta;
  } else {
    // per-interval velocity of the interval that ends here
    const double rate = (theta - s.theta_last) / (t - s.t_last);
    const double n_rate = static_cast<double>(s.count);
    const double d_rate = rate - s.mean_rate;
    s.mean_rate += d_rate / n_rate;
    s.m2_rate += d_rate * (rate - s.mean_rate);
  }
  s.t_last = t;
  s.theta_last = theta;

  // bivariate Welford update of (τ, φ)
  s.count += 1;
  const double n = static_cast<double>(s.count);
  const double tau = t - s.t_first;
  const double phi = theta - s.theta_first;
  const double d_tau = tau - s.mean_tau;
  const double d_phi = phi - s.mean_phi;
  s.mean_tau += d_tau / n;
  s.mean_phi += d_phi / n;
  s.m2_tau += d_tau * (tau - s.mean_tau);
  s.m2_phi += d_phi * (phi - s.mean_phi);
  s.c_tau_phi += d_tau * (phi - s.mean_phi);
}

// ω̄: total angular excursion over the sampled time [rad/s].
GRANULAR_HD inline double mean_omega(const RotationStats& s) {
  if (s.count < 2) return NAN;
  return (s.theta_last - s.theta_first) / (s.t_last - s.t_first);
}

// ρ²_{θ,t} in [0, 1]; 0 when θ never changed.
GRANULAR_HD inline double rho2(const RotationStats& s) {
  if (s.count < 2) return NAN;
  if (!(s.m2_phi > 0.0) || !(s.m2_tau > 0.0)) return 0.0;
  const double r2 = s.c_tau_phi * s.c_tau_phi / (s.m2_tau * s.m2_phi);
  return r2 > 1.0 ? 1.0 : r2;
}

// σ_ω̄: population standard deviation of the per-interval velocities [rad/s].
GRANULAR_HD inline double sigma_omega(const RotationStats& s) {
  if (s.count < 2) return NAN;
  const double var = s.m2_rate / static_cast<double>(s.count - 1);
  return var > 0.0 ? sqrt(var) : 0.0;
}

// σ_a (eq. 3.1) in [0, 1]; 1 when the disk never moved (0/0).
GRANULAR_HD inline double sigma_a(const RotationStats& s) {
  if (s.count < 2) return NAN;
  const double sigma = sigma_omega(s);
  const double denominator = fabs(mean_omega(s)) + sigma;
  return denominator > 0.0 ? sigma / denominator : 1.0;
}

// Energy budget of one packing [J] and its open contacts.
struct PackingEnergy {
  // the disks' (a prescribed disk's motion is its drive's, not counted)
  double kinetic;        // translational Σ ½ m v²
  double rotational;     // Σ ½ I ω²
  double gravitational;  // Σ −m g⃗·r (m g y untilted), relative to the origin
  double elastic;        // normal springs ½ k_n δ² over open disk–disk and wall contacts
  double skin;           // tangential skins ½ k_t ξ² over the same contacts
  int disk_contacts;     // open disk–disk contacts, each pair counted once
  int wall_contacts;     // open disk–wall contacts
  double total() const { return kinetic + rotational + gravitational + elastic + skin; }
};

// The contacts of packing p's disks at the state's time, each evaluated by disk_disk_contact or
// disk_wall_contact on a copy of the stored slot history (the state is not changed): a contact
// that overlaps but has no slot yet counts as fresh (ξ = 0). False when the bodies do not touch.
// Disk i with disk j > i (canonical order):
bool disk_pair_contact(const EnsembleModel& m, const EnsembleState& s, int p, int i, int j,
                       ContactResult& out);
// Disk i with box wall w (a Wall id) of its packing, when the packing has it:
bool box_wall_contact(const EnsembleModel& m, const EnsembleState& s, int p, int i, int w,
                      ContactResult& out);
// Disk i with body b of its packing, when that body is a wall; `wall` is the wall as the contact
// law saw it:
bool wall_body_contact(const EnsembleModel& m, const EnsembleState& s, int p, int i, int b,
                       WallKinematics& wall, ContactResult& out);

// The disk pairs (i, j), i < j, of packing p that may touch at the state's time, in canonical
// order (by i, then j). Found without the neighbor list (which a device run does not bring
// back): all pairs of a small packing; in a large one the pairs of neighboring cells of edge
// 2 R_max, by sorting the disks by cell (O(N log N), not O(N²)), and every pair with a disk out
// of a grid's reach (a non-finite or astronomically distant centre). Any pair that touches is
// among them.
std::vector<std::pair<int, int>> contact_candidates(const EnsembleModel& m, const EnsembleState& s,
                                                    int p);

// Energy of packing p at the state's time. Contacts are evaluated by disk_disk_contact and
// disk_wall_contact on a copy of the stored slot history (the state is not changed): a contact
// that overlaps but has no slot yet counts as fresh (ξ = 0). Pairs come from
// contact_candidates, summed in canonical order.
PackingEnergy packing_energy(const EnsembleModel& m, const EnsembleState& s, int p);

// Total force [N] the disks of packing p exert on wall `wall` (a Wall id) at the state's time,
// normal and tangential, from disk_wall_contact on copies of the stored history.
Vec2 wall_force(const EnsembleModel& m, const EnsembleState& s, int p, int wall);

}  // namespace granular::md
