// Runs over MPI ranks (docs/mpi.md): `mpirun -np K granular run` of the shortened demo case
// writes the single run's files byte for byte for every K (summary.json apart from its
// run-dependent keys); a run stopped by a signal to one rank or to mpirun resumes into the
// uninterrupted run's files, over as many ranks or another number; bad input is one line and exit 2
// on every rank. Built only with MPI.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/cli_scratch.hpp"
#include "support/same_outputs.hpp"
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

const std::string demo = std::string(GRANULAR_SOURCE_DIR) + "/cases/demo_sweep.json";

// The demo sweep made short: three Γ, 4 packings each; `measure` seconds of measurement.
std::string short_demo(const std::string& measure) {
  return " --threads 1 --set '/drive/gamma=[0.6,2,8]' --set /run/settle_time=0.05 --set "
         "/run/transient_time=0.05 --set /run/measure_time=" +
         measure;
}

// mpirun quiet (its own notes about exit codes would add lines), with more ranks than cores
std::string mpirun(int ranks) {
  return "'" + std::string(GRANULAR_MPIEXEC) + "' -q --oversubscribe -np " + std::to_string(ranks) +
         " '" + GRANULAR_CLI + "' ";
}

class Mpi : public granular::test::CliScratch {
 protected:
  Mpi() : CliScratch("mpi") {}
  void SetUp() override {
    // OpenMPI refuses root without these (containers, CI)
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    CliScratch::SetUp();
  }

  void expect_same_outputs(const fs::path& a, const fs::path& b) const {
    granular::test::expect_same_outputs(a, b, 12);
  }

  // A run over `ranks` ranks stopped by `stop` (given mpirun's pid) once every rank has written
  // rows, then resumed over `resume_ranks` ranks: the single run's files. The stopped run's
  // folder refuses a fresh run, and a resume that lacks a rank's folder.
  void expect_stop_and_resume(int ranks, int resume_ranks, const std::function<void(pid_t)>& stop) {
    const std::string measure = "1.5";
    ASSERT_EQ(sh("'" + std::string(GRANULAR_CLI) + "' run '" + demo + "' --out whole" +
                 short_demo(measure))
                  .code,
              0);
    const std::string args =
        "run '" + demo + "' --out split --checkpoint-interval 0" + short_demo(measure);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::chdir(dir_.c_str());
      const std::string line = "exec " + mpirun(ranks) + args + " >/dev/null 2>stopped.txt";
      ::execl("/bin/sh", "sh", "-c", line.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // every rank is past its first rows
    const Clock::time_point limit = Clock::now() + std::chrono::seconds(60);
    const auto rows = [&](int k) {
      const std::string t =
          granular::test::file_text(dir_ / "split" / (".rank-" + std::to_string(k)) / "energy.csv");
      return std::count(t.begin(), t.end(), '\n');
    };
    const auto all_started = [&] {
      for (int k = 0; k < ranks; ++k)
        if (rows(k) < 20) return false;
      return true;
    };
    while (!all_started() && Clock::now() < limit)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    stop(pid);
    int status = 0;
    ::waitpid(pid, &status, 0);
    const std::string err = granular::test::file_text(dir_ / "stopped.txt");
    ASSERT_TRUE(WIFEXITED(status)) << err;
    EXPECT_EQ(WEXITSTATUS(status), 75) << err;  // stopped with checkpoints
    EXPECT_NE(err.find("granular: run interrupted; checkpoints in split/.rank-<k>/"),
              std::string::npos)
        << err;
    for (int k = 0; k < ranks; ++k) {
      const fs::path rank = dir_ / "split" / (".rank-" + std::to_string(k));
      ASSERT_TRUE(fs::exists(rank / "checkpoint.bin")) << rank << "\n" << err;
    }
    EXPECT_FALSE(fs::exists(dir_ / "split" / "summary.json"));

    const granular::test::CliResult fresh = sh(mpirun(ranks) + args);
    EXPECT_EQ(fresh.code, 2);
    EXPECT_NE(fresh.err.find("--out split: holds an unfinished run over MPI ranks (.rank-"),
              std::string::npos)
        << fresh.err;
    // a rank's folder missing (a node the job does not reach): refused before anything runs
    fs::copy(dir_ / "split", dir_ / "lacking", fs::copy_options::recursive);
    fs::remove_all(dir_ / "lacking" / ".rank-1");
    const std::string lacking = "run '" + demo + "' --out lacking --resume" + short_demo(measure);
    const granular::test::CliResult missing = sh(mpirun(resume_ranks) + lacking);
    EXPECT_EQ(missing.code, 2) << missing.err;
    EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
    EXPECT_NE(missing.err.find("a rank's folder is missing"), std::string::npos) << missing.err;

    const granular::test::CliResult resumed = sh(mpirun(resume_ranks) + args + " --resume");
    ASSERT_EQ(resumed.code, 0) << resumed.err;
    expect_same_outputs(dir_ / "whole", dir_ / "split");
    EXPECT_FALSE(fs::exists(dir_ / "split" / ".rank-0"));
  }
};

TEST_F(Mpi, OutputsAreTheSingleRunBitwiseForAnyRankCount) {
  ASSERT_EQ(
      sh("'" + std::string(GRANULAR_CLI) + "' run '" + demo + "' --out whole" + short_demo("0.1"))
          .code,
      0);
  // 4 packings per Γ: 5 ranks leave one without packings
  for (const int ranks : {1, 2, 3, 4, 5}) {
    const std::string out = "np" + std::to_string(ranks);
    const granular::test::CliResult r =
        sh(mpirun(ranks) + "run '" + demo + "' --out " + out + short_demo("0.1"));
    ASSERT_EQ(r.code, 0) << ranks << " ranks\n" << r.err;
    expect_same_outputs(dir_ / "whole", dir_ / out);
  }
}

TEST_F(Mpi, StoppedByOneRankResumesIntoTheSingleRun) {
  // SIGTERM to one rank alone: the other hears of it and stops too, each with its checkpoint;
  // resumed by as many ranks, each from its own folder
  expect_stop_and_resume(2, 2, [&](pid_t mpirun_pid) {
    FILE* p = ::popen(("pgrep -P " + std::to_string(mpirun_pid) + " granular").c_str(), "r");
    char line[64] = {};
    ASSERT_NE(std::fgets(line, sizeof line, p), nullptr);
    ::pclose(p);
    ::kill(std::atoi(line), SIGTERM);
  });
}

TEST_F(Mpi, StoppedThroughMpirunResumesIntoTheSingleRunOverOtherRankCounts) {
  // mpirun passes SIGUSR1 to every rank at once (its SIGTERM comes late and SIGKILLs soon);
  // three shards (2 + 1 + 1 packings) resumed by two ranks: rank 1 runs .rank-1/ and .rank-2/
  expect_stop_and_resume(3, 2, [](pid_t mpirun_pid) { ::kill(mpirun_pid, SIGUSR1); });
}

TEST_F(Mpi, BadInputIsOneLineAndExitTwoOnEveryRank) {
  const std::string data = std::string(GRANULAR_SOURCE_DIR) + "/tests/data/";
  const granular::test::CliResult single =
      sh("'" + std::string(GRANULAR_CLI) + "' run '" + data + "bad_negative_gamma.json' --out o");
  const granular::test::CliResult bad =
      sh(mpirun(3) + "run '" + data + "bad_negative_gamma.json' --out o");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.err, single.err);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;

