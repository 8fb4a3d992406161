// When a long run checkpoints and asks whether to stop (the packing ensemble's run_ensemble):
// what the caller (the CLI, MPI, Python, a test) decides, in cases::RunRequest::control, and
// hands down whole as md::EnsembleRunOptions::control.
#pragma once

#include <cstdint>
#include <functional>

namespace granular::md {

// A run's checkpoint interval unless the caller chooses one [s of wall time].
inline constexpr double default_checkpoint_interval = 600.0;

struct RunControl {
  // wall time between checkpoints [s]; 0 writes none (except when `stop` ends the run)
  double checkpoint_interval = default_checkpoint_interval;
  // asked after every slice; true ends the run there, with a checkpoint when the run keeps
  // them, and returns a result marked incomplete (an interrupt, or a test stopping early)
  std::function<bool()> stop;
  // wall time of a slice [s]: how long an interrupt waits at most (plus the checkpoint)
  double poll_interval_s = 0.5;
  // when > 0, every slice takes this many steps (or to the chunk's end) instead: tests use it to
  // stop at a chosen step
  std::int64_t slice_steps = 0;
};

}  // namespace granular::md
