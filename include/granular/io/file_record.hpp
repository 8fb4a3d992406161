// What a run wrote, recorded so that a later step can tell the files are still those bytes
// (docs/outputs.md, "File records"): each file's size and 64-bit checksum (io/checksum.hpp).
// summary.json lists every file of the run under "files"; `granular merge` verifies each
// shard's before it writes anything, and `--resume` the streamed files' prefixes a checkpoint
// recorded. Only regular files are read: a FIFO or a link to a device is refused at once, never
// waited on.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "granular/io/input_file.hpp"

namespace granular::io {

// The checksum of the first `bytes` bytes of the file at `path` (all of it without `bytes`);
// empty when the file is not a regular file or holds fewer bytes. Reads; never blocks on a FIFO.
std::optional<std::uint64_t> file_checksum(const std::filesystem::path& path,
                                           std::optional<std::uint64_t> bytes = std::nullopt);

// A checksum as summary.json writes it: 16 lowercase hex digits.
std::string checksum_text(std::uint64_t sum);

// {"<name>": {"bytes": N, "checksum": "<16 hex>"}, ...} of the files `names` (paths relative to
// dir, '/' separated) as they are now. Throws FileError naming a file that cannot be read.
nlohmann::json record_files(const std::filesystem::path& dir,
                            const std::vector<std::string>& names);

// The files under dir/sub, as names relative to dir ("snapshots/packing_0.pvd"), sorted.
std::vector<std::string> files_under(const std::filesystem::path& dir, const std::string& sub);

// Why the files a summary recorded (`files`, as record_files writes it) are not what is in dir
// now: "<name>: missing", "<name>: 1204 bytes, the summary recorded 2048", "<name>: other
// bytes than the summary recorded (checksum ...)"; "" when every one matches.
std::string files_differ(const std::filesystem::path& dir, const nlohmann::json& files);

}  // namespace granular::io
