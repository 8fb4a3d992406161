// What `granular validate` prints, pinned by tools/pin_validate.py in tests/data/validate/ for
// every shipped case and a few variants (issue 14: the text stays byte for byte when its numbers
// also become data). Every pinned invocation is repeated through the binary, from the
// repository root, and must print the same bytes, apart from the measured parts of a packing
// ensemble's wall-time estimate, masked here as the tool masks them.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>

#include "support/cli_scratch.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path root = GRANULAR_SOURCE_DIR;
const fs::path pins_dir = root / "tests" / "data" / "validate";

// The measured parts of the estimate and calibration lines: wall times as <time>, <low> and
// <high>, the build time as <build>, the slices as <n>, rates as <rate>, <low> and <high>, the
// CPU share line as <measured> (tools/pin_validate.py, mask()).
std::string mask(const std::string& text) {
  static const std::regex estimate(
      R"((^|\n)(estimate: about )\S+ (?:s|min|h|days)( of wall time on [^,\n]*, )\S+ )"
      R"((?:s|min|h|days) to \S+ (?:s|min|h|days)\n)");
  static const std::regex calibration(
      R"((\ncalibration: \d+ packing\(s\) built in )\S+( s, stepped )\d+)"
      R"(( slice\(s\) after a warm-up: )\S+( particle-steps/s, slices )\S+ to \S+\n)");
  static const std::regex share(R"((\ncpu share: )[^\n]*\n)");
  const std::string t = std::regex_replace(text, estimate, "$1$2<time>$3<low> to <high>\n");
  const std::string u =
      std::regex_replace(t, calibration, "$1<build>$2<n>$3<rate>$4<low> to <high>\n");
  return std::regex_replace(u, share, "$1<measured>\n");
}

class ValidateText : public granular::test::CliScratch {
 protected:
  ValidateText() : CliScratch("validate_text") {}
};

TEST_F(ValidateText, EveryPinnedTextIsPrintedAgain) {
  const json index = json::parse(granular::test::file_text(pins_dir / "index.json"));
  ASSERT_FALSE(index.empty());
  std::set<std::string> pinned_cases;
  for (const json& pin : index) {
    const std::string file = pin["file"];
    const std::string name = pin["case"];
    if (pin["set"].empty()) pinned_cases.insert(name);
    std::string args = "validate 'cases/" + name + ".json' --threads 2";
    for (const json& s : pin["set"]) args += " --set '" + s.get<std::string>() + "'";
    const granular::test::CliResult r =
        sh("cd '" + root.string() + "' && '" + std::string(GRANULAR_CLI) + "' " + args);
    ASSERT_EQ(r.code, 0) << args << "\n" << r.err;
    EXPECT_EQ(mask(r.out), granular::test::file_text(pins_dir / file)) << args;
  }
  // a shipped case without its pin: regenerate with tools/pin_validate.py
  for (const auto& e : fs::directory_iterator(root / "cases")) {
    if (e.path().extension() != ".json") continue;
    EXPECT_TRUE(pinned_cases.count(e.path().stem().string()))
        << e.path() << " has no pinned validate text";
  }
}

// The mask leaves every other line alone and every pinned estimate line masked.
TEST(ValidateTextMask, MasksOnlyTheMeasuredPartsOfTheEstimate) {
  const std::string line =
      "work: 10 steps × 2 disks = 20 particle-steps\n"
      "estimate: about 3.2 h of wall time on cpu with 2 thread(s), 2.9 h to 4.1 min\n"
      "calibration: 16 packing(s) built in 0.011 s, stepped 11 slice(s) after a warm-up: "
      "2.04e+07 particle-steps/s, slices 1.8e+07 to 2.2e+07\n"
      "cpu share: one thread ran 9.7 % of the time it was ready, at 2.9e+07 particle-steps/s of "
      "CPU time; shared: the estimate assumes that share for every thread of the run\n";
  EXPECT_EQ(mask(line),
            "work: 10 steps × 2 disks = 20 particle-steps\n"
            "estimate: about <time> of wall time on cpu with 2 thread(s), <low> to <high>\n"
            "calibration: 16 packing(s) built in <build> s, stepped <n> slice(s) after a "
            "warm-up: <rate> particle-steps/s, slices <low> to <high>\n"
            "cpu share: <measured>\n");
  EXPECT_EQ(mask("estimate: about 12 s of wall time on cuda, 11 s to 14 s\n"),
            "estimate: about <time> of wall time on cuda, <low> to <high>\n");
  const std::string none = "estimate: none for this model (its runs take seconds to minutes)\n";
  EXPECT_EQ(mask(none), none);
}

}  // namespace
