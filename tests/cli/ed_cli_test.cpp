// The event-driven method of packing_ensemble through the real `granular` binary
// (docs/ed.md): the shipped fig. 3.11 case runs shortened with --set into the outputs of an MD
// run, the same bytes for any thread count; a bad "method", ED keys without it, and the
// checkpoint options it cannot honour are one-line errors with exit 2 and nothing written.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/cli_scratch.hpp"
namespace {

namespace fs = std::filesystem;

using Result = granular::test::CliResult;
using granular::test::file_text;

long lines(const fs::path& p) {
  const std::string s = file_text(p);
  return std::count(s.begin(), s.end(), '\n');
}

const std::string ed_case =
    "'" + std::string(GRANULAR_SOURCE_DIR) + "/cases/thesis_fig3_11_ed.json'";

// two Γ, two packings each, 0.2 s transient and 0.5 s measured (6 samples)
const std::string shortened =
    " --set '/drive/gamma=[2, 5]' --set /ensemble/packings_per_gamma=2"
    " --set /run/transient_time=0.2 --set /run/measure_time=0.5 --set /run/sample_interval=0.1";

class EdCli : public granular::test::CliScratch {
 protected:
  EdCli() : CliScratch("ed_cli") {}
  // Runs `[env] granular <args>` in the scratch folder.
  Result granular(const std::string& args, const std::string& env = "") const {
    return sh(env + " '" + GRANULAR_CLI + "' " + args);
  }
};

TEST_F(EdCli, TheShippedCaseRunsShortenedIntoTheOutputsOfAnMdRun) {
  const Result one = granular("run " + ed_case + shortened + " --out one", "OMP_NUM_THREADS=1");
  ASSERT_EQ(one.code, 0) << one.err;
  const Result two = granular("run " + ed_case + shortened + " --out two", "OMP_NUM_THREADS=2");
  ASSERT_EQ(two.code, 0) << two.err;
  // the same bits on one thread and on two
  for (const char* file : {"disks.csv", "angles.csv", "energy.csv"})
    EXPECT_EQ(file_text(dir_ / "one" / file), file_text(dir_ / "two" / file)) << file;

  // 4 packings × 60 disks; θ of the first packing of each Γ at 6 samples; energies at t = 0
  // and at the ends of 2 transient and 5 measurement chunks
  EXPECT_EQ(lines(dir_ / "one" / "disks.csv"), 1 + 4 * 60);
  EXPECT_EQ(lines(dir_ / "one" / "angles.csv"), 1 + 2 * 60 * 6);
  EXPECT_EQ(lines(dir_ / "one" / "energy.csv"), 1 + 8 * 4);
  EXPECT_FALSE(fs::exists(dir_ / "one" / "checkpoint.bin"));

  const nlohmann::json s = nlohmann::json::parse(file_text(dir_ / "one" / "summary.json"));
  EXPECT_EQ(s["method"], "ed");
  EXPECT_EQ(s["case"]["method"], "ed");
  EXPECT_TRUE(s["dt"].is_null());
  EXPECT_EQ(s["packings"].size(), 4u);
  for (const auto& p : s["packings"]) {
    EXPECT_EQ(p["status"], "ok");
    EXPECT_GT(p["events"].get<double>(), 1000.0);  // a driven bed: ~10⁴ events per packing-s
    EXPECT_EQ(
        p["events"].get<double>(),
        p["disk_disk"].get<double>() + p["side_wall"].get<double>() + p["bottom"].get<double>());
  }
  ASSERT_EQ(s["mean_sq_omega"].size(), 2u);
  for (const auto& w : s["mean_sq_omega"]) EXPECT_GT(w.get<double>(), 0.0);
}

TEST_F(EdCli, BadMethodsAndOptionsAreOneLineErrorsWithNothingWritten) {
  const std::pair<std::string, std::string> bad[] = {
      {" --set /method=mc", "/method: unknown method \"mc\" (expected one of: md, ed)"},
      {" --set /method=md", "/ed: is read only with \"method\": \"ed\""},
      {" --set /ed/tangential=sliding", "/ed/tangential: unknown tangential law \"sliding\""},
      {" --set /ed/max_event_rate=0", "/ed/max_event_rate: must be > 0"},
      {" --set /ed/dt=1e-6", "/ed/dt: unknown key"},
      // O(N) per event: a packing of 10 001 disks would run for days
      {" --set /packing/species/0/count=9961",
       "/packing/species: the packing holds 10001 disks; the event-driven method predicts"},
      {" --resume", "--resume: the event-driven method (\"method\": \"ed\") writes no checkpoint"},
      {" --checkpoint-interval 60", "--checkpoint-interval: the event-driven method"},
      {" --backend cuda",
       "--backend cuda: the event-driven method (\"method\": \"ed\") runs on the CPU"},
  };
  for (const auto& [args, expected] : bad) {
    const Result r = granular("run " + ed_case + args + " --out o");
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_NE(r.err.find(expected), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "o")) << args;
  }
}

TEST_F(EdCli, ValidateNotesWhatTheEventDrivenMethodIgnores) {
  const Result r =
      granular("validate " + ed_case +
               " --set /run/settle_time=1 --set '/integrator={\"steps_per_collision\": 50}'"
               " --set '/drive/gamma=[1, 2]'");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("note: \"integrator\" is ignored by the event-driven method"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("note: run/settle_time is ignored"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Γ ≥ 2 only"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("method: event-driven"), std::string::npos) << r.out;
}

}  // namespace
