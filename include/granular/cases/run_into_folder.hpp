// The one run sequence of a loaded case into an output folder (docs/outputs.md), which the CLI's
// `granular run` and Python's granular.run share: every check before anything is created (the
// folder, the model's needs, another run's files), --force's clearing, run.log with the
// progress, the stop request, and the hints a failed or stopped run ends with.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"

namespace granular::cases {

// Where the run goes, what the caller asks of it, and where its words go.
struct FolderRun {
  std::filesystem::path out;
  RunRequest request;                // request.force clears granular's own files from `out` first
  std::ostream* report = nullptr;    // the results' table
  std::ostream* progress = nullptr;  // the progress besides run.log (null: run.log only)
  bool terminal = false;             // `progress` is a terminal: periodic lines in place
  std::function<void(const ProgressReport&)> on_progress;  // the periodic lines' numbers
  // told the files --force left because granular does not write them (before the first step)
  std::function<void(const std::vector<std::string>&)> on_kept;
  // how a user continues a run, in messages ("repeat the command with --resume")
  std::string resume_hint = "repeat the command with --resume";
  std::string stopped_how = "stopped,";  // run.log's last words for a stopped run
};

// How it ended: `message` is what a stopped run tells the user (its checkpoint and the hint),
// also written into run.log.
struct FolderRunEnd {
  RunEnd end = RunEnd::complete;
  std::string message;
};

// The steps of the sequence, for a run of several folders whose owners must agree between
// them (over MPI, each rank runs its shards' folders and the ranks agree after each step):
// the run's context as r asks it (progress and stop as r gives them);
RunContext folder_context(const LoadedCase& lc, const FolderRun& r);
// everything checked before anything is created: r.out is a folder or absent, the model has
// what the run needs (Case::check_run), r.out holds no other run's files (io::CaseError);
void check_folder(const LoadedCase& lc, const FolderRun& r);
// --force's clearing (r.on_kept hears what it kept), then r.out made and found writable
// (io::FileError);
void prepare_folder(const FolderRun& r);
// and what a run that failed in r.out with `what` says: where its last checkpoint is, if one
// was written, and `remedy`, how to continue from it.
std::string failed_run_message(const FolderRun& r, const std::string& what,
                               const std::string& remedy);

// Runs lc into r.out. Throws io::CaseError before anything is created (a folder that is a
// file, a backend or checkpoint the model lacks, another run's files); a run that fails writes
// "failed (why)" into run.log and rethrows, a full or vanished disk (io::FileError) as a
// std::runtime_error naming the last checkpoint and the hint.
FolderRunEnd run_into_folder(const LoadedCase& lc, const FolderRun& r);

}  // namespace granular::cases
