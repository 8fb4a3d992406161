// Running a validated case and writing its outputs: the body of `granular run`.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/io/run_case.hpp is host-only"
#endif

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "granular/md/collision.hpp"
#include "granular/md/ensemble_case.hpp"

namespace granular::io {

// Checkpointing of an ensemble run (docs/outputs.md, "checkpoint.bin").
struct EnsembleRunControl {
  // continue from out_dir/checkpoint.bin; false starts afresh and removes an old checkpoint
  bool resume = false;
  double checkpoint_interval = 600.0;  // wall time between checkpoints [s]; 0: none
  // asked after every slice of a chunk (md::EnsembleRunOptions); true writes a checkpoint and
  // ends the run early (an interrupt)
  std::function<bool()> stop;
  // as md::EnsembleRunOptions: wall time per slice [s], or a fixed slice length (tests)
  double poll_interval_s = 0.5;
  std::int64_t slice_steps = 0;
};

// The checkpoint of an unfinished ensemble run in out_dir: out_dir/checkpoint.bin.
std::filesystem::path checkpoint_path(const std::filesystem::path& out_dir);

// The fingerprint a checkpoint carries: the case as run, dumped.
std::string case_fingerprint(const nlohmann::json& case_echo);

// Most CSV output an ensemble case may ask for [bytes]: beyond it a run would fill any disk
// (a sample_interval far below use); the case loader refuses it.
constexpr double max_output_bytes = 1e12;

// About how many bytes of CSV an ensemble run writes (energy.csv, angles.csv, disks.csv; rows
// as run_ensemble_case writes them, numbers at their widest): `granular validate` prints it and
// the loader compares it with max_output_bytes.
double ensemble_output_bytes(const md::RunSteps& steps, int n_gamma, int packings_per_gamma,
                             int disks_per_packing);

// Runs a packing ensemble on `backend` ("cpu" with `threads` threads, <= 0: OpenMP default; or
// "cuda") and writes summary.json (atomically, last), the CSV time series and the per-disk
// table into out_dir, which must exist. The Γ table goes to `report`, progress lines to
// `progress` (the CLI: stdout and stderr). `case_echo` is the
// case as run. Writes checkpoint.bin during the run and removes it once summary.json is
// written. Returns false when control.stop ended the run early (a checkpoint was written and
// the run can resume); throws std::runtime_error naming the file when resuming fails.
bool run_ensemble_case(const md::EnsembleCase& c, const nlohmann::json& case_echo,
                       const std::filesystem::path& out_dir, const std::string& backend,
                       int threads, std::ostream& report, std::ostream& progress,
                       const EnsembleRunControl& control = {});

// Runs one collision and writes summary.json (measured and predicted e_n, e_t, t_c) and the
// collision time series into out_dir, which must exist.
void run_collision_case(const md::CollisionCase& c, const nlohmann::json& case_echo,
                        const std::filesystem::path& out_dir, std::ostream& progress);

}  // namespace granular::io
