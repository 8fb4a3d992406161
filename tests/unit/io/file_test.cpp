// Tests for io/file.cpp: every failure names the file and the operating system's reason, an
// atomic write that fails leaves nothing behind, and an ensemble run that meets a full disk stops
// at the chunk that met it. A full disk is /dev/full, which fails every write with ENOSPC.
#include "granular/io/file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../../support/run_context.hpp"
#include "../../support/tiny_ensemble.hpp"
#include "granular/cases/packing_ensemble.hpp"

namespace granular::io {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class Files : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(testing::TempDir()) / ("granular_file_test_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The FileError message of `f` ("" if none).
  template <class F>
  static std::string error_of(F&& f) {
    try {
      f();
    } catch (const FileError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(Files, AtomicWriteReplacesTheFileWhole) {
  const fs::path path = dir_ / "summary.json";
  write_file_atomic(path, "first\n");
  write_file_atomic(path, "second\n");
  EXPECT_EQ(slurp(path), "second\n");
  EXPECT_FALSE(fs::exists(dir_ / "summary.json.tmp"));
}

TEST_F(Files, AFullDiskIsReportedWithItsReasonAndLeavesNoTemporary) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const fs::path path = dir_ / "summary.json";
  fs::create_symlink("/dev/full", dir_ / "summary.json.tmp");
  EXPECT_EQ(error_of([&] { write_file_atomic(path, std::string(3 << 20, 'x')); }),
            (dir_ / "summary.json.tmp").string() + ": cannot write: No space left on device");
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::is_symlink(dir_ / "summary.json.tmp"));
  // a small file fails when close() hands it to the system, not silently
  fs::create_symlink("/dev/full", dir_ / "summary.json.tmp");
  EXPECT_NE(error_of([&] { write_file_atomic(path, "{}\n"); }).find("No space left on device"),
            std::string::npos);
  EXPECT_FALSE(fs::is_symlink(dir_ / "summary.json.tmp"));
}

TEST_F(Files, UnwritableFoldersAreFoundBeforeARunAndNothingIsLeft) {
  EXPECT_EQ(error_of([&] { check_writable_folder(dir_ / "a" / "b"); }), "");
  EXPECT_TRUE(fs::is_directory(dir_ / "a" / "b"));
  EXPECT_TRUE(fs::is_empty(dir_ / "a" / "b"));  // the probe is gone

  // a file where a folder should be
  std::ofstream(dir_ / "file") << "x";
  EXPECT_EQ(error_of([&] { check_writable_folder(dir_ / "file" / "out"); }),
            (dir_ / "file" / "out").string() + ": cannot create the folder: Not a directory");
  // a read-only file system (sysfs refuses new entries even to root)
  if (fs::is_directory("/sys/kernel")) {
    const std::string message = error_of([&] { check_writable_folder("/sys/kernel/granular"); });
    EXPECT_EQ(message.rfind("/sys/kernel/granular: cannot create the folder: ", 0), 0u) << message;
  }
}

TEST_F(Files, AppendedFilesCountTheirBytes) {
  const fs::path path = dir_ / "energy.csv";
  {
    OutputFile out(path, OutputFile::Mode::create);
    out.write("t,x\n");
    out.close();
  }
  OutputFile out(path, OutputFile::Mode::append);
  EXPECT_EQ(out.size(), 4u);
  out.write("0,1\n");
  EXPECT_EQ(out.size(), 8u);
  out.close();
  EXPECT_EQ(slurp(path), "t,x\n0,1\n");
  EXPECT_NE(error_of([&] { out.write("late"); }).find("the file is closed"), std::string::npos);
}

TEST_F(Files, AnEnsembleRunStopsAtTheChunkThatMetAFullDisk) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  // 20 chunks; energy.csv is handed to the system after each one
  const md::EnsembleCase c = test::tiny_ensemble_case({0.1, 0.05, 0.05, 0.01});
  fs::create_symlink("/dev/full", dir_ / "energy.csv");
  std::ostringstream progress;
  const std::string message = error_of([&] {
    cases::run_packing_ensemble(
        c, test::run_context(dir_, {{"model", "packing_ensemble"}}, 1, progress));
  });
  EXPECT_EQ(message, (dir_ / "energy.csv").string() + ": cannot write: No space left on device");
  EXPECT_EQ(progress.str().find("100.0 %"), std::string::npos) << progress.str();
  EXPECT_FALSE(fs::exists(dir_ / "summary.json"));
}

}  // namespace
}  // namespace granular::io
