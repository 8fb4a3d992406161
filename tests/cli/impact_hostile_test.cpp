// Issue 9's reproducers for the host impact models, through the real `granular` binary: a loader
// that looped for ever now answers at once with exit 2; results that are not finite carry a
// status that says so; a plastic impact (billiard e = 0, pendulum k = 0) hands over to
// persistent contact instead of sinking through the floor; a missing pendulum key is a CaseError
// in every build; work beyond the limits is refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../support/cli_scratch.hpp"

namespace {

namespace fs = std::filesystem;

struct Result {
  int code;
  std::string err;
  double seconds;
};

class ImpactHostile : public granular::test::CliScratch {
 protected:
  ImpactHostile() : CliScratch("impact_hostile") {}

  // `granular <command> cases/<name>.json <args>` in the scratch folder, timed.
  Result granular(const std::string& command, const std::string& name,
                  const std::string& args) const {
    const auto start = std::chrono::steady_clock::now();
    const ::granular::test::CliResult r = CliScratch::granular(
        command + " '" + GRANULAR_SOURCE_DIR + "/cases/" + name + ".json' " + args);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return {r.code, r.err, seconds};
  }

  nlohmann::json summary(const std::string& out) const {
    std::ifstream in(dir_ / out / "summary.json");
    return nlohmann::json::parse(in);
  }
};

// Class 2: the billiard's resting-height search never ended for these boundaries.
TEST_F(ImpactHostile, BilliardLoaderAnswersAtOnce) {
  const std::pair<std::string, std::string> cases[] = {
      {"billiard_parabola_4p5hz", "--set /boundary/c=1e16"},
      {"billiard_parabola_4p5hz", "--set /boundary/a=1e12"},
      {"billiard_wedge_6p6hz", "--set /boundary/slope=1e9"},
      {"billiard_hyperbola_4p5hz", "--set /boundary/delta=1e15"},
  };
  for (const auto& [name, set] : cases) {
    const Result r = granular("validate", name, set);
    EXPECT_EQ(r.code, 2) << name << " " << set << "\n" << r.err;
    EXPECT_NE(r.err.find(": /boundary: "), std::string::npos) << r.err;
    EXPECT_LT(r.seconds, 5.0) << name << " " << set;
  }
}

// The wedge between walls at rest: an inelastic disk would collapse into the vertex through
// ever shorter flights, which the map would count as a result.
TEST_F(ImpactHostile, FixedWedgeWallsNeedAnElasticDisk) {
  const Result r = granular("validate", "wedge_fig6_ed_tilt10", "--set /drive/wall_motion=fixed");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(": /drive/wall_motion: \"fixed\" needs e_n = 1"), std::string::npos)
      << r.err;
  EXPECT_EQ(granular("validate", "wedge_fig6_ed_tilt10",
                     "--set /drive/wall_motion=fixed --set /contact/e_n=1")
                .code,
            0);
}

// Class 8: non-finite results were reported as ok (dimer) or as the time limit (prism).
TEST_F(ImpactHostile, NonFiniteResultsSaySo) {
  for (const char* set : {"--set /contact/mu_i=1e200", "--set /dimer/aspect_ratio=1e200"}) {
    ASSERT_EQ(granular("run", "dimer_fig8_ar39_mui008", std::string("--out d --force ") + set).code,
              0);
    const nlohmann::json s = summary("d");
    EXPECT_EQ(s["status"], "non_finite") << set;
    EXPECT_TRUE(s["mean_drift"].is_null()) << set;
  }
  ASSERT_EQ(granular("run", "prism_fig5_n22", "--out p --set /gravity=1e308").code, 0);
  EXPECT_EQ(summary("p")["status"], "non_finite");
}

// Class 9: the plastic limit ended in "penetrated" (billiard) or "missed_contact" (pendulum).
TEST_F(ImpactHostile, BilliardWithZeroRestitutionGoesOnInPersistentContact) {
  for (const char* name :
       {"billiard_parabola_4p5hz", "billiard_parabola_5p4hz", "billiard_wedge_6p6hz",
        "billiard_hyperbola_4p5hz", "billiard_hyperbola_5p8hz"}) {
    ASSERT_EQ(granular("run", name,
                       "--out b --force --set /impact/e=0 --set /run/collisions=100 --set "
                       "/run/t_end=5")
                  .code,
              0)
        << name;
    const nlohmann::json s = summary("b");
    EXPECT_NE(s["reason"], "penetrated") << name;
    EXPECT_NE(s["status"], "non_finite") << name;
    EXPECT_GT(s["counts"]["plastic_switches"].get<int>(), 0) << name;
    EXPECT_GT(s["counts"]["contact_phases"].get<int>(), 0) << name;
    fs::remove_all(dir_ / "b");
  }
}

