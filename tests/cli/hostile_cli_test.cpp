// Hostile input through the real binary (issue 20): what crashed, hung or wrote damaged results
// now ends with the one-line error and exit 2, or a status in summary.json.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_scratch.hpp"

namespace granular::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path cases_dir = fs::path(GRANULAR_SOURCE_DIR) / "cases";

class HostileCli : public CliScratch {
 protected:
  HostileCli() : CliScratch("hostile_cli") {}

  // A shipped case with `edit` applied, written into the scratch folder as `name`.
  fs::path edited_case(const std::string& shipped, const std::string& name,
                       const std::function<void(json&)>& edit) const {
    std::ifstream in(cases_dir / (shipped + ".json"));
    json doc = json::parse(in);
    edit(doc);
    const fs::path path = dir_ / name;
    std::ofstream(path) << doc.dump();
    return path;
  }

  // A refusal: exit 2 and one line that starts with `start`.
  static void expect_refused(const CliResult& r, const std::string& start) {
    EXPECT_EQ(r.code, 2) << r.err.substr(0, 300);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err.substr(0, 300);
    EXPECT_EQ(r.err.rfind(start, 0), 0u) << r.err.substr(0, 300);
  }
};

// Item 1: a description nested 300 000 deep killed the scan models' loader (SIGSEGV in a
// recursive copy); every model now refuses it where the file is parsed.
TEST_F(HostileCli, DeepNestingIsRefusedByEveryModel) {
  const std::string deep = std::string(300000, '[') + std::string(300000, ']');
  for (const char* shipped : {"three_disk_fig5_4_tilt_scan", "wedge_fig6_ed_tilt_scan",
                              "wedge_fig6_md_tilt_scan", "demo_sweep", "pendulum_mu0"}) {
    SCOPED_TRACE(shipped);
    std::ifstream in(cases_dir / (std::string(shipped) + ".json"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.insert(text.find('{') + 1, "\"description\": " + deep + ", ");
    const fs::path path = dir_ / "deep.json";
    std::ofstream(path) << text;
    expect_refused(granular("validate deep.json"), "deep.json: invalid JSON at line 1, column ");
    // an argument is at most 128 KiB (Linux): 50 000 levels
    const std::string deep_set = std::string(50000, '[') + std::string(50000, ']');
    expect_refused(granular("validate '" + (cases_dir / shipped).string() +
                            ".json' --set /description=" + deep_set),
                   "--set /description=[[[");
  }
}

// Item 4: a three-disk run whose rotation overflows a double (a torque ramped at 2e248 N m/s)
// reported "ok" with a null rho2; a result that is not a finite number is "non_finite".
TEST_F(HostileCli, ARotationBeyondADoubleIsNonFinite) {
  const CliResult r = granular(
      "run '" + (cases_dir / "three_disk_ramp_onsets.json").string() +
      "' --out out --threads 1 --set /scan=null --set /torque/rate=2e248 --set /contact/mu=1e-10 "
      "--set /run/settle_time=0.001 --set /run/transient_time=0 --set /run/measure_time=0.002 "
      "--set /run/sample_interval=0.001");
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream in(dir_ / "out" / "summary.json");
  const json s = json::parse(in);
  EXPECT_EQ(s["status"], "non_finite");
  EXPECT_TRUE(s["rho2"].is_null());
}

// Item 5: `granular merge` wrote a damaged run, exit 0, from shards whose files were cut, copied
// from another shard or missing. Each shard's summary.json records its files' sizes and
// checksums; merge verifies them, and what it refuses it names in one line and writes nothing.
class HostileMerge : public HostileCli {
 protected:
  void SetUp() override {
    HostileCli::SetUp();
    const std::string run = "run '" + std::string(GRANULAR_SOURCE_DIR) +
                            "/tests/data/good_ensemble.json' --threads 1 --set "
                            "'/snapshots={\"packings\": [0, 1], \"interval\": 0.05}' ";
    ASSERT_EQ(granular(run + "--out s0 --packings 0:1").code, 0);
    ASSERT_EQ(granular(run + "--out s1 --packings 1:2").code, 0);
  }
  // merge s0 and s1 after `damage` (a shell command in the scratch folder): refused in one line
  // that starts with `start`, and no merged folder
  void expect_refused_after(const std::string& damage, const std::string& start) {
    // (the damage in a subshell: sh() sends the whole line's stdout to a file)
    ASSERT_EQ(sh("rm -rf d0 d1 m && cp -r s0 d0 && cp -r s1 d1 && (" + damage + ")").code, 0)
        << damage;
    const CliResult r = granular("merge --out m d0 d1");
    SCOPED_TRACE(damage);
    expect_refused(r, start);
    EXPECT_FALSE(fs::exists(dir_ / "m"));
  }
};

TEST_F(HostileMerge, DamagedShardsAreRefusedNamingTheFile) {
  // the undamaged shards merge, and the merged folder records its own files
  ASSERT_EQ(granular("merge --out whole s0 s1").code, 0);
  std::ifstream in(dir_ / "whole" / "summary.json");
  const json whole = json::parse(in);
  EXPECT_TRUE(whole["files"].contains("energy.csv"));
  EXPECT_TRUE(whole["files"].contains("snapshots/packing_0.pvd"));

  expect_refused_after("head -c 2000 s1/energy.csv > d1/energy.csv",
                       "d1: energy.csv: 2000 bytes, the summary recorded ");
  expect_refused_after("head -n 1 s0/angles.csv > d0/angles.csv", "d0: angles.csv: ");
  // the other shard's energy.csv: as many rows, other packings
  expect_refused_after("cp s0/energy.csv d1/energy.csv", "d1: energy.csv: ");
  expect_refused_after("rm -r d0/snapshots", "d0: snapshots/packing_0");
  expect_refused_after(
      "head -c 100 s1/snapshots/packing_1.lammpstrj > d1/snapshots/packing_1.lammpstrj",
      "d1: snapshots/packing_1.lammpstrj: 100 bytes, the summary recorded ");
  // a link out of the shard: nothing is read through it
  expect_refused_after("ln -sf /dev/zero d1/energy.csv",
                       "d1/summary.json: /files/energy.csv: a link on the way leads out of the "
                       "folder (to /dev/zero)");
  // malformed summaries
  expect_refused_after("echo '[]' > d1/summary.json",
                       "d1/summary.json: not a run's summary (an object)");
  expect_refused_after("rm d1/summary.json && mkdir d1/summary.json",
                       "d1/summary.json: not a regular file: a folder");
  expect_refused_after("rm d1/summary.json && mkfifo d1/summary.json",
                       "d1/summary.json: not a regular file: a FIFO");
  expect_refused_after(
      "python3 -c \"import json; p='d1/summary.json'; s=json.load(open(p)); del s['packings'];"
      " json.dump(s, open(p, 'w'))\"",
      "d1/summary.json: not a complete run's summary: ");
  expect_refused_after(
      "python3 -c \"import json; p='d1/summary.json'; s=json.load(open(p)); del s['files'];"
      " json.dump(s, open(p, 'w'))\"",
      "d1/summary.json: /files: missing: ");
}

// Item 5: --resume appended to streamed files without checking they were the ones its
// checkpoint recorded, and a FIFO as checkpoint.bin would have been waited on.
TEST_F(HostileCli, ResumeVerifiesTheStreamedFilesAndReadsOnlyRegularFiles) {
  const std::string run = "run '" + std::string(GRANULAR_SOURCE_DIR) +
                          "/tests/data/good_ensemble.json' --threads 1 --set "
                          "/run/measure_time=100 --out ";
  // a run stopped by a signal leaves its checkpoint
  sh("timeout -s INT 1 '" + std::string(GRANULAR_CLI) + "' " + run + "r");
  ASSERT_TRUE(fs::exists(dir_ / "r" / "checkpoint.bin"));

  ASSERT_EQ(sh("cp -r r cut && (head -c 10 r/energy.csv > cut/energy.csv)").code, 0);
  expect_refused(granular(run + "cut --resume"), "cut/energy.csv: its first ");
  EXPECT_EQ(file_text(dir_ / "cut" / "energy.csv").size(), 10u);  // nothing changed

  ASSERT_EQ(sh("cp -r r fifo && rm fifo/checkpoint.bin && mkfifo fifo/checkpoint.bin").code, 0);
  const CliResult fifo =
      sh("timeout 20 '" + std::string(GRANULAR_CLI) + "' " + run + "fifo --resume");
  EXPECT_NE(fifo.code, 0);
  EXPECT_NE(fifo.code, 124) << "waited on the FIFO";
  EXPECT_NE(fifo.err.find("fifo/checkpoint.bin: not a regular file: a FIFO"), std::string::npos)
      << fifo.err;
}

// Item 7: --resume without mpirun on a folder stopped under MPI said "run without --resume",
// which pointed back to mpirun --resume; it now says what continues the run.
TEST_F(HostileCli, ResumeHintsSayWhatWorks) {
  const std::string run = "run '" + std::string(GRANULAR_SOURCE_DIR) +
                          "/tests/data/good_ensemble.json' --threads 1 --resume --out ";
  ASSERT_EQ(sh("mkdir -p mpi/.rank-0 mpi/.rank-1 empty").code, 0);
  expect_refused(granular(run + "mpi"),
                 "mpi/checkpoint.bin: no checkpoint here: the run was "
                 "stopped under MPI");
  EXPECT_NE(granular(run + "mpi").err.find("mpirun -np K granular run ... --resume"),
            std::string::npos);
  expect_refused(granular(run + "empty"),
                 "empty/checkpoint.bin: no checkpoint to resume from: run without --resume");
}

}  // namespace
}  // namespace granular::test
