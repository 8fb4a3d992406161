// The files an MD run of the packing ensemble streams (streams.hpp).
#include "streams.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "granular/io/file.hpp"
#include "granular/io/file_record.hpp"
#include "granular/io/plain_name.hpp"
#include "granular/md/frame.hpp"

namespace granular::cases {

using io::FileError;

namespace {

// GSD files are rewritten in place (io::GsdTrajectory): the checkpoint records the whole file
bool is_gsd(const std::string& name) {
  return name.size() > 4 && name.compare(name.size() - 4, 4, ".gsd") == 0;
}

// The digits at the start of `text` as a packing index, and how many there were; nothing for
// none, a leading zero or more than an int holds.
std::optional<int> leading_index(const std::string& text, std::size_t& used) {
  used = 0;
  while (used < text.size() && used < 10 && text[used] >= '0' && text[used] <= '9') ++used;
  if (used == 0 || (used > 1 && text[0] == '0')) return std::nullopt;
  const long long p = std::stoll(text.substr(0, used));
  if (p > 2147483647LL) return std::nullopt;
  return static_cast<int>(p);
}

// What a checkpoint may name as a streamed file: the tables and the snapshots.
bool is_stream_name(const std::string& name) {
  if (name == energy_table().file || name == angles_table().file) return true;
  return snapshot_packing(name).has_value();
}

}  // namespace

std::optional<int> snapshot_packing(const std::string& name) {
  const std::string prefix = "snapshots/packing_";
  if (name.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const std::string rest = name.substr(prefix.size());
  std::size_t used = 0;
  const std::optional<int> p = leading_index(rest, used);
  if (!p) return std::nullopt;
  const std::string tail = rest.substr(used);
  if (tail == ".lammpstrj" || tail == ".pvd" || tail == ".gsd") return p;
  return std::nullopt;
}

std::vector<std::string> snapshot_files(const SnapshotPlan& plan, int q, std::int64_t frames) {
  const std::string stem = "snapshots/packing_" + std::to_string(q);
  std::vector<std::string> names;
  if (plan.lammps) names.push_back(stem + ".lammpstrj");
  if (plan.gsd) names.push_back(stem + ".gsd");
  if (plan.vtk) {
    names.push_back(stem + ".pvd");
    // io::VtkSeries' frames: <stem>_<frame, six digits or more>.vtp
    for (std::int64_t k = 0; k < frames; ++k) {
      char number[24];
      std::snprintf(number, sizeof number, "_%06lld", static_cast<long long>(k));
      names.push_back(stem + number + ".vtp");
    }
  }
  return names;
}

std::uint64_t StreamSums::of(const std::string& name, std::uint64_t bytes) {
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

void verify_streams(const std::filesystem::path& out_dir, const io::CheckpointHeader& header) {
  const std::filesystem::path checkpoint = checkpoint_path(out_dir);
  std::vector<std::string> seen;
  for (const io::StreamSize& st : header.streams) {
    // a name from the file: one this run streams, inside its folder, or nothing is read
    const std::string where = io::outside_folder(out_dir, st.name);
    if (!where.empty() || !is_stream_name(st.name))
      throw io::CaseError(checkpoint.string(), "",
                          "damaged checkpoint (it records a streamed file " + io::quoted(st.name) +
                              ": " + (where.empty() ? "not a file a run streams" : where) + ")");
    if (std::find(seen.begin(), seen.end(), st.name) != seen.end())
      throw io::CaseError(checkpoint.string(), "",
                          "damaged checkpoint (it records " + io::quoted(st.name) + " twice)");
    seen.push_back(st.name);
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

StreamedOutputs::StreamedOutputs(const std::filesystem::path& out_dir,
                                 const md::EnsembleCase& run_case, PackingIndex index,
                                 const SnapshotPlan& snapshots, bool angles,
                                 const io::CheckpointHeader* resumed)
    : out_dir_(out_dir),
      run_case_(run_case),
      index_(std::move(index)),
      snapshots_(snapshots),
      angles_(angles),
      resumed_(resumed),
      sums_(out_dir) {
  // snapshots/: a dump, a VTK series and a GSD trajectory per packing asked for, named in the
  // checkpoint by their path in the output folder; a shard photographs those of its packings,
  // named by their index in the whole ensemble
  const md::EnsembleModel& m = run_case_.model;
  for (int p = 0; p < m.n_packings(); ++p) {
    if (std::binary_search(snapshots_.packings.begin(), snapshots_.packings.end(), index_(p)))
      photographed_.push_back({p, index_(p)});
  }
  if (!photographed_.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir_ / "snapshots", ec);
    if (ec)
      throw FileError((out_dir_ / "snapshots").string() +
                      ": cannot create the folder: " + ec.message());
  }
  // the GSD files first: a resumed one is checked by writing its frames again, and refused
  // before any other file is cut back
  for (std::size_t k = 0; snapshots_.gsd && k < photographed_.size(); ++k) {
    const std::string name = stem(k) + ".gsd";
    const std::optional<io::StreamSize> st = recorded(name);
    trajectories_.push_back(std::make_unique<io::GsdTrajectory>(
        out_dir_ / name,
        st ? std::optional<io::GsdTrajectory::Mark>({st->bytes, st->checksum}) : std::nullopt));
  }
  // energy.csv: every packing at every chunk
  energy_csv_.emplace(out_dir_, energy_table(), keep(energy_table().file));
  // angles.csv: θ of the first packing of every Γ only (all packings would be too large)
  angles_csv_.emplace(out_dir_, angles_table(), keep(angles_table().file));
  for (std::size_t k = 0; k < photographed_.size(); ++k) {
    if (snapshots_.lammps) {
      const std::string name = stem(k) + ".lammpstrj";
      dumps_.push_back(std::make_unique<io::LammpsDump>(out_dir_ / name, keep(name)));
    }
    if (snapshots_.vtk)
      series_.push_back(std::make_unique<io::VtkSeries>(out_dir_ / "snapshots", packing_name(k),
                                                        keep(stem(k) + ".pvd")));
  }
}

md::EnsembleObserver StreamedOutputs::observer() {
  md::EnsembleObserver observer;
  observer.on_energy = [this](double t, md::RunPhase, const std::vector<md::PackingEnergy>& e) {
    write_energy_rows(*energy_csv_, t, run_case_.model, e, index_);
  };
  observer.on_sample = [this](double t, const md::EnsembleModel& model,
                              const md::EnsembleState& s) {
    if (angles_)
      write_angle_rows(*angles_csv_, t, model, run_case_.packings_per_gamma, s.theta.data(),
                       index_);
    else
      angles_csv_->flush();
  };
  observer.on_chunk = [this](std::int64_t chunk, const md::EnsembleModel& model,
                             const md::EnsembleState& s) {
    if (!snapshots_.takes(chunk)) return;
    for (std::size_t k = 0; k < photographed_.size(); ++k) {
      const md::PackingFrame frame = md::packing_frame(model, s, photographed_[k].first);
      if (snapshots_.lammps) dumps_[k]->frame(frame);
      if (snapshots_.vtk) series_[k]->frame(frame);
      if (snapshots_.gsd) trajectories_[k]->frame(frame);
    }
    for (auto& dump : dumps_) dump->bytes();  // handed to the OS, as the CSVs are
  };
  return observer;
}

void StreamedOutputs::record(io::CheckpointHeader& header) {
  const auto stream = [&](const std::string& name, std::uint64_t bytes) {
    header.streams.push_back({name, bytes, sums_.of(name, bytes)});
  };
  stream(energy_csv_->name(), energy_csv_->bytes());
  stream(angles_csv_->name(), angles_csv_->bytes());
  for (std::size_t k = 0; k < photographed_.size(); ++k) {
    if (snapshots_.lammps) stream(stem(k) + ".lammpstrj", dumps_[k]->bytes());
    if (snapshots_.vtk) stream(stem(k) + ".pvd", series_[k]->bytes());
    if (snapshots_.gsd) stream(stem(k) + ".gsd", trajectories_[k]->bytes());
  }
}

void StreamedOutputs::close() {
  energy_csv_->close();
  angles_csv_->close();
  for (auto& dump : dumps_) dump->close();
  for (auto& trajectory : trajectories_) trajectory->close();
}

std::optional<io::StreamSize> StreamedOutputs::recorded(const std::string& name) const {
  if (!resumed_) return std::nullopt;
  for (const io::StreamSize& st : resumed_->streams)
    if (st.name == name) return st;
  throw io::CaseError(checkpoint_path(out_dir_).string(), "",
                      "damaged checkpoint (no size recorded for " + name + ")");
}

std::optional<std::uint64_t> StreamedOutputs::keep(const std::string& name) const {
  const std::optional<io::StreamSize> st = recorded(name);
  return st ? std::optional<std::uint64_t>(st->bytes) : std::nullopt;
}

std::string StreamedOutputs::packing_name(std::size_t k) const {
  return "packing_" + std::to_string(photographed_[k].second);
}

std::string StreamedOutputs::stem(std::size_t k) const { return "snapshots/" + packing_name(k); }

}  // namespace granular::cases
