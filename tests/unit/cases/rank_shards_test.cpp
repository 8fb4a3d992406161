// The packing ensemble's shard policy over MPI ranks (include/granular/cases/rank_shards.hpp),
// without MPI: the slices, and which rank takes which folder of a stopped job on resume.
#include "granular/cases/rank_shards.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "granular/io/json_reader.hpp"

namespace {

using granular::cases::RankShard;

RankShard shard(int index, int first, int last, int owner = -1) {
  return {index, {first, last}, owner};
}

void expect_shards(const std::vector<RankShard>& got, const std::vector<RankShard>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].index, want[i].index) << i;
    EXPECT_EQ(got[i].packings.first, want[i].packings.first) << i;
    EXPECT_EQ(got[i].packings.last, want[i].packings.last) << i;
    EXPECT_EQ(got[i].owner, want[i].owner) << i;
  }
}

TEST(RankShards, SlicesCoverEveryPackingOnceTheFirstRanksTakingOneMore) {
  for (int per_gamma : {0, 1, 5, 7, 64})
    for (int ranks : {1, 2, 3, 8}) {
      int next = 0;
      for (int k = 0; k < ranks; ++k) {
        const granular::cases::PackingRange s = granular::cases::rank_slice(per_gamma, k, ranks);
        EXPECT_EQ(s.first, next);
        const int size = s.last - s.first;
        EXPECT_EQ(size, per_gamma / ranks + (k < per_gamma % ranks ? 1 : 0));
        next = s.last;
      }
      EXPECT_EQ(next, per_gamma);
    }
}

TEST(RankShards, AFreshJobGivesRankKItsSliceAndRanksWithoutPackingsNothing) {
  expect_shards(granular::cases::fresh_rank_shards(7, 3),
                {shard(0, 0, 3, 0), shard(1, 3, 5, 1), shard(2, 5, 7, 2)});
  expect_shards(granular::cases::fresh_rank_shards(2, 4), {shard(0, 0, 1, 0), shard(1, 1, 2, 1)});
}

TEST(RankShards, AResumedJobGivesEachFolderToItsRankWhenThatRankSeesIt) {
  // three ranks on three nodes, each seeing its own folder
  const std::vector<std::vector<RankShard>> seen{
      {shard(0, 0, 3)}, {shard(1, 3, 5)}, {shard(2, 5, 7)}};
  expect_shards(granular::cases::resumed_rank_shards(seen, 7, 3, "out"),
                {shard(0, 0, 3, 0), shard(1, 3, 5, 1), shard(2, 5, 7, 2)});
}

TEST(RankShards, FewerRanksOnASharedFolderTakeTheOrphanedFoldersByLoad) {
  // a 3-rank job resumed on 2 ranks that both see all three folders: .rank-2 goes to the rank
  // with fewer packings, rank 1 (2 packings against rank 0's 3)
  const std::vector<RankShard> all{shard(0, 0, 3), shard(1, 3, 5), shard(2, 5, 7)};
  expect_shards(granular::cases::resumed_rank_shards({all, all}, 7, 2, "out"),
                {shard(0, 0, 3, 0), shard(1, 3, 5, 1), shard(2, 5, 7, 1)});
}

TEST(RankShards, NoFoldersResumeAsAFreshJob) {
  expect_shards(granular::cases::resumed_rank_shards({{}, {}}, 4, 2, "out"),
                granular::cases::fresh_rank_shards(4, 2));
}

TEST(RankShards, AMissingOverlappingOrInconsistentFolderIsRefused) {
  using granular::io::CaseError;
  // packings 3:5 missing (a node the job does not reach)
  EXPECT_THROW(
      granular::cases::resumed_rank_shards({{shard(0, 0, 3)}, {shard(2, 5, 7)}}, 7, 2, "out"),
      CaseError);
  // the last packings missing
  EXPECT_THROW(granular::cases::resumed_rank_shards({{shard(0, 0, 3)}}, 7, 1, "out"), CaseError);
  // overlapping folders
  EXPECT_THROW(
      granular::cases::resumed_rank_shards({{shard(0, 0, 4), shard(1, 3, 7)}}, 7, 1, "out"),
      CaseError);
  // one folder holding different packings on two nodes
  EXPECT_THROW(
      granular::cases::resumed_rank_shards({{shard(0, 0, 7)}, {shard(0, 0, 6)}}, 7, 2, "out"),
      CaseError);
}

TEST(RankShards, APlanCrossesBetweenRanksAsJsonUnchanged) {
  const std::vector<RankShard> plan{shard(0, 0, 3, 0), shard(4, 3, 5, 1)};
  expect_shards(granular::cases::rank_shards_from_json(granular::cases::rank_shards_json(plan)),
                plan);
}

}  // namespace
