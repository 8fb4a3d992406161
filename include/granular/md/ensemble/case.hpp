// A validated packing-ensemble case: the model plus how to run and measure it. Produced by
// cases::load_case from a "packing_ensemble" JSON case; consumed by run_ensemble.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "granular/md/model.hpp"

namespace granular::md {

// Phases of a run on one time axis: settling under gravity with the bottom at rest during
// [−settle_time, 0), the drive from t = 0, a transient [0, transient_time) that is not
// measured, then θ sampled every sample_interval during measure_time.
struct RunSchedule {
  double settle_time = 1.0;      // [s]
  double transient_time = 1.0;   // [s]
  double measure_time = 10.0;    // [s]
  double sample_interval = 0.1;  // [s]; also the interval of the energy time series
};

// Most steps a packing may take in one run: 2 000 times the thesis' longest runs (4.5e8 steps),
// more than a GPU does for one packing in a year. The case loader refuses longer runs, so that
// every step count fits a 64-bit integer and t = t0 + step · dt stays exact to the step.
constexpr double max_run_steps = 1e12;

// How a run divides into steps, as run_ensemble takes them: the ensemble advances in chunks of
// sample_steps; settle and transient take round(time / dt) steps each (their last chunk may be
// shorter), the measurement whole chunks, sampling θ at its start and after every chunk.
struct RunSteps {
  std::int64_t sample_steps = 1;     // max(1, round(sample_interval / dt))
  std::int64_t settle_steps = 0;     // round(settle_time / dt)
  std::int64_t transient_steps = 0;  // round(transient_time / dt)
  std::int64_t measure_chunks = 1;   // max(1, round(measure_time / (sample_steps dt)))

  std::int64_t measure_steps() const { return measure_chunks * sample_steps; }
  std::int64_t total() const { return settle_steps + transient_steps + measure_steps(); }
  // chunks of the whole run (observer calls after the first)
  std::int64_t chunks() const {
    const auto up = [&](std::int64_t n) { return (n + sample_steps - 1) / sample_steps; };
    return up(settle_steps) + up(transient_steps) + measure_chunks;
  }
  // steps taken when chunk end k (0 ≤ k ≤ chunks()) is reached; chunk end 0 is the start
  std::int64_t chunk_end_step(std::int64_t k) const {
    const auto up = [&](std::int64_t n) { return (n + sample_steps - 1) / sample_steps; };
    const std::int64_t settle = up(settle_steps);
    if (k <= settle) return std::min(k * sample_steps, settle_steps);
    const std::int64_t transient = up(transient_steps);
    if (k <= settle + transient)
      return settle_steps + std::min((k - settle) * sample_steps, transient_steps);
    return settle_steps + transient_steps + (k - settle - transient) * sample_steps;
  }
};

// The steps of a run of `schedule` at time step dt > 0. ok is false when the run would take
// more than max_run_steps steps (total_steps, counted in floating point, says how many); steps
// is valid only when ok.
struct PlannedRun {
  bool ok;
  double total_steps;
  RunSteps steps;
};
PlannedRun plan_run(const RunSchedule& schedule, double dt);

// Seed of packing r of an ensemble: splitmix64 (Steele, Lea & Flood 2014) of the case seed,
// then of r. The same for every Γ, so packing r of a single-Γ case equals packing r of a sweep
// with the same seed.
inline std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
inline std::uint64_t packing_seed(std::uint64_t case_seed, std::uint64_t r) {
  return splitmix64(splitmix64(case_seed) ^ r);
}

struct EnsembleCase {
  EnsembleModel model;  // packings ordered Γ-major: packing p has Γ index p / packings_per_gamma
  RunSchedule schedule;
  std::vector<double> gamma_values;  // the Γ sweep [-]
  int packings_per_gamma = 1;
  double areal_density = 3.57;  // [kg/m²]
};

}  // namespace granular::md
