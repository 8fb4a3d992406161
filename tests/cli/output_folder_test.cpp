// Output folders (docs/outputs.md, "Output folders"): a run refuses a folder holding another
// case's outputs, this case's finished outputs, an unfinished run or files granular did not
// write, and changes nothing there; --force removes granular's files only.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/cli_scratch.hpp"
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string good = "'" + std::string(GRANULAR_SOURCE_DIR) + "/tests/data/good_ensemble.json'";
const std::string collision =
    "'" + std::string(GRANULAR_SOURCE_DIR) + "/tests/data/good_collision.json'";

class OutputFolder : public granular::test::CliScratch {
 protected:
  OutputFolder() : CliScratch("output_folder") {}
  // Refused: exit 2, one line on "--out o" saying `what`, and o/summary.json as it was.
  void expect_refused(const std::string& args, const std::string& what) const {
    const std::string before = granular::test::file_text(dir_ / "o" / "summary.json");
    const granular::test::CliResult r = granular(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("--out o: " + what, 0), 0u) << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(granular::test::file_text(dir_ / "o" / "summary.json"), before) << args;
  }
};

TEST_F(OutputFolder, AnotherCasesOutputsAreRefusedUnlessForced) {
  ASSERT_EQ(granular("run " + good + " --out o --threads 1").code, 0);
  expect_refused("run " + good + " --out o --set /seed=7", "holds the outputs of another case");
  expect_refused("run " + collision + " --out o", "holds the outputs of another case");
  expect_refused("run " + good + " --out o --packings 0:1", "holds the outputs of another case");
  const granular::test::CliResult forced =
      granular("run " + good + " --out o --set /seed=7 --force");
  ASSERT_EQ(forced.code, 0) << forced.err;
  EXPECT_EQ(json::parse(granular::test::file_text(dir_ / "o" / "summary.json"))["seed"], 7);
}

TEST_F(OutputFolder, ThisCasesFinishedOutputsAreRefusedUnlessForced) {
  ASSERT_EQ(granular("run " + collision + " --out o").code, 0);
  const std::string csv = granular::test::file_text(dir_ / "o" / "collision.csv");
  expect_refused("run " + collision + " --out o", "holds this case's finished outputs");
  EXPECT_EQ(granular::test::file_text(dir_ / "o" / "collision.csv"), csv);
  EXPECT_EQ(granular("run " + collision + " --out o --force").code, 0);
  EXPECT_EQ(granular::test::file_text(dir_ / "o" / "collision.csv"), csv);
}

TEST_F(OutputFolder, OtherFilesAreRefusedAndForceKeepsThem) {
  fs::create_directories(dir_ / "o" / "notes");
  std::ofstream(dir_ / "o" / "notes.txt") << "mine\n";
  std::ofstream(dir_ / "o" / "energy.csv") << "t\n";  // an unfinished run's, without checkpoint
  expect_refused("run " + good + " --out o", "holds the outputs of an unfinished run (energy.csv)");
  fs::remove(dir_ / "o" / "energy.csv");
  expect_refused("run " + good + " --out o", "holds files granular did not write (");
  std::ofstream(dir_ / "o" / "energy.csv") << "t\n";
  const granular::test::CliResult forced = granular("run " + good + " --out o --force");
  ASSERT_EQ(forced.code, 0) << forced.err;
  EXPECT_NE(forced.err.find("note: --force kept 2 file(s) granular did not write"),
            std::string::npos)
      << forced.err;
  EXPECT_EQ(granular::test::file_text(dir_ / "o" / "notes.txt"), "mine\n");
  EXPECT_TRUE(fs::is_directory(dir_ / "o" / "notes"));
  EXPECT_NE(granular::test::file_text(dir_ / "o" / "energy.csv"), "t\n");
  EXPECT_TRUE(fs::exists(dir_ / "o" / "summary.json"));
}

TEST_F(OutputFolder, ForceAndResumeExcludeEachOther) {
  const granular::test::CliResult r = granular("run " + good + " --out o --force --resume");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--force: starts afresh, --resume continues"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "o"));
}

}  // namespace
