// A checkpoint damaged anywhere (seeded random bit flips, overwritten bytes, cuts, insertions)
// is either rejected with its file named or resumes to the bitwise result of the uninterrupted
// run: never a crash, never a different result. And a checkpoint whose state was changed but
// whose checksum was recomputed (a file a buggy writer or a person made) is rejected or runs to
// the end without leaving its arrays: every index the step follows is checked on load.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/tiny_ensemble.hpp"
#include "granular/io/checkpoint.hpp"
#include "granular/io/checksum.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/ensemble_run.hpp"

namespace granular::md {
namespace {

using io::EnsembleCheckpoint;
using io::read_checkpoint;
using io::write_checkpoint;

namespace fs = std::filesystem;

// 10 chunks of 100 steps: settle 4, transient 2, measure 4.
EnsembleCase small_case() { return test::tiny_ensemble_case({0.004, 0.002, 0.004, 0.001}); }

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

// ω̄ of every disk, the run's result.
std::vector<double> omega_bar(const EnsembleResult& r) {
  std::vector<double> w;
  for (const PackingResult& p : r.packings)
    w.insert(w.end(), p.omega_bar.begin(), p.omega_bar.end());
  return w;
}

class CheckpointDamage : public testing::Test {
 protected:
  void SetUp() override {
    // one folder per test: ctest runs the tests of this fixture in parallel
    dir_ = fs::path(testing::TempDir()) /
           (std::string("granular_checkpoint_damage_test_") +
            testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = dir_ / "checkpoint.bin";
    auto backend = make_cpu_backend(1);
    reference_ = omega_bar(run_ensemble(case_, *backend));

    // stopped inside the measurement, 3 steps into a chunk
    int taken = 0;
    EnsembleRunOptions stop;
    stop.checkpoint_interval = 0.0;
    stop.slice_steps = 50;
    stop.stop = [&] { return ++taken >= 15; };
    stop.on_checkpoint = [&](const RunPosition& pos, const EnsembleState& s,
                             const std::vector<RotationStats>& rotation) {
      write_checkpoint(path_, {"small", backend->name(), {}, pos}, s, rotation);
    };
    ASSERT_FALSE(run_ensemble(case_, *backend, {}, stop).complete);
    intact_ = slurp(path_);
  }

  // Resumes from the file at path_: "rejected" (with the file named), "identical" or
  // "different".
  std::string resume() {
    EnsembleCheckpoint cp;
    try {
      cp = read_checkpoint(path_, case_.model, "small");
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path_.string() + ": ", 0), 0u) << e.what();
      return "rejected";
    }
    auto backend = make_cpu_backend(1);
    EnsembleRunOptions options;
    options.resume = &cp.point;
    try {
      const EnsembleResult r = run_ensemble(case_, *backend, {}, options);
      const std::vector<double> w = omega_bar(r);
      return w.size() == reference_.size() &&
                     std::memcmp(w.data(), reference_.data(), w.size() * sizeof(double)) == 0
                 ? "identical"
                 : "different";
    } catch (const std::invalid_argument&) {
      return "rejected";  // run_ensemble's own check of the position against the schedule
    }
  }

  const EnsembleCase case_ = small_case();
  fs::path dir_, path_;
  std::vector<double> reference_;
  std::string intact_;
};

TEST_F(CheckpointDamage, RandomDamageIsRejectedOrHarmless) {
  ASSERT_EQ(resume(), "identical");
  std::mt19937_64 random(20261123);
  const auto offset = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  const auto byte = [&] { return static_cast<char>(random() & 0xFF); };
  int rejected = 0, identical = 0;
  constexpr int trials = 400;
  for (int trial = 0; trial < trials; ++trial) {
    std::string bytes = intact_;
    switch (trial % 6) {
      case 0:  // one bit
        bytes[offset(bytes.size())] ^= static_cast<char>(1 << (random() % 8));
        break;
      case 1:  // a few bytes overwritten
        for (int k = 0; k < 1 + static_cast<int>(random() % 8); ++k)
          bytes[offset(bytes.size())] = byte();
        break;
      case 2:  // cut short
        bytes.resize(offset(bytes.size()));
        break;
      case 3:  // bytes inserted
        bytes.insert(offset(bytes.size()), std::string(1 + random() % 16, byte()));
        break;
      case 4: {  // a range removed
        const std::size_t at = offset(bytes.size());
        bytes.erase(at, 1 + random() % 64);
        break;
      }
      default: {  // a block zeroed, as a torn write leaves it
        const std::size_t at = offset(bytes.size());
        std::memset(&bytes[at], 0, std::min<std::size_t>(512, bytes.size() - at));
        break;
      }
    }
    spit(path_, bytes);
    const std::string outcome = resume();
    rejected += outcome == "rejected";
    identical += outcome == "identical";
    ASSERT_NE(outcome, "different") << "trial " << trial;
  }
  std::cout << "damaged checkpoints: " << trials << " trials, " << rejected << " rejected, "
            << identical << " resumed bitwise identical\n";
  EXPECT_EQ(rejected + identical, trials);
  EXPECT_GE(rejected, trials * 9 / 10);
}

TEST_F(CheckpointDamage, StatesWithARecomputedChecksumAreCheckedIndexByIndex) {
  // the state's arrays follow the header; damage lands among them and the checksum is made to
  // fit, so only the checks of read_checkpoint stand between the damage and a step
  const std::size_t state_start = intact_.size() / 8;
  const std::size_t body = intact_.size() - sizeof(std::uint64_t);
  std::mt19937_64 random(7);
  int rejected = 0, ran = 0;
  constexpr int trials = 300;
  for (int trial = 0; trial < trials; ++trial) {
    std::string bytes = intact_;
    const std::size_t at = std::uniform_int_distribution<std::size_t>(
        state_start, body - sizeof(std::int32_t))(random);
    // indices a hostile file would use: just outside a packing, huge, negative
    const std::int32_t values[] = {-2, -1, 12, 13, 48, 1000000000, INT32_MIN, INT32_MAX};
    const std::int32_t v = values[random() % 8];
    std::memcpy(&bytes[at], &v, sizeof v);
    io::Checksum sum;
    sum.add(bytes.data(), body);
    const std::uint64_t value = sum.value();
    std::memcpy(&bytes[body], &value, sizeof value);
    spit(path_, bytes);
    const std::string outcome = resume();
    rejected += outcome == "rejected";
    ran += outcome != "rejected";
  }
  std::cout << "re-checksummed states: " << trials << " trials, " << rejected << " rejected, "
            << ran << " ran to the end\n";
  EXPECT_EQ(rejected + ran, trials);
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace granular::md
