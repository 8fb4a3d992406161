// Estimates (docs/outputs.md, "Estimates"): `granular validate` prints a packing ensemble's
// particle-steps and a finite wall-time estimate with its band from a calibration run that
// writes nothing; a run's progress lines show the elapsed time and the time left. No timing is
// asserted (tools/check_estimate.py measures estimates against runs, idle and loaded).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "support/cli_scratch.hpp"
namespace {

namespace fs = std::filesystem;

class Estimate : public granular::test::CliScratch {
 protected:
  Estimate() : CliScratch("estimate") {}
};

const std::string demo = "'" + std::string(GRANULAR_SOURCE_DIR) + "/cases/demo_sweep.json'";

TEST_F(Estimate, ValidatePrintsTheWorkAndAFiniteWallTime) {
  const granular::test::CliResult r =
      granular("validate " + demo + " --threads 2 --set /run/measure_time=2");
  ASSERT_EQ(r.code, 0) << r.err;
  // settle 0.5 s + transient 1 s + measure 2 s at dt = t_c / 50, 24 packings of 60 disks
  std::smatch work;
  ASSERT_TRUE(std::regex_search(
      r.out, work, std::regex(R"(work: (\d+) steps × 1440 disks = (\S+) particle-steps)")))
      << r.out;
  const double steps = std::stod(work[1]);
  EXPECT_GT(steps, 1e5);
  EXPECT_NEAR(std::stod(work[2]), steps * 1440.0, 1e-3 * steps * 1440.0);
  std::smatch estimate;
  ASSERT_TRUE(std::regex_search(
      r.out, estimate,
      std::regex(R"(estimate: about (\S+) (s|min|h|days) of wall time on cpu with 2 thread\(s\))")))
      << r.out;
  const double value = std::stod(estimate[1]);
  EXPECT_TRUE(std::isfinite(value) && value > 0.0) << estimate[0];
  // the band of the calibration's slices, and the calibration: its slices after the warm-up
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(R"(estimate: about .* thread\(s\), \S+ (s|min|h|days) to \S+ )"
                        R"((s|min|h|days)\ncalibration: 16 packing\(s\) built in \S+ s, )"
                        R"(stepped [1-9]\d* slice\(s\) after a warm-up: \S+ particle-steps/s, )"
                        R"(slices \S+ to \S+\n)")))
      << r.out;
  // how the machine is shared, from one thread's times on and waiting for a CPU
  EXPECT_TRUE(std::regex_search(
      r.out, std::regex(R"(\ncpu share: one thread ran \S+ % of the time it was ready, at \S+ )"
                        R"(particle-steps/s of CPU time; (shared: the estimate assumes that share )"
                        R"(for every thread of the run|the estimate is the calibration's rate)\n)")))
      << r.out;
  // the calibration wrote nothing
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{}), 0);

  const granular::test::CliResult other = granular("validate '" + std::string(GRANULAR_SOURCE_DIR) +
                                                   "/cases/collision_disk_wall.json' --threads 2");
  ASSERT_EQ(other.code, 0) << other.err;
  EXPECT_NE(other.out.find("estimate: none for this model"), std::string::npos) << other.out;
}

// A packing of more than 10^5 disks is calibrated on 10^5 of them, drawn evenly: building all
// 2·10^7 disks of a hostile case took validate two minutes (campaign of 2026-11-27).
TEST_F(Estimate, AHugePackingIsCalibratedOnAHundredThousandOfItsDisks) {
  const granular::test::CliResult r = granular(
      "validate " + demo +
      " --threads 1 --set '/drive/gamma=[2]' --set /ensemble/packings_per_gamma=1"
      " --set /packing/species/0/count=50000 --set /packing/species/1/count=50000"
      " --set /packing/species/2/count=50000 --set /packing/box_width=20"
      " --set /run/settle_time=0.01 --set /run/transient_time=0 --set /run/measure_time=0.02");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("work: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("calibration: 1 packing(s) of 100000 disks, drawn evenly from their "
                       "150000 (the same box, shallower) built in "),
            std::string::npos)
      << r.out;
  // the demo's own packings (60 disks) are calibrated whole
  const granular::test::CliResult small = granular("validate " + demo + " --threads 1");
  ASSERT_EQ(small.code, 0) << small.err;
  EXPECT_EQ(small.out.find("drawn evenly"), std::string::npos) << small.out;
}

TEST_F(Estimate, ProgressLinesShowElapsedTimeAndTimeLeft) {
  const granular::test::CliResult r =
      granular("run " + demo +
               " --out o --threads 2 --set '/drive/gamma=[2]' "
               "--set /run/settle_time=0.05 --set /run/transient_time=0.05 "
               "--set /run/measure_time=0.1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(std::regex_search(
      r.err, std::regex(R"(\[measure  \] t = .* particle-steps/s  elapsed \d+ s  ETA \d+ s\n)")))
      << r.err;
}

}  // namespace
