// The files an MD run of the packing ensemble streams (docs/outputs.md): energy.csv, angles.csv
// and the snapshots, opened fresh or, resuming, cut back to the sizes its checkpoint recorded;
// each checkpoint records their sizes and checksums again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/checkpoint.hpp"
#include "granular/io/checksum.hpp"
#include "granular/io/snapshot.hpp"
#include "granular/io/table.hpp"
#include "outputs.hpp"

namespace granular::cases {

// A resumed run appends to its streamed files: each must still hold, as its first bytes, what
// the checkpoint recorded (a file cut, replaced or written by another run is refused, nothing
// changed). Throws io::CaseError naming the file.
void verify_streams(const std::filesystem::path& out_dir, const io::CheckpointHeader& header);

// The checksum of each streamed file's first `bytes` bytes, kept up to date by reading only what
// was appended since the last call: between checkpoints the streams only grow (a .pvd's
// entries are the prefix of its file, rewritten whole each frame; a GSD file is read whole).
class StreamSums {
 public:
  explicit StreamSums(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::uint64_t of(const std::string& name, std::uint64_t bytes);

 private:
  struct Entry {
    std::uint64_t read = 0;
    io::Checksum sum;
  };
  std::filesystem::path dir_;
  std::map<std::string, Entry> entries_;
};

class StreamedOutputs {
 public:
  // Opens the streams of `run_case` in out_dir, fresh or cut back to what `resumed` (a
  // checkpoint's header) recorded: the GSD files first, whose check writes their frames again,
  // so that a refused one has cut back nothing else. `index` gives a packing's index in the
  // files; `angles`: this run writes angles.csv's rows (the shard that holds the first packing
  // of every Γ). Throws io::FileError, std::runtime_error for a damaged checkpoint.
  StreamedOutputs(const std::filesystem::path& out_dir, const md::EnsembleCase& run_case,
                  PackingIndex index, const SnapshotPlan& snapshots, bool angles,
                  const io::CheckpointHeader* resumed);
  StreamedOutputs(const StreamedOutputs&) = delete;
  StreamedOutputs& operator=(const StreamedOutputs&) = delete;

  // What the run tells the streams: energies, samples of θ, chunk ends (snapshots).
  md::EnsembleObserver observer();
  // Adds every stream's size and checksum to a checkpoint's header.
  void record(io::CheckpointHeader& header);
  void close();

 private:
  std::optional<io::StreamSize> recorded(const std::string& name) const;
  std::optional<std::uint64_t> keep(const std::string& name) const;
  std::string packing_name(std::size_t k) const;  // packing_<whole index>
  std::string stem(std::size_t k) const;          // snapshots/packing_<whole index>

  std::filesystem::path out_dir_;
  const md::EnsembleCase& run_case_;
  PackingIndex index_;
  SnapshotPlan snapshots_;
  bool angles_;
  const io::CheckpointHeader* resumed_;
  // the packings photographed: (index in this run, in the whole ensemble)
  std::vector<std::pair<int, int>> photographed_;
  std::vector<std::unique_ptr<io::GsdTrajectory>> trajectories_;
  std::optional<io::TableStream> energy_csv_, angles_csv_;
  std::vector<std::unique_ptr<io::LammpsDump>> dumps_;
  std::vector<std::unique_ptr<io::VtkSeries>> series_;
  StreamSums sums_;
};

}  // namespace granular::cases
