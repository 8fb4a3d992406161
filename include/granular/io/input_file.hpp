// Files read from outside the program — a case, a registry of stated results, a shard's summary
// and tables, a checkpoint, a file an expression reads: each must be a regular file of bounded
// size, checked on the open file itself, so that a FIFO or a device is refused at once (never
// waited on or read for ever) and a file too large for memory is refused before it is read.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include <cstdint>
#include <filesystem>
#include <string>

namespace granular::io {

// The most bytes an input file may hold: 1 GiB for what a run wrote and a later step reads back
// (a summary, a table, a checkpoint: the 10⁶-disk bed's summary is ~70 MB); 16 MiB for what a
// person writes (a case, a registry: the shipped ones are under 400 kB), whose parse takes ten
// times its size in memory.
constexpr std::uint64_t max_input_bytes = std::uint64_t{1} << 30;
constexpr std::uint64_t max_document_bytes = std::uint64_t{16} << 20;

// Why `path` cannot be read as an input file ("missing", "not a regular file: a FIFO", ...), or
// "" when it is a regular file (links followed).
std::string not_a_regular_file(const std::filesystem::path& path);

// The bytes of the regular file at `path`. Throws CaseError(path, "", why) when it cannot be
// opened, is not a regular file (a folder, a FIFO, a device, a socket) or holds more than
// `max_bytes` bytes.
std::string read_input_file(const std::filesystem::path& path,
                            std::uint64_t max_bytes = max_input_bytes);

}  // namespace granular::io
