// Scans (include/granular/cases/scan.hpp, docs/cases.md "Scans"), through the real binary: every
// combination of the scanned values runs into its own folder, scan.csv has one row per point in
// order (the keys sorted by pointer, the first outermost) with the point's results, and bad scans
// are one-line errors with exit 2 and nothing written, a point that does not validate named by its
// values.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_scratch.hpp"
#include "support/csv.hpp"

namespace {

namespace fs = std::filesystem;

class Scan : public granular::test::CliScratch {
 protected:
  Scan() : CliScratch("scan") {}

  // `granular run cases/wedge_fig6_ed_tilt_scan.json --out dir_/out <sets>`: exit code, stderr
  int run(const std::string& sets, std::string* err = nullptr) const {
    const granular::test::CliResult r =
        granular("run '" + std::string(GRANULAR_SOURCE_DIR) +
                 "/cases/wedge_fig6_ed_tilt_scan.json' --out out --set /run/collisions=2000 " +
                 sets);
    if (err) *err = r.err;
    return r.code;
  }
};

TEST_F(Scan, EveryPointRunsAndScanCsvHasItsResults) {
  ASSERT_EQ(run(""), 0);
  const auto rows = granular::test::read_csv((dir_ / "out" / "scan.csv").string());
  ASSERT_EQ(rows.size(), 11u);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const double tilt = -25.0 + 5.0 * static_cast<double>(k);
    EXPECT_EQ(std::stod(rows[k].at("wedge/tilt_deg")), tilt);
    EXPECT_EQ(rows[k].at("status"), "completed");
    // the row holds what the point's own summary says
    std::ifstream in(dir_ / "out" / ("point_" + std::to_string(k)) / "summary.json");
    const nlohmann::json s = nlohmann::json::parse(in);
    EXPECT_EQ(s["case"]["wedge"]["tilt_deg"].get<double>(), tilt);
    EXPECT_EQ(std::stod(rows[k].at("scaled_rotation")), s["scaled_rotation"].get<double>());
    EXPECT_EQ(std::stod(rows[k].at("collisions")), 2000.0);
  }
  std::ifstream in(dir_ / "out" / "summary.json");
  const nlohmann::json s = nlohmann::json::parse(in);
  EXPECT_EQ(s["scan"]["points"], 11);
}

TEST_F(Scan, SeveralKeysRunEveryCombinationInPointerOrder) {
  ASSERT_EQ(run("--set '/scan={\"/wedge/tilt_deg\": [0, 10], \"/contact/mu\": [0.05, 0.1, 0.2]}'"),
            0);
  const auto rows = granular::test::read_csv((dir_ / "out" / "scan.csv").string());
  ASSERT_EQ(rows.size(), 6u);
  // JSON objects are unordered: the keys in the order of their pointers, the first outermost
  const double mu[] = {0.05, 0.05, 0.1, 0.1, 0.2, 0.2}, tilt[] = {0, 10, 0, 10, 0, 10};
  for (std::size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(std::stod(rows[k].at("wedge/tilt_deg")), tilt[k]) << k;
    EXPECT_EQ(std::stod(rows[k].at("contact/mu")), mu[k]) << k;
  }
}

TEST_F(Scan, BadScansAreOneLineErrorsAndWriteNothing) {
  const std::pair<std::string, std::string> bad[] = {
      {"--set '/scan={\"/wedge/tilt_deg\": []}'", "/scan/~1wedge~1tilt_deg: "},
      {"--set '/scan={\"/wedge/tilt_deg\": [\"a\"]}'", "/scan/~1wedge~1tilt_deg: "},
      {"--set '/scan={\"wedge\": [1]}'", "/scan/wedge: "},
      {"--set '/scan={\"/model\": [1]}'", "/scan/~1model: "},
      {"--set '/scan={\"/a\": [1,2,3,4,5,6,7,8,9,10,11], \"/b\": [1,2,3,4,5,6,7,8,9,10,11], "
       "\"/c\": [1,2,3,4,5,6,7,8,9,10,11]}'",
       "/scan: more than 1000 points"},
      {"--set '/scan={\"/wedge/tilt_deg\": [0, 40]}'", "/wedge/tilt_deg: "},
  };
  for (const auto& [sets, expected] : bad) {
    std::string err;
    EXPECT_EQ(run(sets, &err), 2) << sets << "\n" << err;
    EXPECT_NE(err.find(expected), std::string::npos) << sets << "\n" << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_FALSE(fs::exists(dir_ / "out")) << sets;
  }
  std::string err;
  run("--set '/scan={\"/wedge/tilt_deg\": [0, 40]}'", &err);
  EXPECT_NE(err.find("(scan point 2: /wedge/tilt_deg=40)"), std::string::npos) << err;
}

}  // namespace
