// run_packing_ensemble: runs a packing ensemble on its backend and writes its outputs
// (docs/outputs.md): energy.csv and angles.csv streamed during the run, disks.csv, and last,
// atomically, summary.json, whose presence marks a complete run. checkpoint.bin is written at
// chunk boundaries until then; it records the CSV sizes, so a resumed run cuts the CSVs back to
// that point and appends exactly the rows the uninterrupted run would have written. A shard
// (ctx.packings) runs its slice of the packings and writes them under their indices in the
// whole ensemble, so that merging shards gives the whole run's files (ensemble_shards.cpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "granular/cases/ensemble.hpp"
#include "granular/io/checkpoint.hpp"
#include "granular/io/checksum.hpp"
#include "granular/io/file.hpp"
#include "granular/io/file_record.hpp"
#include "granular/io/output.hpp"
#include "granular/io/snapshot.hpp"
#include "granular/io/table.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/ensemble/run.hpp"
#include "granular/md/frame.hpp"

namespace granular::cases {

using io::FileError;
using io::format_value;
using io::json_count;
using io::json_number;
using io::OutputFile;
using io::summary_header;
using io::truncate_file;
using io::write_json_atomic;

namespace {

// The streamed tables of a run, in the order their sizes were recorded.
const io::TableSpec& energy_table() {
  static const io::TableSpec t{
      "energy.csv",
      "one row per packing after initialization and after every chunk (settle, transient and "
      "measurement; a phase's last chunk may be shorter). Energies relative to y = 0 for "
      "gravity; contacts evaluated with the engine's contact functions on a copy of the stored "
      "history",
      {{"t", "s", "time"},
       {"packing", "", "packing index"},
       {"gamma", "-", "Γ of the packing"},
       {"kinetic", "J", "translational Σ ½ m v²"},
       {"rotational", "J", "Σ ½ I ω²"},
       {"gravitational", "J", "Σ m g y"},
       {"elastic", "J", "Σ ½ k_n δ² over open disk–disk (pairs once) and disk–wall contacts"},
       {"skin", "J", "Σ ½ k_t ξ² over the same contacts"},
       {"total", "J", "sum of the five energies"},
       {"disk_contacts", "", "open disk–disk contacts, each pair once"},
       {"wall_contacts", "", "open disk–wall contacts"}}};
  return t;
}

const io::TableSpec& angles_table() {
  static const io::TableSpec t{
      "angles.csv",
      "one row per disk of the first packing of every Γ at every sample of the measurement "
      "window (all packings would make the file too large)",
      {{"t", "s", "sample time"},
       {"gamma", "-", "Γ"},
       {"packing", "", "packing index"},
       {"disk", "", "disk index within the packing"},
       {"theta", "rad", "unwrapped rotation angle, counter-clockwise"}}};
  return t;
}

const io::TableSpec& disks_table() {
  static const io::TableSpec t{
      "disks.csv",
      "one row per packing and disk (every packing, healthy or not; see `status` in "
      "summary.json)",
      {{"packing", "", "packing index"},
       {"gamma", "-", "Γ"},
       {"disk", "", "disk index within the packing"},
       {"radius", "m", "disk radius"},
       {"omega_bar", "rad/s", "ω̄"},
       {"rho2", "-", "ρ²_{θ,t}"},
       {"sigma_a", "-", "σ_a"}}};
  return t;
}

nlohmann::json numbers(const std::vector<double>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (double x : v) a.push_back(json_number(x));
  return a;
}

// The Γ table of the results, one line per Γ.
void print_table(const std::vector<md::GammaStats>& gammas, std::ostream& out) {
  char line[200];
  std::snprintf(line, sizeof line, "%10s %8s %14s %14s %12s %10s %10s\n", "Gamma", "packings",
                "<w^2>[rad2/s2]", "<w^2>[RPM2]", "stderr", "<rho2>", "<sigma_a>");
  out << line;
  for (const md::GammaStats& g : gammas) {
    std::snprintf(line, sizeof line, "%10.4g %8d %14.6g %14.6g %12.4g %10.4f %10.4f\n", g.gamma,
                  g.healthy_packings, g.mean_sq_omega, g.mean_sq_omega_rpm2, g.mean_sq_omega_stderr,
                  g.mean_rho2, g.mean_sigma_a);
    out << line;
  }
}

// The thread count actually used (the OpenMP default when threads <= 0).
int thread_count(int threads) {
#ifdef _OPENMP
  return threads > 0 ? threads : omp_get_max_threads();
#else
  return 1;
#endif
}

// "12 s", "3.4 min", "5.1 h": a duration for a progress line.
std::string duration(double s) {
  if (!(s < 120.0))
    return s < 7200.0 ? format_value("%.1f min", s / 60.0) : format_value("%.1f h", s / 3600.0);
  return format_value("%.0f s", s);
}

}  // namespace

void write_ensemble_results(const md::EnsembleCase& c, const md::EnsembleResult& r,
                            const RunContext& ctx, const nlohmann::json& method_keys,
                            const std::vector<nlohmann::json>& packing_keys) {
  std::ostream quiet(nullptr);
  std::ostream& report = ctx.report ? *ctx.report : quiet;
  const md::EnsembleModel& m = c.model;
  // the Γ table and the packings that were left out
  print_table(r.gammas, report);
  for (const md::PackingResult& p : r.packings) {
    if (p.status != md::status_ok) {
      report << "packing " << p.index << " (Gamma " << p.gamma
             << ") excluded: " << md::status_name(p.status) << "\n";
    }
  }

  // disks.csv: per packing and disk
  io::TableStream disks_csv(ctx.out_dir, disks_table());
  for (const md::PackingResult& p : r.packings) {
    for (std::size_t i = 0; i < p.omega_bar.size(); ++i) {
      disks_csv.integer(p.index).num(p.gamma).integer(static_cast<long long>(i));
      disks_csv.num(m.radius[m.offset[p.index] + i]).num(p.omega_bar[i]).num(p.rho2[i]);
      disks_csv.num(p.sigma_a[i]).end_row();
    }
  }
  disks_csv.close();

  // summary.json, last
  nlohmann::json j = run_summary_head("packing_ensemble", ctx.case_echo);
  if (ctx.case_echo.is_object() && ctx.case_echo.contains("seed")) {
    j["seed"] = ctx.case_echo["seed"];
  } else {
    j["seed"] = m.packings.empty() ? 0 : m.packings[0].seed;
  }
  j["gamma_values"] = numbers(c.gamma_values);
  j["packings_per_gamma"] = c.packings_per_gamma;
  std::vector<double> sq, sq_rpm2, sq_stderr, mean_rho2, mean_sigma_a;
  for (const md::GammaStats& g : r.gammas) {
    sq.push_back(g.mean_sq_omega);
    sq_rpm2.push_back(g.mean_sq_omega_rpm2);
    sq_stderr.push_back(g.mean_sq_omega_stderr);
    mean_rho2.push_back(g.mean_rho2);
    mean_sigma_a.push_back(g.mean_sigma_a);
  }
  j["mean_sq_omega"] = numbers(sq);
  j["mean_sq_omega_rpm2"] = numbers(sq_rpm2);
  j["mean_sq_omega_stderr"] = numbers(sq_stderr);
  j["mean_rho2"] = numbers(mean_rho2);
  j["mean_sigma_a"] = numbers(mean_sigma_a);
  nlohmann::json packings = nlohmann::json::array();
  for (const md::PackingResult& p : r.packings) {
    packings.push_back({{"index", p.index},
                        {"gamma", json_number(p.gamma)},
                        {"seed", p.seed},
                        {"status", md::status_name(p.status)},
                        {"omega_bar", numbers(p.omega_bar)},
                        {"rho2", numbers(p.rho2)},
                        {"sigma_a", numbers(p.sigma_a)}});
    if (!packing_keys.empty())
      for (const auto& [key, value] : packing_keys[p.index].items()) packings.back()[key] = value;
  }
  j["packings"] = std::move(packings);
  for (const auto& [key, value] : method_keys.items()) j[key] = value;
  // every file of the run, as written: merge and later readers can tell it is still that
  std::vector<std::string> written = {energy_table().file, angles_table().file, disks_table().file};
  for (const std::string& name : io::files_under(ctx.out_dir, "snapshots")) written.push_back(name);
  j["files"] = io::record_files(ctx.out_dir, written);
  write_json_atomic(ctx.out_dir / "summary.json", j);
}

std::vector<io::TableSpec> packing_ensemble_tables() {
  return {energy_table(), angles_table(), disks_table()};
}

double ensemble_output_bytes(const md::RunSteps& steps, int n_gamma, int packings_per_gamma,
                             int disks_per_packing) {
  // widest rows: round-trip numbers (at most 24 characters with sign and exponent), indices,
  // separators
  constexpr double energy_row = 9 * 25 + 2 * 12;
  constexpr double angle_row = 3 * 25 + 2 * 12;
  constexpr double disk_row = 5 * 25 + 2 * 12;
  const double packings = static_cast<double>(n_gamma) * packings_per_gamma;
  const double energy = (static_cast<double>(steps.chunks()) + 1.0) * packings * energy_row;
  const double angles =
      (static_cast<double>(steps.measure_chunks) + 1.0) * n_gamma * disks_per_packing * angle_row;
  return energy + angles + packings * disks_per_packing * disk_row;
}

double snapshot_bytes(const SnapshotPlan& plan, std::int64_t chunks, int disks_per_packing,
                      const md::NeighborParams& neighbor, int wall_bodies) {
  // per disk: a LAMMPS line of 7 round-trip numbers and two integers; a VTK point with its five
  // point-data arrays (10 doubles), and each of its contacts as a line with its cell data and,
  // for walls, a point of its own (16 doubles); a GSD particle's 11 floats, 2 doubles and type id;
  // headers, collection entries and GSD's index per frame
  const double lammps = 7 * 25 + 2 * 12;
  const double contacts = neighbor.max_contacts + md::n_walls + wall_bodies;
  const double vtk = 10 * 8 + contacts * 16 * 8;
  const double gsd = 11 * 4 + 2 * 8 + 4;
  const double per_disk =
      (plan.lammps ? lammps : 0.0) + (plan.vtk ? vtk : 0.0) + (plan.gsd ? gsd : 0.0);
  const double per_frame = 4096.0 + per_disk * disks_per_packing;
  return static_cast<double>(plan.frames(chunks)) * static_cast<double>(plan.packings.size()) *
         per_frame;
}

std::filesystem::path checkpoint_path(const std::filesystem::path& out_dir) {
  return out_dir / "checkpoint.bin";
}

std::string case_fingerprint(const nlohmann::json& case_echo,
                             const std::optional<PackingRange>& shard) {
  return case_echo.dump() +
         (shard ? " packings " + std::to_string(shard->first) + ":" + std::to_string(shard->last)
                : "");
}

int whole_packing_index(const md::EnsembleCase& c, const std::optional<PackingRange>& shard,
                        int p) {
  if (!shard) return p;
  const int n = shard->last - shard->first;
  return p / n * c.packings_per_gamma + shard->first + p % n;
}

namespace {

// GSD files are rewritten in place (io::GsdTrajectory): the checkpoint records the whole file
bool is_gsd(const std::string& name) {
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".gsd") == 0;
}

// The checksum of each streamed file's first `bytes` bytes, kept up to date by reading only what
// was appended since the last call: between checkpoints the streams only grow (a .pvd's
// entries are the prefix of its file, rewritten whole each frame).
class StreamSums {
 public:
  explicit StreamSums(std::filesystem::path dir) : dir_(std::move(dir)) {}

