// granular.Ensemble on the C++ side: a packing ensemble advanced step by step (docs/python.md,
// "Step by step").
#pragma once

#include <nanobind/nanobind.h>

namespace granular::python {

void bind_ensemble(nanobind::module_& m);

}  // namespace granular::python
