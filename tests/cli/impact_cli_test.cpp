// The host impact models through the real `granular` binary: the pendulum's and the prism's
// cases validate and run into their files, bad values exit 2 naming their pointer, and the
// wedge map's scaled rotation is the same to the bit for any Γ and ω_b (docs/wedge.md), through
// the CLI's unit conversions. The models' physics is tested in tests/impact/<model>/.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "granular/constants.hpp"
#include "support/cli_scratch.hpp"
#include "support/csv.hpp"

namespace {

namespace fs = std::filesystem;
using granular::test::file_text;
using nlohmann::json;

std::string source(const std::string& rel) { return std::string(GRANULAR_SOURCE_DIR) + "/" + rel; }

class ImpactCli : public granular::test::CliScratch {
 protected:
  ImpactCli() : CliScratch("impact_cli") {}
};

TEST_F(ImpactCli, PendulumValidatesRunsAndRejectsBadValues) {
  const std::string good = "'" + source("cases/pendulum_mu015.json") + "'";
  EXPECT_EQ(granular("validate '" + source("cases/pendulum_mu0.json") + "'").code, 0);
  const granular::test::CliResult run = granular("run " + good + " --out out");
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "summary.json"));
  EXPECT_TRUE(fs::exists(dir_ / "out" / "pendulum.csv"));
  const granular::test::CliResult bad =
      granular("validate '" + source("tests/data/pendulum_bad_l1.json") + "'");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("/pendulum/l1: must be > 0"), std::string::npos) << bad.err;
  const std::string mu0 = "validate '" + source("cases/pendulum_mu0.json") + "'";
  EXPECT_EQ(granular(mu0 + " --set /obstacle/D=2").code, 2);
  EXPECT_EQ(granular(mu0 + " --set /obstacle/typo=1").code, 2);
}

TEST_F(ImpactCli, PrismValidatesRunsAndRejectsBadValues) {
  const std::string good = "'" + source("cases/prism_fig6_n30.json") + "'";
  const granular::test::CliResult v = granular("validate " + good);
  EXPECT_EQ(v.code, 0) << v.err;
  const granular::test::CliResult r = granular("run " + good + " --out out --set /run/t_end=0.5");
  EXPECT_EQ(r.code, 0) << r.err;
  const fs::path out = dir_ / "out";
  ASSERT_TRUE(fs::exists(out / "summary.json"));
  EXPECT_TRUE(fs::exists(out / "impacts.csv"));
  EXPECT_TRUE(fs::exists(out / "rolling.csv"));
  const json s = json::parse(file_text(out / "summary.json"));
  EXPECT_EQ(s["model"], "prism");
  const auto impacts = granular::test::read_csv((out / "impacts.csv").string());
  ASSERT_GT(impacts.size(), 0u);
  EXPECT_EQ(s["impact_count"], impacts.size());
  EXPECT_NEAR(std::stod(impacts[0].at("kappa")), s["kappa_model"].get<double>(), 1e-10);
  EXPECT_EQ(s["case"]["impact"]["model"], "line");  // the default is echoed

  for (const char* pointer : {"/release/lambda0_deg=20", "/prism/circumradius=-1",
                              "/impact/model=rigid"}) {
    const granular::test::CliResult bad = granular("validate " + good + " --set " + pointer);
    EXPECT_EQ(bad.code, 2) << pointer;
    const std::string key = std::string(pointer).substr(0, std::string(pointer).find('='));
    EXPECT_NE(bad.err.find(key), std::string::npos) << bad.err;
  }
}

// The map runs in the scaled variables of §6.3.2: Rω̄/(Aω_b) is the same, to the bit, for any
// Γ and ω_b with the same random stream (spec's scale test: Γ ∈ {1, 10, 100} × ω_b ∈ {1, 10,
// 100} s⁻¹), through the CLI and its unit conversions.
TEST_F(ImpactCli, TheWedgesScaledRotationIsExactlyInvariantUnderGammaAndFrequency) {
  std::string first;
  for (double gamma : {1.0, 10.0, 100.0}) {
    for (double omega : {1.0, 10.0, 100.0}) {
      const std::string out = std::to_string(gamma) + "_" + std::to_string(omega);
      char sets[200];
      std::snprintf(sets, sizeof sets,
                    "--set /drive/gamma=%.17g --set /drive/frequency=%.17g "
                    "--set /run/collisions=20000",
                    gamma, omega / (2.0 * granular::pi));
      const granular::test::CliResult r = granular(
          "run '" + source("cases/wedge_fig6_ed_tilt10.json") + "' --out " + out + " " + sets);
      ASSERT_EQ(r.code, 0) << r.err;
      const json s = json::parse(file_text(dir_ / out / "summary.json"));
      const std::string scaled = s["scaled_rotation"].dump();
      if (first.empty()) first = scaled;
      EXPECT_EQ(scaled, first) << "Gamma " << gamma << ", omega_b " << omega;
      // ω̄ itself scales with A ω_b = Γ g/ω_b
      EXPECT_NEAR(s["omega_bar"].get<double>(),
                  s["scaled_rotation"].get<double>() * gamma * 9.81 / omega / 0.02,
                  1e-12 * std::fabs(s["omega_bar"].get<double>()));
    }
  }
}

}  // namespace
