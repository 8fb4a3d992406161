// What a vibrated packing's drive and gravity can give its disks (docs/outputs.md, "What a
// checkpoint's state may hold"): bounds on speeds, spins, heights, wall overlaps and angles that
// no run of the case reaches, so that a state read from outside (a checkpoint) holding more is
// refused rather than resumed as a healthy packing.
//
// The scale is the faster of the two ways a disk gets moving: the plate's top speed A ω, and a
// fall through the whole bed, sqrt(2 g h_bed), where h_bed = Σ π R² / W is the height the
// packing's disks fill as a solid layer (settling from the bed's construction, flights inside
// it). A vibrated bed's speeds follow the plate's; the bound takes each scale with a margin:
//   speed       |v| and rim speed |ω| R  <  V = 20 A ω + 4 sqrt(2 g h_bed)
// (friction drives a rim towards rolling on what it touches: the rim never outruns the
// contacts' relative speeds, themselves below V). Over the shipped packings at Γ = 0.3 to 29 the
// fastest disk ran at 0.20 V (6.8 A ω), the fastest rim at 0.11 V (tools/measure_reach.py). From
// V:
//   height      y  <  A + 2 h_bed + V² / (2 g)        (a flight from the top of the bed)
//   wall        overlap  <  δ = V sqrt(m_max / k_n) + M g / k_n, the impact of the heaviest
//               disk at V on the softer spring plus the whole packing's weight on it, and at
//               most R (a centre beyond a wall went through it: the engine's outside_box)
//   angle       |θ|  <  2π + (V / R) (t − t_start)   (spun at the bound since construction),
//               and within (V / R)(t − t_last) of the latest rotation sample's
//   forces      |f| < Z (1 + μ) F_n + m g, |τ| < Z μ F_n R: Z contacts, each F_n at most
//               k_n min(R, δ) + γ_n 2V; accelerations are the forces' (a = f / m) bit for bit,
//               Gear's derivatives of order k below 40 a_max / dt^(k−2)
//   history     the neighbor lists' reference position within skin/2 + V dt; an open contact's
//               anchor angles within the angle bound, its stretch below μ F_n / k_t
// docs/outputs.md ("What a checkpoint's state may hold") has the reasons. Packings with
// prescribed bodies or an applied torque (the thesis' 3-disk and wedge systems, which keep no
// checkpoints) are bounded by what the engine resolves instead: |v| dt < 2R.
#pragma once

#include <string>
#include <vector>

#include "granular/md/model.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/state.hpp"

namespace granular::md {

// The bounds of packing p (above).
struct PackingReach {
  double speed;            // V: |v| and |ω| R of any disk [m/s]
  double height;           // highest centre [m]
  double overlap;          // deepest overlap of a disk with a box wall [m] (before the cap at R)
  bool drive_and_gravity;  // bounded by its drive and gravity (else by the step's resolution)
};

PackingReach packing_reach(const EnsembleModel& m, int p);

// The first disk of a healthy packing (status ok) of `s` beyond its packing's reach ("packing
// 2, disk 5 (status ok): ω = 1000 rad/s, R|ω| = 15 m/s beyond the 10.9 m/s its drive and
// gravity can give"), or "" when every disk is within it.
std::string state_beyond_reach(const EnsembleModel& m, const EnsembleState& s);

// The same for the rotation accumulators of the healthy packings' disks (n_disks): angles,
// their spread and the per-interval rates a disk turning at most V / R since its packing was
// built can have sampled.
std::string rotation_beyond_reach(const EnsembleModel& m, const EnsembleState& s,
                                  const std::vector<RotationStats>& rotation);

}  // namespace granular::md
