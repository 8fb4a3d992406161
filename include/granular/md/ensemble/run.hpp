// run_ensemble: the driver of a packing-ensemble run (docs/architecture.md, "Data flow"). Builds
// every packing with the advancing front, advances the ensemble on a Backend through the phases
// of the RunSchedule, samples θ into the rotation observables during the measurement window and
// the energy budget at every chunk, and reduces the observables per Γ (spec ch2-3 §5).
//
// Time axis: the state starts at t0 = −settle_time (bottom at rest), the drive starts at t = 0,
// the transient [0, transient_time) is not measured, then measure_time is sampled. The ensemble
// advances in chunks of sample_steps steps (plan_run, ensemble_case.hpp), so the effective
// sampling interval is sample_steps·dt, a whole number of steps; θ is sampled at the start of
// the measurement and after each of its chunks.
//
// Within a chunk the ensemble advances in slices of about poll_interval_s of wall time; after
// each slice the run updates its progress and asks whether to stop, so that an interrupt is
// answered within a slice even when a chunk takes minutes. Slices change no result.
//
// Checkpoints (checkpoint.hpp): after a slice, every checkpoint_interval seconds of wall time
// and when stopping, the run hands its position (possibly inside a chunk), state and rotation
// accumulators to on_checkpoint; a run started from such a checkpoint continues there and ends
// bitwise identical to the uninterrupted run (same observables, same final state, the same
// observer calls after it).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "granular/constants.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/ensemble/case.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/run_control.hpp"
#include "granular/md/state.hpp"
#include "granular/names.hpp"

