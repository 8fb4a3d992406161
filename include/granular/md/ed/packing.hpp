// One vibrated packing by the event-driven (ED) method (Peraza-Mues 2018, §2.3; docs/ed.md):
// the box of the MD engine (side walls at x = 0 and x = W, bottom at y = 0, gravity −g ŷ), every
// disk on a parabola between instantaneous binary collisions (ω constant in flight). At a
// collision the rules of impulse/disk_collision.hpp apply with e_n and e_t of the pair's contact
// type and effective mass (restitution.hpp). The bottom stays at y = 0 under the fixed-bottom,
// random-phase approximation (FBRPA, §2.3.3): at each bottom collision a wall velocity
// v_b = Aω cos φ is drawn for a random incoming line of the disk's slope, and redrawn while
// the disk would not bounce back up.
//
// Events: each disk keeps its earliest predicted collision (a partner disk or a wall); the
// next event is the earliest of these (ties: the lowest disk index). After a collision the
// disks it changed, and every disk whose prediction named one of them, are predicted again
// against all disks and walls (O(N) each; 60 disks per packing). Disks advance lazily: each
// keeps its state at the time of its last collision.
//
// Random numbers: Philox (random.hpp) keyed by the packing's seed, counted by its bottom
// collisions and the draw's attempt, so a packing's run is the same bits for any thread count
// and ensemble size.
//
// Inelastic collapse (infinitely many collisions in a finite time; §1.2.2) is caught by a hard
// cap on the event rate: more than max_event_rate × N × (t − t_now) events within one
// advance_to(t) call (a chunk of the run: a sample interval) stop the packing with
// status_inelastic_collapse. Every call therefore ends after a bounded number of events.
#pragma once

#include <cstdint>
#include <vector>

#include "granular/md/ed/restitution.hpp"
#include "granular/md/model.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/state.hpp"

namespace granular::md::ed {

// Counts of a packing's events so far.
struct EventCounts {
  std::int64_t disk_disk = 0;   // disk–disk collisions
  std::int64_t side_wall = 0;   // collisions with the side walls
  std::int64_t bottom = 0;      // collisions with the bottom
  std::int64_t rejections = 0;  // FBRPA draws rejected (the disk would not have bounced)
  std::int64_t total() const { return disk_disk + side_wall + bottom; }
};

// Position, velocity, angle and spin of a disk at one time.
struct DiskSnapshot {
  double x, y;    // [m]
  double vx, vy;  // [m/s]
  double theta;   // unwrapped, counter-clockwise [rad]
  double omega;   // [rad/s]
};

class EdPacking {
 public:
  // A packing of the given disks (radius [m], mass [kg]; moment of inertia m R²/2) in the box
  // and drive of `params` (drive_amplitude 0: a fixed bottom, v_b = 0), at time t0 with the
  // given initial snapshots. `laws` must have been made for these radii and outlive the packing.
  EdPacking(const PackingParams& params, const std::vector<double>& radius,
            const std::vector<double>& mass, const RestitutionSet& laws,
            const std::vector<DiskSnapshot>& start, double t0, double max_event_rate);

  // Processes every event before time t (≥ the current time), unless the packing stopped.
  void advance_to(double t);

  int size() const { return static_cast<int>(disks_.size()); }
  double time() const { return now_; }
  std::uint32_t status() const { return status_; }
  const EventCounts& counts() const { return counts_; }

  // Disk i at time t ≥ its last collision (the current time, say), in flight.
  DiskSnapshot disk_at(int i, double t) const;
  // Kinetic, rotational and gravitational energy at time t (no contacts: elastic and skin 0).
  PackingEnergy energy_at(double t) const;

 private:
  struct Disk {
    double t;  // time of the state below [s]
    DiskSnapshot s;
  };
  struct Prediction {
    double time;  // absolute time of the disk's next collision [s]; +∞ when none
    int partner;  // disk index, or wall_code(w)
  };
  static int wall_code(int w) { return -1 - w; }

  void predict(int i);
  void move(int i, double t);
  void collide_disks(int i, int j);
  void collide_wall(int i, int w);
  void check_disk(int i);

  PackingParams p_;
  std::vector<double> radius_, mass_;
  const RestitutionSet& laws_;
  std::vector<Disk> disks_;
  std::vector<Prediction> next_;
  double now_;
  double max_event_rate_;  // events per disk per second of simulated time
  std::uint32_t status_ = 0;
  EventCounts counts_;
};

}  // namespace granular::md::ed
