// The contacts of MD packings one by one (Peraza-Mues 2018, §2.3.1: "collision rules reproduce
// post-collision velocities obtained in MD simulations when ... Γ is larger than 1"): a contact
// episode runs from the step at which two bodies first overlap to the first step at which they
// no longer do, and carries the relative velocities at the point of contact just before and
// just after, in the normal of the first touch, which the event-driven rules predict from the
// ones before (docs/ed.md, "Collisions in MD packings").
//
// Host-only, for the CPU state (a device backend downloads it first); O(N²) pairs per packing and
// step: meant for packings of tens of disks over seconds.
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "granular/md/model.hpp"
#include "granular/md/state.hpp"

namespace granular::md {

// Partner codes of a disk's contact with a box wall: −1 − Wall (state.hpp).
constexpr int partner_of_wall(int wall) { return -1 - wall; }

struct ContactEpisode {
  int packing;
  int a;                        // the disk (the lower index of a pair), index in the model
  int b;                        // the other disk, or partner_of_wall(w)
  double t_start;               // time of the first overlapping step [s]
  std::int64_t steps;           // steps in contact
  bool isolated;                // neither body touched anything else in any of those steps
  double u_n, u_t;              // before: normal closing speed (> 0 approaching) and tangential
                                // velocity of the contact points, a relative to b [m/s]
  double u_n_after, u_t_after;  // after, in the same frame (u_n_after < 0: separating)
  double m_eff;                 // effective mass (the disk's on a wall) [kg]
};

class ContactEpisodes {
 public:
  // Tracks every packing of m from the state s (its open contacts are not recorded: their
  // start was not seen).
  ContactEpisodes(const EnsembleModel& m, const EnsembleState& s);

  // After a step: opens the episodes of bodies that touch now and did not, and appends to
  // `closed` those whose bodies parted. A packing with a status flag is no longer tracked.
  void observe(const EnsembleModel& m, const EnsembleState& s, std::vector<ContactEpisode>& closed);

 private:
  struct Kinematics {
    std::vector<double> x, y, vx, vy, omega;
    double t = 0.0;
  };
  struct Open {
    ContactEpisode e;
    double nx, ny;  // normal of the first touch, from a towards b
  };
  using Key = std::tuple<int, int>;  // (a, b)

  // the state's positions, velocities and time, for the next step's "before"
  void remember(const EnsembleModel& m, const EnsembleState& s);
  void touching(const EnsembleModel& m, const EnsembleState& s, int p, std::vector<Key>& out) const;
  Kinematics previous_;
  std::map<Key, Open> open_;
  std::vector<Key> seen_before_;  // contacts at the start: not recorded
};

}  // namespace granular::md
