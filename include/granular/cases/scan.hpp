// A scan: one case run at every combination of values of some of its numeric keys (the keys in
// the order of their pointers, the first outermost), e.g.
//   "scan": {"/wedge/tilt_deg": [0, 5, 10], "/contact/mu": [0.05, 0.1]}
// (docs/cases.md, "Scans"). Each point is the case with those keys set, validated like any case
// before anything runs, and runs into its own folder point_<k>/; the scan gathers every point's
// scalar results into scan.csv. Works for every model of the registry.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/scan.hpp is host-only"
#endif

#include <memory>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"

namespace granular::cases {

// The points of the case `doc` (its "scan" removed) and the case that runs them all. Bad input
// throws io::CaseError: a point that does not validate says which point it is.
std::unique_ptr<Case> load_scan(const nlohmann::json& doc, const std::string& file,
                                const nlohmann::json& scan);

// The JSON Schema of "scan" that load_scan checks (cases/schema.hpp).
nlohmann::ordered_json scan_schema();

}  // namespace granular::cases
