// Where a run's progress goes (docs/outputs.md, "run.log"): stderr (unless --quiet) or a
// Python callback, and the output folder's run.log. A run marks its periodic progress lines
// with a leading '\r' (RunContext::progress): on a terminal each one overwrites the last, in a
// file, a pipe or run.log each is a line of its own; any other line ends an open progress line
// first.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include <filesystem>
#include <fstream>
#include <ostream>
#include <streambuf>
#include <string>

namespace granular::cases {

class ProgressOutput : public std::streambuf {
 public:
  // terminal: stderr's stream, or null (--quiet); log: run.log's, or null
  ProgressOutput(std::ostream* terminal, bool is_tty, std::ostream* log)
      : terminal_(terminal), tty_(is_tty), log_(log) {}
  ~ProgressOutput() override;
  ProgressOutput(const ProgressOutput&) = delete;
  ProgressOutput& operator=(const ProgressOutput&) = delete;

  // Ends an open progress line on the terminal, before something is written there directly.
  void end_line();

 protected:
  int_type overflow(int_type ch) override;
  int sync() override;

 private:
  void line(const std::string& text);  // one complete line, without its newline

  std::ostream* terminal_;
  bool tty_;
  std::ostream* log_;
  std::string pending_;  // the line being written
  bool open_ = false;    // a progress line stands on the terminal without its newline
};

// The output folder's run.log: a first line with the date, the host and the build
// (io::version_line), the command line after "$ ", then whatever the run's progress writes,
// and a last line saying how the run ended. A resumed run appends.
class RunLog {
 public:
  // where: "" or, e.g., " on 4 MPI ranks"
  RunLog(const std::filesystem::path& out_dir, bool resume, const std::string& where = "");
  std::ostream& stream() { return file_; }
  // "finished, outputs in DIR," / "stopped, exit 75," / "failed (why)", then the date
  void finish(const std::string& how);

 private:
  std::ofstream file_;
};

// A run's words in its output folder: run.log, and the progress stream that writes into it and
// to `shown` (stderr, a Python callback's lines, or null), from the case's notes to the line that
// says how the run ended: a run into a folder's (run_into_folder.hpp) and an MPI job's on rank 0.
class FolderLog {
 public:
  // is_tty: `shown` is a terminal; where: as RunLog's
  FolderLog(const std::filesystem::path& out_dir, bool resume, std::ostream* shown, bool is_tty,
            const std::string& where = "");
  std::ostream& progress() { return progress_; }
  // the progress flushed, then run.log's last line (RunLog::finish)
  void finish(const std::string& how);
  // a stopped run: the progress flushed and its open line ended, `message` (where the
  // checkpoint is, how to continue) on a line of run.log, then its last line
  void stopped(const std::string& message, const std::string& how);

 private:
  RunLog log_;
  ProgressOutput buffer_;
  std::ostream progress_;
};

}  // namespace granular::cases
