// Output folders (include/granular/cases/output_folder.hpp, docs/outputs.md).
#include "granular/cases/output_folder.hpp"

#include <cstdio>
#include <stdexcept>

#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/checkpoint.hpp"
#include "granular/io/file.hpp"
#include "granular/io/file_record.hpp"
#include "granular/io/json_reader.hpp"

namespace granular::cases {

namespace {

namespace fs = std::filesystem;
using io::CaseError;

// The "shard" key a run of `shard` writes into its summary.json (null for a whole run).
nlohmann::json shard_key(const std::optional<PackingRange>& shard) {
  if (!shard) return nullptr;
  return {{"packings", {shard->first, shard->last}}};
}

// True for `prefix` followed by a number.
bool numbered(const std::string& name, const std::string& prefix) {
  return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
         name.find_first_not_of("0123456789", prefix.size()) == std::string::npos;
}

// The summary at `path`, or null when it cannot be read as one (a FIFO is refused, never read).
nlohmann::json summary_or_null(const fs::path& path) {
  try {
    return io::read_json_file(path.string());
  } catch (const CaseError&) {
    return nullptr;
  }
}

// What a folder holding a summary.json holds: this case's (and shard's) finished run, or
// another's.
bool same_run(const fs::path& summary_path, const nlohmann::json& case_echo,
              const std::optional<PackingRange>& shard) {
  const nlohmann::json s = summary_or_null(summary_path);
  if (!s.is_object() || !s.contains("case")) return false;
  return s["case"] == case_echo && s.value("shard", nlohmann::json()) == shard_key(shard);
}

}  // namespace

bool is_rank_folder(const std::string& name) { return numbered(name, ".rank-"); }

bool holds_finished_run(const fs::path& dir, const nlohmann::json& case_echo,
                        const std::optional<PackingRange>& shard) {
  std::error_code ec;
  return fs::exists(dir / "summary.json", ec) && same_run(dir / "summary.json", case_echo, shard);
}

std::optional<PackingRange> held_shard(const fs::path& dir, const nlohmann::json& case_echo) {
  std::error_code ec;
  std::optional<PackingRange> held;
  const auto take = [&](int first, int last) {
    if (0 <= first && first < last) held = PackingRange{first, last};
  };
  if (fs::exists(dir / "summary.json", ec)) {
    const nlohmann::json s = summary_or_null(dir / "summary.json");
    if (!s.is_object() || s.value("case", nlohmann::json()) != case_echo) return held;
    const nlohmann::json shard = s.value("shard", nlohmann::json());
    if (shard.is_object() && shard.contains("packings") && shard["packings"].is_array() &&
        shard["packings"].size() == 2 && shard["packings"][0].is_number_integer() &&
        shard["packings"][1].is_number_integer())
      take(shard["packings"][0].get<int>(), shard["packings"][1].get<int>());
    return held;
  }
  const fs::path checkpoint = checkpoint_path(dir);
  if (!fs::exists(checkpoint, ec)) return held;
  std::string fingerprint;
  try {
    fingerprint = io::read_checkpoint_header(checkpoint).fingerprint;
  } catch (const std::runtime_error&) {
    return held;
  }
  // the fingerprint is the case echo and " packings FIRST:LAST" (case_fingerprint)
  const std::string prefix = case_echo.dump() + " packings ";
  if (fingerprint.compare(0, prefix.size(), prefix) != 0) return held;
  int first = 0, last = 0;
  char tail = 0;
  if (std::sscanf(fingerprint.c_str() + prefix.size(), "%d:%d%c", &first, &last, &tail) == 2 &&
      case_fingerprint(case_echo, PackingRange{first, last}) == fingerprint)
    take(first, last);
  return held;
}

bool is_run_output(const std::string& name) {
  const std::string tmp = ".tmp";
  if (name.size() > tmp.size() && name.compare(name.size() - tmp.size(), tmp.size(), tmp) == 0)
    return is_run_output(name.substr(0, name.size() - tmp.size()));
  if (name == "summary.json" || name == "checkpoint.bin" || name == "scan.csv" || name == "run.log")
    return true;
  // the snapshots folder and its files (docs/outputs.md, "Snapshots")
  if (name == "snapshots") return true;
  const auto ends_with = [&](const std::string& end) {
    return name.size() > end.size() && name.compare(name.size() - end.size(), end.size(), end) == 0;
  };
  if (name.rfind("packing_", 0) == 0 &&
      (ends_with(".lammpstrj") || ends_with(".vtp") || ends_with(".pvd") || ends_with(".gsd")))
    return true;
  if (numbered(name, "point_") || is_rank_folder(name) || numbered(name, ".incoming-")) return true;
  for (const Model& m : models())
    for (const io::TableSpec& t : m.tables())
      if (t.file == name) return true;
  return false;
}

void check_folder_path(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw CaseError("", "--out " + io::excerpt(dir.string()), "exists and is not a directory");
}

void check_output_folder(const fs::path& dir, const nlohmann::json& case_echo,
                         const std::optional<PackingRange>& shard, bool resume, bool force) {
  check_folder_path(dir);
  std::error_code ec;
  if (resume || force || !fs::is_directory(dir, ec)) return;
  std::string outputs, other, rank;  // the first of each found
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    std::string& first = is_rank_folder(name) ? rank : is_run_output(name) ? outputs : other;
    if (first.empty()) first = name;
  }
  if (ec) throw CaseError("", "--out " + io::excerpt(dir.string()), "cannot list: " + ec.message());
  const auto refuse = [&](const std::string& what) {
    throw CaseError("", "--out " + io::excerpt(dir.string()), what);
  };
  if (fs::exists(dir / "summary.json", ec)) {
    if (same_run(dir / "summary.json", case_echo, shard))
      refuse(
          "holds this case's finished outputs (summary.json): --force runs it again and "
          "replaces them");
    refuse(
        "holds the outputs of another case or shard (summary.json): choose another folder, "
        "or --force replaces them");
  }
  const fs::path checkpoint = checkpoint_path(dir);
  if (fs::exists(checkpoint, ec)) {
    bool same = false;
    try {
      same =
          io::read_checkpoint_header(checkpoint).fingerprint == case_fingerprint(case_echo, shard);
    } catch (const std::runtime_error&) {
      same = false;
    }
    if (same)
      refuse(
          "holds an unfinished run of this case (checkpoint.bin): --resume continues it, "
          "--force starts afresh");
    refuse(
        "holds an unfinished run of another case or shard (checkpoint.bin): choose another "
        "folder, or --force replaces it");
  }
  if (!rank.empty())
    refuse("holds an unfinished run over MPI ranks (" + rank +
           "/): mpirun and --resume continue it, --force starts afresh");
  if (!outputs.empty())
    refuse("holds the outputs of an unfinished run (" + outputs + "): --force replaces them");
  if (!other.empty())
    refuse("holds files granular did not write (" + io::excerpt(other) +
           "): choose another folder, or --force writes beside them");
}

