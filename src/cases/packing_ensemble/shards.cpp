// Shards of a packing ensemble (docs/outputs.md, "Shards"): `granular run --packings FIRST:LAST`
// runs packings r in [FIRST, LAST) of every Γ; packing r's seed depends on r alone
// (md::packing_seed), so a shard's packings are bitwise those of the whole run. `granular merge`
// joins complete shards into the whole run's files: the CSV rows in the whole run's order, and
// disks.csv and summary.json written by the same code as a whole run, from the packings' results
// in the whole run's order (so the per-Γ sums of average_by_gamma add the same numbers in the
// same order).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "granular/cases/models.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/file.hpp"
#include "granular/io/file_record.hpp"
#include "granular/io/output.hpp"
#include "granular/io/plain_name.hpp"
#include "granular/md/reach.hpp"
#include "outputs.hpp"

namespace granular::cases {

namespace {

namespace fs = std::filesystem;
using io::CaseError;
using nlohmann::json;

struct Shard {
  fs::path dir;
  json summary;
  PackingRange range;
  std::string where() const { return (dir / "summary.json").string(); }
};

std::string range_text(int first, int last) {
  return std::to_string(first) + ":" + std::to_string(last);
}

// A complete run's summary.json in dir, or a one-line error naming the folder.
json read_summary(const fs::path& dir) {
  const fs::path path = dir / "summary.json";
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    const bool unfinished = fs::exists(checkpoint_path(dir), ec);
    throw CaseError(dir.string(), "",
                    unfinished ? "no summary.json: the shard is unfinished (finish it with "
                                 "granular run ... --resume)"
                               : "no summary.json: not the output folder of a complete run");
  }
  // a regular file of bounded size, nested as a summary is (a FIFO is refused, never waited on)
  const json summary = io::read_json_file(path.string());
  if (!summary.is_object()) throw CaseError(path.string(), "", "not a run's summary (an object)");
  return summary;
}

// The snapshot files a run of shard s writes: those of its packings the case photographs.
std::set<std::string> shard_snapshots(const Shard& s, const SnapshotPlan& plan, std::int64_t frames,
                                      int per_gamma) {
  std::set<std::string> names;
  for (const int q : plan.packings)
    if (q % per_gamma >= s.range.first && q % per_gamma < s.range.last)
      for (const std::string& name : snapshot_files(plan, q, frames)) names.insert(name);
  return names;
}

// The files a shard's summary recorded (io/file_record.hpp) are the files its run writes (the
// tables and the snapshots of its own packings, inside its folder) as they are now: a shard cut
// short, copied half-way or mixed with another shard's files is refused before anything is
// written. The names are data: each is checked before any file is read, so that a record can
// make merge read or write nothing outside the folders given.
void verify_files(const Shard& s, const std::set<std::string>& snapshots) {
  if (!s.summary.contains("files"))
    throw CaseError(s.where(), "/files",
                    "missing: the shard was written by a granular that did not record its files; "
                    "run it again");
  const json& files = s.summary["files"];
  if (!files.is_object()) throw CaseError(s.where(), "/files", "not an object");
  const std::vector<io::TableSpec> tables = rotation_tables();
  for (const auto& item : files.items()) {
    const std::string& name = item.key();
    std::string why = io::outside_folder(s.dir, name);
    const bool table = std::any_of(tables.begin(), tables.end(),
                                   [&](const io::TableSpec& t) { return t.file == name; });
    if (why.empty() && !table && !snapshots.count(name))
      why = "not a file this shard's run writes (its tables, and the snapshots of its packings " +
            range_text(s.range.first, s.range.last) + " of every Γ the case photographs)";
    if (!why.empty()) throw CaseError(s.where(), "/files/" + io::pointer_token(name), why);
  }
  for (const io::TableSpec& t : tables)
    if (!files.contains(t.file)) throw CaseError(s.where(), "/files", "no record of " + t.file);
  for (const std::string& name : snapshots)
    if (!files.contains(name)) throw CaseError(s.where(), "/files", "no record of " + name);
  const std::string differ = io::files_differ(s.dir, files);
  if (!differ.empty()) throw CaseError(s.dir.string(), "", differ);
}

// summary[key] as T, or a one-line error naming the file and the key.
template <typename T>
T field(const Shard& s, const json& object, const std::string& key, const std::string& pointer) {
  try {
    return object.at(key).get<T>();
  } catch (const json::exception&) {
    throw CaseError(s.where(), pointer, "missing or of the wrong type");
  }
}

// The status bits a summary's "status" names ("ok", or flag names joined by ',').
std::uint32_t status_bits(const Shard& s, const std::string& names, const std::string& pointer) {
  if (names == "ok") return md::status_ok;
  std::uint32_t bits = 0;
  std::size_t from = 0;
  while (from <= names.size()) {
    const std::size_t comma = std::min(names.find(',', from), names.size());
    const std::string name = names.substr(from, comma - from);
    std::uint32_t bit = 0;
    for (int b = 0; b < 32 && bit == 0; ++b)
      if (md::status_name(1u << b) == name) bit = 1u << b;
    if (bit == 0) throw CaseError(s.where(), pointer, "unknown status " + io::quoted(name));
    bits |= bit;
    from = comma + 1;
  }
  return bits;
}

// Packing p's results as shard s's summary records them (`at` its pointer): its Γ and seed the
// case's, each disk's ω̄, ρ² and σ_a a number or null (fewer than two samples), ρ² and σ_a in
// [0, 1] by their definitions (md/observables.hpp), a healthy packing's |ω̄| within what its
// drive and gravity can turn a disk (md/reach.hpp).
md::PackingResult packing_result(const Shard& s, const json& entry, const std::string& at,
                                 const md::EnsembleCase& c, int p) {
  const md::EnsembleModel& m = c.model;
  md::PackingResult pr;
  pr.index = p;
  pr.gamma_index = p / c.packings_per_gamma;
  pr.gamma = field<double>(s, entry, "gamma", at + "/gamma");
  if (pr.gamma != m.packings[p].gamma)
    throw CaseError(s.where(), at + "/gamma", "not the case's Γ of packing " + std::to_string(p));
  pr.seed = field<std::uint64_t>(s, entry, "seed", at + "/seed");
  if (pr.seed != m.packings[p].seed)
    throw CaseError(s.where(), at + "/seed", "not the case's seed of packing " + std::to_string(p));
  pr.status =
      status_bits(s, field<std::string>(s, entry, "status", at + "/status"), at + "/status");
  const double spin = md::packing_reach(m, p).speed;
  const auto read = [&](const char* key, std::vector<double>& out, double low, double high,
                        bool per_radius) {
    const std::string pointer = at + "/" + key;
    if (!entry.contains(key) || !entry[key].is_array() ||
        entry[key].size() != static_cast<std::size_t>(m.packing_size(p)))
      throw CaseError(s.where(), pointer, "not an array of one value per disk of the packing");
    for (std::size_t k = 0; k < entry[key].size(); ++k) {
      const json& v = entry[key][k];
      const double top = per_radius ? spin / m.radius[m.offset[p] + k] : high;
      const double x = v.is_number() ? v.get<double>() : NAN;
      if (!v.is_null() && !(v.is_number() && x >= (per_radius ? -top : low) && x <= top))
        throw CaseError(s.where(), pointer + "/" + std::to_string(k),
                        "not a value this packing can have");
      out.push_back(x);
    }
  };
  const bool healthy = pr.status == md::status_ok;
  read("omega_bar", pr.omega_bar, -INFINITY, INFINITY, healthy);
  read("rho2", pr.rho2, 0.0, 1.0, false);
  read("sigma_a", pr.sigma_a, 0.0, 1.0, false);
  return pr;
}

// The lines of dir/name after its header, counted; the header must be `header`.
std::uint64_t count_rows(const fs::path& path, const std::string& header) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line) || line + "\n" != header)
    throw CaseError(path.string(), "", "missing, or not the table a run writes");
  std::uint64_t rows = 0;
  while (std::getline(in, line)) ++rows;
  return rows;
}

