// The packing_ensemble model as a case (docs/cases.md, docs/outputs.md): its schema builds an
// md::EnsembleCase; a run advances it through md::run_ensemble on the chosen backend and writes
// energy.csv and angles.csv during the run, disks.csv, and last, atomically, summary.json;
// checkpoint.bin is kept until then so that an interrupted run resumes bitwise. With
// "method": "ed" the same packings run by the event-driven method instead (md::ed, docs/ed.md),
// on CPU threads, without checkpoints, into the same outputs.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/packing_ensemble.hpp is host-only"
#endif

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"
#include "granular/md/ed/ensemble.hpp"
#include "granular/md/ensemble/case.hpp"
#include "granular/md/ensemble/run.hpp"

namespace granular::cases {

// Which packings a run writes snapshots of, at which chunk ends, in which formats (the case's
// "snapshots", docs/cases.md; the files: io/snapshot.hpp, docs/outputs.md).
struct SnapshotPlan {
  std::vector<int> packings;      // packing indices, ascending; empty: no snapshots
  std::int64_t first_chunk = 0;   // the chunk end of the first frame (0: the initial state)
  std::int64_t every_chunks = 1;  // then a frame every this many chunk ends
  bool lammps = false;            // snapshots/packing_<p>.lammpstrj
  bool vtk = false;               // snapshots/packing_<p>_<frame>.vtp, snapshots/packing_<p>.pvd
  bool gsd = false;               // snapshots/packing_<p>.gsd
  bool takes(std::int64_t chunk) const {
    return !packings.empty() && chunk >= first_chunk && (chunk - first_chunk) % every_chunks == 0;
  }
  // frames of each packing in a run of `chunks` chunks
  std::int64_t frames(std::int64_t chunks) const {
    return packings.empty() || first_chunk > chunks ? 0 : (chunks - first_chunk) / every_chunks + 1;
  }
};

// About how many bytes the snapshots of a run of `chunks` chunks write, at most (every disk with
// its most contacts): the loader adds them to the output it bounds, `granular validate` prints it.
double snapshot_bytes(const SnapshotPlan& plan, std::int64_t chunks, int disks_per_packing,
                      const md::NeighborParams& neighbor, int wall_bodies);

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

// The fingerprint a checkpoint carries: the case as run, dumped, and the shard's packings.
std::string case_fingerprint(const nlohmann::json& case_echo,
                             const std::optional<PackingRange>& shard = std::nullopt);

// Shards (docs/outputs.md, "Shards"): the packings r in [first, last) of every Γ of c, a case
// with packings_per_gamma = last − first whose packing r' is packing first + r' of c (the same
// parameters, radii and seed).
md::EnsembleCase shard_ensemble(const md::EnsembleCase& c, const PackingRange& shard);

// The index in the whole ensemble c of packing p of the shard (p itself without one).
int whole_packing_index(const md::EnsembleCase& c, const std::optional<PackingRange>& shard, int p);

// Joins the complete shards in `shard_dirs` (any order) into out_dir: the files a single run of
// the whole case writes, byte for byte, except the run-dependent keys of summary.json (wall
// times, rates, threads: docs/outputs.md). Prints the Γ table to `report`. Throws io::CaseError
// naming the folder for shards of different cases or backends, gaps, overlaps and incomplete
// shards, before anything is written; then calls before_writing with the case echo (the CLI
// checks the output folder there).
void merge_packing_shards(const std::filesystem::path& out_dir,
                          const std::vector<std::filesystem::path>& shard_dirs,
                          std::ostream& report,
                          const std::function<void(const nlohmann::json&)>& before_writing);

// The results of a finished run of c (packing indices in the whole ensemble): the Γ table and
// the packings left out (ctx.report), disks.csv, then summary.json with the keys every run has,
// `method_keys` and, per packing, `packing_keys` (empty, or one object per packing).
void write_ensemble_results(const md::EnsembleCase& c, const md::EnsembleResult& r,
                            const RunContext& ctx, const nlohmann::json& method_keys,
                            const std::vector<nlohmann::json>& packing_keys);

// Runs the ensemble in ctx (backend "cpu" with ctx.request.threads, or "cuda") and writes its
// outputs into ctx.out_dir: the Γ table to *ctx.report, progress lines to *ctx.progress. Keeps
// checkpoint.bin during the run (every ctx.request.control.checkpoint_interval and when
// ctx.request.control.stop asks) and removes it once summary.json is written. Returns interrupted
// when ctx.request.control.stop ended the run (the checkpoint can be resumed with
// ctx.request.resume); throws std::runtime_error naming the file when resuming fails, io::FileError
// when writing fails. Writes the snapshots of `snapshots` too (none by default).
RunEnd run_packing_ensemble(const md::EnsembleCase& c, const RunContext& ctx,
                            const SnapshotPlan& snapshots = {});

// The same by the event-driven method on ctx.request.threads CPU threads: energy.csv and angles.csv
// (rows at the same times as an MD run's transient and measurement), disks.csv and summary.json
// with the event counts of every packing. No checkpoint; the run is not stoppable.
RunEnd run_packing_ensemble_ed(const md::EnsembleCase& c, const md::ed::EdOptions& ed,
                               const RunContext& ctx);

// A collision record instead of the rotation (docs/ed.md, "Collisions in MD packings"): every
// contact of the measurement window, the isolated ones set beside the event-driven rules.
struct CollisionRecord {
  md::ed::TangentialRule tangential = md::ed::TangentialRule::contact_law;  // the rules' e_t
  double tolerance = 0.05;  // a prediction within this fraction of |(u_n, u_t)| matches
};

// Runs the packings by MD through settle and transient, then one step at a time through the
// measurement, and writes collisions.csv and summary.json (per Γ: contacts ended, isolated
// collisions, the fraction the rules match and their median error). No checkpoint.
RunEnd run_collision_record(const md::EnsembleCase& c, const CollisionRecord& record,
                            const RunContext& ctx);

// The case: the ensemble and its run, by MD or, when `ed` is set, by the event-driven method.
class PackingEnsemble : public Case {
 public:
  explicit PackingEnsemble(md::EnsembleCase c, std::optional<md::ed::EdOptions> ed = std::nullopt,
                           SnapshotPlan snapshots = {},
                           std::optional<CollisionRecord> collisions = std::nullopt)
      : c_(std::move(c)), ed_(ed), snapshots_(std::move(snapshots)), collisions_(collisions) {}
  const SnapshotPlan& snapshots() const { return snapshots_; }
  const md::EnsembleCase& ensemble() const { return c_; }
  const std::optional<md::ed::EdOptions>& event_driven() const { return ed_; }
  void describe(Description& d) const override;
  // MD: --resume needs this case's checkpoint, made on this backend, in the output folder;
  // --backend cuda needs a device. ED: the CPU, no --resume, no --checkpoint-interval.
  void check_run(const RunContext& ctx) const override;
  // MD: the particle-steps and the wall time from a calibration run (estimate.cpp)
  void estimate(const RunContext& ctx, Description& d) const override;
  RunEnd run(const RunContext& ctx) const override {
    if (collisions_) return run_collision_record(c_, *collisions_, ctx);
    return ed_ ? run_packing_ensemble_ed(c_, *ed_, ctx) : run_packing_ensemble(c_, ctx, snapshots_);
  }
  // an MD run stops with a checkpoint; an ED run and a collision record keep none
  bool stoppable() const override { return !ed_ && !collisions_; }

 private:
  md::EnsembleCase c_;
  std::optional<md::ed::EdOptions> ed_;
  SnapshotPlan snapshots_;
  std::optional<CollisionRecord> collisions_;
};

}  // namespace granular::cases