  const granular::test::CliResult other =
      sh(mpirun(2) + "run '" + std::string(GRANULAR_SOURCE_DIR) +
         "/cases/collision_disk_wall.json' --out o");
  EXPECT_EQ(other.code, 2);
  EXPECT_EQ(std::count(other.err.begin(), other.err.end(), '\n'), 1) << other.err;
  EXPECT_NE(other.err.find("only packing_ensemble runs by MD split over MPI ranks"),
            std::string::npos)
      << other.err;

  const granular::test::CliResult shard =
      sh(mpirun(2) + "run '" + demo + "' --out o --packings 0:2" + short_demo("0.1"));
  EXPECT_EQ(shard.code, 2);
  EXPECT_EQ(std::count(shard.err.begin(), shard.err.end(), '\n'), 1) << shard.err;

  const granular::test::CliResult option = sh(mpirun(2) + "run '" + demo + "' --threads 0");
  EXPECT_EQ(option.code, 2);
  // the message and the usage once, from rank 0
  EXPECT_EQ(option.err.rfind("granular: --threads: expected", 0), 0u) << option.err;
  EXPECT_EQ(option.err.find("usage:"), option.err.rfind("usage:")) << option.err;
  EXPECT_FALSE(fs::exists(dir_ / "o"));
}

// `mpirun -np K granular reproduce`: the runs split over the ranks, one report from rank 0 with
// the single process's verdicts and values; bad input once, exit 2 on every rank.
TEST_F(Mpi, ReproduceSplitsItsRunsOverTheRanks) {
  // the pendulum paper's results: a validate run and two runs (ordered: `let` is read in order)
  using ojson = nlohmann::ordered_json;
  const ojson all = ojson::parse(
      granular::test::file_text(fs::path(GRANULAR_SOURCE_DIR) / "papers" / "stated_results.json"));
  ojson results = ojson::array();
  for (const ojson& e : all["results"])
    if (e["paper"] == "pendulum") results.push_back(e);
  fs::create_directories(dir_ / "papers");
  // a copy: a registry reads no case through a link that leads out of its project
  fs::copy(fs::path(GRANULAR_SOURCE_DIR) / "cases", dir_ / "cases", fs::copy_options::recursive);
  std::ofstream(dir_ / "papers" / "stated_results.json")
      << ojson{{"papers", {{"pendulum", all["papers"]["pendulum"]}}}, {"results", results}}.dump();

  const granular::test::CliResult one =
      sh("'" + std::string(GRANULAR_CLI) + "' reproduce --out one --threads 1");
  // (the pendulum paper's joint-force claims disagree as printed: exit 3 on both)
  ASSERT_TRUE(one.code == 0 || one.code == 3) << one.err;
  const granular::test::CliResult ranks = sh(mpirun(2) + "reproduce --out two --threads 1");
  ASSERT_EQ(ranks.code, one.code) << ranks.err;
  // every run ran once, on one rank or the other
  for (const char* run : {"[1/3]", "[2/3]", "[3/3]"}) {
    EXPECT_NE(ranks.err.find(run), std::string::npos) << ranks.err;
    EXPECT_EQ(ranks.err.find(run), ranks.err.rfind(run)) << ranks.err;
  }
  EXPECT_EQ(json::parse(granular::test::file_text(dir_ / "two" / "results.json"))["results"],
            json::parse(granular::test::file_text(dir_ / "one" / "results.json"))["results"]);
  EXPECT_EQ(ranks.out.find("results at the quick scale"),
            ranks.out.rfind("results at the quick scale"));  // rank 0 alone speaks

  const granular::test::CliResult bad = sh(mpirun(2) + "reproduce nosuch --out three");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
  EXPECT_FALSE(fs::exists(dir_ / "three"));
}

}  // namespace
