// Checkpoints of an ensemble run: the state plus the run's position (docs/architecture.md, "a
// checkpoint is the state plus the time"), so that a resumed run reproduces the uninterrupted
// one bitwise. md::run_ensemble hands out the pieces after a slice; its caller writes them with
// write_checkpoint and reads them back with read_checkpoint.
//
// File format (host byte order, version 6), written atomically (temporary file, fsync, rename):
//   magic "GRANCKPT", u32 version, u32 sizes of double, ContactSlot, CellGrid and RotationStats
//   string case fingerprint, string backend name, u64 count of streamed files, then per file
//   its name (string), its size (u64) and the checksum of those bytes (u64)
//   RunPosition: i32 phase, i64 phase_steps_left, i64 steps_done, f64 particle_steps,
//                f64 advance_time_s, f64 wall_time_s
//   the drive: u64 count + f64 Γ of every packing
//   i64 state.step, f64 state.t0, then every array of EnsembleState (md::for_each_state_array's
//   order) as u64 count + raw bytes
//   u64 count + raw bytes of the RotationStats, then the magic again as an end marker
//   u64 checksum (io/checksum.hpp) of every byte before it
// (a string is a u64 length + bytes). Reading checks the checksum, every size, the run position
// and every index the step functions follow (state_defect), and throws a std::runtime_error
// naming the file when anything does not match: a damaged file is rejected, never resumed.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/io/checkpoint.hpp is host-only"
#endif

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "granular/md/ensemble/run.hpp"
#include "granular/md/model.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/state.hpp"

namespace granular::io {

// A file the run streams to (energy.csv, ...): its size at the checkpoint [bytes] and the
// checksum of those bytes (io/checksum.hpp), which a resume verifies before it appends.
struct StreamSize {
  std::string name;
  std::uint64_t bytes = 0;
  std::uint64_t checksum = 0;
};

// Everything in a checkpoint file except the state and the rotation accumulators.
struct CheckpointHeader {
  std::string fingerprint;          // identifies the case (e.g. the dumped case echo)
  std::string backend;              // Backend::name() of the run that wrote it
  std::vector<StreamSize> streams;  // the caller's streamed files, by name
  md::RunPosition position;
  // the drive when it was written: Γ of every packing (Python's set_gamma may have changed
  // the case's); each finite and >= 0
  std::vector<double> gammas;
};

struct EnsembleCheckpoint {
  CheckpointHeader header;
  md::ResumePoint point;  // the position again, the state and the rotation accumulators
};

// Writes a checkpoint to `path` atomically. Throws std::runtime_error naming the path on failure.
void write_checkpoint(const std::filesystem::path& path, const CheckpointHeader& header,
                      const md::EnsembleState& s, const std::vector<md::RotationStats>& rotation);

// Reads only the header of the checkpoint at `path` (e.g. to compare its fingerprint before
// anything is created). Throws std::runtime_error naming the file when it is missing, not a
// checkpoint or of another version.
CheckpointHeader read_checkpoint_header(const std::filesystem::path& path);

// Reads the checkpoint at `path` for the model `m` and the case `fingerprint`. Throws
// std::runtime_error naming the file when it was made by a different case, when an array has
// another size than the model needs, when the file is truncated or damaged (checksum), or when
// its state is not a state of `m` (an index out of range, a list out of order, ...).
EnsembleCheckpoint read_checkpoint(const std::filesystem::path& path, const md::EnsembleModel& m,
                                   const std::string& fingerprint);

}  // namespace granular::io
