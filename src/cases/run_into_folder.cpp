// The one run sequence of a loaded case into an output folder
// (include/granular/cases/run_into_folder.hpp).
#include "granular/cases/run_into_folder.hpp"

#include <exception>
#include <stdexcept>
#include <system_error>

#include "granular/cases/output_folder.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/cases/progress_output.hpp"
#include "granular/io/file.hpp"
#include "granular/io/json_reader.hpp"

namespace granular::cases {

namespace fs = std::filesystem;

RunContext folder_context(const LoadedCase& lc, const FolderRun& r) {
  RunContext ctx{r.out, lc.echo, r.request, r.report, r.progress, r.on_progress};
  // a run that can stop stops within a slice with a checkpoint, so days of work survive; the
  // others are never asked
  if (!lc.spec->stoppable()) ctx.request.control.stop = nullptr;
  return ctx;
}

void check_folder(const LoadedCase& lc, const FolderRun& r) {
  check_folder_path(r.out);  // first: the case's checks may look into the folder
  lc.spec->check_run(folder_context(lc, r));
  // a folder that holds another run's files is found now, not after hours of computing
  check_output_folder(r.out, lc.echo, r.request.packings, r.request.resume, r.request.force);
}

void prepare_folder(const FolderRun& r) {
  if (r.request.force) {
    const std::vector<std::string> kept = clear_output_folder(r.out);
    if (!kept.empty() && r.on_kept) r.on_kept(kept);
  }
  io::check_writable_folder(r.out);
}

std::string failed_run_message(const FolderRun& r, const std::string& what,
                               const std::string& remedy) {
  std::error_code ec;
  const fs::path checkpoint = checkpoint_path(r.out);
  return what + (fs::exists(checkpoint, ec)
                     ? "; the last checkpoint is " + checkpoint.string() + ": " + remedy
                     : "");
}

FolderRunEnd run_into_folder(const LoadedCase& lc, const FolderRun& r) {
  // everything is checked before anything is created, a folder that cannot take the outputs too
  check_folder(lc, r);
  try {
    io::check_writable_folder(r.out);
  } catch (const io::FileError& e) {
    throw io::CaseError("", "", e.what());
  }
  prepare_folder(r);

  // the progress to the caller and to run.log, which a resumed run continues
  FolderLog log(r.out, r.request.resume, r.progress, r.terminal);
  RunContext ctx = folder_context(lc, r);
  ctx.progress = &log.progress();
  for (const std::string& n : lc.notes) log.progress() << "note: " << n << "\n";

  FolderRunEnd end;
  try {
    end.end = lc.spec->run(ctx);
  } catch (const io::FileError& failed) {
    // a full or vanished disk: what was checkpointed before is still there to resume
    log.finish(std::string("failed (") + failed.what() + ")");
    throw std::runtime_error(
        failed_run_message(r, failed.what(), "make room, then " + r.resume_hint));
  } catch (const std::exception& failed) {
    log.finish(std::string("failed (") + failed.what() + ")");
    throw;
  }
  if (end.end == RunEnd::interrupted) {
    end.message = "run interrupted; checkpoint in " + checkpoint_path(r.out).string() + ": " +
                  r.resume_hint + " to continue";
    log.stopped(end.message, r.stopped_how);
    return end;
  }
  log.finish("finished, outputs in " + r.out.string() + ",");
  return end;
}

}  // namespace granular::cases
