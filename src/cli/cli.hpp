// What the `granular` command's files share: its options, exit codes, interrupt handling and
// the --force clearing (main.cpp parses and dispatches; mpi_run.cpp runs over MPI ranks).
#pragma once

#include <csignal>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"
#include "granular/cases/run_into_folder.hpp"

namespace granular::cli {

constexpr int kSuccess = 0;
constexpr int kRunFailure = 1;
constexpr int kBadInput = 2;
// a run stopped by a signal that left a checkpoint: --resume continues it (sysexits.h's
// EX_TEMPFAIL, "try again later"), told apart from a failure by a batch script
constexpr int kStopped = 75;
// granular reproduce wrote its report, and some result disagrees with its paper or failed
constexpr int kDisagrees = 3;

struct Options {
  std::string command;  // "run", "validate" or "merge"
  std::string case_path;
  std::vector<std::string> shards;  // merge: the shards' folders
  std::string out;                  // empty: out/<case file stem>
  // --backend, --threads, --resume, --force, --packings, --checkpoint-interval
  cases::RunRequest request;
  std::vector<std::string> sets;
  bool quiet = false;  // run: no progress or notes on stderr
};

// --threads N: N from 1 to 4096, else nothing (the message: thread_count_expected + the text).
std::optional<int> thread_count(const std::string& text);
constexpr const char* thread_count_expected = "expected an integer from 1 to 4096, got ";

// The options `granular COMMAND --help` names: what a mistyped option is matched against
// (main.cpp, beside the help texts).
std::vector<std::string> command_options(const std::string& command);

// `granular cases [show NAME | copy NAME [DIR] [--force]]` and `granular schema [MODEL]`
// (catalog.cpp); args[0] is the command. Bad input throws io::CaseError.
int cases_command(const std::vector<std::string>& args);
int schema_command(const std::vector<std::string>& args);

// `granular plot KIND ARGS...`: execs the figure tool of KIND (plot.cpp); returns only when it
// cannot. Bad input throws io::CaseError.
int plot_command(const std::vector<std::string>& args);

// The file `relative` (e.g. "tools/plot_sweep.py") of those that ship beside the binary: in the
// installed package one folder above it, else in the source tree it was built from; empty when
// neither has it (installed_files.cpp).
std::filesystem::path installed_file(const std::filesystem::path& relative);

// `granular reproduce ARGS...` (args[0] is "reproduce"): reruns the papers' stated results and
// writes the report (reproduce.cpp). Bad input throws io::CaseError.
int reproduce(const std::vector<std::string>& args);

// The same as one of `ranks` processes of an MPI job (mpi_run.cpp): this one runs every
// ranks-th run from `rank`; `all_finished(stopped here)` waits for every rank and says whether
// none stopped; rank 0 alone prints and writes the report.
int reproduce_part(const std::vector<std::string>& args, int rank, int ranks,
                   const std::function<bool(bool)>& all_finished);

// The output folder of `granular run`: --out, else out/<case file stem>.
std::filesystem::path run_folder(const Options& o);

// `signals` from now on ask the run to stop (stop_requested()); a third ends the process at once
// (stop_signals.cpp).
void catch_stop_signals(std::initializer_list<int> signals = {SIGINT, SIGTERM});
bool stop_requested();

// The command line's request (o.request) as a run into folder `out` of the packings `packings`
// (a shard, or all), --force's kept files noted on stderr. The caller adds where the report,
// progress and stop requests go.
cases::FolderRun folder_run(const Options& o, const std::filesystem::path& out,
                            const std::optional<cases::PackingRange>& packings);

// Clears granular's files from `out` (--force), saying on stderr which others it kept.
void force_clear(const std::filesystem::path& out);
// The note on stderr about the files --force kept in `out` (not granular's).
void note_kept(const std::filesystem::path& out, const std::vector<std::string>& kept);

}  // namespace granular::cli
