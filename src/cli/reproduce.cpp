// `granular reproduce`: the papers' stated results rerun, measured and set beside the papers'
// numbers in a report (docs/reproduce.md).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "granular/io/file.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/io/output.hpp"
#include "granular/io/suggest.hpp"
#include "granular/reproduce/measure.hpp"
#include "granular/reproduce/plan.hpp"
#include "granular/reproduce/report.hpp"

namespace granular::cli {

namespace fs = std::filesystem;
using reproduce::Scale;
using reproduce::Verdict;

namespace {

struct ReproduceOptions {
  std::vector<std::string> papers;
  std::vector<std::string> ids;
  Scale scale = Scale::quick;
  std::string out;
  std::string registry;  // empty: papers/stated_results.json here, else the built project's
  int threads = 0;
  double max_cost = INFINITY;
  bool dry_run = false;
};

ReproduceOptions parse(const std::vector<std::string>& args) {
  ReproduceOptions o;
  bool scale_given = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&](const std::string& key) {
      if (i + 1 >= args.size()) throw io::CaseError("", key, "missing value");
      return args[++i];
    };
    if (a == "--quick" || a == "--full") {
      const Scale s = a == "--quick" ? Scale::quick : Scale::full;
      if (scale_given && s != o.scale) throw io::CaseError("", a, "choose --quick or --full");
      o.scale = s;
      scale_given = true;
    } else if (a == "--out") {
      o.out = value(a);
    } else if (a == "--registry") {
      o.registry = value(a);
    } else if (a == "--result") {
      o.ids.push_back(value(a));
    } else if (a == "--threads") {
      const std::string t = value(a);
      const std::optional<int> n = thread_count(t);
      if (!n) throw io::CaseError("", "--threads", thread_count_expected + io::quoted(t));
      o.threads = *n;
    } else if (a == "--max-cost") {
      const std::string t = value(a);
      char* end = nullptr;
      const double s = std::strtod(t.c_str(), &end);
      if (t.empty() || *end != '\0' || !(s >= 0))
        throw io::CaseError("", "--max-cost", "expected seconds >= 0, got " + io::quoted(t));
      o.max_cost = s;
    } else if (a == "--dry-run") {
      o.dry_run = true;
    } else if (!a.empty() && a[0] == '-') {
      throw io::CaseError("", a,
                          "unknown option for reproduce" +
                              io::did_you_mean(a, command_options("reproduce")));
    } else {
      o.papers.push_back(a);
    }
  }
  if (o.out.empty() && !o.dry_run) throw io::CaseError("", "--out", "missing: the report's folder");
  if (o.registry.empty()) {
    const fs::path here = fs::path("papers") / "stated_results.json";
    const fs::path shipped = installed_file(here);
    std::error_code ec;
    o.registry = (!fs::exists(here, ec) && !shipped.empty() ? shipped : here).string();
  }
  return o;
}

}  // namespace

int reproduce(const std::vector<std::string>& args) {
  return reproduce_part(args, 0, 1, [](bool stopped) { return !stopped; });
}

int reproduce_part(const std::vector<std::string>& args, int rank, int ranks,
                   const std::function<bool(bool)>& all_finished) {
  const ReproduceOptions o = parse(args);
  // rank 0 speaks for the job; the others only run
  std::ostringstream quiet;
  std::ostream& out = rank == 0 ? std::cout : quiet;
  const reproduce::Plan plan =
      reproduce::make_plan(o.registry, o.scale, o.papers, o.ids, o.max_cost);
  const fs::path dir(o.out);
  // the cost first: the registry's estimate of the results whose runs are still missing
  double cost = 0.0;
  int measured = 0, missing = 0;
  for (const reproduce::Entry& e : plan.entries) {
    if (!e.not_measured.empty()) continue;
    ++measured;
    bool all_done = !o.out.empty();
    for (const reproduce::Run& r : e.runs) all_done = all_done && reproduce::run_done(plan, r, dir);
    if (!all_done) {
      ++missing;
      cost += e.cost_s;
    }
  }
  const std::vector<reproduce::Run> runs = reproduce::distinct_runs(plan);
  out << plan.entries.size() << " results at the " << (o.scale == Scale::quick ? "quick" : "full")
      << " scale: " << measured << " measured by " << runs.size() << " runs, "
      << plan.entries.size() - measured << " not measured at this scale; " << missing
      << " still to run, about " << io::duration_text(cost)
      << " on one core (the registry's costs, which do not count "
      << "the runs results share)\n"
      << std::flush;
  if (o.dry_run) {
    out << "registry: " << o.registry << "\n";
    for (const reproduce::Run& r : runs) {
      out << "  " << r.folder << ": " << (r.validate ? "validate " : "run ") << r.case_path;
      for (const std::string& s : r.overrides) out << " --set '" << s << "'";
      out << "\n";
    }
    return kSuccess;
  }
  reproduce::RunOptions run;
  run.threads = o.threads;
  run.progress = &std::cerr;
  run.terminal = isatty(2) == 1;
  run.stop = stop_requested;  // Ctrl-C: the long run in progress checkpoints, the rest wait
  run.part = rank;
  run.parts = ranks;
  catch_stop_signals();
  fs::create_directories(dir);
  const reproduce::RunsEnd runs_end = reproduce::run_missing(plan, dir, run);
  for (const auto& [folder, why] : runs_end.failed)
    std::cerr << "note: runs/" << folder << " failed: " << why << "\n";
  if (!all_finished(runs_end.stopped)) {
    if (rank == 0)
      std::cerr << "granular: stopped (a long run with a checkpoint): repeat the command to "
                   "continue\n";
    return kStopped;
  }
  if (rank != 0) return kSuccess;
  std::vector<reproduce::Result> results;
  int wrong = 0;  // disagreements and failures
  for (const reproduce::Entry& e : plan.entries) {
    results.push_back(reproduce::measure(plan, e, dir));
    const reproduce::Result& r = results.back();
    wrong += r.verdict == Verdict::disagrees || r.verdict == Verdict::failed;
    if (r.verdict == Verdict::not_measured) continue;
    std::string engine = r.value.brief();
    if (std::isfinite(r.stderr_value))
      engine += " +- " + reproduce::Value::of(r.stderr_value).brief();
    std::printf("%-26s %-52s %s\n", reproduce::verdict_name(r.verdict), r.id.c_str(),
                r.verdict == Verdict::failed ? io::one_line(r.message).c_str() : engine.c_str());
  }
  reproduce::write_report(dir, plan, results);
  out << reproduce::tally_text(results) << "; report in " << (dir / "report.html").string()
      << " and " << (dir / "report.md").string() << "\n";
  return wrong == 0 ? kSuccess : kDisagrees;
}

}  // namespace granular::cli
