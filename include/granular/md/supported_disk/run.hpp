// Runs the supported-disk systems (systems.hpp) through the ensemble engine and measures what
// the thesis measures of them (ch. 5, §6.2): the observed disk's mean rotation ω̄ over the
// measurement window, θ(t), and the forces of its contacts with its supports, with the slips
// and openings of those contacts. Time axis as the packing runs (ensemble_case.hpp): settle
// from t0 = −settle_time with the drives at rest, drive from t = 0, measure after the transient,
// sampling every sample_steps·dt.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "granular/md/backend.hpp"
#include "granular/md/ensemble/case.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/state.hpp"

namespace granular::md {

// One contact of the observed disk (disk 0 of its packing) with a support: the packing's other
// disks in index order, then its wall bodies in order.
struct SupportContact {
  bool closed;        // the bodies overlap and push (n > 0)
  double normal;      // n [N]
  double tangential;  // τ, the thesis' τ0i: the contact's torque on the observed disk is R τ [N]
  bool sliding;       // |k_t ξ| on the Coulomb limit μ n (the skin slips)
};

// The observed disk's contacts with its supports, at the state's time, from the stored history
// (copies; the state is not changed).
std::vector<SupportContact> support_contacts(const EnsembleModel& m, const EnsembleState& s, int p);

// One sample of a packing.
struct SupportedDiskSample {
  double t;               // [s]
  double theta;           // the observed disk's angle [rad]
  double omega;           // [rad/s]
  double applied_torque;  // [N m]
  std::vector<SupportContact> contacts;
  // the packing's first prescribed body (the left support, a wedge's left wall): its deviation
  // from rest (x, y [m], θ [rad]) and their rates; zeros without one
  std::array<double, 6> first_body{};
};

struct SupportedDiskPackingResult {
  std::uint32_t status;    // StatusFlag bits at the end
  RotationStats rotation;  // of the observed disk over the measurement window
  std::int64_t samples;    // measurement samples
  std::int64_t openings;   // samples at which a contact that was closed at the previous one is open
  std::vector<std::int64_t> sliding_samples;  // per contact: samples with it sliding
};

struct SupportedDiskRunOptions {
  Backend* backend = nullptr;  // the CPU backend with `threads` when null
  int threads = 0;
  // every sample of the measurement window, per packing (may be empty)
  std::function<void(int p, const SupportedDiskSample&)> on_sample;
  // asked after every chunk; true ends the run early (result.complete false)
  std::function<bool()> stop;
  // after every chunk: the fraction of the run's steps taken
  std::function<void(double)> on_progress;
};

struct SupportedDiskResult {
  std::vector<SupportedDiskPackingResult> packings;
  double sample_interval;  // sample_steps·dt [s]
  bool complete = true;
};

// Runs the state (made for the model, at t0 = −settle_time) through the schedule.
SupportedDiskResult run_supported_disk(const EnsembleModel& m, EnsembleState& s,
                                       const RunSchedule& schedule,
                                       const SupportedDiskRunOptions& options = {});

}  // namespace granular::md
