// Output folders (docs/outputs.md, "Output folders"): a run never mixes its files with another
// run's. Before anything is written, the CLI asks check_output_folder whether the folder may
// take the run; with --force it then clears granular's own files (clear_output_folder), and never
// deletes a file granular does not write.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"

namespace granular::cases {

// True for the name of a file or folder a run of some model writes into its output folder:
// summary.json, checkpoint.bin, every model's tables, scan.csv and point_<k>/, the folders of
// a run over MPI (.rank-<k>/, .incoming-<k>/: docs/mpi.md), and the temporary <name>.tmp of an
// atomic write.
bool is_run_output(const std::string& name);

// True for .rank-<k>, the folder of rank k's shard in a run over MPI (docs/mpi.md).
bool is_rank_folder(const std::string& name);

// True when dir holds the finished outputs (summary.json) of this case and shard.
bool holds_finished_run(const std::filesystem::path& dir, const nlohmann::json& case_echo,
                        const std::optional<PackingRange>& shard);

// The packings of this case's shard whose checkpoint or finished outputs (summary.json) dir
// holds; nullopt when it holds neither, or another case's.
std::optional<PackingRange> held_shard(const std::filesystem::path& dir,
                                       const nlohmann::json& case_echo);

// Refuses (io::CaseError on "--out DIR") a path that exists and is not a folder.
void check_folder_path(const std::filesystem::path& dir);

// Refuses (io::CaseError on "--out DIR") a path that is not a folder (check_folder_path) and a
// folder that holds anything unless `force`: another
// case's or shard's outputs, this case's finished outputs, an unfinished run (its checkpoint:
// --resume continues it), an unfinished run over MPI (its .rank-<k>/ folders), partial outputs, or
// files granular did not write. With `resume` the folder is the checkpoint's and the case checks it
// (Case::check_run). `shard` is the run's
// --packings.
void check_output_folder(const std::filesystem::path& dir, const nlohmann::json& case_echo,
                         const std::optional<PackingRange>& shard, bool resume, bool force);

// check_output_folder, then whether dir can be created and written into
// (io::check_writable_folder), its failure as an io::CaseError: all a run or a merge asks of its
// output folder before it writes anything.
void check_run_folder(const std::filesystem::path& dir, const nlohmann::json& case_echo,
                      const std::optional<PackingRange>& shard, bool resume, bool force);

// --force: removes every run output from dir (point_<k>/ folders recursively, the same way) and
// returns the names of what it kept, which granular did not write.
std::vector<std::string> clear_output_folder(const std::filesystem::path& dir);

}  // namespace granular::cases