namespace granular::md {

enum class RunPhase { settle, transient, measure };

// "settle", "transient" or "measure".
inline constexpr Named<RunPhase> run_phase_names[] = {{RunPhase::settle, "settle"},
                                                      {RunPhase::transient, "transient"},
                                                      {RunPhase::measure, "measure"}};

// Names of the StatusFlag bits set in `status` joined by ',' ("neighbor_overflow",
// "contact_overflow", "non_finite", "outside_box", "too_fast", and the event-driven method's
// "inelastic_collapse", "no_bounce": md/ed/packing.hpp), or "ok" when none is set.
std::string status_name(std::uint32_t status);

// 1 (rad/s)² in RPM²: (60 / 2π)².
constexpr double rpm2_per_rad2_s2 = (60.0 / (2.0 * pi)) * (60.0 / (2.0 * pi));

// Observables of one packing at the end of its run.
struct PackingResult {
  int index;                      // packing index p
  int gamma_index;                // p / packings_per_gamma
  double gamma;                   // Γ of the packing [-]
  std::uint64_t seed;             // seed of its construction
  std::uint32_t status;           // StatusFlag bits at the end; non-zero packings are excluded
  std::vector<double> omega_bar;  // ω̄ per disk [rad/s] (packing_size)
  std::vector<double> rho2;       // ρ²_{θ,t} per disk [-] (packing_size)
  std::vector<double> sigma_a;    // σ_a per disk [-] (packing_size)
};

// Averages over every disk of every healthy packing at one Γ.
struct GammaStats {
  double gamma;               // Γ [-]
  int healthy_packings;       // packings averaged
  int disks;                  // disks averaged
  double mean_sq_omega;       // ⟨ω̄²⟩ [rad²/s²]
  double mean_sq_omega_rpm2;  // ⟨ω̄²⟩ [RPM²]
  // standard error of ⟨ω̄²⟩ [rad²/s²] from the spread of the per-packing means of ω̄² (packings
  // are the independent samples; disks of one packing share a contact network); NaN with
  // fewer than two healthy packings
  double mean_sq_omega_stderr;
  double mean_rho2;     // ⟨ρ²⟩ [-]
  double mean_sigma_a;  // ⟨σ_a⟩ [-]
};

struct EnsembleResult {
  std::vector<GammaStats> gammas;       // (n_gamma), in the order of gamma_values
  std::vector<PackingResult> packings;  // (n_packings)
  std::vector<RotationStats> rotation;  // accumulators per disk (n_disks)
  double dt;                            // time step [s]
  std::int64_t sample_steps;            // steps per chunk
  double sample_interval;               // effective sampling interval sample_steps·dt [s]
  std::int64_t steps;                   // steps taken by the ensemble
  double particle_steps;  // Σ over chunks of (disks of packings healthy at its start × steps)
  double wall_time_s;     // wall time of the whole run [s]
  double advance_time_s;  // wall time spent in Backend::advance [s]
  double particle_steps_per_s;  // particle_steps / advance_time_s
  std::string backend;          // Backend::name()
  // false when `stop` ended the run early: then packings and gammas are empty
  bool complete = true;
};

// Callbacks of a run; either may be empty.
struct EnsembleObserver {
  // after initialization and after every chunk: time t [s], the phase just advanced (settle at
  // t0) and the energy of every packing (n_packings); packings with a status flag are included
  std::function<void(double t, RunPhase phase, const std::vector<PackingEnergy>& energy)> on_energy;
  // at every θ sample of the measurement window, after the observables took it
  std::function<void(double t, const EnsembleModel& m, const EnsembleState& s)> on_sample;
  // after initialization and after every chunk, after on_energy, with the observed arrays of
  // the state (observed_state_array): `chunk` counts the chunk ends since the start of the run
  // (0 at initialization; RunSteps::chunk_end_step gives its step)
  std::function<void(std::int64_t chunk, const EnsembleModel& m, const EnsembleState& s)> on_chunk;
};

// Where a run stands after a slice, besides the state.
struct RunPosition {
  int phase = 0;  // RunPhase of the slice just taken (0 settle, 1 transient, 2 measure)
  std::int64_t phase_steps_left = 0;  // steps of that phase still to take
  std::int64_t steps_done = 0;        // steps taken since the start of the run
  double particle_steps = 0.0;        // as EnsembleResult::particle_steps so far
  double advance_time_s = 0.0;        // wall time spent in Backend::advance so far [s]
  double wall_time_s = 0.0;           // wall time of the run so far [s]
};

// What a run continues from: its position, state and rotation accumulators (a checkpoint's
// content, io/checkpoint.hpp).
struct ResumePoint {
  RunPosition position;
  EnsembleState state;
  std::vector<RotationStats> rotation;  // accumulators per disk (n_disks)
};

// Where a run stands, for a progress line: about every 5 % of the steps or 10 s of wall time.
struct RunProgress {
  RunPhase phase;
  double t;                     // simulated time [s]
  double fraction;              // of the run's steps taken [-]
  double particle_steps_per_s;  // so far, over the time spent stepping
};

// Checkpointing, resuming and stopping a run; the default runs straight through.
struct EnsembleRunOptions {
  // when to checkpoint, how long a slice takes and whether to stop: the caller's decision
  // (cases::RunRequest::control), handed down whole
  RunControl control;
  // receives the pieces of a checkpoint after a slice (write_checkpoint stores them); called
  // after the observer calls of the chunks completed, so streamed outputs are complete up to
  // the last chunk boundary
  std::function<void(const RunPosition& position, const EnsembleState& s,
                     const std::vector<RotationStats>& rotation)>
      on_checkpoint;
  // receives the run's progress (may be empty)
  std::function<void(const RunProgress&)> on_progress;
  // when set, the run continues from this point instead of building the packings; its state
  // must have been made for this case (io::read_checkpoint checks)
  const ResumePoint* resume = nullptr;
};

// Why `r` cannot be resumed by a run of `c` ("does not lie on the case's schedule ...", "holds 3
// rotation samples of disk 5 where its run took 4"), or "" when it fits: run_ensemble throws
// std::invalid_argument with it; a caller that read `r` from a file says so first, as bad input.
std::string resume_defect(const EnsembleCase& c, const ResumePoint& r);

// Runs the ensemble; options.on_progress hears about every 5 % of the steps or 10 s of wall
// time. Throws std::invalid_argument when the case is inconsistent (packing count vs the Γ sweep,
// non-positive dt or sample_interval, more than max_run_steps steps) or the checkpoint to
// resume does not fit it.
EnsembleResult run_ensemble(const EnsembleCase& c, Backend& backend,
                            const EnsembleObserver& observer = {},
                            const EnsembleRunOptions& options = {});

// The pieces of a run, for protocols of their own (the Python module's granular.Ensemble,
// docs/python.md): run_ensemble is made of them.
// The initial positions of every packing (build_bed: the advancing front in cell order),
// concatenated (n_disks each).
void build_layouts(const EnsembleModel& m, std::vector<double>& x, std::vector<double>& y);
// Every packing built, at rest at t0 = −settle_time, its accelerations primed on `backend`:
// the state a fresh run starts from. Throws std::invalid_argument as run_ensemble does.
EnsembleState build_ensemble_state(const EnsembleCase& c, Backend& backend);
// A θ sample of every disk of the healthy packings into `rotation` (n_disks).
void sample_rotation(const EnsembleModel& m, const EnsembleState& s,
                     std::vector<RotationStats>& rotation);
// The observables of every packing from its accumulators (EnsembleResult::packings).
std::vector<PackingResult> packing_results(const EnsembleCase& c, const EnsembleState& s,
                                           const std::vector<RotationStats>& rotation);
// The observables of packing p, with its status bits, from its disks' accumulators (the MD and
// the event-driven runs' one definition).
PackingResult packing_result(const EnsembleCase& c, int p, std::uint32_t status,
                             const std::vector<RotationStats>& rotation);

// Refuses (std::invalid_argument, the message starting with `who`) a case whose packing count is
// not gamma_values × packings_per_gamma or whose sample_interval is not > 0: what every method
// of running an ensemble needs.
void check_ensemble_sweep(const EnsembleCase& c, const std::string& who);

// Per-Γ averages of the healthy packings (status 0) of `packings`, Γ-major as in the case,
// over their free disks (a prescribed disk's rotation is its drive's).
std::vector<GammaStats> average_by_gamma(const EnsembleCase& c,
                                         const std::vector<PackingResult>& packings);

}  // namespace granular::md