  std::uint64_t of(const std::string& name, std::uint64_t bytes) {
    Entry& e = entries_[name];
    if (bytes < e.read || is_gsd(name)) e = Entry{};  // cut back or rewritten: start over
    std::ifstream in(dir_ / name, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(e.read));
    std::vector<char> block(1 << 16);
    while (e.read < bytes && in) {
      const auto want =
          static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), bytes - e.read));
      in.read(block.data(), static_cast<std::streamsize>(want));
      const auto got = static_cast<std::size_t>(in.gcount());
      e.sum.add(block.data(), got);
      e.read += got;
    }
    if (e.read != bytes)
      throw FileError((dir_ / name).string() + ": cannot read back its " + std::to_string(bytes) +
                      " bytes for the checkpoint");
    return e.sum.value();
  }

 private:
  struct Entry {
    std::uint64_t read = 0;
    io::Checksum sum;
  };
  std::filesystem::path dir_;
  std::map<std::string, Entry> entries_;
};

// A resumed run appends to its streamed files: each must still hold, as its first bytes, what
// the checkpoint recorded (a file cut, replaced or written by another run is refused, nothing
// changed).
void verify_streams(const std::filesystem::path& out_dir, const io::CheckpointHeader& header) {
  for (const io::StreamSize& st : header.streams) {
    const std::filesystem::path path = out_dir / st.name;
    const std::string irregular = io::not_a_regular_file(path);
    if (!irregular.empty())
      throw io::CaseError(path.string(), "",
                          irregular + ": cannot resume the run that streamed to it");
    // a GSD file's recorded bytes are the whole file as it was, which io::GsdTrajectory checks
    if (is_gsd(st.name)) continue;
    const std::optional<std::uint64_t> sum = io::file_checksum(path, st.bytes);
    if (!sum || *sum != st.checksum)
      throw io::CaseError(path.string(), "",
                          "its first " + std::to_string(st.bytes) +
                              " bytes are not those the checkpoint recorded (cut, replaced or "
                              "changed since): cannot resume; run again without --resume");
  }
}

}  // namespace

