// What the CLI tests share: an empty scratch folder per test (removed at its end) and the real
// granular binary run from it by the shell, with its exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace granular::test {

inline std::string file_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct CliResult {
  int code;         // exit code (−1 when killed by a signal)
  std::string out;  // stdout
  std::string err;  // stderr
};

class CliScratch : public ::testing::Test {
 protected:
  // `name` makes the folders of different suites distinct: granular_<name>_<pid>_<test>
  explicit CliScratch(std::string name) : name_(std::move(name)) {}

  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("granular_" + name_ + "_" + std::to_string(::getpid()) + "_" +
            testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // `command` run by the shell from the scratch folder.
  CliResult sh(const std::string& command) const {
    const std::filesystem::path out = dir_ / ".stdout", err = dir_ / ".stderr";
    const std::string line = "cd '" + dir_.string() + "' && " + command + " >'" + out.string() +
                             "' 2>'" + err.string() + "'";
    const int status = std::system(line.c_str());
    CliResult r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, file_text(out), file_text(err)};
    std::filesystem::remove(out);
    std::filesystem::remove(err);
    return r;
  }

  // granular with `args` (a shell word list) from the scratch folder.
  CliResult granular(const std::string& args) const {
    return sh("'" + std::string(GRANULAR_CLI) + "' " + args);
  }

  std::filesystem::path dir_;

 private:
  std::string name_;
};

}  // namespace granular::test
