// Backends advance an ensemble: they schedule the GRANULAR_HD stages of step.hpp over packings
// and disks and add no physics. Packings with a status flag set do not advance.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "granular/md/model.hpp"
#include "granular/md/state.hpp"

namespace granular::md {

class Backend {
 public:
  virtual ~Backend() = default;
  // Sets the initial accelerations from the forces of the current state.
  virtual void initialize(const EnsembleModel& m, EnsembleState& s) = 0;
  // Advances every healthy packing by `steps` steps.
  virtual void advance(const EnsembleModel& m, EnsembleState& s, std::int64_t steps) = 0;
  // The same, but a backend with its own memory (CUDA) may keep the new state there: s.step
  // advances, the other arrays of s are current only after download(s). Between such calls
  // the caller leaves s alone; a run advances a chunk in slices this way and downloads once
  // for its observers.
  virtual void advance_resident(const EnsembleModel& m, EnsembleState& s, std::int64_t steps) {
    advance(m, s, steps);
  }
  // Brings s up to date after advance_resident (nothing to do for the CPU): every array, or
  // only those the observers read (observed_state_array, state.hpp).
  enum class Download { observed, everything };
  virtual void download(EnsembleState& s, Download what = Download::everything) {
    static_cast<void>(s);
    static_cast<void>(what);
  }
  // The caller changed the model's parameters (a packing's drive, granular.Ensemble.set_gamma)
  // between calls: s is brought up to date on the host, and a backend with its own copy of
  // the model (CUDA) takes the new one at the next advance. Nothing to do for the CPU.
  virtual void model_changed(EnsembleState& s) { static_cast<void>(s); }
  virtual std::string name() const = 0;
};

// OpenMP over packings; threads <= 0 uses the OpenMP default. Results are bitwise identical for
// any thread count: a packing is always stepped by one thread.
std::unique_ptr<Backend> make_cpu_backend(int threads);

// True when this build has the CUDA backend (GRANULAR_CUDA).
bool cuda_backend_built();

// True when this build has the CUDA backend and a device is present.
bool cuda_device_available();

// Why the CUDA backend cannot run here ("" when it can): no CUDA in this build, the driver's
// answer (e.g. a driver too old for the CUDA runtime), or no device.
std::string cuda_unavailable_reason();

// Packings above this many disks take the CUDA backend's grid-wide path by default.
constexpr int default_large_packing = 2048;

// The CUDA backend (kernels/cuda_backend.cu): the same step stages launched on the device, a
// block per packing (other schedules: cuda_schedule.hpp); when some packing has more than
// `large_packing` disks, a thread per disk across the whole grid (kernels/cuda_grid_path.cu).
// Throws std::runtime_error when the build has no CUDA or no device is present.
std::unique_ptr<Backend> make_cuda_backend(int large_packing = default_large_packing);

}  // namespace granular::md
