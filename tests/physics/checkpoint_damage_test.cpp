// A checkpoint damaged anywhere (seeded random bit flips, overwritten bytes, cuts, insertions)
// is either rejected with its file named or resumes to the bitwise result of the uninterrupted
// run: never a crash, never a different result. And a checkpoint whose state was changed but
// whose checksum was recomputed (a file a buggy writer or a person made) is rejected or runs to
// the end without leaving its arrays: every index the step follows is checked on load.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/tiny_ensemble.hpp"
#include "granular/io/checkpoint.hpp"
#include "granular/io/checksum.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/ensemble/run.hpp"

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
    stop.control.checkpoint_interval = 0.0;
    stop.control.slice_steps = 50;
    stop.control.stop = [&] { return ++taken >= 15; };
    stop.on_checkpoint = [&](const RunPosition& pos, const EnsembleState& s,
                             const std::vector<RotationStats>& rotation) {
      std::vector<double> drive;
      for (const md::PackingParams& p : case_.model.packings) drive.push_back(p.gamma);
      write_checkpoint(path_, {"small", backend->name(), {}, pos, drive}, s, rotation);
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
      if (w.size() == reference_.size() &&
          std::memcmp(w.data(), reference_.data(), w.size() * sizeof(double)) == 0)
        return "identical";
      for (const PackingResult& p : r.packings)
        if (p.status != status_ok) return "different, flagged";
      return "different";
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
    ASSERT_TRUE(outcome == "rejected" || outcome == "identical")
        << "trial " << trial << ": " << outcome;
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

// Issue 20, item 6: 24 of 194 re-checksummed damages resumed with other results, 13 with every
// packing ok: a rotation count of 2^62, particle-steps NaN, a non-finite state. What a
// checkpoint says is checked against the case and against itself.
TEST_F(CheckpointDamage, ContentsThatCannotBeRightAreRefused) {
  const EnsembleCheckpoint intact = read_checkpoint(path_, case_.model, "small");
  const std::vector<std::pair<const char*, std::function<void(EnsembleCheckpoint&)>>> damages = {
      {"a rotation count of 2^62",
       [](EnsembleCheckpoint& c) { c.point.rotation[0].count = 1LL << 62; }},
      {"one rotation sample too many",
       [](EnsembleCheckpoint& c) { c.point.rotation[3].count += 1; }},
      {"one rotation sample too few",
       [](EnsembleCheckpoint& c) { c.point.rotation[7].count -= 1; }},
      {"the first sample's time moved",
       [](EnsembleCheckpoint& c) { c.point.rotation[4].t_first += 1e-9; }},
      {"the latest sample's time 1e300",
       [](EnsembleCheckpoint& c) { c.point.rotation[6].t_last = 1e300; }},
      {"a rotation moment NaN",
       [](EnsembleCheckpoint& c) { c.point.rotation[5].mean_rate = std::nan(""); }},
      {"particle-steps NaN",
       [](EnsembleCheckpoint& c) { c.header.position.particle_steps = std::nan(""); }},
      {"more particle-steps than steps x disks",
       [](EnsembleCheckpoint& c) { c.header.position.particle_steps *= 1e6; }},
      {"a negative wall time", [](EnsembleCheckpoint& c) { c.header.position.wall_time_s = -1.0; }},
      {"x NaN in a healthy packing",
       [](EnsembleCheckpoint& c) { c.point.state.x[3] = std::nan(""); }},
      {"omega infinite in a healthy packing",
       [](EnsembleCheckpoint& c) { c.point.state.omega[2] = INFINITY; }},
      {"a Gear derivative NaN",
       [](EnsembleCheckpoint& c) { c.point.state.gear_high.back() = std::nan(""); }},
      {"a skin history NaN",
       [](EnsembleCheckpoint& c) { c.point.state.walls[0].skin.xi_anchor = std::nan(""); }},
  };
  for (const auto& [what, damage] : damages) {
    SCOPED_TRACE(what);
    EnsembleCheckpoint c = intact;
    damage(c);
    c.point.position = c.header.position;
    write_checkpoint(path_, c.header, c.point.state, c.point.rotation);
    EXPECT_EQ(resume(), "rejected");
  }
  write_checkpoint(path_, intact.header, intact.point.state, intact.point.rotation);
  EXPECT_EQ(resume(), "identical");
}

// Issue 32, item 3: with its checksum recomputed, a checkpoint where a disk spun at 1e3–1e30
// rad/s or sat at y = 1e3–1e6 m resumed with every packing "ok". Finite numbers beyond what the
// case's drive and gravity can give its disks (md/reach.hpp: here |v| and |ω| R below 6.5 m/s at
// Γ = 2, heights below 2.4 m) are refused as bad input, naming the packing and the disk.
TEST_F(CheckpointDamage, KinematicsBeyondTheCasesReachAreRefusedNamingPackingAndDisk) {
  const EnsembleCheckpoint intact = read_checkpoint(path_, case_.model, "small");
  const int disk = case_.model.offset[2] + 1;  // packing 2 (Γ = 2), its disk 1 (R = 1.5 cm)
  const std::vector<std::pair<std::string, std::function<void(EnsembleState&)>>> damages = {
      {"ω = 1e+03 rad/s", [&](EnsembleState& s) { s.omega[disk] = 1e3; }},
      {"ω = -1e+30 rad/s", [&](EnsembleState& s) { s.omega[disk] = -1e30; }},
      {"|v| = 100 m/s", [&](EnsembleState& s) { s.vx[disk] = 100.0; }},
      {"y = 1e+03 m", [&](EnsembleState& s) { s.y[disk] = 1e3; }},
      {"y = 1e+06 m", [&](EnsembleState& s) { s.y[disk] = 1e6; }},
      {"θ = 1e+09 rad", [&](EnsembleState& s) { s.theta[disk] = 1e9; }},
      {"with the left wall", [&](EnsembleState& s) { s.x[disk] = -0.001; }},
      {"with the right wall", [&](EnsembleState& s) { s.x[disk] = 0.15; }},
      {"with the bottom wall", [&](EnsembleState& s) { s.y[disk] = -0.01; }},
      // the campaign of issue 32: an acceleration or a Gear derivative beyond any force
      {"accelerations are not those of its forces", [&](EnsembleState& s) { s.ay[disk] = 1e6; }},
      {"accelerations are not those of its forces",
       [&](EnsembleState& s) { s.alpha[disk] = 1e30; }},
      {"a force of",
       [&](EnsembleState& s) {
         s.fy[disk] = 1e6;
         s.ay[disk] = s.fy[disk] * case_.model.inv_mass[disk];
       }},
      {"a Gear derivative of order 4",
       [&](EnsembleState& s) { s.gear_high[7 * case_.model.n_disks() + disk] = -1e300; }},
  };
  for (const auto& [what, damage] : damages) {
    SCOPED_TRACE(what);
    EnsembleCheckpoint c = intact;
    damage(c.point.state);
    write_checkpoint(path_, c.header, c.point.state, c.point.rotation);
    try {
      read_checkpoint(path_, case_.model, "small");
      ADD_FAILURE() << "resumed";
    } catch (const io::CaseError& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(path_.string() + ": damaged checkpoint (packing 2, disk 1 (status "
                                              "ok): "),
                std::string::npos)
          << message;
      EXPECT_NE(message.find(what), std::string::npos) << message;
    }
  }
  // the intact state is within reach, and a flagged packing is not bounded (it does not move)
  write_checkpoint(path_, intact.header, intact.point.state, intact.point.rotation);
  EXPECT_EQ(resume(), "identical");
  EnsembleCheckpoint flagged = intact;
  flagged.point.state.status[2] = status_too_fast;
  flagged.point.state.omega[disk] = 1e3;
  write_checkpoint(path_, flagged.header, flagged.point.state, flagged.point.rotation);
  EXPECT_NO_THROW(read_checkpoint(path_, case_.model, "small"));
}

