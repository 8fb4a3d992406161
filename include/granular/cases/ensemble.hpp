// The packing_ensemble model as a case (docs/cases.md, docs/outputs.md): its schema builds an
// md::EnsembleCase; a run advances it through md::run_ensemble on the chosen backend and writes
// energy.csv and angles.csv during the run, disks.csv, and last, atomically, summary.json;
// checkpoint.bin is kept until then so that an interrupted run resumes bitwise.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/ensemble.hpp is host-only"
#endif

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "granular/cases/case.hpp"
#include "granular/md/ensemble_case.hpp"

namespace granular::cases {

// Most CSV output an ensemble case may ask for [bytes]: beyond it a run would fill any disk
// (a sample_interval far below use); the case loader refuses it.
constexpr double max_output_bytes = 1e12;

// About how many bytes of CSV an ensemble run writes (energy.csv, angles.csv, disks.csv; rows
// as run_packing_ensemble writes them, numbers at their widest): `granular validate` prints it
// and the loader compares it with max_output_bytes.
double ensemble_output_bytes(const md::RunSteps& steps, int n_gamma, int packings_per_gamma,
                             int disks_per_packing);

// The checkpoint of an unfinished ensemble run in out_dir: out_dir/checkpoint.bin.
std::filesystem::path checkpoint_path(const std::filesystem::path& out_dir);

// The fingerprint a checkpoint carries: the case as run, dumped.
std::string case_fingerprint(const nlohmann::json& case_echo);

// Runs the ensemble in ctx (backend "cpu" with ctx.threads, or "cuda") and writes its outputs
// into ctx.out_dir: the Γ table to *ctx.report, progress lines to *ctx.progress. Keeps
// checkpoint.bin during the run (every ctx.checkpoint_interval and when ctx.stop asks) and
// removes it once summary.json is written. Returns interrupted when ctx.stop ended the run
// (the checkpoint can be resumed with ctx.resume); throws std::runtime_error naming the file
// when resuming fails, io::FileError when writing fails.
RunEnd run_packing_ensemble(const md::EnsembleCase& c, const RunContext& ctx);

// The case: the ensemble and its run.
class PackingEnsemble : public Case {
 public:
  explicit PackingEnsemble(md::EnsembleCase c) : c_(std::move(c)) {}
  const md::EnsembleCase& ensemble() const { return c_; }
  void describe(std::ostream& out) const override;
  // --resume needs this case's checkpoint, made on this backend, in the output folder;
  // --backend cuda needs a device.
  void check_run(const RunContext& ctx) const override;
  RunEnd run(const RunContext& ctx) const override { return run_packing_ensemble(c_, ctx); }
  bool stoppable() const override { return true; }

 private:
  md::EnsembleCase c_;
};

}  // namespace granular::cases