// The chunks in the shards' energy.csv, the same in each.
std::uint64_t count_chunks(const std::vector<Shard>& shards, int n_gamma) {
  const std::string header = rotation_tables()[0].header();
  std::uint64_t chunks = 0;
  for (const Shard& s : shards) {
    const fs::path path = s.dir / "energy.csv";
    const std::uint64_t per_chunk =
        static_cast<std::uint64_t>(s.range.last - s.range.first) * n_gamma;
    const std::uint64_t rows = count_rows(path, header);
    if (rows % per_chunk != 0 || (chunks != 0 && rows / per_chunk != chunks))
      throw CaseError(path.string(), "",
                      std::to_string(rows) + " rows: not the chunks of the other shards");
    chunks = rows / per_chunk;
  }
  return chunks;
}

// energy.csv: each chunk holds every packing of the whole run in index order, Γ-major, so each
// chunk takes, Γ by Γ, each shard's rows of that Γ in the order of the shards' packings.
void merge_energy(const std::vector<Shard>& shards, int n_gamma, std::uint64_t chunks,
                  const fs::path& out) {
  const std::string header = rotation_tables()[0].header();
  std::vector<std::ifstream> in;
  std::string line;
  for (const Shard& s : shards) {
    in.emplace_back(s.dir / "energy.csv");
    std::getline(in.back(), line);
  }
  io::OutputFile file(out / "energy.csv", io::OutputFile::Mode::create);
  file.write(header);
  for (std::uint64_t chunk = 0; chunk < chunks; ++chunk)
    for (int k = 0; k < n_gamma; ++k)
      for (std::size_t i = 0; i < shards.size(); ++i)
        for (int r = shards[i].range.first; r < shards[i].range.last; ++r) {
          std::getline(in[i], line);
          file.write(line + "\n");
        }
  file.close();
}

}  // namespace

