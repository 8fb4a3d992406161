// What `granular reproduce` runs (docs/reproduce.md): the stated results of the chosen papers,
// each with the runs its `measure.compute` reads at the chosen scale. Runs with the same case and
// overrides are one folder, shared by every result that reads them, and a finished folder is not
// rerun (its summary.json holds the case as it ran).
#pragma once

#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes a reproduce header"
#endif

#include <cmath>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace granular::reproduce {

enum class Scale { quick, full };

// One run a result reads: `name` in its expressions, the case and its overrides ("/ptr=json").
struct Run {
  std::string name;
  std::string case_path;  // as the registry names it, relative to the project root
  std::vector<std::string> overrides;
  bool validate = false;  // no run: `granular validate`'s numbers (validate.json)
  std::string folder;     // under DIR/runs/: the case's stem and a hash of what it runs
};

struct Entry {
  nlohmann::ordered_json spec;  // the registry's entry (ordered: `let` is evaluated in order)
  std::string id;
  std::string paper;
  std::vector<Run> runs;
  std::string not_measured;  // why the result is not measured at this scale; empty when it is
  double cost_s = 0.0;       // the registry's cost at this scale [s on one core]
};

struct Plan {
  std::filesystem::path registry;
  std::filesystem::path root;     // the project root: where the cases' paths start
  nlohmann::ordered_json papers;  // paper -> citation, in the registry's order
  Scale scale = Scale::quick;
  std::vector<Entry> entries;
};

// The entries of `papers` (all when empty) and, when `ids` is not empty, only those; a result
// whose cost at this scale exceeds `max_cost_s` is listed, not measured. An unknown paper or id,
// or a malformed compute block, throws io::CaseError naming the registry.
Plan make_plan(const std::filesystem::path& registry, Scale scale,
               const std::vector<std::string>& papers, const std::vector<std::string>& ids,
               double max_cost_s = INFINITY);
// The same from the registry's document `doc`, read from `registry` (which names it in messages
// and whose folder's parent is the project root).
Plan plan_of(const nlohmann::ordered_json& doc, const std::filesystem::path& registry, Scale scale,
             const std::vector<std::string>& papers, const std::vector<std::string>& ids,
             double max_cost_s = INFINITY);

// True when DIR/runs/<run.folder> holds a finished run of that case (or validate.json).
bool run_done(const Plan& plan, const Run& run, const std::filesystem::path& dir);

// Every distinct run of the plan, once, in the order the entries need them.
std::vector<Run> distinct_runs(const Plan& plan);

// How run_missing runs: threads, where it reports, and the stop request.
struct RunOptions {
  int threads = 0;                   // <= 0: the OpenMP default
  std::ostream* progress = nullptr;  // what it runs, and a long run's progress lines
  bool terminal = false;             // progress is a terminal: periodic lines in place
  std::function<bool()> stop;        // true: a long run stops with a checkpoint, and so do the rest
  int part = 0;                      // this process runs the runs k with k % parts == part (MPI)
  int parts = 1;
};

// What run_missing did: the folders that failed, with why, and whether a stop request ended it
// (the run it was in has a checkpoint: the same command continues it).
struct RunsEnd {
  std::vector<std::pair<std::string, std::string>> failed;
  bool stopped = false;
};

// Runs what is missing into DIR/runs/, one run at a time; a run that fails is recorded in its
// folder's run.log and the others go on.
RunsEnd run_missing(const Plan& plan, const std::filesystem::path& dir, const RunOptions& o);

}  // namespace granular::reproduce
