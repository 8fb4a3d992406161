// Helpers every model's outputs share: JSON written atomically (file.hpp), numbers for JSON and
// the terminal, the head of summary.json.json.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/io/output.hpp is host-only"
#endif

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "granular/io/file.hpp"
#include "granular/io/table.hpp"

namespace granular::io {

// Writes JSON (indented by 2) atomically.
void write_json_atomic(const std::filesystem::path& path, const nlohmann::json& j);

// A JSON number, or null when x is NaN or infinite (JSON has no such numbers).
nlohmann::json json_number(double x);
// A count held in a double (particle-steps pass 2^53 only in runs of years): a JSON integer
// while it is one below 2^63, else as json_number.
nlohmann::json json_count(double x);

// One number formatted printf-style (e.g. "%.6g"), for reports on the terminal.
std::string format_value(const char* format, double x);
// "12 s", "3.4 min", "5.1 h": a duration for a progress line or an estimate.
std::string duration_text(double s);

// The fields every summary.json starts with: "model", "granular_version", "case" (the case as
// run, after --set overrides and defaults), "provenance" (provenance.hpp: commit, build, host,
// date, command line) and "tables": each of `tables` (the model's CSVs) by file name, its
// columns in order as {"name", "unit"} ("" for a count, an index or a dimensionless number).
nlohmann::json summary_header(const std::string& model, const nlohmann::json& case_echo,
                              const std::vector<TableSpec>& tables);

// How an impact run ended (docs/outputs.md): "status" (the driver's word, the same for every
// model), "reason" (the model's word for a model-specific stop, else null) and "detail" (a
// sentence, or null).
void put_run_status(nlohmann::json& summary, const std::string& status, const std::string& reason,
                    const std::string& detail);

}  // namespace granular::io