RunEnd run_packing_ensemble(const md::EnsembleCase& c, const RunContext& ctx,
                            const SnapshotPlan& snapshots) {
  const nlohmann::json& case_echo = ctx.case_echo;
  const std::filesystem::path& out_dir = ctx.out_dir;
  const int threads = ctx.threads;
  std::ostream quiet(nullptr);  // where unwanted progress lines go
  std::ostream& progress = ctx.progress ? *ctx.progress : quiet;
  // a shard runs its packings only; its rows carry their indices in the whole ensemble
  const md::EnsembleCase shard =
      ctx.packings ? shard_ensemble(c, *ctx.packings) : md::EnsembleCase{};
  const md::EnsembleCase& run_case = ctx.packings ? shard : c;
  const auto whole = [&](int p) { return whole_packing_index(c, ctx.packings, p); };
  const md::EnsembleModel& m = run_case.model;
  auto backend = ctx.backend == "cuda" ? md::make_cuda_backend() : md::make_cpu_backend(threads);
  const std::filesystem::path checkpoint = checkpoint_path(out_dir);
  const std::string fingerprint = case_fingerprint(case_echo, ctx.packings);

  // resume: the checkpoint of this case, made on any backend (the state is the same arrays
  // everywhere; the run continues bitwise where the backends agree bitwise); a fresh run first
  // removes what an earlier run left, so that a stale checkpoint or summary never sits next to
  // new CSVs
  std::optional<io::EnsembleCheckpoint> resume;
  if (ctx.resume) {
    resume = io::read_checkpoint(checkpoint, m, fingerprint);
    verify_streams(out_dir, resume->header);
    progress << "resuming from " << checkpoint.string()
             << " at t = " << format_value("%.6g", resume->point.state.time(m)) << " s";
    if (resume->header.backend != backend->name())
      progress << " (made by the " << resume->header.backend << " backend, continued on "
               << backend->name() << ")";
    progress << "\n";
  } else {
    for (const std::filesystem::path& old : {checkpoint, out_dir / "summary.json"}) {
      std::error_code ec;
      std::filesystem::remove(old, ec);
      if (ec)
        throw FileError(old.string() + ": cannot remove what an earlier run left: " + ec.message());
    }
  }
  // a resumed stream is cut back to the size its checkpoint recorded under its name
  const auto recorded = [&](const std::string& name) -> std::optional<io::StreamSize> {
    if (!resume) return std::nullopt;
    for (const io::StreamSize& st : resume->header.streams)
      if (st.name == name) return st;
    throw std::runtime_error(checkpoint.string() + ": damaged checkpoint (no size recorded for " +
                             name + ")");
  };
  const auto keep = [&](const std::string& name) -> std::optional<std::uint64_t> {
    const std::optional<io::StreamSize> st = recorded(name);
    return st ? std::optional<std::uint64_t>(st->bytes) : std::nullopt;
  };

  // snapshots/: a dump, a VTK series and a GSD trajectory per packing asked for, named in the
  // checkpoint by their path in the output folder; a shard photographs those of its packings,
  // named by their index in the whole ensemble: (index in this run, in the whole ensemble)
  std::vector<std::pair<int, int>> photographed;
  for (int p = 0; p < m.n_packings(); ++p) {
    if (std::binary_search(snapshots.packings.begin(), snapshots.packings.end(), whole(p)))
      photographed.push_back({p, whole(p)});
  }
  const auto stem_of = [&](std::size_t k) {
    return "packing_" + std::to_string(photographed[k].second);
  };
  if (!photographed.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir / "snapshots", ec);
    if (ec)
      throw FileError((out_dir / "snapshots").string() +
                      ": cannot create the folder: " + ec.message());
  }
  // the GSD files first: a resumed one is checked by writing its frames again, and refused
  // before any other file is cut back
  std::vector<std::unique_ptr<io::GsdTrajectory>> trajectories;
  for (std::size_t k = 0; snapshots.gsd && k < photographed.size(); ++k) {
    const std::string name = "snapshots/" + stem_of(k) + ".gsd";
    const std::optional<io::StreamSize> st = recorded(name);
    trajectories.push_back(std::make_unique<io::GsdTrajectory>(
        out_dir / name,
        st ? std::optional<io::GsdTrajectory::Mark>({st->bytes, st->checksum}) : std::nullopt));
  }

  // energy.csv: every packing at every chunk
  io::TableStream energy_csv(out_dir, energy_table(), keep(energy_table().file));
  // angles.csv: θ of the first packing of every Γ only (all packings would be too large)
  io::TableStream angles_csv(out_dir, angles_table(), keep(angles_table().file));

  std::vector<std::unique_ptr<io::LammpsDump>> dumps;
  std::vector<std::unique_ptr<io::VtkSeries>> series;
  for (std::size_t k = 0; k < photographed.size(); ++k) {
    const std::string stem = stem_of(k);
    if (snapshots.lammps) {
      const std::string name = "snapshots/" + stem + ".lammpstrj";
      dumps.push_back(std::make_unique<io::LammpsDump>(out_dir / name, keep(name)));
    }
    if (snapshots.vtk)
      series.push_back(std::make_unique<io::VtkSeries>(out_dir / "snapshots", stem,
                                                       keep("snapshots/" + stem + ".pvd")));
  }

  md::EnsembleObserver observer;
  observer.on_energy = [&](double t, md::RunPhase, const std::vector<md::PackingEnergy>& e) {
    for (int p = 0; p < m.n_packings(); ++p) {
      energy_csv.num(t).integer(whole(p)).num(m.packings[p].gamma);
      energy_csv.num(e[p].kinetic).num(e[p].rotational).num(e[p].gravitational);
      energy_csv.num(e[p].elastic).num(e[p].skin).num(e[p].total());
      energy_csv.integer(e[p].disk_contacts).integer(e[p].wall_contacts).end_row();
    }
    energy_csv.flush();
  };
  // the first packing of every Γ belongs to the shard that starts at 0
  const bool angles = !ctx.packings || ctx.packings->first == 0;
  observer.on_sample = [&](double t, const md::EnsembleModel& model, const md::EnsembleState& s) {
    for (int p = 0; angles && p < model.n_packings(); p += run_case.packings_per_gamma) {
      for (int i = model.offset[p]; i < model.offset[p + 1]; ++i) {
        angles_csv.num(t).num(model.packings[p].gamma).integer(whole(p));
        angles_csv.integer(i - model.offset[p]).num(s.theta[i]).end_row();
      }
    }
    angles_csv.flush();
  };
  observer.on_chunk = [&](std::int64_t chunk, const md::EnsembleModel& model,
                          const md::EnsembleState& s) {
    if (!snapshots.takes(chunk)) return;
    for (std::size_t k = 0; k < photographed.size(); ++k) {
      const md::PackingFrame frame = md::packing_frame(model, s, photographed[k].first);
      if (snapshots.lammps) dumps[k]->frame(frame);
      if (snapshots.vtk) series[k]->frame(frame);
      if (snapshots.gsd) trajectories[k]->frame(frame);
    }
    for (auto& dump : dumps) dump->bytes();  // handed to the OS, as the CSVs are
  };

  // checkpoints: the CSVs are flushed first, so the sizes recorded cover every row written
  md::EnsembleRunOptions options;
  options.checkpoint_interval = ctx.checkpoint_interval;
  options.stop = ctx.stop;
  options.poll_interval_s = ctx.poll_interval_s;
  options.slice_steps = ctx.slice_steps;
  options.resume = resume ? &resume->point : nullptr;
  // the time left, at the pace of this process so far (a resumed run starts its own count)
  const auto started = std::chrono::steady_clock::now();
  double first_fraction = -1.0;
  options.on_progress = [&](const md::RunProgress& p) {
    if (first_fraction < 0.0) first_fraction = p.fraction;
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double done = p.fraction - first_fraction;
    const double eta_s = done > 0.0 ? elapsed * (1.0 - p.fraction) / done : NAN;
    const std::string eta = done > 0.0 ? duration(eta_s) : std::string("?");
    if (ctx.on_progress)
      ctx.on_progress(
          {md::phase_name(p.phase), p.t, p.fraction, p.particle_steps_per_s, NAN, elapsed, eta_s});
    char line[200];
    std::snprintf(line, sizeof line,
                  "[%-9s] t = %10.4f s  %5.1f %%  %.3g particle-steps/s  elapsed %s  ETA %s\n",
                  md::phase_name(p.phase), p.t, 100.0 * p.fraction, p.particle_steps_per_s,
                  duration(elapsed).c_str(), eta.c_str());
    progress << '\r' << line << std::flush;  // a periodic line (RunContext::progress)
  };
  StreamSums sums(out_dir);
  options.on_checkpoint = [&](const md::RunPosition& position, const md::EnsembleState& s,
                              const std::vector<md::RotationStats>& rotation) {
    io::CheckpointHeader header{fingerprint, backend->name(), {}, position};
    const auto stream = [&](const std::string& name, std::uint64_t bytes) {
      header.streams.push_back({name, bytes, sums.of(name, bytes)});
    };
    stream(energy_csv.name(), energy_csv.bytes());
    stream(angles_csv.name(), angles_csv.bytes());
    for (std::size_t k = 0; k < photographed.size(); ++k) {
      const std::string stem = "snapshots/" + stem_of(k);
      if (snapshots.lammps) stream(stem + ".lammpstrj", dumps[k]->bytes());
      if (snapshots.vtk) stream(stem + ".pvd", series[k]->bytes());
      if (snapshots.gsd) stream(stem + ".gsd", trajectories[k]->bytes());
    }
    io::write_checkpoint(checkpoint, header, s, rotation);
  };

  md::EnsembleResult r = md::run_ensemble(run_case, *backend, observer, options);
  energy_csv.close();
  angles_csv.close();
  for (auto& dump : dumps) dump->close();
  for (auto& trajectory : trajectories) trajectory->close();
  if (!r.complete) {
    const double t = -c.schedule.settle_time + static_cast<double>(r.steps) * r.dt;
    progress << "stopped at t = " << format_value("%.6g", t) << " s; checkpoint in "
             << checkpoint.string() << "\n";
    return RunEnd::interrupted;
  }

  nlohmann::json keys;
  keys["method"] = "md";
  keys["dt"] = json_number(r.dt);
  keys["sample_interval"] = json_number(r.sample_interval);
  keys["steps"] = r.steps;
  keys["particle_steps"] = json_count(r.particle_steps);
  keys["wall_time_s"] = json_number(r.wall_time_s);
  keys["advance_time_s"] = json_number(r.advance_time_s);
  keys["particle_steps_per_s"] = json_number(r.particle_steps_per_s);
  keys["threads"] = thread_count(threads);
  keys["backend"] = r.backend;
  if (ctx.packings) {
    keys["shard"] = {{"packings", {ctx.packings->first, ctx.packings->last}}};
    for (md::PackingResult& p : r.packings) p.index = whole(p.index);
  }
  write_ensemble_results(c, r, ctx, keys, {});

  // summary.json is now the finished result; the checkpoint has served
  std::error_code ec;
  std::filesystem::remove(checkpoint, ec);
  if (ec) progress << checkpoint.string() << ": cannot remove: " << ec.message() << "\n";
  return RunEnd::complete;
}

