// Shards (docs/outputs.md, "Shards"): the demo case run whole and as shards (`granular run
// --packings`), joined by `granular merge`, gives the same files byte for byte, apart from the
// run-dependent keys of summary.json; merge refuses what cannot be joined; a shard resumes from
// its checkpoint.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "granular/cases/case.hpp"
#include "support/cli_scratch.hpp"
#include "support/run_context.hpp"
#include "support/same_outputs.hpp"
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string demo = std::string(GRANULAR_SOURCE_DIR) + "/cases/demo_sweep.json";

// The demo sweep made short: three Γ, 4 packings each, 0.2 s.
const std::vector<std::string> short_demo = {"/drive/gamma=[0.6,2,8]", "/run/settle_time=0.05",
                                             "/run/transient_time=0.05", "/run/measure_time=0.1"};

std::string sets(const std::vector<std::string>& s) {
  std::string a;
  for (const std::string& x : s) a += " --set '" + x + "'";
  return a;
}

class Shard : public granular::test::CliScratch {
 protected:
  Shard() : CliScratch("shard") {}
  granular::test::CliResult run_demo(const std::string& out, const std::string& options) const {
    return granular("run '" + demo + "' --out " + out + " " + options + sets(short_demo));
  }

  // A refused merge: exit 2, one line starting with `where`, saying `what`, and no output.
  void expect_refused(const std::string& shards, const std::string& where,
                      const std::string& what) const {
    const granular::test::CliResult r = granular("merge --out merged " + shards);
    EXPECT_EQ(r.code, 2) << shards << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind(where, 0), 0u) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "merged")) << shards;
  }

  void expect_same_outputs(const fs::path& a, const fs::path& b) const {
    granular::test::expect_same_outputs(a, b, 12);
  }
};

TEST_F(Shard, MergedShardsAreTheSingleRunBitwise) {
  ASSERT_EQ(run_demo("whole", "--threads 2").code, 0);
  // three shards of uneven sizes and thread counts, given to merge out of order
  ASSERT_EQ(run_demo("s0", "--threads 1 --packings 0:1").code, 0);
  ASSERT_EQ(run_demo("s1", "--threads 2 --packings 1:3").code, 0);
  ASSERT_EQ(run_demo("s2", "--threads 1 --packings=3:4").code, 0);
  const json s1 = json::parse(granular::test::file_text(dir_ / "s1" / "summary.json"));
  EXPECT_EQ(s1["shard"]["packings"], json::parse("[1, 3]"));
  EXPECT_EQ(s1["packings"].size(), 6u);
  EXPECT_EQ(s1["packings"][2]["index"], 5);  // Γ index 1, packing 1: 1 · 4 + 1

  const granular::test::CliResult merged = granular("merge --out merged s2 s0 s1");
  ASSERT_EQ(merged.code, 0) << merged.err;
  expect_same_outputs(dir_ / "whole", dir_ / "merged");
  // the run's cost adds up: the shards' wall times
  double wall = 0.0;
  for (const char* s : {"s0", "s1", "s2"})
    wall += json::parse(granular::test::file_text(dir_ / s / "summary.json"))["wall_time_s"]
                .get<double>();
  EXPECT_DOUBLE_EQ(
      json::parse(granular::test::file_text(dir_ / "merged" / "summary.json"))["wall_time_s"],
      wall);
}

TEST_F(Shard, MergeRefusesWhatIsNotOneWholeRun) {
  ASSERT_EQ(run_demo("s0", "--threads 2 --packings 0:2").code, 0);
  ASSERT_EQ(run_demo("s1", "--threads 2 --packings 1:3").code, 0);
  ASSERT_EQ(run_demo("s2", "--threads 2 --packings 3:4").code, 0);
  ASSERT_EQ(granular("run '" + demo + "' --out other --threads 2 --packings 2:4" +
                     sets(short_demo) + " --set /seed=2")
                .code,
            0);
  expect_refused("s0 s2", "s2/summary.json: /shard/packings: ", "packings 2:3 are in no shard");
  expect_refused("s0 s1 s2", "s1/summary.json: /shard/packings: ", "overlap");
  expect_refused("s0", "s0/summary.json: /shard/packings: ", "packings 2:4 are in no shard");
  expect_refused("s0 other", "other/summary.json: /case: ", "a different case");
  // an unfinished shard: no summary.json
  fs::create_directories(dir_ / "s3");
  std::ofstream(dir_ / "s3" / "energy.csv") << "t\n";
  expect_refused("s0 s3", "s3: ", "no summary.json");
  // the output folder is not a shard's
  const granular::test::CliResult into_shard = granular("merge --out s0 s0 s2");
  EXPECT_EQ(into_shard.code, 2);
  EXPECT_NE(into_shard.err.find("--out s0: is the shard folder"), std::string::npos)
      << into_shard.err;
}