void check_run_folder(const fs::path& dir, const nlohmann::json& case_echo,
                      const std::optional<PackingRange>& shard, bool resume, bool force) {
  check_output_folder(dir, case_echo, shard, resume, force);
  try {
    io::check_writable_folder(dir);
  } catch (const io::FileError& e) {
    throw CaseError("", "", e.what());
  }
}

std::vector<std::string> clear_output_folder(const fs::path& dir) {
  std::vector<std::string> kept;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return kept;
  // listed first: removing while iterating may skip entries
  const std::vector<fs::directory_entry> entries(fs::directory_iterator(dir), {});
  for (const fs::directory_entry& e : entries) {
    const std::string name = e.path().filename().string();
    if (!is_run_output(name)) {
      kept.push_back(name);
    } else if (e.is_directory(ec) && !e.is_symlink(ec)) {
      // a scan's point (a link is removed as a link: what it leads to is not this folder's): its
      // run outputs go, and the folder with them unless something stays
      for (const std::string& k : clear_output_folder(e.path())) kept.push_back(name + "/" + k);
      fs::remove(e.path(), ec);
    } else if (!fs::remove(e.path(), ec) || ec) {
      throw io::FileError(e.path().string() + ": cannot remove: " + ec.message());
    }
  }
  return kept;
}

}  // namespace granular::cases
