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

}  // namespace
}  // namespace granular::test
