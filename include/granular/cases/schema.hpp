// The JSON Schema (draft 2020-12) of case files, for editors to complete and check a case
// (`granular schema [MODEL]`, docs/cases.md, "Schema"). It is recorded, not written: every
// shipped case is loaded by its model's loader under an io::KeyRecording, and each key the
// loaders read becomes a property with the type, bound, choices and default they check; a key
// is required when every load of its object read it with no default and without asking whether
// it is there; an object whose loader calls allow_only takes no other key. So the schema
// refuses what the loader refuses key by key; what it cannot say (a relation between keys, a
// bound that depends on another value, a key no shipped case reaches) the loader still checks.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/schema.hpp is host-only"
#endif

#include <nlohmann/json.hpp>
#include <string>

namespace granular::cases {

// The schema of every model's cases (a oneOf over $defs, one per model), or of `model`'s only
// (empty: all). An unknown model throws io::CaseError.
nlohmann::ordered_json case_schema(const std::string& model = "");

}  // namespace granular::cases
