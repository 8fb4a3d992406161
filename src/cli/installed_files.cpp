// Where the files that ship beside the `granular` binary are: the registry of the papers'
// results, the figure tools. An installed wheel holds them in its package folder, one above the
// binary (granular/_bin/granular, granular/papers/, granular/tools/); a build uses the source
// tree it was built from.
#include <unistd.h>

#include <filesystem>

#include "cli.hpp"

namespace granular::cli {

namespace fs = std::filesystem;

fs::path installed_file(const fs::path& relative) {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  for (const fs::path& root :
       {ec ? fs::path() : exe.parent_path().parent_path(), fs::path(GRANULAR_SOURCE_DIR)}) {
    if (root.empty()) continue;
    const fs::path candidate = root / relative;
    if (fs::exists(candidate, ec)) return candidate;
  }
  return {};
}

}  // namespace granular::cli
