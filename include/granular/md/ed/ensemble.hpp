// run_ensemble_ed: a packing ensemble (ensemble_case.hpp) by the event-driven method
// (Peraza-Mues 2018, §2.3 and §3.3; docs/ed.md), filling the same observables as the MD run
// (ensemble_run.hpp): θ of every disk sampled into RotationStats at the sample times of the
// measurement window, reduced per packing and per Γ.
//
// Start: every packing is the advancing-front layout of its seed (the MD run's), lifted by the
// factor (1 + start_lift) in y, at rest, at t = 0 with the drive on. The lift opens a gap
// between disks stacked on each other and under the bottom row, so that the bed falls, hits the
// bottom and is driven apart by collisions that are binary, not by the simultaneous contacts of
// a resting packing, which ED cannot represent (a bed at rest is an inelastic collapse). The
// settle phase of the schedule is therefore skipped: the transient [0, transient_time) is where
// the driven bed reaches its steady state.
//
// Time axis: chunks of sample_interval from t = 0 through the transient (its last chunk may be
// shorter) and the measurement, samples at transient_time + k · sample_interval, k = 0 …
// round(measure_time / sample_interval) (at least 1). The packings advance chunk by chunk,
// independently, on OpenMP threads; each packing's events and random draws are its own, so the
// results are the same bits for any thread count and any ensemble size.
#pragma once

#include <functional>
#include <vector>

#include "granular/md/ed/packing.hpp"
#include "granular/md/ed/restitution.hpp"
#include "granular/md/ensemble/case.hpp"
#include "granular/md/ensemble/run.hpp"
#include "granular/md/packing.hpp"

namespace granular::md::ed {

struct EdOptions {
  TangentialRule tangential = TangentialRule::contact_law;
  // inelastic-collapse cap: events per disk per second of simulated time, over each chunk
  // (packing.hpp); ~30× the rate of a Γ = 0.5 bed of the thesis' packing, 100× at Γ = 2
  double max_event_rate = 1e5;
  // relative lift of the initial layout in y (see above)
  double start_lift = 1e-2;
};

// Callbacks of a run; either may be empty.
struct EdObserver {
  // at t = 0 and after every chunk: the energy of every packing (n_packings), in flight (no
  // contacts: elastic and skin are 0); stopped packings at the time they stopped
  std::function<void(double t, RunPhase phase, const std::vector<PackingEnergy>& energy)> on_energy;
  // at every θ sample of the measurement window, after the observables took it: θ of every disk
  // (n_disks, the model's order; a stopped packing's disks at the time it stopped)
  std::function<void(double t, const std::vector<double>& theta)> on_sample;
  // after every chunk: the time reached, the fraction of the run done and the events so far
  std::function<void(RunPhase phase, double t, double fraction, double events)> on_progress;
};

struct EdResult {
  // the observables as the MD run gives them; dt is NaN and steps 0 (there is no time step),
  // sample_interval is the schedule's
  EnsembleResult ensemble;
  std::vector<EventCounts> counts;  // per packing
};

// The initial disks of a packing: `layout` lifted by (1 + lift) in y, at rest.
std::vector<DiskSnapshot> lifted_start(const PackingLayout& layout, double lift);

// Runs the ensemble on `threads` OpenMP threads (≤ 0: the OpenMP default). Throws
// std::invalid_argument when the case is inconsistent (packing count vs the Γ sweep,
// non-positive sample_interval) and std::runtime_error when an e_t table cannot be integrated.
EdResult run_ensemble_ed(const EnsembleCase& c, const EdOptions& options, int threads,
                         const EdObserver& observer = {});

}  // namespace granular::md::ed
