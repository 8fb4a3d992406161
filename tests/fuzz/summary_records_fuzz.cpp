// libFuzzer target over what `granular merge` reads from a shard (issue 32): any bytes as the
// first shard's summary.json, beside two real shards of tests/data/good_ensemble.json made once
// at start-up (packings 0:1 and 1:2, snapshots of packings 0 and 1). The contract: a summary
// that is not the shard's is refused with io::CaseError before anything is written, and the
// merged folder is the only thing merge creates (a record naming a file outside the shard is
// read and written nowhere); anything else (another exception, a crash, a sanitizer report, a
// hang, a huge allocation, a file outside the merged folder) is a finding. Built with
// GRANULAR_FUZZ=ON under clang (`make fuzz`, docs/testing.md).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "granular/cases/case.hpp"
#include "granular/cases/output_folder.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/cases/run_into_folder.hpp"
#include "granular/io/json_reader.hpp"

namespace {

namespace fs = std::filesystem;

fs::path root;  // the scratch folder: s0/, s1/ (the shards), d0/ (s0 with the input's summary)

// Every path under the scratch folder, to tell what a merge created.
std::set<std::string> listing() {
  std::set<std::string> paths;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(root))
    paths.insert(e.path().string());
  return paths;
}

void make_shard(const std::string& name, int first, int last) {
  const std::string case_path = std::string(GRANULAR_SOURCE_DIR) + "/tests/data/good_ensemble.json";
  const granular::cases::LoadedCase lc = granular::cases::load_case(
      case_path, {"/snapshots={\"packings\": [0, 1], \"interval\": 0.05}"});
  granular::cases::FolderRun run;
  run.out = root / name;
  run.request.threads = 1;
  run.request.packings = granular::cases::PackingRange{first, last};
  granular::cases::run_into_folder(lc, run);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  root = fs::temp_directory_path() / ("granular_summary_fuzz_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  make_shard("s0", 0, 1);
  make_shard("s1", 1, 2);
  fs::copy(root / "s0", root / "d0", fs::copy_options::recursive);
  std::atexit([] { fs::remove_all(root); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::ofstream(root / "d0" / "summary.json", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  const std::set<std::string> before = listing();
  std::ostringstream report;
  try {
    // as the CLI's merge, the folder is made once everything is checked
    granular::cases::merge_packing_shards(root / "out", {root / "d0", root / "s1"}, report,
                                          [](const nlohmann::json&) {
                                            fs::create_directories(root / "out");
                                          });
  } catch (const granular::io::CaseError&) {
    // not the shard's summary: refused before anything was written
    if (fs::exists(root / "out")) std::abort();
  }
  // the merged folder, if any, is all that is new
  for (const std::string& path : listing())
    if (!before.count(path) && path.rfind((root / "out").string(), 0) != 0) std::abort();
  fs::remove_all(root / "out");
  return 0;
}
