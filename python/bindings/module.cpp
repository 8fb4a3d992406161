// granular._core: the C++ side of the Python module (docs/python.md). Cases load and validate
// through cases::load_case, the CLI's loader, and run through the CLI's run path (run_case.cpp);
// the pure-Python package (python/granular/) turns outputs into numpy arrays.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <exception>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "ensemble_binding.hpp"
#include "granular/cases/case.hpp"
#include "granular/cases/schema.hpp"
#include "granular/cases/shipped.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/io/provenance.hpp"
#include "granular/io/suggest.hpp"
#include "run_case.hpp"

namespace nb = nanobind;
using granular::cases::Description;
using granular::cases::LoadedCase;
using granular::io::CaseError;

namespace {

// A case given as JSON text (a Python dict, dumped): the CLI's validation, `file` naming it.
LoadedCase load_case_text(const std::string& text, const std::string& file,
                          const std::vector<std::string>& overrides) {
  return granular::cases::load_case_json(granular::io::parse_json_text(text, file), file,
                                         overrides);
}

// {"text", "data", "units"} of a description as JSON text, for granular.Case (_cases.py); a
// word that is not UTF-8 (a scanned key given by --set) is replaced, not refused.
std::string description_json(const std::ostringstream& text, const Description& d) {
  const nlohmann::ordered_json all = {
      {"text", text.str()}, {"data", d.data()}, {"units", d.units()}};
  return all.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// What `granular validate` prints of the case, with its numbers as data.
std::string describe(const LoadedCase& lc) {
  std::ostringstream text;
  Description d(text);
  lc.spec->describe(d);
  return description_json(text, d);
}

// What `granular validate --threads --backend` estimates, after the same checks; the GIL is
// released during the calibration run (0.4 s of stepping after building its packings).
std::string estimate(const LoadedCase& lc, int threads, const std::string& backend) {
  granular::cases::RunContext ctx;
  ctx.case_echo = lc.echo;
  ctx.request.backend = backend;
  ctx.request.threads = threads;
  lc.spec->check_run(ctx);
  std::ostringstream text;
  Description d(text);
  {
    nb::gil_scoped_release released;
    lc.spec->estimate(ctx, d);
  }
  return description_json(text, d);
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "granular's engine: cases, runs and ensembles (docs/python.md)";
  m.attr("__version__") = GRANULAR_VERSION;
  m.attr("max_json_depth") = granular::io::max_json_depth;
  m.def("version_line", &granular::io::version_line);
  m.def("set_command_line", &granular::io::set_command_line);

  // granular.CaseError: a ValueError whose message is the CLI's one line (file: pointer: what),
  // with the three parts as attributes
  static PyObject* case_error = PyErr_NewExceptionWithDoc(
      "granular.CaseError",
      "A case or run request the CLI would refuse: args[0] is the CLI's one-line message; "
      "file, pointer and detail are its parts.",
      PyExc_ValueError, nullptr);
  m.attr("CaseError") = nb::handle(case_error);
  nb::register_exception_translator(
      [](const std::exception_ptr& p, void*) {
        try {
          std::rethrow_exception(p);
        } catch (const CaseError& e) {
          nb::object error = nb::borrow(case_error)(nb::str(e.what()));
          error.attr("file") = nb::str(e.file().c_str());
          error.attr("pointer") = nb::str(e.pointer().c_str());
          error.attr("detail") = nb::str(e.detail().c_str());
          PyErr_SetObject(case_error, error.ptr());
        }
      },
      nullptr);

  nb::class_<LoadedCase>(m, "LoadedCase")
      .def_ro("path", &LoadedCase::path)
      .def_ro("model", &LoadedCase::model)
      .def_ro("notes", &LoadedCase::notes)
      .def_prop_ro("echo_json", [](const LoadedCase& lc) { return lc.echo.dump(); })
      .def("describe", &describe)
      .def("estimate", &estimate, nb::arg("threads"), nb::arg("backend"));

  m.def(
      "load_case",
      [](const std::string& path, const std::vector<std::string>& overrides) {
        return granular::cases::load_case(path, overrides);
      },
      nb::arg("path"), nb::arg("overrides"));
  m.def("load_case_text", &load_case_text, nb::arg("text"), nb::arg("file"), nb::arg("overrides"));

  // the shipped cases (granular.cases) and the case schema (granular.schema)
  m.def("shipped_case_names", &granular::cases::shipped_case_names);
  m.def(
      "shipped_case_text",
      [](const std::string& name) {
        const granular::cases::ShippedCase* c = granular::cases::find_shipped_case(name);
        if (!c) throw CaseError("", "", "no shipped case " + granular::io::quoted(name));
        return std::string(c->text);
      },
      nb::arg("name"));
  m.def(
      "case_schema",
      [](const std::string& model) { return granular::cases::case_schema(model).dump(); },
      nb::arg("model"));
  m.def("did_you_mean", &granular::io::did_you_mean, nb::arg("word"), nb::arg("candidates"));

  // the run request of the CLI's options (cases::RunRequest), as granular.run fills it
  using granular::cases::RunRequest;
  nb::class_<RunRequest>(m, "RunRequest")
      .def(nb::init<>())
      .def_rw("threads", &RunRequest::threads)
      .def_rw("backend", &RunRequest::backend)
      .def_rw("resume", &RunRequest::resume)
      .def_rw("force", &RunRequest::force)
      .def_prop_rw(
          "checkpoint_interval", [](const RunRequest& r) { return r.control.checkpoint_interval; },
          [](RunRequest& r, double seconds) { r.control.checkpoint_interval = seconds; });
  m.def("run_case", &granular::python::run_case, nb::arg("case"), nb::arg("out"),
        nb::arg("request"), nb::arg("progress").none());

  granular::python::bind_ensemble(m);
}
