#include "granular/reproduce/plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <set>
#include <sstream>

#include "granular/cases/case.hpp"
#include "granular/cases/run_into_folder.hpp"
#include "granular/io/file.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/io/output.hpp"
#include "granular/io/provenance.hpp"
#include "granular/reproduce/registry_schema.hpp"

namespace granular::reproduce {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A short, stable name for what a run runs (FNV-1a of its case and overrides).
std::string folder_name(const Run& r) {
  std::uint64_t h = 1469598103934665603ull;
  std::string what = r.case_path + (r.validate ? "\nvalidate" : "");
  for (const std::string& o : r.overrides) what += "\n" + o;
  for (unsigned char c : what) h = (h ^ c) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return fs::path(r.case_path).stem().string() + "-" + std::string(hex, 10);
}

void add_overrides(std::vector<std::string>& out, const nlohmann::ordered_json& set) {
  if (!set.is_object()) return;
  for (const auto& [pointer, value] : set.items()) out.push_back(pointer + "=" + value.dump());
}

// The runs of `e` at `scale`, or why it has none (check_registry checked the compute block).
void resolve_runs(Entry& e, Scale scale) {
  using ojson = nlohmann::ordered_json;
  const ojson& m = e.spec.at("measure");
  if (m.contains("not_measurable")) {
    e.not_measured = "not measurable: " + m["not_measurable"].get<std::string>();
    return;
  }
  if (!m.contains("compute")) {
    e.not_measured = "the observable is a recipe in words only (no measure.compute yet)";
    return;
  }
  const ojson& c = m["compute"];
  const ojson runs = c.value("runs", ojson{{"main", ojson::object()}});
  const char* scale_key = scale == Scale::quick ? "quick_set" : "set";
  for (const auto& [name, r] : runs.items()) {
    Run run;
    run.name = name;
    const ojson case_path = r.contains("case") ? r["case"] : m.value("case", ojson());
    if (!case_path.is_string()) {
      e.not_measured = "no shipped case measures it yet";
      return;
    }
    run.case_path = case_path.get<std::string>();
    run.validate = r.value("validate", false);
    const ojson set = r.contains(scale_key) ? r[scale_key] : m.value(scale_key, ojson());
    if (set.is_null() && scale == Scale::quick && !run.validate) {
      e.not_measured = "no quick scale (its statistics need the full scale)";
      return;
    }
    add_overrides(run.overrides, set);
    add_overrides(run.overrides, r.value("also", ojson::object()));
    run.folder = folder_name(run);
    e.runs.push_back(run);
  }
}

}  // namespace

Plan make_plan(const fs::path& registry, Scale scale, const std::vector<std::string>& papers,
               const std::vector<std::string>& ids, double max_cost_s) {
  // the whole registry checked before anything runs (registry_schema.hpp)
  const nlohmann::ordered_json doc =
      io::read_ordered_json_file(registry.string(), io::max_document_bytes);
  return plan_of(doc, registry, scale, papers, ids, max_cost_s);
}

Plan plan_of(const nlohmann::ordered_json& doc, const fs::path& registry, Scale scale,
             const std::vector<std::string>& papers, const std::vector<std::string>& ids,
             double max_cost_s) {
  Plan plan;
  plan.registry = registry;
  plan.root = fs::absolute(registry).parent_path().parent_path();
  plan.scale = scale;
  check_registry(doc, registry.string(), plan.root);
  plan.papers = doc["papers"];
  for (const std::string& p : papers)
    if (!plan.papers.contains(p)) {
      std::string known;
      for (const auto& [name, citation] : plan.papers.items()) known += " " + name;
      throw io::CaseError("", p, "not a paper of the registry (papers:" + known + ")");
    }
  std::set<std::string> wanted_ids(ids.begin(), ids.end()), found;
  const nlohmann::ordered_json& results = doc.at("results");
  for (std::size_t i = 0; i < results.size(); ++i) {
    Entry e;
    e.spec = results[i];
    e.id = e.spec["id"].get<std::string>();
    e.paper = e.spec["paper"].get<std::string>();
    if (!papers.empty() && std::find(papers.begin(), papers.end(), e.paper) == papers.end())
      continue;
    if (!wanted_ids.empty() && !wanted_ids.count(e.id)) continue;
    found.insert(e.id);
    const nlohmann::ordered_json cost =
        e.spec["cost"].value(scale == Scale::quick ? "quick_s" : "full_s", json());
    e.cost_s = cost.is_number() ? cost.get<double>() : 0.0;
    resolve_runs(e, scale);
    if (e.not_measured.empty() && e.cost_s > max_cost_s) {
      e.not_measured = "costs about " + std::to_string(static_cast<long>(std::ceil(e.cost_s))) +
                       " s on one core at this scale, over the cost limit";
      e.runs.clear();
    }
    plan.entries.push_back(std::move(e));
  }
  for (const std::string& id : wanted_ids)
    if (!found.count(id)) throw io::CaseError("", id, "not a result of the papers chosen");
  return plan;
}

