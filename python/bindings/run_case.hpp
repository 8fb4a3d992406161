// `granular.run` on the C++ side: the CLI's `granular run` checks and run of one loaded case
// into an output folder, with the GIL released while the engine runs and Python's signals
// polled as the run's stop request (docs/python.md, "Interrupts").
#pragma once

#include <nanobind/nanobind.h>

#include <string>

#include "granular/cases/case.hpp"

namespace granular::python {

// Runs `lc` into folder `out` as `granular run` does, with `request` (what granular.run's
// arguments ask) and `progress` (None, or a callable taking a line and its numbers), and
// returns the Γ table it printed (the report). Bad input raises granular.CaseError before
// anything is created; an interrupt (Ctrl-C: a Python signal handler raising) stops a
// stoppable run with a checkpoint, then the handler's exception (KeyboardInterrupt) propagates.
std::string run_case(const cases::LoadedCase& lc, const std::string& out,
                     const cases::RunRequest& request, const nanobind::object& progress);

}  // namespace granular::python
