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
#include <stdexcept>
#include <string>
#include <vector>

#include "granular/cases/models.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/file.hpp"
#include "granular/io/file_record.hpp"
#include "granular/io/output.hpp"
#include "granular/io/plain_name.hpp"
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

// Why `name`, a file a shard's summary recorded, is not one this shard's run writes, or "": a
// table, or a snapshot of one of its packings, inside its folder. Names are read from the
// summary: checked before any file is read, so that a record can make merge read or write
// nothing outside the folders given.
std::string not_the_shards_file(const Shard& s, const std::string& name, int per_gamma,
                                int n_gamma) {
  const std::string outside = io::outside_folder(s.dir, name);
  if (!outside.empty()) return outside;
  for (const io::TableSpec& t : packing_ensemble_tables())
    if (name == t.file) return "";
  const std::optional<int> p = snapshot_packing(name);
  if (!p) return "not a file a packing ensemble's run writes";
  if (*p >= per_gamma * n_gamma || *p % per_gamma < s.range.first || *p % per_gamma >= s.range.last)
    return "a snapshot of packing " + std::to_string(*p) + ", which is not one of this shard's (" +
           range_text(s.range.first, s.range.last) + " of every Γ)";
  return "";
}

// The files a shard's summary recorded (io/file_record.hpp) are its files as they are now, and
// they include the tables: a shard cut short, copied half-way or mixed with another shard's
// files is refused before anything is written.
void verify_files(const Shard& s, int per_gamma, int n_gamma) {
  if (!s.summary.contains("files"))
    throw CaseError(s.where(), "/files",
                    "missing: the shard was written by a granular that did not record its files; "
                    "run it again");
  const json& files = s.summary["files"];
  if (!files.is_object()) throw CaseError(s.where(), "/files", "not an object");
  for (const auto& [name, record] : files.items()) {
    const std::string why = not_the_shards_file(s, name, per_gamma, n_gamma);
    if (!why.empty()) throw CaseError(s.where(), "/files/" + io::pointer_token(name), why);
  }
  for (const io::TableSpec& t : packing_ensemble_tables())
    if (!files.contains(t.file)) throw CaseError(s.where(), "/files", "no record of " + t.file);
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

double number_or_nan(const json& v) { return v.is_number() ? v.get<double>() : NAN; }

std::vector<double> numbers(const json& a) {
  std::vector<double> v;
  for (const json& x : a) v.push_back(number_or_nan(x));
  return v;
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
  const std::string header = packing_ensemble_tables()[0].header();
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
  const std::string header = packing_ensemble_tables()[0].header();
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
      const int p = static_cast<int>(k) * c.packings_per_gamma + r;
      const std::vector<double> radii(m.radius.begin() + m.offset[p],
                                      m.radius.begin() + m.offset[p + 1]);
      s.model.add_packing(m.packings[p], radii, c.areal_density);
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
  for (const Shard& s : shards) verify_files(s, per_gamma, n_gamma);

  // every packing's results, in the whole run's order
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
      md::PackingResult& pr = r.packings[p];
      pr.index = p;
      pr.gamma_index = p / per_gamma;
      pr.gamma = number_or_nan(list[j].at("gamma"));
      pr.seed = field<std::uint64_t>(s, list[j], "seed", at + "/seed");
      pr.status =
          status_bits(s, field<std::string>(s, list[j], "status", at + "/status"), at + "/status");
      pr.omega_bar = numbers(list[j].at("omega_bar"));
      pr.rho2 = numbers(list[j].at("rho2"));
      pr.sigma_a = numbers(list[j].at("sigma_a"));
    }
    particle_steps += field<double>(s, s.summary, "particle_steps", "/particle_steps");
    wall_time += field<double>(s, s.summary, "wall_time_s", "/wall_time_s");
    advance_time += field<double>(s, s.summary, "advance_time_s", "/advance_time_s");
    threads = std::max(threads, field<int>(s, s.summary, "threads", "/threads"));
  }
  r.gammas = md::average_by_gamma(c, r.packings);

  // the tables are checked before anything is written
  const std::uint64_t chunks = count_chunks(shards, n_gamma);
  const fs::path angles = shards.front().dir / "angles.csv";
  count_rows(angles, packing_ensemble_tables()[1].header());
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
  // snapshots: each packing's files come from the one shard that ran it, as it recorded them
  // (verify_files: names of its own packings, inside its folder)
  for (const Shard& s : shards) {
    for (const auto& [name, record] : s.summary["files"].items()) {
      if (!snapshot_packing(name)) continue;
      fs::create_directories(out_dir / "snapshots");
      fs::copy_file(s.dir / name, out_dir / name);
    }
  }

  // the keys of the case are the shards'; the run's costs add up (docs/outputs.md)
  const json& first = shards.front().summary;
  json keys;
  for (const char* key : {"method", "dt", "sample_interval", "steps", "backend"})
    keys[key] = first.at(key);
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
