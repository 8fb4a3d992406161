// The host impact models as the CLI sees them: each "model" of a case file ("pendulum",
// "billiard", "prism", ...) is loaded into an ImpactCase, which can describe itself (for
// `granular validate`) and run, writing its outputs. Each model's loader lives in its own
// src/impact/<model>_case.cpp.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/impact_case.hpp is host-only"
#endif

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "granular/io/json_reader.hpp"

namespace granular::impact {

class ImpactCase {
 public:
  virtual ~ImpactCase() = default;
  // Derived quantities worth checking before a run (for `granular validate`).
  virtual void describe(std::ostream& out) const = 0;
  // Runs the case and writes summary.json (atomically, last) and its CSV files into out_dir,
  // which exists. `case_echo` is the case as run. Progress and a short report go to `progress`.
  virtual void run(const nlohmann::json& case_echo, const std::filesystem::path& out_dir,
                   std::ostream& progress) const = 0;
};

// Validates the whole case (root has "model" = the model's name) and builds it; bad input
// throws io::CaseError through `root` (its fail(), number(), ...), as the other models do.
using ImpactLoader = std::unique_ptr<ImpactCase> (*)(const io::JsonObject& root);

struct ImpactModel {
  const char* name;     // the value of "model"
  ImpactLoader load;
};

// Every impact model known to the CLI (src/impact/registry.cpp).
const std::vector<ImpactModel>& impact_models();

}  // namespace granular::impact
