// The cases that ship with granular (the project's cases/ folder, compiled in): what
// `granular cases` lists, `granular run NAME` runs and `granular schema` is recorded from
// (docs/cases.md, "Shipped cases").
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/shipped.hpp is host-only"
#endif

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace granular::cases {

struct ShippedCase {
  const char* name;  // the file's stem: "demo_sweep"
  const char* text;  // the file's JSON text
};

// Every shipped case, by name (generated from cases/*.json by cmake/shipped_cases.cmake).
const std::vector<ShippedCase>& shipped_cases();

// The shipped case called `name` (its stem, or its file name NAME.json); null when none is.
const ShippedCase* find_shipped_case(const std::string& name);

// The names of the shipped cases.
std::vector<std::string> shipped_case_names();

// The parsed document of a shipped case.
nlohmann::json shipped_case_json(const ShippedCase& c);

// Its "description", or empty.
std::string shipped_case_description(const ShippedCase& c);

}  // namespace granular::cases
