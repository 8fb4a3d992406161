// run_packing_ensemble: runs a packing ensemble by MD on its backend and writes its outputs
// (docs/outputs.md): energy.csv and angles.csv streamed during the run (streams.hpp), disks.csv,
// and last, atomically, summary.json, whose presence marks a complete run (results.cpp).
// checkpoint.bin is written at chunk boundaries until then; it records the streams' sizes, so a
// resumed run cuts them back to that point and appends exactly the rows the uninterrupted run
// would have written. A shard (ctx.request.packings) runs its slice of the packings and writes them
// under their indices in the whole ensemble, so that merging shards gives the whole run's files
// (shards.cpp).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/checkpoint.hpp"
#include "granular/io/output.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/ensemble/run.hpp"
#include "outputs.hpp"
#include "streams.hpp"

namespace granular::cases {

using io::format_value;
using io::json_count;
using io::json_number;

namespace {

// The checkpoint to resume (of this case, made on any backend: the state is the same arrays
// everywhere, and the run continues bitwise where the backends agree bitwise), with its streams
// verified; or, for a fresh run, nothing, once what an earlier run left is removed.
std::optional<io::EnsembleCheckpoint> resume_or_clear(const RunContext& ctx,
                                                      const md::EnsembleCase& run_case,
                                                      const std::string& fingerprint) {
  if (!ctx.request.resume) {
    clear_earlier_run(ctx.out_dir);
    return std::nullopt;
  }
  const md::EnsembleModel& m = run_case.model;
  const std::filesystem::path checkpoint = checkpoint_path(ctx.out_dir);
  io::EnsembleCheckpoint resume = io::read_checkpoint(checkpoint, m, fingerprint);
  // a checkpoint off the case's schedule is bad input, named here rather than by the run
  const std::string defect = md::resume_defect(run_case, resume.point);
  if (!defect.empty())
    throw io::CaseError(checkpoint.string(), "", "damaged checkpoint (it " + defect + ")");
  verify_streams(ctx.out_dir, resume.header);
  return resume;
}

// The line that says where a resumed run continues, once every check of its folder has passed
// (a refusal stays the only line).
void report_resume(const RunContext& ctx, const md::EnsembleModel& m,
                   const io::EnsembleCheckpoint& resume, const std::string& backend,
                   std::ostream& progress) {
  progress << "resuming from " << checkpoint_path(ctx.out_dir).string()
           << " at t = " << format_value("%.6g", resume.point.state.time(m)) << " s";
  if (resume.header.backend != backend)
    progress << " (made by the " << resume.header.backend << " backend, continued on " << backend
             << ")";
  progress << "\n";
}

// The run's periodic progress line, with the time left at the pace of this process so far (a
// resumed run starts its own count); ctx.on_progress hears the same numbers first.
std::function<void(const md::RunProgress&)> progress_line(const RunContext& ctx,
                                                          std::ostream& progress) {
  const auto started = std::chrono::steady_clock::now();
  return [&ctx, &progress, started, first_fraction = -1.0](const md::RunProgress& p) mutable {
    if (first_fraction < 0.0) first_fraction = p.fraction;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double done = p.fraction - first_fraction;
    const double eta_s = done > 0.0 ? elapsed * (1.0 - p.fraction) / done : NAN;
    const std::string eta = done > 0.0 ? io::duration_text(eta_s) : std::string("?");
    if (ctx.on_progress)
      ctx.on_progress({name_of(md::run_phase_names, p.phase), p.t, p.fraction,
                       p.particle_steps_per_s, NAN, elapsed, eta_s});
    char line[200];
    std::snprintf(line, sizeof line,
                  "[%-9s] t = %10.4f s  %5.1f %%  %.3g particle-steps/s  elapsed %s  ETA %s\n",
                  name_of(md::run_phase_names, p.phase), p.t, 100.0 * p.fraction,
                  p.particle_steps_per_s, io::duration_text(elapsed).c_str(), eta.c_str());
    progress << '\r' << line << std::flush;  // a periodic line (RunContext::progress)
  };
}

// summary.json's keys of an MD run (results.cpp writes those every run has).
nlohmann::json md_keys(const md::EnsembleResult& r, const RunContext& ctx) {
  nlohmann::json keys;
  keys["method"] = "md";
  keys["dt"] = json_number(r.dt);
  keys["sample_interval"] = json_number(r.sample_interval);
  keys["steps"] = r.steps;
  keys["particle_steps"] = json_count(r.particle_steps);
  keys["wall_time_s"] = json_number(r.wall_time_s);
  keys["advance_time_s"] = json_number(r.advance_time_s);
  keys["particle_steps_per_s"] = json_number(r.particle_steps_per_s);
  keys["threads"] = threads_used(ctx.request.threads);
  keys["backend"] = r.backend;
  if (ctx.request.packings)
    keys["shard"] = {{"packings", {ctx.request.packings->first, ctx.request.packings->last}}};
  return keys;
}

}  // namespace

RunEnd run_packing_ensemble(const md::EnsembleCase& c, const RunContext& ctx,
                            const SnapshotPlan& snapshots) {
  const OrQuiet progress_or_quiet(ctx.progress);
  std::ostream& progress = *progress_or_quiet;
  // a shard runs its packings only; its rows carry their indices in the whole ensemble
  const md::EnsembleCase shard =
      ctx.request.packings ? shard_ensemble(c, *ctx.request.packings) : md::EnsembleCase{};
  const md::EnsembleCase& run_case = ctx.request.packings ? shard : c;
  const PackingIndex whole = [&](int p) { return whole_packing_index(c, ctx.request.packings, p); };
  auto backend = ctx.request.backend == "cuda" ? md::make_cuda_backend()
                                               : md::make_cpu_backend(ctx.request.threads);
  const std::filesystem::path checkpoint = checkpoint_path(ctx.out_dir);
  const std::string fingerprint = case_fingerprint(ctx.case_echo, ctx.request.packings);

  std::optional<io::EnsembleCheckpoint> resume = resume_or_clear(ctx, run_case, fingerprint);
  // the first packing of every Γ belongs to the shard that starts at 0
  const bool angles = !ctx.request.packings || ctx.request.packings->first == 0;
  StreamedOutputs streams(ctx.out_dir, run_case, whole, snapshots, angles,
                          resume ? &resume->header : nullptr);
  if (resume) report_resume(ctx, run_case.model, *resume, backend->name(), progress);

  md::EnsembleRunOptions options;
  options.control = ctx.request.control;  // when to checkpoint and to ask `stop`
  options.resume = resume ? &resume->point : nullptr;
  options.on_progress = progress_line(ctx, progress);
  // checkpoints: the streams are flushed first, so the sizes recorded cover every row written
  options.on_checkpoint = [&](const md::RunPosition& position, const md::EnsembleState& s,
                              const std::vector<md::RotationStats>& rotation) {
    io::CheckpointHeader header{fingerprint, backend->name(), {}, position, {}};
    for (const md::PackingParams& pp : run_case.model.packings) header.gammas.push_back(pp.gamma);
    streams.record(header);
    io::write_checkpoint(checkpoint, header, s, rotation);
  };

  md::EnsembleResult r = md::run_ensemble(run_case, *backend, streams.observer(), options);
  streams.close();
  if (!r.complete) {
    const double t = -c.schedule.settle_time + static_cast<double>(r.steps) * r.dt;
    progress << "stopped at t = " << format_value("%.6g", t) << " s; checkpoint in "
             << checkpoint.string() << "\n";
    return RunEnd::interrupted;
  }
  for (md::PackingResult& p : r.packings) p.index = whole(p.index);
  write_ensemble_results(c, r, ctx, md_keys(r, ctx), {});

  // summary.json is now the finished result; the checkpoint has served
  std::error_code ec;
  std::filesystem::remove(checkpoint, ec);
  if (ec) progress << checkpoint.string() << ": cannot remove: " << ec.message() << "\n";
  return RunEnd::complete;
}

}  // namespace granular::cases
