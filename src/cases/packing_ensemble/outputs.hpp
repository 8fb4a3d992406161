// What the packing ensemble's runs (run_md.cpp, run_ed.cpp) and its merge (shards.cpp) share of
// their outputs (docs/outputs.md): the CSV tables and their rows, the clearing of what an
// earlier run left, the thread count a summary records, the durations of progress lines.
#pragma once

#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/table.hpp"
#include "granular/md/model.hpp"
#include "granular/md/observables.hpp"

namespace granular::cases {

// The streamed tables of a run, in the order a checkpoint records their sizes, and disks.csv.
const io::TableSpec& energy_table();
const io::TableSpec& angles_table();
const io::TableSpec& disks_table();

// The index in the files of the run's packing p: its index in the whole ensemble (a shard runs
// a slice of it).
using PackingIndex = std::function<int(int p)>;

// The packing (its index in the whole ensemble) whose streamed snapshot file `name` is, named as
// a run names them in its folder ("snapshots/packing_<p>.lammpstrj", ".pvd" or ".gsd"; a VTK
// series' frames are written whole, not streamed); nothing for any other name. A checkpoint's
// names of streamed files are matched against it, so that they can name nothing else.
std::optional<int> snapshot_packing(const std::string& name);

// The snapshot files a run writes of the packing with index q in the whole ensemble, `frames`
// frames each, as `plan` asks: its dump, VTK collection and frames, GSD file.
std::vector<std::string> snapshot_files(const SnapshotPlan& plan, int q, std::int64_t frames);

// energy.csv's rows at time t: every packing of m.
void write_energy_rows(io::TableStream& csv, double t, const md::EnsembleModel& m,
                       const std::vector<md::PackingEnergy>& e, const PackingIndex& index);

// angles.csv's rows at time t: θ of every disk of the first packing of every Γ (theta: the
// ensemble's n_disks angles).
void write_angle_rows(io::TableStream& csv, double t, const md::EnsembleModel& m,
                      int packings_per_gamma, const double* theta, const PackingIndex& index);

// Removes what an earlier run left in out_dir (its checkpoint and summary.json), so that a
// stale one never sits next to new CSVs. Throws io::FileError.
void clear_earlier_run(const std::filesystem::path& out_dir);

// The thread count actually used (the OpenMP default when threads <= 0).
int threads_used(int threads);

// A summary's array of numbers (non-finite ones as null).
nlohmann::json numbers(const std::vector<double>& v);

// collisions.csv of a collision record (run_collisions.cpp).
const io::TableSpec& collisions_table();

// The tables of a rotation run, which every shard writes: energy.csv, angles.csv, disks.csv
// (packing_ensemble_tables adds a collision record's).
std::vector<io::TableSpec> rotation_tables();

}  // namespace granular::cases