RunEnd run_packing_ensemble_ed(const md::EnsembleCase& c, const md::ed::EdOptions& ed,
                               const RunContext& ctx) {
  std::ostream quiet(nullptr);  // where unwanted progress lines go
  std::ostream& progress = ctx.progress ? *ctx.progress : quiet;
  const md::EnsembleModel& m = c.model;
  // what an earlier run left (an MD checkpoint, a summary) must not sit next to new CSVs
  for (const std::filesystem::path& old :
       {checkpoint_path(ctx.out_dir), ctx.out_dir / "summary.json"}) {
    std::error_code ec;
    std::filesystem::remove(old, ec);
    if (ec)
      throw FileError(old.string() + ": cannot remove what an earlier run left: " + ec.message());
  }

  // the e_t tables before any file (every packing has the same laws and radii; the run finds
  // them in the process's cache): a law that the validation's probes could not fault fails
  // here, with nothing written
  if (ed.tangential == md::ed::TangentialRule::contact_law && m.n_packings() > 0)
    md::ed::make_restitution_set(
        m.packings[0].disk_disk, m.packings[0].disk_wall,
        std::vector<double>(m.radius.begin() + m.offset[0], m.radius.begin() + m.offset[1]),
        c.areal_density, ed.tangential);

  // the same streams as an MD run: every packing's energy at every chunk end, θ of the first
  // packing of every Γ at every sample
  io::TableStream energy_csv(ctx.out_dir, energy_table(), std::nullopt);
  io::TableStream angles_csv(ctx.out_dir, angles_table(), std::nullopt);
  md::ed::EdObserver observer;
  observer.on_energy = [&](double t, md::RunPhase, const std::vector<md::PackingEnergy>& e) {
    for (int p = 0; p < m.n_packings(); ++p) {
      energy_csv.num(t).integer(p).num(m.packings[p].gamma);
      energy_csv.num(e[p].kinetic).num(e[p].rotational).num(e[p].gravitational);
      energy_csv.num(e[p].elastic).num(e[p].skin).num(e[p].total());
      energy_csv.integer(e[p].disk_contacts).integer(e[p].wall_contacts).end_row();
    }
    energy_csv.flush();
  };
  observer.on_sample = [&](double t, const std::vector<double>& theta) {
    for (int p = 0; p < m.n_packings(); p += c.packings_per_gamma) {
      for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
        angles_csv.num(t).num(m.packings[p].gamma).integer(p);
        angles_csv.integer(i - m.offset[p]).num(theta[i]).end_row();
      }
    }
    angles_csv.flush();
  };
  // a line about every 5 % of the simulated time
  double next_report = 0.0;
  const auto started = std::chrono::steady_clock::now();
  observer.on_progress = [&](md::RunPhase phase, double t, double fraction, double events) {
    if (fraction < next_report && fraction < 1.0) return;
    while (next_report <= fraction) next_report += 0.05;
    if (ctx.on_progress) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      ctx.on_progress({md::phase_name(phase), t, fraction, NAN, events, elapsed,
                       fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : NAN});
    }
    char line[160];
    std::snprintf(line, sizeof line, "[%-9s] t = %10.4f s  %5.1f %%  %.4g events\n",
                  md::phase_name(phase), t, 100.0 * fraction, events);
    progress << '\r' << line << std::flush;  // a periodic line (RunContext::progress)
  };

  const md::ed::EdResult r = md::ed::run_ensemble_ed(c, ed, ctx.threads, observer);
  energy_csv.close();
  angles_csv.close();

  // the event counts, per packing and in all
  std::vector<nlohmann::json> counts;
  double events = 0.0;
  for (const md::ed::EventCounts& k : r.counts) {
    counts.push_back({{"events", k.total()},
                      {"disk_disk", k.disk_disk},
                      {"side_wall", k.side_wall},
                      {"bottom", k.bottom},
                      {"fbrpa_rejections", k.rejections}});
    events += static_cast<double>(k.total());
  }
  const md::EnsembleResult& e = r.ensemble;
  nlohmann::json keys;
  keys["method"] = "ed";
  keys["tangential"] =
      ed.tangential == md::ed::TangentialRule::contact_law ? "contact_law" : "large_kappa";
  keys["dt"] = nullptr;  // no time step: steps and particle steps do not apply
  keys["sample_interval"] = json_number(e.sample_interval);
  keys["steps"] = nullptr;
  keys["particle_steps"] = nullptr;
  keys["particle_steps_per_s"] = nullptr;
  keys["events"] = json_count(events);
  keys["events_per_s"] = json_number(e.advance_time_s > 0.0 ? events / e.advance_time_s : 0.0);
  keys["wall_time_s"] = json_number(e.wall_time_s);
  keys["advance_time_s"] = json_number(e.advance_time_s);
  keys["threads"] = thread_count(ctx.threads);
  keys["backend"] = e.backend;
  write_ensemble_results(c, e, ctx, keys, counts);
  return RunEnd::complete;
}

}  // namespace granular::cases
