// A validated packing-ensemble case: the model plus how to run and measure it. Produced by
// io::load_case from a "packing_ensemble" JSON case; consumed by run_ensemble.
#pragma once

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

struct EnsembleCase {
  EnsembleModel model;  // packings ordered Γ-major: packing p has Γ index p / packings_per_gamma
  RunSchedule schedule;
  std::vector<double> gamma_values;  // the Γ sweep [-]
  int packings_per_gamma = 1;
  double areal_density = 3.57;  // [kg/m²]
};

}  // namespace granular::md
