// Running a validated case and writing its outputs: the body of `granular run`.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/io/run_case.hpp is host-only"
#endif

#include <filesystem>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "granular/md/collision.hpp"
#include "granular/md/ensemble_case.hpp"

namespace granular::io {

// Runs a packing ensemble on `backend` ("cpu" with `threads` threads, <= 0: OpenMP default; or
// "cuda") and
// writes summary.json (atomically, last), the CSV time series and the per-disk table into
// out_dir, which must exist. Progress lines go to `progress`. `case_echo` is the case as run.
void run_ensemble_case(const md::EnsembleCase& c, const nlohmann::json& case_echo,
                       const std::filesystem::path& out_dir, const std::string& backend,
                       int threads, std::ostream& progress);

// Runs one collision and writes summary.json (measured and predicted e_n, e_t, t_c) and the
// collision time series into out_dir, which must exist.
void run_collision_case(const md::CollisionCase& c, const nlohmann::json& case_echo,
                        const std::filesystem::path& out_dir, std::ostream& progress);

}  // namespace granular::io
