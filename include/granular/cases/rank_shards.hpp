// How a packing ensemble splits over the ranks of an MPI job (docs/mpi.md): which packings each
// rank runs and in which folder, and, when a stopped job resumes, which rank takes which folder.
// The policy lives here beside the shards' merge (packing_ensemble.hpp); the CLI's MPI driver
// only carries its inputs and its plan between the ranks.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "granular/cases/case.hpp"

namespace granular::cases {

// A shard of the job: the folder DIR/.rank-<index>/ and its packings of every Γ, run by rank
// `owner` (-1: not yet given to a rank).
struct RankShard {
  int index = 0;
  PackingRange packings;
  int owner = -1;
};

// DIR/.rank-<k>/: the folder of shard k on its rank's node.
std::filesystem::path rank_folder(const std::filesystem::path& out, int k);
// DIR/.incoming-<k>/: where rank 0 receives shard k from its rank before the merge.
std::filesystem::path incoming_folder(const std::filesystem::path& out, int k);

// Rank `rank` of `ranks`'s packings of every Γ: per_gamma split as evenly as can be, the first
// ranks taking one more, so rank 0 has packings whenever there are any (its shard then needs
// no transfer).
PackingRange rank_slice(int per_gamma, int rank, int ranks);

// A fresh job's shards: rank k runs its slice in .rank-k/ (ranks without packings none).
std::vector<RankShard> fresh_rank_shards(int per_gamma, int ranks);

// The shards of the stopped job that this node sees in `out`: its .rank-<j>/ folders, each with
// this case's checkpoint or finished shard (owner -1). A rank folder that holds neither is an
// io::CaseError (on --resume).
std::vector<RankShard> seen_rank_shards(const std::filesystem::path& out,
                                        const nlohmann::json& case_echo);

// The shards of a resumed job from what every rank sees (seen[k]: rank k's seen_rank_shards).
// A folder goes to the rank of its number when that rank sees it (each rank its own folder when
// the rank count is the job's), otherwise to the least loaded rank that sees it, so that another
// rank count resumes where the ranks share the folder's file system. The shards must cover
// every packing once (io::CaseError on --resume). No folders at all: a fresh job's shards.
std::vector<RankShard> resumed_rank_shards(const std::vector<std::vector<RankShard>>& seen,
                                           int per_gamma, int ranks,
                                           const std::filesystem::path& out);

// A plan as JSON ([[index, first, last, owner], ...]) and back: what the ranks send each other.
nlohmann::json rank_shards_json(const std::vector<RankShard>& shards);
std::vector<RankShard> rank_shards_from_json(const nlohmann::json& plan);

}  // namespace granular::cases
