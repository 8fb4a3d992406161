// Names that come from data — a shard's file records, a registry's ids, run names and case
// paths, the file an expression reads, a checkpoint's streamed files — name a file inside the
// one folder they belong to and nothing else (docs/outputs.md, "Names from data"): a plain
// relative name, which no link inside the folder may lead out of. A shard, a registry or a
// checkpoint from a colleague can then make the program read or write nowhere else.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include <filesystem>
#include <string>

namespace granular::io {

// Why `name` is not a plain relative name, or "" when it is one: parts separated by '/', none
// empty, "." or ".." (so neither absolute nor climbing), no backslash or control character, at
// most 255 bytes a part and 1024 in all.
std::string plain_name_defect(const std::string& name);

// Why `name` does not name a file inside `dir`, or "" when it does: plain_name_defect, or a
// link on the way (dir's own links followed first) that leads out of dir.
std::string outside_folder(const std::filesystem::path& dir, const std::string& name);

}  // namespace granular::io
