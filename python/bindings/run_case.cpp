#include "run_case.hpp"

#include <nanobind/stl/string.h>

#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "granular/cases/run_into_folder.hpp"
#include "granular/io/file.hpp"
#include "line_stream.hpp"

namespace nb = nanobind;

namespace granular::python {

using io::CaseError;

std::string run_case(const cases::LoadedCase& lc, const std::string& out,
                     const cases::RunRequest& request, const nb::object& progress_callback) {
  // the module's own checks; the rest is the CLI's sequence (cases::run_into_folder)
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
  if (!progress_callback.is_none()) {
    const nb::object callback = progress_callback;
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

  cases::FolderRun r;
  r.out = out;
  r.request = request;
  r.report = &report;
  r.progress = progress.get();
  if (progress) r.on_progress = [&numbers](const cases::ProgressReport& p) { numbers = p; };
  r.resume_hint = "run again with resume=True";
  // Python's own SIGINT handler sets a flag; PyErr_CheckSignals runs the handler, which raises
  // KeyboardInterrupt, on the main thread (the run asks `stop` from the thread that called it)
  r.request.control.stop = [&pending]() {
    nb::gil_scoped_acquire gil;
    if (pending) return true;
    if (PyErr_CheckSignals() != 0) pending.emplace();  // fetches the raised exception
    return pending.has_value();
  };

  cases::FolderRunEnd end;
  {
    nb::gil_scoped_release released;
    end = cases::run_into_folder(lc, r);
    // a last line without its newline reaches the callback too
    progress.reset();
    progress_buffer.reset();
  }
  if (pending) throw std::move(*pending);
  if (end.end == cases::RunEnd::interrupted)
    throw std::runtime_error("run stopped early without an exception; " + end.message);
  return report.str();
}

}  // namespace granular::python