TEST_F(ImpactHostile, PendulumWithZeroRestitutionNeverMissesTheFloor) {
  for (const char* name : {"pendulum_mu0", "pendulum_mu015"}) {
    for (int psi1 : {120, 130, 140, 150, 160}) {
      const std::string set =
          "--out q --force --set /obstacle/k=0 --set /run/t_end=3 --set /initial/psi1_deg=" +
          std::to_string(psi1);
      ASSERT_EQ(granular("run", name, set).code, 0) << name << " " << psi1;
      const nlohmann::json s = summary("q");
      EXPECT_EQ(s["status"], "completed") << name << " ψ1 = " << psi1;
      // no energy gain: every impact loses energy (plastic and Coulomb friction)
      for (const auto& impact : s["impacts"]) {
        EXPECT_LE(impact["energy_after"].get<double>(),
                  impact["energy_before"].get<double>() + 1e-12)
            << name << " ψ1 = " << psi1;
      }
      fs::remove_all(dir_ / "q");
    }
  }
}

// Campaign of 2026-11-27 (seed 20261127): with W not positive definite in double precision
// Routh's process fails, the failed impact changed nothing and was found again at once, a
// million times until the event budget ran out, each a row of a 160 MB table on the terminal.
TEST_F(ImpactHostile, PendulumWhoseImpactLawFailsStopsThere) {
  const Result r = granular("run", "pendulum_mu015",
                            "--out f --set /pendulum/I2=1.64e193 --set /initial/omega2=-5e55 "
                            "--set /run/sample_interval=100 --set /run/t_end=0.3");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json s = summary("f");
  EXPECT_EQ(s["status"], "model_stop");
  EXPECT_EQ(s["reason"], "impact_failed");
  // the impacts before the failed one, each with an impulse; the failed one is not applied
  const std::size_t impacts = s["impacts"].size();
  EXPECT_GT(impacts, 0u);
  EXPECT_LT(impacts, 1000u);
  for (const auto& impact : s["impacts"]) EXPECT_NE(impact["routh_case"], "failed");
  // the table on the terminal (stderr, with the progress): the first and the last impacts
  EXPECT_NE(r.err.find("more impact(s) (summary.json lists all)"), std::string::npos) << r.err;
  EXPECT_LT(std::count(r.err.begin(), r.err.end(), '\n'), 70) << r.err;
}

// Campaign of 2026-11-27 (seed 31337): parameters whose scales leave a double were accepted. A
// pendulum with lc = 3.6e180 overflowed its mass matrix, did not move, and "completed" with an
// energy of null; a dimer sweep at 2.5e-107 Hz put the plate 1e196 m above the dimer at the
// start, which a single run refuses, and ran for ever.
TEST_F(ImpactHostile, ScalesBeyondADoubleAreRefused) {
  const Result pendulum =
      granular("validate", "pendulum_mu0", "--set /pendulum/lc=3.627e180 --set /pendulum/m2=1e15");
  EXPECT_EQ(pendulum.code, 2);
  EXPECT_NE(pendulum.err.find(": /pendulum: the mass matrix or the energy at the start is not a "
                              "finite double"),
            std::string::npos)
      << pendulum.err;
  const Result sweep =
      granular("validate", "dimer_fig11_sweep", "--set '/sweep/frequencies=[50, 2.5e-107]'");
  EXPECT_EQ(sweep.code, 2);
  EXPECT_NE(sweep.err.find(": /sweep/frequencies/1: 2.5e-107 Hz puts the plate at y_p(0) = "),
            std::string::npos)
      << sweep.err;
  EXPECT_EQ(granular("validate", "dimer_fig11_sweep", "").code, 0);
}

// Class 10: a missing pendulum "initial" key aborted in Eigen's comma initializer (Debug).
TEST_F(ImpactHostile, MissingPendulumKeyIsACaseError) {
  const Result r = granular("validate", "pendulum_mu0", "--set /initial/omega2=null");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/initial/omega2: required key is missing"), std::string::npos) << r.err;
}

// Class 4 for the impact models: integration steps beyond 1e10 are refused.
TEST_F(ImpactHostile, AbsurdRunLengthsAreRefused) {
  const Result pendulum = granular("validate", "pendulum_mu0",
                                   "--set /run/t_end=1e300 --set /run/sample_interval=1e295");
  EXPECT_EQ(pendulum.code, 2);
  EXPECT_NE(pendulum.err.find("integration steps"), std::string::npos) << pendulum.err;
  const Result billiard = granular("validate", "billiard_parabola_4p5hz", "--set /run/t_end=1e12");
  EXPECT_EQ(billiard.code, 2);
  EXPECT_NE(billiard.err.find("integration steps"), std::string::npos) << billiard.err;
  const Result prism = granular("validate", "prism_fig5_n22",
                                "--set /run/t_end=1e12 --set /run/sample_interval=1e6");
  EXPECT_EQ(prism.code, 2) << prism.err;
  const Result dimer = granular("validate", "dimer_fig11_sweep", "--set /integrator/step=1e-12");
  EXPECT_EQ(dimer.code, 2);
  EXPECT_NE(dimer.err.find("integration steps"), std::string::npos) << dimer.err;
}

}  // namespace
