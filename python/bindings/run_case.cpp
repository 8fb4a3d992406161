#include "run_case.hpp"

#include <nanobind/stl/string.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "granular/cases/ensemble.hpp"
#include "granular/cases/output_folder.hpp"
#include "granular/cases/progress_output.hpp"
#include "granular/io/file.hpp"
#include "line_stream.hpp"

namespace nb = nanobind;

namespace granular::python {

namespace fs = std::filesystem;
using io::CaseError;

std::string run_case(const cases::LoadedCase& lc, const RunRequest& request) {
  // everything is checked before anything is created, as `granular run` does
  const fs::path out(request.out);
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))
    throw CaseError("", "out " + io::excerpt(out.string()), "exists and is not a directory");
  if (request.resume && request.force)
    throw CaseError("", "force", "starts afresh, resume continues: choose one");
  if (request.backend != "cpu" && request.backend != "cuda")
    throw CaseError("", "backend", "expected cpu or cuda, got " + io::quoted(request.backend));

  std::ostringstream report;
  // a Python exception met while the engine ran (a signal handler's, a progress callback's):
  // the run stops at its next poll, and the exception is raised once the run has returned
  std::optional<nb::python_error> pending;
  std::unique_ptr<LineBuffer> progress_buffer;
  std::unique_ptr<std::ostream> progress;
  // the numbers of the periodic line the run writes next (RunContext::on_progress)
  std::optional<cases::ProgressReport> numbers;
  if (!request.progress.is_none()) {
    const nb::object callback = request.progress;
    progress_buffer = std::make_unique<LineBuffer>([callback, &pending,
                                                    &numbers](const std::string& line) {
      nb::gil_scoped_acquire gil;
      std::optional<cases::ProgressReport> n = std::move(numbers);
      numbers.reset();
      if (pending) return;
      try {
        if (n)
          callback(line, nb::make_tuple(n->phase, n->t, n->fraction, n->rate, n->events,
                                        n->elapsed_s, n->eta_s));
        else
          callback(line, nb::none());
      } catch (nb::python_error& e) {
        pending.emplace(std::move(e));
      } catch (const std::exception&) {
        // nanobind's own failures (a line not valid UTF-8): the line is dropped; this runs in
        // the stream's destructor too, where nothing may escape
      }
    });
    progress = std::make_unique<std::ostream>(progress_buffer.get());
  }

  cases::RunContext ctx;
  ctx.out_dir = out;
  ctx.case_echo = lc.echo;
  ctx.backend = request.backend;
  ctx.threads = request.threads;
  ctx.resume = request.resume;
  ctx.checkpoint_interval = request.checkpoint_interval;
  ctx.report = &report;
  lc.spec->check_run(ctx);
  cases::check_run_folder(out, lc.echo, std::nullopt, request.resume, request.force);
  if (request.force) cases::clear_output_folder(out);

  // the progress to the callback and to run.log, as the CLI writes them (docs/outputs.md)
  cases::RunLog log(out, request.resume);
  auto tee_buffer = std::make_unique<cases::ProgressOutput>(progress.get(), false, &log.stream());
  auto tee = std::make_unique<std::ostream>(tee_buffer.get());
  ctx.progress = tee.get();
  if (progress) ctx.on_progress = [&numbers](const cases::ProgressReport& r) { numbers = r; };

  // Python's own SIGINT handler sets a flag; PyErr_CheckSignals runs the handler, which raises
  // KeyboardInterrupt, on the main thread (the run asks `stop` from the thread that called it)
  if (lc.spec->stoppable()) {
    ctx.stop = [&pending]() {
      nb::gil_scoped_acquire gil;
      if (pending) return true;
      if (PyErr_CheckSignals() != 0) pending.emplace();  // fetches the raised exception
      return pending.has_value();
    };
  }

  cases::RunEnd end = cases::RunEnd::complete;
  {
    nb::gil_scoped_release released;
    try {
      end = lc.spec->run(ctx);
    } catch (const io::FileError& failed) {
      // a full or vanished disk: what was checkpointed before is still there to resume
      const fs::path checkpoint = cases::checkpoint_path(out);
      log.finish(std::string("failed (") + failed.what() + ")");
      throw std::runtime_error(std::string(failed.what()) +
                               (fs::exists(checkpoint, ec)
                                    ? "; the last checkpoint is " + checkpoint.string() +
                                          ": make room, then run again with resume=True"
                                    : ""));
    } catch (const std::exception& failed) {
      log.finish(std::string("failed (") + failed.what() + ")");
      throw;
    }
    // a last line without its newline reaches the callback too
    tee.reset();
    tee_buffer.reset();
    progress.reset();
    progress_buffer.reset();
    log.finish(end == cases::RunEnd::interrupted ? std::string("stopped,")
                                                 : "finished, outputs in " + out.string() + ",");
  }
  if (pending) throw std::move(*pending);
  if (end == cases::RunEnd::interrupted)
    throw std::runtime_error("run stopped early without an exception; checkpoint in " +
                             cases::checkpoint_path(out).string());
  return report.str();
}

}  // namespace granular::python
