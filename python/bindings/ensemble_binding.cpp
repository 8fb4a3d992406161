#include "ensemble_binding.hpp"

namespace granular::python {

void bind_ensemble(nanobind::module_&) {}

}  // namespace granular::python
