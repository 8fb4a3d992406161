// The loaders of every model's cases, one module per model in src/cases/ (the registry,
// src/cases/registry.cpp, names them). Each validates the whole case (root has "model" = its
// name) and builds it.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/models.hpp is host-only"
#endif

#include <memory>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"

namespace granular::cases {

std::unique_ptr<Case> load_packing_ensemble(const io::JsonObject& root,
                                            std::vector<std::string>& notes);
std::unique_ptr<Case> load_collision(const io::JsonObject& root, std::vector<std::string>& notes);
std::unique_ptr<Case> load_pendulum(const io::JsonObject& root, std::vector<std::string>& notes);
std::unique_ptr<Case> load_billiard(const io::JsonObject& root, std::vector<std::string>& notes);
std::unique_ptr<Case> load_prism(const io::JsonObject& root, std::vector<std::string>& notes);
std::unique_ptr<Case> load_dimer(const io::JsonObject& root, std::vector<std::string>& notes);
std::unique_ptr<Case> load_wedge(const io::JsonObject& root, std::vector<std::string>& notes);
std::unique_ptr<Case> load_three_disk(const io::JsonObject& root, std::vector<std::string>& notes);
std::unique_ptr<Case> load_wedge_md(const io::JsonObject& root, std::vector<std::string>& notes);

// The tables (CSV files) each model writes: columns, units, meanings.
std::vector<io::TableSpec> packing_ensemble_tables();
std::vector<io::TableSpec> collision_tables();
std::vector<io::TableSpec> pendulum_tables();
std::vector<io::TableSpec> billiard_tables();
std::vector<io::TableSpec> prism_tables();
std::vector<io::TableSpec> dimer_tables();
std::vector<io::TableSpec> wedge_tables();
std::vector<io::TableSpec> three_disk_tables();
std::vector<io::TableSpec> wedge_md_tables();

}  // namespace granular::cases
