// The registry of stated results (papers/stated_results.json, docs/reproduce.md) checked whole
// before anything runs: every field's type, ids as plain names, tolerances and costs >= 0, case
// paths inside the project, expressions parsed. A registry from a colleague is data: it can name
// no file outside the project and its output folder, and a wrong one is one line, exit 2.
#pragma once

#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes a reproduce header"
#endif

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace granular::reproduce {

// Throws io::CaseError naming `file` and the JSON pointer of the first defect of `doc`; `root`
// is the project folder where the cases' paths start.
void check_registry(const nlohmann::ordered_json& doc, const std::string& file,
                    const std::filesystem::path& root);

// Why `id` cannot be a result's id, or "": ids name files (figures/<id>.svg), so they are plain
// names of letters, digits, '.', '_' and '-', starting with a letter or digit, at most 100 long.
std::string id_defect(const std::string& id);

}  // namespace granular::reproduce
