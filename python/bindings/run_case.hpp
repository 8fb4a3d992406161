// `granular.run` on the C++ side: the CLI's `granular run` checks and run of one loaded case
// into an output folder, with the GIL released while the engine runs and Python's signals
// polled as the run's stop request (docs/python.md, "Interrupts").
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "granular/cases/case.hpp"

namespace granular::python {

struct RunRequest {
  std::string out;  // the output folder (created when missing)
  int threads = 0;  // <= 0: the OpenMP default
  std::string backend = "cpu";
  bool resume = false;
  bool force = false;
  double checkpoint_interval = 600.0;            // [s] of wall time; 0: none
  nanobind::object progress = nanobind::none();  // or a callable taking one line (str)
};

// Runs `lc` as `granular run` does and returns the Γ table it printed (the report). Bad input
// raises granular.CaseError before anything is created; an interrupt (Ctrl-C: a Python signal
// handler raising) stops a stoppable run with a checkpoint, then the handler's exception
// (KeyboardInterrupt) propagates.
std::string run_case(const cases::LoadedCase& lc, const RunRequest& request);

}  // namespace granular::python
