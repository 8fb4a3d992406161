// The packing ensemble's outputs that do not stream (docs/outputs.md): the CSV tables, the Γ
// table and disks.csv and summary.json of a finished run, what the loader bounds (output and
// snapshot bytes), and the names a run and its shards share (checkpoint, fingerprint, packing
// indices).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/file.hpp"
#include "granular/io/file_record.hpp"
#include "granular/io/output.hpp"
#include "granular/io/table.hpp"
#include "outputs.hpp"

namespace granular::cases {

using io::FileError;
using io::format_value;
using io::json_number;
using io::write_json_atomic;

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

namespace {

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

}  // namespace

// The thread count actually used (the OpenMP default when threads <= 0).
int threads_used(int threads) {
#ifdef _OPENMP
  return threads > 0 ? threads : omp_get_max_threads();
#else
  return 1;
#endif
}

void write_energy_rows(io::TableStream& csv, double t, const md::EnsembleModel& m,
                       const std::vector<md::PackingEnergy>& e, const PackingIndex& index) {
  for (int p = 0; p < m.n_packings(); ++p) {
    csv.num(t).integer(index(p)).num(m.packings[p].gamma);
    csv.num(e[p].kinetic).num(e[p].rotational).num(e[p].gravitational);
    csv.num(e[p].elastic).num(e[p].skin).num(e[p].total());
    csv.integer(e[p].disk_contacts).integer(e[p].wall_contacts).end_row();
  }
  csv.flush();
}

void write_angle_rows(io::TableStream& csv, double t, const md::EnsembleModel& m,
                      int packings_per_gamma, const double* theta, const PackingIndex& index) {
  for (int p = 0; p < m.n_packings(); p += packings_per_gamma) {
    for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
      csv.num(t).num(m.packings[p].gamma).integer(index(p));
      csv.integer(i - m.offset[p]).num(theta[i]).end_row();
    }
  }
  csv.flush();
}

void clear_earlier_run(const std::filesystem::path& out_dir) {
  for (const std::filesystem::path& old : {checkpoint_path(out_dir), out_dir / "summary.json"}) {
    std::error_code ec;
    std::filesystem::remove(old, ec);
    if (ec)
      throw FileError(old.string() + ": cannot remove what an earlier run left: " + ec.message());
  }
}

void write_ensemble_results(const md::EnsembleCase& c, const md::EnsembleResult& r,
                            const RunContext& ctx, const nlohmann::json& method_keys,
                            const std::vector<nlohmann::json>& packing_keys) {
  const OrQuiet report_or_quiet(ctx.report);
  std::ostream& report = *report_or_quiet;
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
  // the units of the tables this run writes
  nlohmann::json j = io::summary_header("packing_ensemble", ctx.case_echo, rotation_tables());
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

std::vector<io::TableSpec> rotation_tables() {
  return {energy_table(), angles_table(), disks_table()};
}

std::vector<io::TableSpec> packing_ensemble_tables() {
  std::vector<io::TableSpec> all = rotation_tables();
  all.push_back(collisions_table());
  return all;
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

}  // namespace granular::cases
