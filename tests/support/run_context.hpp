// A run context for tests that run a case's outputs directly (cases::run_packing_ensemble,
// cases::run_collision_case): an output folder, the case echo, threads, one stream for everything.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <utility>

#include "granular/cases/case.hpp"

namespace granular::test {

inline cases::RunContext run_context(const std::filesystem::path& dir, nlohmann::json echo,
                                     int threads, std::ostream& out) {
  cases::RunContext ctx;
  ctx.out_dir = dir;
  ctx.case_echo = std::move(echo);
  ctx.request.threads = threads;
  ctx.report = &out;
  ctx.progress = &out;
  return ctx;
}

}  // namespace granular::test
