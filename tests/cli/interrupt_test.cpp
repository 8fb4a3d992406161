// SIGTERM and Ctrl-C on the real `granular` binary running the shipped thesis case (108 000
// disks, chunks of minutes on one thread): a resumable checkpoint within two seconds, a second
// interrupt that waits for it, and a resumed run that continues from it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "granular/io/checkpoint.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `granular` started in the background with stderr in a file.
class Running {
 public:
  Running(const std::vector<std::string>& args, const fs::path& err) {
    pid_ = ::fork();
    if (pid_ == 0) {
      const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, STDERR_FILENO);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, STDOUT_FILENO);
      std::vector<char*> argv{const_cast<char*>(GRANULAR_CLI)};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(GRANULAR_CLI, argv.data());
      ::_exit(127);
    }
  }
  ~Running() {
    if (pid_ > 0 && !done_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  void signal(int sig) const { ::kill(pid_, sig); }
  // The wait status once the process ends within `limit`; -1 when it is still running.
  int wait_for(std::chrono::duration<double> limit) {
    const Clock::time_point end = Clock::now() + std::chrono::duration_cast<Clock::duration>(limit);
    while (Clock::now() < end) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        done_ = true;
        return status;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  bool done_ = false;
};

// Waits until `file` contains `text` (at most `limit`).
bool wait_for_text(const fs::path& file, const std::string& text, std::chrono::seconds limit) {
  const Clock::time_point end = Clock::now() + limit;
  while (Clock::now() < end) {
    if (slurp(file).find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

TEST(Interrupt, SigtermLeavesAResumableCheckpointWithinTwoSeconds) {
  const fs::path dir =
      fs::temp_directory_path() / ("granular_interrupt_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string thesis = std::string(GRANULAR_SOURCE_DIR) + "/cases/thesis_fig3_6_kn1e4.json";
  const fs::path out = dir / "out";
  const fs::path checkpoint = out / "checkpoint.bin";
  const fs::path err = dir / "stderr.txt";

  // a fresh run, stopped by SIGTERM once it advances
  std::int64_t first_steps = 0;
  {
    Running run({"run", thesis, "--out", out.string(), "--threads", "1"}, err);
    ASSERT_TRUE(wait_for_text(err, "[settle", std::chrono::seconds(120))) << slurp(err);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const Clock::time_point sent = Clock::now();
    run.signal(SIGTERM);
    const int status = run.wait_for(std::chrono::seconds(10));
    const double latency = seconds_since(sent);
    ASSERT_NE(status, -1) << "still running 10 s after SIGTERM";
    std::cout << "SIGTERM to exit with a checkpoint: " << latency << " s\n";
    EXPECT_LT(latency, 2.0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 75);  // stopped with a checkpoint (EX_TEMPFAIL)
    EXPECT_NE(slurp(err).find("checkpoint in " + checkpoint.string()), std::string::npos);
    const granular::io::CheckpointHeader h = granular::io::read_checkpoint_header(checkpoint);
    first_steps = h.position.steps_done;
    EXPECT_GT(first_steps, 0);
    EXPECT_FALSE(fs::exists(out / "summary.json"));
  }

  // resumed from it, then two Ctrl-Cs: the second waits for the checkpoint
  {
    Running run({"run", thesis, "--out", out.string(), "--threads", "1", "--resume"}, err);
    ASSERT_TRUE(wait_for_text(err, "resuming from", std::chrono::seconds(120))) << slurp(err);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const Clock::time_point sent = Clock::now();
    run.signal(SIGINT);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    run.signal(SIGINT);
    const int status = run.wait_for(std::chrono::seconds(10));
    ASSERT_NE(status, -1) << "still running 10 s after SIGINT";
    EXPECT_LT(seconds_since(sent), 2.0);
    ASSERT_TRUE(WIFEXITED(status)) << "the second interrupt must not kill the run";
    EXPECT_EQ(WEXITSTATUS(status), 75);  // stopped with a checkpoint (EX_TEMPFAIL)
    const granular::io::CheckpointHeader h = granular::io::read_checkpoint_header(checkpoint);
    EXPECT_GT(h.position.steps_done, first_steps);
  }
  fs::remove_all(dir);
}

// granular reproduce stops the same way: the long run it is in checkpoints, and the same command
// continues it.
TEST(Interrupt, ReproduceStopsWithItsLongRunCheckpointedAndContinues) {
  const fs::path dir =
      fs::temp_directory_path() / ("granular_interrupt_reproduce_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "papers");
  // a copy: a registry reads no case through a link that leads out of its project
  fs::copy(fs::path(GRANULAR_SOURCE_DIR) / "cases", dir / "cases", fs::copy_options::recursive);
  // one result read from the shipped thesis case (hours on one thread), at its own scale
  const nlohmann::json result = {
      {"id", "long"},
      {"paper", "thesis"},
      {"where", "fig. 3.6"},
      {"statement", "a long run"},
      {"printed", {{"kind", "value"}, {"value", 1}}},
      {"tolerance", {{"absolute", 1}, {"why", "-"}}},
      {"cost", {{"quick_s", 1}, {"full_s", 1}}},
      {"measure",
       {{"case", "cases/thesis_fig3_6_kn1e4.json"},
        {"set", nlohmann::json::object()},
        {"quick_set", nlohmann::json::object()},
        {"compute", {{"value", "len(json('summary.json', '/gamma_values'))"}}}}}};
  const nlohmann::json registry = {{"papers", {{"thesis", "the thesis"}}},
                                   {"results", nlohmann::json::array({result})}};
  std::ofstream(dir / "papers" / "stated_results.json") << registry.dump();
  const std::vector<std::string> args = {
      "reproduce", "--registry",           (dir / "papers" / "stated_results.json").string(),
      "--out",     (dir / "rep").string(), "--threads",
      "1"};
  const fs::path err = dir / "stderr.txt";
  {
    Running run(args, err);
    ASSERT_TRUE(wait_for_text(err, "[settle", std::chrono::seconds(120))) << slurp(err);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    run.signal(SIGINT);
    const int status = run.wait_for(std::chrono::seconds(10));
    ASSERT_NE(status, -1) << "still running 10 s after SIGINT";
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 75);
    EXPECT_NE(slurp(err).find("repeat the command to continue"), std::string::npos) << slurp(err);
  }
  std::vector<fs::path> runs;
  for (const auto& e : fs::directory_iterator(dir / "rep" / "runs")) runs.push_back(e.path());
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(fs::exists(runs[0] / "checkpoint.bin"));
  EXPECT_FALSE(fs::exists(dir / "rep" / "report.md"));  // no report of unfinished runs
  {
    Running run(args, err);
    ASSERT_TRUE(wait_for_text(err, "resuming from", std::chrono::seconds(120))) << slurp(err);
    run.signal(SIGTERM);
    const int status = run.wait_for(std::chrono::seconds(10));
    ASSERT_NE(status, -1);
    EXPECT_EQ(WEXITSTATUS(status), 75);
  }
  fs::remove_all(dir);
}

}  // namespace