// Hostile numbers written over random words of the state and the rotation accumulators, the
// checksum made to fit (a writer's bug, not a disk's): each is refused, or resumes to a run
// that ends (identical, or different; issue 20 counts how many of each, below).
TEST_F(CheckpointDamage, HostileNumbersWithARecomputedChecksumAreMostlyRefused) {
  const std::size_t state_start = intact_.size() / 8;
  const std::size_t body = intact_.size() - sizeof(std::uint64_t);
  std::mt19937_64 random(2026);
  const double values[] = {std::nan(""), INFINITY, -INFINITY, 1e300, -1e300};
  int rejected = 0, identical = 0, flagged = 0, different = 0;
  constexpr int trials = 200;
  for (int trial = 0; trial < trials; ++trial) {
    std::string bytes = intact_;
    const std::size_t at =
        std::uniform_int_distribution<std::size_t>(state_start, body - 8)(random) / 8 * 8;
    if (random() % 4 == 0) {
      const std::int64_t count = 1LL << 62;
      std::memcpy(&bytes[at], &count, sizeof count);
    } else {
      std::memcpy(&bytes[at], &values[random() % 5], sizeof(double));
    }
    io::Checksum sum;
    sum.add(bytes.data(), body);
    const std::uint64_t value = sum.value();
    std::memcpy(&bytes[body], &value, sizeof value);
    spit(path_, bytes);
    const std::string outcome = resume();
    rejected += outcome == "rejected";
    identical += outcome == "identical";
    flagged += outcome == "different, flagged";
    different += outcome == "different";
  }
  std::cout << "hostile numbers, re-checksummed: " << trials << " trials, " << rejected
            << " rejected, " << identical << " resumed identical, " << flagged
            << " resumed to other results with a packing flagged, " << different
            << " to other results with every packing ok\n";
  EXPECT_EQ(rejected + identical + flagged + different, trials);
  // a finite, plausible number (a skin history of 2.0 m, a Gear derivative of 1e300 that the
  // next step overwrites) cannot be told from the run's own
  EXPECT_LE(different, trials / 20);
}

}  // namespace
}  // namespace granular::md