md::EnsembleCase shard_ensemble(const md::EnsembleCase& c, const PackingRange& shard) {
  md::EnsembleCase s;
  s.schedule = c.schedule;
  s.gamma_values = c.gamma_values;
  s.areal_density = c.areal_density;
  s.packings_per_gamma = shard.last - shard.first;
  const md::EnsembleModel& m = c.model;
  s.model.integrator = m.integrator;
  s.model.dt = m.dt;
  s.model.neighbor = m.neighbor;
  for (std::size_t k = 0; k < c.gamma_values.size(); ++k) {
    for (int r = shard.first; r < shard.last; ++r) {
      s.model.add_packing_of(m, static_cast<int>(k) * c.packings_per_gamma + r, c.areal_density);
    }
  }
  return s;
}

namespace {

// merge_packing_shards; `reading` names the summary whose values it reads at the moment
void merge_shards(const fs::path& out_dir, const std::vector<fs::path>& shard_dirs,
                  std::ostream& report, const std::function<void(const json&)>& before_writing,
                  std::string& reading) {
  // every shard complete, of one case, on one backend, by MD
  std::vector<Shard> shards;
  for (const fs::path& dir : shard_dirs) {
    Shard s{dir, read_summary(dir), {}};
    reading = s.where();
    if (s.summary.value("model", "") != "packing_ensemble")
      throw CaseError(s.where(), "/model", "not a packing_ensemble run");
    if (s.summary.value("method", "") != "md")
      throw CaseError(s.where(), "/method", "the event-driven method runs whole ensembles");
    const int per_gamma = field<int>(s, s.summary, "packings_per_gamma", "/packings_per_gamma");
    s.range = {0, per_gamma};
    if (s.summary.contains("shard")) {
      const auto r = field<std::vector<int>>(s, s.summary["shard"], "packings", "/shard/packings");
      if (r.size() != 2) throw CaseError(s.where(), "/shard/packings", "expected [first, last]");
      s.range = {r[0], r[1]};
    }
    if (!shards.empty()) {
      const Shard& first = shards.front();
      if (s.summary.value("case", json()) != first.summary.value("case", json()))
        throw CaseError(s.where(), "/case",
                        "a different case from " + first.where() + ": shards of one case only");
      const json backend = s.summary.value("backend", json());
      if (backend != first.summary.value("backend", json()))
        throw CaseError(s.where(), "/backend",
                        "ran on " + backend.dump() + ", " + first.where() + " on " +
                            first.summary.value("backend", json()).dump() +
                            ": the backends' bits differ");
    }
    shards.push_back(std::move(s));
  }
  if (shards.empty()) throw CaseError("", "merge", "no shard folders given");

  // the shards cover packings [0, packings_per_gamma) once each
  std::stable_sort(shards.begin(), shards.end(),
                   [](const Shard& a, const Shard& b) { return a.range.first < b.range.first; });
  const int per_gamma = shards.front().summary["packings_per_gamma"].get<int>();
  int covered = 0;
  for (const Shard& s : shards) {
    if (s.range.first > covered)
      throw CaseError(s.where(), "/shard/packings",
                      "packings " + range_text(covered, s.range.first) +
                          " are in no shard (a gap before this one's " +
                          range_text(s.range.first, s.range.last) + ")");
    if (s.range.first < covered)
      throw CaseError(s.where(), "/shard/packings",
                      "packings " + range_text(s.range.first, s.range.last) +
                          " overlap another shard's (packings up to " + std::to_string(covered) +
                          " are covered)");
    covered = s.range.last;
  }
  if (covered != per_gamma)
    throw CaseError(shards.back().where(), "/shard/packings",
                    "packings " + range_text(covered, per_gamma) + " are in no shard");

  // the case, as the whole run had it
  const json& echo = shards.front().summary["case"];
  const LoadedCase lc = load_case_json(echo, shards.front().where());
  const auto* ensemble = dynamic_cast<const PackingEnsemble*>(lc.spec.get());
  if (ensemble == nullptr)
    throw CaseError(shards.front().where(), "/case", "not a packing ensemble");
  const md::EnsembleCase& c = ensemble->ensemble();
  const int n_gamma = static_cast<int>(c.gamma_values.size());
  if (c.packings_per_gamma != per_gamma)
    throw CaseError(shards.front().where(), "/packings_per_gamma", "not the case's");
  const SnapshotPlan& photos = ensemble->snapshots();
  const std::int64_t frames = photos.frames(md::plan_run(c.schedule, c.model.dt).steps.chunks());
  std::vector<std::set<std::string>> snapshots;
  for (const Shard& s : shards) {
    snapshots.push_back(shard_snapshots(s, photos, frames, per_gamma));
    verify_files(s, snapshots.back());
  }

  // every packing's results, in the whole run's order
  const md::RunSteps steps = md::plan_run(c.schedule, c.model.dt).steps;
  md::EnsembleResult r;
  r.packings.resize(static_cast<std::size_t>(c.model.n_packings()));
  std::vector<bool> seen(r.packings.size(), false);
  double particle_steps = 0.0, wall_time = 0.0, advance_time = 0.0;
  int threads = 0;
  for (const Shard& s : shards) {
    reading = s.where();
    const json& list = s.summary.at("packings");
    if (list.size() != static_cast<std::size_t>(s.range.last - s.range.first) * n_gamma)
      throw CaseError(s.where(), "/packings", "not one entry per packing of the shard");
    for (std::size_t j = 0; j < list.size(); ++j) {
      const std::string at = "/packings/" + std::to_string(j);
      const int p = field<int>(s, list[j], "index", at + "/index");
      const int r_in_gamma = p % per_gamma;
      if (p < 0 || p >= c.model.n_packings() || seen[p] || r_in_gamma < s.range.first ||
          r_in_gamma >= s.range.last)
        throw CaseError(s.where(), at + "/index", "not a packing of this shard, or repeated");
      seen[p] = true;
      r.packings[p] = packing_result(s, list[j], at, c, p);
    }
    // the run's costs: counts and times >= 0, particle-steps at most its steps' worth
    const auto cost = [&](const char* key, double most) {
      const double v = field<double>(s, s.summary, key, std::string("/") + key);
      if (!(v >= 0.0 && v <= most))
        throw CaseError(s.where(), std::string("/") + key, "not a count or time of this shard");
      return v;
    };
    double disks = 0.0;
    for (int q = 0; q < c.model.n_packings(); ++q)
      if (q % per_gamma >= s.range.first && q % per_gamma < s.range.last)
        disks += c.model.packing_size(q);
    particle_steps += cost("particle_steps", static_cast<double>(steps.total()) * disks);
    wall_time += cost("wall_time_s", INFINITY);
    advance_time += cost("advance_time_s", INFINITY);
    const int used = field<int>(s, s.summary, "threads", "/threads");
    if (used < 1) throw CaseError(s.where(), "/threads", "not a thread count");
    threads = std::max(threads, used);
  }
  r.gammas = md::average_by_gamma(c, r.packings);

  // the keys of the case, as the whole run writes them: the case's, which every shard's summary
  // must hold (a summary is data: nothing of it is copied unchecked)
  json keys;
  keys["method"] = "md";
  keys["dt"] = io::json_number(c.model.dt);
  keys["sample_interval"] = io::json_number(static_cast<double>(steps.sample_steps) * c.model.dt);
  keys["steps"] = steps.total();
  for (const Shard& s : shards)
    for (const char* key : {"dt", "sample_interval", "steps"})
      if (s.summary.value(key, json()) != keys[key])
        throw CaseError(s.where(), std::string("/") + key,
                        "missing, or not the case's " + keys[key].dump() + ": not a run of it");
  const json& backend = shards.front().summary.value("backend", json());
  if (!backend.is_string())
    throw CaseError(shards.front().where(), "/backend", "missing or not a backend's name");
  keys["backend"] = backend;

  // the tables are checked before anything is written
  const std::uint64_t chunks = count_chunks(shards, n_gamma);
  const fs::path angles = shards.front().dir / "angles.csv";
  count_rows(angles, rotation_tables()[1].header());
  if (before_writing) before_writing(echo);

  // the streamed tables, then disks.csv and summary.json as a whole run writes them
  merge_energy(shards, n_gamma, chunks, out_dir);
  std::ifstream angles_in(angles, std::ios::binary);
  io::OutputFile angles_out(out_dir / "angles.csv", io::OutputFile::Mode::create);
  std::string block(1 << 16, '\0');
  while (angles_in.read(block.data(), static_cast<std::streamsize>(block.size())) ||
         angles_in.gcount() > 0)
    angles_out.write(block.data(), static_cast<std::size_t>(angles_in.gcount()));
  angles_out.close();
  // snapshots: each packing's files come from the one shard that ran it (verify_files)
  for (std::size_t k = 0; k < shards.size(); ++k)
    for (const std::string& name : snapshots[k]) {
      fs::create_directories(out_dir / "snapshots");
      fs::copy_file(shards[k].dir / name, out_dir / name);
    }

  // the run's costs add up (docs/outputs.md)
  keys["particle_steps"] = io::json_count(particle_steps);
  keys["wall_time_s"] = io::json_number(wall_time);
  keys["advance_time_s"] = io::json_number(advance_time);
  keys["particle_steps_per_s"] =
      io::json_number(advance_time > 0.0 ? particle_steps / advance_time : 0.0);
  keys["threads"] = threads;
  RunContext ctx;
  ctx.out_dir = out_dir;
  ctx.case_echo = echo;
  ctx.report = &report;
  write_ensemble_results(c, r, ctx, keys, {});
}

}  // namespace

void merge_packing_shards(const fs::path& out_dir, const std::vector<fs::path>& shard_dirs,
                          std::ostream& report,
                          const std::function<void(const json&)>& before_writing) {
  // writing into a shard would change it (a folder holding shards is fine: MPI's ranks write
  // theirs into the run's folder)
  for (const fs::path& shard : shard_dirs) {
    std::error_code ec;
    const fs::path rel = fs::weakly_canonical(fs::absolute(out_dir, ec), ec)
                             .lexically_relative(fs::weakly_canonical(fs::absolute(shard, ec), ec));
    if (ec || rel.empty() || *rel.begin() == "..") continue;
    throw CaseError("", "--out " + io::excerpt(out_dir.string()),
                    (rel == "." ? "is the shard folder " : "lies inside the shard folder ") +
                        io::quoted(shard.string()) + ": merge into another");
  }
  std::string reading;
  try {
    merge_shards(out_dir, shard_dirs, report, before_writing, reading);
  } catch (const json::exception& e) {
    // a summary that parses but is not a run's: a missing key, a value of the wrong type
    throw CaseError(reading, "", std::string("not a complete run's summary: ") + e.what());
  }
}

}  // namespace granular::cases
