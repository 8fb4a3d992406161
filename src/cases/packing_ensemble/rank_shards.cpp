// The packing ensemble's shards over MPI ranks (include/granular/cases/rank_shards.hpp).
#include "granular/cases/rank_shards.hpp"

#include <algorithm>
#include <exception>
#include <string>

#include "granular/cases/output_folder.hpp"
#include "granular/io/json_reader.hpp"

namespace granular::cases {

namespace fs = std::filesystem;
using io::CaseError;

fs::path rank_folder(const fs::path& out, int k) { return out / (".rank-" + std::to_string(k)); }

fs::path incoming_folder(const fs::path& out, int k) {
  return out / (".incoming-" + std::to_string(k));
}

PackingRange rank_slice(int per_gamma, int rank, int ranks) {
  const auto first = [&](int k) {
    return k * (per_gamma / ranks) + std::min(k, per_gamma % ranks);
  };
  return {first(rank), first(rank + 1)};
}

std::vector<RankShard> fresh_rank_shards(int per_gamma, int ranks) {
  std::vector<RankShard> shards;
  for (int k = 0; k < ranks; ++k) {
    const PackingRange s = rank_slice(per_gamma, k, ranks);
    if (s.last > s.first) shards.push_back({k, s, k});
  }
  return shards;
}

std::vector<RankShard> seen_rank_shards(const fs::path& out, const nlohmann::json& case_echo) {
  std::vector<RankShard> seen;
  std::error_code ec;
  if (!fs::is_directory(out, ec)) return seen;
  for (const fs::directory_entry& e : fs::directory_iterator(out, ec)) {
    const std::string name = e.path().filename().string();
    if (!is_rank_folder(name)) continue;
    int index = -1;
    try {
      index = std::stoi(name.substr(6));
    } catch (const std::exception&) {  // more digits than an int holds: not granular's
    }
    const std::optional<PackingRange> held = held_shard(e.path(), case_echo);
    if (index < 0 || !held)
      throw CaseError("", "--resume",
                      e.path().string() +
                          " holds neither this case's checkpoint nor its finished shard: "
                          "--force starts afresh");
    seen.push_back({index, *held, -1});
  }
  return seen;
}

namespace {

// The distinct shards of `seen` and, per shard, the ranks that see its folder.
void gather_seen(const std::vector<std::vector<RankShard>>& seen, const fs::path& out,
                 std::vector<RankShard>& shards, std::vector<std::vector<int>>& seers) {
  for (std::size_t k = 0; k < seen.size(); ++k)
    for (const RankShard& s : seen[k]) {
      const auto same = std::find_if(shards.begin(), shards.end(),
                                     [&](const RankShard& t) { return t.index == s.index; });
      if (same == shards.end()) {
        shards.push_back({s.index, s.packings, -1});
        seers.push_back({static_cast<int>(k)});
      } else if (same->packings.first != s.packings.first ||
                 same->packings.last != s.packings.last) {
        throw CaseError(
            "", "--resume",
            rank_folder(out, s.index).string() + " holds different packings on different nodes");
      } else {
        seers[static_cast<std::size_t>(same - shards.begin())].push_back(static_cast<int>(k));
      }
    }
}

// Refuses shards that do not cover packings 0 to per_gamma once.
void check_cover(const std::vector<RankShard>& shards, int per_gamma, const fs::path& out) {
  std::vector<PackingRange> ranges;
  for (const RankShard& s : shards) ranges.push_back(s.packings);
  std::sort(ranges.begin(), ranges.end(),
            [](const PackingRange& a, const PackingRange& b) { return a.first < b.first; });
  int next = 0;
  for (const PackingRange& p : ranges) {
    if (p.first != next || p.last > per_gamma)
      throw CaseError("", "--resume",
                      out.string() + "/.rank-<k>/ folders hold packings " +
                          std::to_string(p.first) + ":" + std::to_string(p.last) + " after " +
                          std::to_string(next) +
                          ": a rank's folder is missing (on a node this job does not "
                          "reach?), or overlaps another");
    next = p.last;
  }
  if (next != per_gamma)
    throw CaseError("", "--resume",
                    out.string() + "/.rank-<k>/ folders lack packings " + std::to_string(next) +
                        ":" + std::to_string(per_gamma) +
                        ": a rank's folder is missing (on a node this job does not reach?)");
}

}  // namespace

std::vector<RankShard> resumed_rank_shards(const std::vector<std::vector<RankShard>>& seen,
                                           int per_gamma, int ranks, const fs::path& out) {
  std::vector<RankShard> shards;
  std::vector<std::vector<int>> seers;
  gather_seen(seen, out, shards, seers);
  if (shards.empty()) return fresh_rank_shards(per_gamma, ranks);
  check_cover(shards, per_gamma, out);

  std::vector<int> load(static_cast<std::size_t>(ranks), 0);
  const auto take = [&](RankShard& s, int k) {
    s.owner = k;
    load[static_cast<std::size_t>(k)] += s.packings.last - s.packings.first;
  };
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const std::vector<int>& k = seers[i];
    if (std::find(k.begin(), k.end(), shards[i].index) != k.end()) take(shards[i], shards[i].index);
  }
  for (std::size_t i = 0; i < shards.size(); ++i) {
    if (shards[i].owner >= 0) continue;
    int best = seers[i].front();
    for (const int k : seers[i])
      if (load[static_cast<std::size_t>(k)] < load[static_cast<std::size_t>(best)]) best = k;
    take(shards[i], best);
  }
  std::sort(shards.begin(), shards.end(),
            [](const RankShard& a, const RankShard& b) { return a.index < b.index; });
  return shards;
}

nlohmann::json rank_shards_json(const std::vector<RankShard>& shards) {
  nlohmann::json plan = nlohmann::json::array();
  for (const RankShard& s : shards)
    plan.push_back({s.index, s.packings.first, s.packings.last, s.owner});
  return plan;
}

std::vector<RankShard> rank_shards_from_json(const nlohmann::json& plan) {
  std::vector<RankShard> shards;
  for (const nlohmann::json& s : plan)
    shards.push_back({s[0].get<int>(), {s[1].get<int>(), s[2].get<int>()}, s[3].get<int>()});
  return shards;
}

}  // namespace granular::cases