TEST_F(Shard, PackingsOptionIsChecked) {
  const granular::test::CliResult range = run_demo("o", "--packings 2:5");
  EXPECT_EQ(range.code, 2);
  EXPECT_EQ(range.err,
            "--packings 2:5: expected FIRST:LAST with 0 <= FIRST < LAST <= 4 "
            "(packings_per_gamma)\n");
  const granular::test::CliResult text = run_demo("o", "--packings 3");
  EXPECT_EQ(text.code, 2);
  EXPECT_NE(text.err.find("--packings: expected FIRST:LAST"), std::string::npos) << text.err;
  const granular::test::CliResult other =
      granular("run '" + std::string(GRANULAR_SOURCE_DIR) +
               "/cases/collision_disk_wall.json' --out o --packings 0:1");
  EXPECT_EQ(other.code, 2);
  EXPECT_EQ(other.err, "--packings: only packing_ensemble runs split into shards\n");
  EXPECT_FALSE(fs::exists(dir_ / "o"));
}

// A shard stopped with a checkpoint and resumed is the shard run straight through; its
// checkpoint resumes only the same shard.
TEST_F(Shard, ResumedShardIsTheShardRunStraight) {
  ASSERT_EQ(run_demo("straight", "--threads 2 --packings 1:3").code, 0);

  const granular::cases::LoadedCase lc = granular::cases::load_case(demo, short_demo);
  std::ostringstream quiet;
  granular::cases::RunContext ctx =
      granular::test::run_context(dir_ / "resumed", lc.echo, 2, quiet);
  ctx.request.packings = granular::cases::PackingRange{1, 3};
  ctx.request.control.slice_steps = 700;
  int slices = 0;
  ctx.request.control.stop = [&] { return ++slices == 5; };
  fs::create_directories(ctx.out_dir);
  ASSERT_EQ(lc.spec->run(ctx), granular::cases::RunEnd::interrupted);
  ASSERT_TRUE(fs::exists(dir_ / "resumed" / "checkpoint.bin"));

  const granular::test::CliResult wrong =
      run_demo("resumed", "--threads 2 --packings 0:2 --resume");
  EXPECT_EQ(wrong.code, 2);
  EXPECT_NE(wrong.err.find("made by a different case or shard"), std::string::npos) << wrong.err;
  const granular::test::CliResult fresh = run_demo("resumed", "--threads 2 --packings 1:3");
  EXPECT_EQ(fresh.code, 2);
  EXPECT_NE(fresh.err.find("holds an unfinished run of this case (checkpoint.bin): --resume"),
            std::string::npos)
      << fresh.err;
  const granular::test::CliResult resumed =
      run_demo("resumed", "--threads 1 --packings 1:3 --resume");
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_FALSE(fs::exists(dir_ / "resumed" / "checkpoint.bin"));
  for (const char* name : {"energy.csv", "angles.csv", "disks.csv"})
    EXPECT_TRUE(granular::test::file_text(dir_ / "straight" / name) ==
                granular::test::file_text(dir_ / "resumed" / name))
        << name;
  json a = json::parse(granular::test::file_text(dir_ / "straight" / "summary.json"));
  json b = json::parse(granular::test::file_text(dir_ / "resumed" / "summary.json"));
  for (const char* key : granular::test::run_dependent) {
    a.erase(key);
    b.erase(key);
  }
  EXPECT_EQ(a.dump(), b.dump());
}

}  // namespace