bool run_done(const Plan& plan, const Run& run, const fs::path& dir) {
  const fs::path folder = dir / "runs" / run.folder;
  const fs::path made = folder / (run.validate ? "validate.json" : "summary.json");
  std::error_code ec;
  if (!fs::exists(made, ec)) return false;
  try {
    // the case as it would run now, by this build: another case's or build's folder is rerun
    const cases::LoadedCase lc =
        cases::load_case((plan.root / run.case_path).string(), run.overrides);
    const json found = io::read_json_file(made.string());
    return found.value("case", json()) == lc.echo &&
           found.value("provenance", json()).value("commit", json()) == io::build_info().commit;
  } catch (const std::exception&) {
    return false;  // a damaged summary: run it again
  }
}

std::vector<Run> distinct_runs(const Plan& plan) {
  std::vector<Run> runs;
  std::set<std::string> seen;
  for (const Entry& e : plan.entries)
    if (e.not_measured.empty())
      for (const Run& r : e.runs)
        if (seen.insert(r.folder).second) runs.push_back(r);
  return runs;
}

RunsEnd run_missing(const Plan& plan, const fs::path& dir, const RunOptions& o) {
  RunsEnd end;
  std::ostream& progress = *o.progress;
  const std::vector<Run> runs = distinct_runs(plan);
  std::size_t k = 0;
  for (const Run& r : runs) {
    ++k;
    if (static_cast<int>((k - 1) % static_cast<std::size_t>(o.parts)) != o.part) continue;
    if (o.stop && o.stop()) {  // asked between runs: the finished ones are kept
      end.stopped = true;
      return end;
    }
    if (run_done(plan, r, dir)) continue;
    const fs::path folder = dir / "runs" / r.folder;
    std::ostringstream line;  // one write: the ranks of an MPI job share stderr
    line << "[" << k << "/" << runs.size() << "] " << (r.validate ? "validate " : "run ")
         << r.case_path;
    for (const std::string& s : r.overrides) line << " --set '" << s << "'";
    progress << line.str() + "\n" << std::flush;
    try {
      const cases::LoadedCase lc =
          cases::load_case((plan.root / r.case_path).string(), r.overrides);
      if (r.validate) {
        std::ostringstream text;
        cases::Description d(text);
        lc.spec->describe(d);
        fs::create_directories(folder);
        // the numbers, with the case and the build that gave them (run_done checks both)
        json data = json::parse(d.data().dump());
        data["case"] = lc.echo;
        data["provenance"] = io::provenance();
        io::write_json_atomic(folder / "validate.json", data);
        continue;
      }
      cases::FolderRun run;
      run.out = folder;
      run.request.threads = o.threads;
      std::error_code ec;
      run.request.resume = fs::exists(folder / "checkpoint.bin", ec);
      run.request.force = !run.request.resume;  // no checkpoint: an unfinished run starts afresh
      if (lc.spec->stoppable()) {  // a long run: its progress lines (the short ones are quiet)
        run.progress = &progress;
        run.terminal = o.terminal;
        run.request.control.stop = o.stop;
      }
      if (cases::run_into_folder(lc, run).end != cases::RunEnd::complete) {
        end.stopped = true;
        return end;
      }
    } catch (const std::exception& e) {
      end.failed.emplace_back(r.folder, io::one_line(e.what()));
      progress << "  failed: " << io::one_line(e.what()) << "\n";
    }
  }
  return end;
}

}  // namespace granular::reproduce
