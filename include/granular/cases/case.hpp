// A case: one JSON file of one model, validated into the model's parameters, able to describe
// itself (`granular validate`) and to run with one run context (`granular run`), writing its
// outputs (docs/outputs.md). Every model — packing_ensemble, collision and the host impact
// models — is an entry of one registry (models(), src/cases/registry.cpp) and implements this
// interface; the CLI only parses options and dispatches (docs/architecture.md).
//
// Bad input throws io::CaseError with a one-line message: cases/x.json: /drive/gamma: must be >= 0
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/cases/case.hpp is host-only"
#endif

#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "granular/cases/description.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/io/table.hpp"
#include "granular/md/run_control.hpp"

namespace granular::cases {

// A shard of a packing ensemble: packings r in [first, last) of every Γ (granular run
// --packings FIRST:LAST; docs/outputs.md, "Shards").
struct PackingRange {
  int first = 0;
  int last = 0;
};

// A periodic progress report of a long run as numbers: what the line the run prints says, at
// full precision (Python's progress callback receives both; docs/python.md).
struct ProgressReport {
  std::string phase;       // "settle", "transient" or "measure"
  double t = 0.0;          // the simulated time [s]
  double fraction = 0.0;   // of the run done, 0 to 1
  double rate = NAN;       // particle-steps per second of wall time (MD); NaN for the ED method
  double events = NAN;     // collisions so far (the ED method); NaN for MD
  double elapsed_s = 0.0;  // wall time of this process so far [s]
  double eta_s = NAN;      // wall time left at the pace so far [s]; NaN until it is known
};

// What a caller asks of a run: the CLI's options, Python's granular.run and each MPI rank's shard
// fill this one request, which reaches the case whole (RunContext::request) and the engine by
// its `control` (md::EnsembleRunOptions::control).
struct RunRequest {
  std::string backend = "cpu";           // "cpu" or "cuda" (models that offer a choice)
  int threads = 0;                       // CPU threads; <= 0: the OpenMP default
  bool resume = false;                   // continue from the checkpoint in the output folder
  bool force = false;                    // clear granular's own files from the folder first
  std::optional<PackingRange> packings;  // a shard only (packing_ensemble)
  md::RunControl control;                // when a long run checkpoints and asks to stop
};

// How a run runs: where its outputs go, what the caller asked and where its words go.
struct RunContext {
  std::filesystem::path out_dir;     // exists and is writable (the CLI checked)
  nlohmann::json case_echo;          // the case as run: overrides applied, defaults filled
  RunRequest request;                // the caller's request, as asked
  std::ostream* report = nullptr;    // the results' table (the CLI: stdout)
  std::ostream* progress = nullptr;  // progress lines (the CLI: stderr and run.log); a line
                                     // that starts with '\r' is a periodic one, which a
                                     // terminal shows in place of the last
  std::function<void(const ProgressReport&)> on_progress;  // called before each periodic line
};

// `to`, or where it is null (a RunContext without a report or progress stream: --quiet, a
// test) a stream that discards what is written: `const OrQuiet progress(ctx.progress);`, then
// `*progress << ...`.
class OrQuiet {
 public:
  explicit OrQuiet(std::ostream* to) : to_(to != nullptr ? to : &quiet_) {}
  OrQuiet(const OrQuiet&) = delete;
  OrQuiet& operator=(const OrQuiet&) = delete;
  std::ostream& operator*() const { return *to_; }

 private:
  std::ostream quiet_{nullptr};
  std::ostream* to_;
};

// How a run ended: its outputs are complete, or it stopped early and can resume.
enum class RunEnd { complete, interrupted };

class Case {
 public:
  virtual ~Case() = default;
  // The quantities derived from the case, worth checking before a run (granular validate):
  // the text on d.out, every number in it also recorded in d (description.hpp).
  virtual void describe(Description& d) const = 0;
  // What the run needs besides the case, checked before anything is created: a checkpoint to
  // resume, a backend, a shard. Throws io::CaseError. The default accepts only a fresh,
  // whole CPU run.
  virtual void check_run(const RunContext& ctx) const;
  // What a run of ctx would cost: its work and, from a short calibration run that writes
  // nothing, the wall time on ctx.request.threads and ctx.request.backend (granular validate), as
  // describe writes. The default prints that the model has no estimate and records nothing.
  virtual void estimate(const RunContext& ctx, Description& d) const;
  // Runs the case and writes its outputs into ctx.out_dir, summary.json last and atomically.
  virtual RunEnd run(const RunContext& ctx) const = 0;
  // True when a run asks ctx.request.control.stop and can stop with a checkpoint (interrupt
  // handling).
  virtual bool stoppable() const { return false; }
};

// The backends of a model that offers the choice: "cpu", or "cuda" where a device is available
// (io::CaseError on --backend otherwise).
void check_backend(const RunRequest& request);

// A model whose run writes its outputs in one go and cannot stop (the host impact models):
// run() is write_run into ctx's folder with ctx's progress stream (or a quiet one).
class WholeRunCase : public Case {
 public:
  RunEnd run(const RunContext& ctx) const final {
    write_run(ctx.case_echo, ctx.out_dir, *OrQuiet(ctx.progress));
    return RunEnd::complete;
  }
  // The run's outputs into out_dir, summary.json (with case_echo) last.
  virtual void write_run(const nlohmann::json& case_echo, const std::filesystem::path& out_dir,
                         std::ostream& progress) const = 0;
};

// Validates a whole case whose "model" is this model's name and builds it. Bad input throws
// io::CaseError through `root` (its fail(), number(), ...); remarks worth showing the user (a
// setting that silently does nothing, say) go to `notes`.
using CaseLoader = std::unique_ptr<Case> (*)(const io::JsonObject& root,
                                             std::vector<std::string>& notes);

struct Model {
  const char* name;  // the value of "model"
  CaseLoader load;
  std::vector<io::TableSpec> (*tables)();  // its CSV outputs (docs/outputs.md)
};

// Every model a case file may name.
const std::vector<Model>& models();

// The head of a run's summary.json (io::summary_header) with the tables of model `model`.
nlohmann::json run_summary_head(const std::string& model, const nlohmann::json& case_echo);

struct LoadedCase {
  std::string path;   // the case file as given
  std::string model;  // the value of "model"
  std::shared_ptr<const Case> spec;
  nlohmann::json echo;             // the case as it will run: overrides applied, defaults filled
  std::vector<std::string> notes;  // remarks worth showing the user (e.g. g = 0 gives A = 0)
};

// Reads, overrides and validates a case. Each override is "/json/pointer=value" (the text of
// one --set): value is parsed as JSON when it parses, else taken as a string; null removes the
// key. Overrides are applied in order before validation.
LoadedCase load_case(const std::string& path, const std::vector<std::string>& overrides = {});

// The same from a parsed document; `file` names it in messages.
LoadedCase load_case_json(nlohmann::json doc, const std::string& file,
                          const std::vector<std::string>& overrides = {});

// Applies one "/json/pointer=value" override to `doc` (file names doc in messages).
void apply_override(nlohmann::json& doc, const std::string& override_text, const std::string& file);

}  // namespace granular::cases
