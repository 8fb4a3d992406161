// Tests for io/checkpoint.cpp and the resume path of md/ensemble/run.cpp and
// cases/packing_ensemble/run_md.cpp: a run stopped after k chunks and resumed from its checkpoint
// ends bitwise identical to the uninterrupted run (observables, final state, CSV files), and a
// checkpoint of another case or a damaged file is rejected with the file named.
#include "granular/io/checkpoint.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/run_context.hpp"
#include "../support/tiny_ensemble.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/ensemble/run.hpp"

namespace granular::md {
namespace {

using io::EnsembleCheckpoint;
using io::read_checkpoint;
using io::read_checkpoint_header;
using io::write_checkpoint;

namespace fs = std::filesystem;

// chunks of 1000 steps: settle 10, transient 5, measure 5 chunks.
EnsembleCase tiny_case() {
  return test::tiny_ensemble_case(
      {0.1, 0.05, 0.05, 0.01});  // settle, transient, measure, sample [s]
}

// FNV-1a over the bytes of every array a step writes: equal hashes mean bitwise-equal states.
std::uint64_t state_hash(const EnsembleState& s) {
  std::uint64_t h = 1469598103934665603ull;
  const auto add = [&h](const auto& v) {
    const auto* p = reinterpret_cast<const unsigned char*>(v.data());
    for (std::size_t i = 0; i < v.size() * sizeof(v[0]); ++i) h = (h ^ p[i]) * 1099511628211ull;
  };
  for (const auto* a : {&s.x, &s.y, &s.theta, &s.vx, &s.vy, &s.omega, &s.ax, &s.ay, &s.alpha,
                        &s.gear_high, &s.fx, &s.fy, &s.torque, &s.x_ref, &s.y_ref}) {
    add(*a);
  }
  for (const auto* a : {&s.neighbors, &s.neighbor_count, &s.neighbor_upper}) add(*a);
  add(s.contacts);
  add(s.walls);
  add(s.slots_used);
  add(s.status);
  add(s.rebuild_count);
  return h;
}

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(testing::TempDir()) / ("granular_checkpoint_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// What a run passes its observers: the energy totals of every chunk and the final state's hash.
struct Trace {
  std::vector<double> energy;  // (t, total of every packing) per call
  std::uint64_t final_hash = 0;
  EnsembleObserver observer() {
    EnsembleObserver o;
    o.on_energy = [this](double t, RunPhase, const std::vector<PackingEnergy>& e) {
      energy.push_back(t);
      for (const PackingEnergy& pe : e) energy.push_back(pe.total());
    };
    o.on_sample = [this](double, const EnsembleModel&, const EnsembleState& s) {
      final_hash = state_hash(s);
    };
    return o;
  }
};

// The drive a checkpoint of `c` records: Γ of every packing.
std::vector<double> drive(const EnsembleCase& c) {
  std::vector<double> gammas;
  for (const md::PackingParams& p : c.model.packings) gammas.push_back(p.gamma);
  return gammas;
}

// Runs `c` up to `chunks` chunks and writes the checkpoint it stops at to `path`.
void run_until(const EnsembleCase& c, int chunks, const fs::path& path,
               const std::string& fingerprint, Trace* trace = nullptr) {
  auto backend = make_cpu_backend(2);
  int taken = 0;
  EnsembleRunOptions options;
  options.control.checkpoint_interval = 0.0;
  options.control.slice_steps = 1000;  // a slice per chunk: stop is asked once per chunk
  options.control.stop = [&] { return ++taken >= chunks; };
  options.on_checkpoint = [&](const RunPosition& pos, const EnsembleState& s,
                              const std::vector<RotationStats>& rotation) {
    write_checkpoint(path, {fingerprint, backend->name(), {}, pos, drive(c)}, s, rotation);
  };
  Trace local;
  const EnsembleResult r = run_ensemble(c, *backend, (trace ? trace : &local)->observer(), options);
  ASSERT_FALSE(r.complete);
  EXPECT_TRUE(r.packings.empty());
  EXPECT_EQ(r.steps, 1000 * chunks);
}

TEST(Checkpoint, ResumedRunIsBitwiseIdenticalToTheUninterruptedRun) {
  const EnsembleCase c = tiny_case();
  auto backend = make_cpu_backend(2);
  Trace straight;
  const EnsembleResult a = run_ensemble(c, *backend, straight.observer());
  ASSERT_TRUE(a.complete);
  EXPECT_EQ(a.steps, 20000);

  // inside the settle, at the end of the transient (a phase boundary) and inside the measurement
  const fs::path dir = scratch("bitwise");
  for (int k : {4, 15, 17}) {
    SCOPED_TRACE("stopped after chunk " + std::to_string(k));
    const fs::path path = dir / ("checkpoint_" + std::to_string(k) + ".bin");
    Trace resumed;
    run_until(c, k, path, "tiny", &resumed);
    const EnsembleCheckpoint cp = read_checkpoint(path, c.model, "tiny");
    EXPECT_EQ(cp.header.position.steps_done, 1000 * k);
    EnsembleRunOptions options;
    options.resume = &cp.point;
    const EnsembleResult b = run_ensemble(c, *backend, resumed.observer(), options);
    ASSERT_TRUE(b.complete);

    // the observers saw the same sequence, split at the checkpoint, and the same final state
    EXPECT_TRUE(bitwise_equal(resumed.energy, straight.energy));
    EXPECT_EQ(resumed.final_hash, straight.final_hash);
    EXPECT_EQ(b.steps, a.steps);
    EXPECT_EQ(b.particle_steps, a.particle_steps);
    ASSERT_EQ(b.packings.size(), a.packings.size());
    for (std::size_t p = 0; p < a.packings.size(); ++p) {
      EXPECT_TRUE(bitwise_equal(b.packings[p].omega_bar, a.packings[p].omega_bar)) << p;
      EXPECT_TRUE(bitwise_equal(b.packings[p].rho2, a.packings[p].rho2)) << p;
      EXPECT_TRUE(bitwise_equal(b.packings[p].sigma_a, a.packings[p].sigma_a)) << p;
    }
  }
}

// An interrupt is answered within a slice, so a checkpoint may fall inside a chunk: resuming
// there finishes the chunk and ends bitwise identical too.
TEST(Checkpoint, ResumedFromInsideAChunkIsBitwiseIdentical) {
  const EnsembleCase c = tiny_case();
  auto backend = make_cpu_backend(2);
  Trace straight;
  const EnsembleResult a = run_ensemble(c, *backend, straight.observer());
  ASSERT_TRUE(a.complete);

  const fs::path dir = scratch("inside_chunk");
  // slices of 7 steps, 143 to a chunk of 1000 (the last one 6 steps): stops at step 7 (settle),
  // 10 007 (transient) and 16 980 (measurement)
  const std::pair<int, std::int64_t> stops[] = {{1, 7}, {1431, 10007}, {2428, 16980}};
  for (const auto& [stop_after, steps] : stops) {
    const int slices = stop_after;  // a structured binding cannot be captured in C++17
    SCOPED_TRACE("stopped after slice " + std::to_string(slices));
    const fs::path path = dir / ("checkpoint_" + std::to_string(slices) + ".bin");
    Trace resumed;
    int taken = 0;
    EnsembleRunOptions stop;
    stop.control.checkpoint_interval = 0.0;
    stop.control.slice_steps = 7;
    stop.control.stop = [&] { return ++taken >= slices; };
    stop.on_checkpoint = [&](const RunPosition& pos, const EnsembleState& s,
                             const std::vector<RotationStats>& rotation) {
      write_checkpoint(path, {"tiny", backend->name(), {}, pos, drive(c)}, s, rotation);
    };
    const EnsembleResult first = run_ensemble(c, *backend, resumed.observer(), stop);
    ASSERT_FALSE(first.complete);
    EXPECT_EQ(first.steps, steps);
    const EnsembleCheckpoint cp = read_checkpoint(path, c.model, "tiny");
    EnsembleRunOptions options;
    options.resume = &cp.point;
    const EnsembleResult b = run_ensemble(c, *backend, resumed.observer(), options);
    ASSERT_TRUE(b.complete);
    EXPECT_TRUE(bitwise_equal(resumed.energy, straight.energy));
    EXPECT_EQ(resumed.final_hash, straight.final_hash);
    ASSERT_EQ(b.packings.size(), a.packings.size());
    for (std::size_t p = 0; p < a.packings.size(); ++p) {
      EXPECT_TRUE(bitwise_equal(b.packings[p].omega_bar, a.packings[p].omega_bar)) << p;
      EXPECT_TRUE(bitwise_equal(b.packings[p].sigma_a, a.packings[p].sigma_a)) << p;
    }
  }
}

TEST(Checkpoint, RunEnsembleCaseResumesCsvFilesByteIdentical) {
  const EnsembleCase c = tiny_case();
  const nlohmann::json echo = {{"model", "packing_ensemble"}, {"seed", 7}};
  std::ostringstream progress;
  const fs::path straight = scratch("csv_straight");
  ASSERT_EQ(cases::run_packing_ensemble(c, test::run_context(straight, echo, 2, progress)),
            cases::RunEnd::complete);
  EXPECT_FALSE(fs::exists(cases::checkpoint_path(straight)));

  // stopped inside the measurement: a checkpoint and the CSVs so far, no summary
  const fs::path dir = scratch("csv_resumed");
  cases::RunContext control = test::run_context(dir, echo, 2, progress);
  int taken = 0;
  control.request.control.slice_steps = 1000;
  control.request.control.stop = [&] { return ++taken >= 17; };
  EXPECT_EQ(cases::run_packing_ensemble(c, control), cases::RunEnd::interrupted);
  EXPECT_TRUE(fs::exists(cases::checkpoint_path(dir)));
  EXPECT_FALSE(fs::exists(dir / "summary.json"));

  // rows written after the checkpoint by a run that then died are cut off on resume
  std::ofstream(dir / "energy.csv", std::ios::app) << "0.123,0,0.5,partial row\n";
  std::ofstream(dir / "angles.csv", std::ios::app) << "0.123,0.5,0,0,1.";
  cases::RunContext resume = test::run_context(dir, echo, 1, progress);
  resume.request.resume = true;
  ASSERT_EQ(cases::run_packing_ensemble(c, resume), cases::RunEnd::complete);
  EXPECT_NE(progress.str().find("resuming from"), std::string::npos);

  for (const char* name : {"energy.csv", "angles.csv", "disks.csv"}) {
    EXPECT_EQ(slurp(dir / name), slurp(straight / name)) << name;
  }
  // the summary is the same except for wall times, the thread count and the date
  nlohmann::json a = nlohmann::json::parse(slurp(straight / "summary.json"));
  nlohmann::json b = nlohmann::json::parse(slurp(dir / "summary.json"));
  for (const char* key :
       {"wall_time_s", "advance_time_s", "particle_steps_per_s", "threads", "provenance"}) {
    a.erase(key);
    b.erase(key);
  }
  EXPECT_EQ(a, b);
  // summary.json is the finished result: the checkpoint is gone
  EXPECT_FALSE(fs::exists(cases::checkpoint_path(dir)));
}

// A checkpoint written by another backend (here relabelled "cuda": the state arrays are the
// same on every backend) continues on the CPU to the uninterrupted run's outputs.
TEST(Checkpoint, ACheckpointOfAnotherBackendResumes) {
  const EnsembleCase c = tiny_case();
  const nlohmann::json echo = {{"model", "packing_ensemble"}, {"seed", 8}};
  std::ostringstream progress;
  const fs::path straight = scratch("backend_straight");
  ASSERT_EQ(cases::run_packing_ensemble(c, test::run_context(straight, echo, 2, progress)),
            cases::RunEnd::complete);
  const fs::path dir = scratch("backend_resumed");
  cases::RunContext control = test::run_context(dir, echo, 2, progress);
  int taken = 0;
  control.request.control.slice_steps = 1000;
  control.request.control.stop = [&] { return ++taken >= 9; };
  ASSERT_EQ(cases::run_packing_ensemble(c, control), cases::RunEnd::interrupted);
  const fs::path path = cases::checkpoint_path(dir);
  const std::string fingerprint = cases::case_fingerprint(echo, std::nullopt);
  io::EnsembleCheckpoint cp = read_checkpoint(path, c.model, fingerprint);
  ASSERT_EQ(cp.header.backend, "cpu");
  cp.header.backend = "cuda";
  write_checkpoint(path, cp.header, cp.point.state, cp.point.rotation);

  cases::RunContext resume = test::run_context(dir, echo, 1, progress);
  resume.request.resume = true;
  ASSERT_EQ(cases::run_packing_ensemble(c, resume), cases::RunEnd::complete);
  EXPECT_NE(progress.str().find("made by the cuda backend, continued on cpu"), std::string::npos)
      << progress.str();
  for (const char* name : {"energy.csv", "angles.csv", "disks.csv"}) {
    EXPECT_EQ(slurp(dir / name), slurp(straight / name)) << name;
  }
}

TEST(Checkpoint, FreshRunRemovesAnOldCheckpoint) {
  const EnsembleCase c = tiny_case();
  const fs::path dir = scratch("fresh");
  std::ostringstream progress;
  cases::RunContext control = test::run_context(dir, {{"seed", 1}}, 1, progress);
  control.request.control.stop = [] { return true; };
  EXPECT_EQ(cases::run_packing_ensemble(c, control), cases::RunEnd::interrupted);
  ASSERT_TRUE(fs::exists(cases::checkpoint_path(dir)));
  // a fresh run of another case ignores it, and it cannot be resumed against the new CSVs
  control = test::run_context(dir, {{"seed", 2}}, 1, progress);
  EXPECT_EQ(cases::run_packing_ensemble(c, control), cases::RunEnd::complete);
  EXPECT_FALSE(fs::exists(cases::checkpoint_path(dir)));
}

TEST(Checkpoint, RejectsCheckpointOfAnotherCase) {
  const EnsembleCase c = tiny_case();
  const fs::path path = scratch("other_case") / "checkpoint.bin";
  run_until(c, 2, path, "case A");

  // another fingerprint
  try {
    read_checkpoint(path, c.model, "case B");
    FAIL() << "accepted a checkpoint of another case";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ": made by a different case"),
              std::string::npos)
        << e.what();
  }

  // the same fingerprint, but a model with one packing less: the array sizes differ
  EnsembleCase smaller = tiny_case();
  smaller.model = EnsembleModel{};
  smaller.model.dt = c.model.dt;
  smaller.model.neighbor = c.model.neighbor;
  for (int p = 0; p < 3; ++p) {
    const std::vector<double> radii(c.model.radius.begin() + c.model.offset[p],
                                    c.model.radius.begin() + c.model.offset[p + 1]);
    smaller.model.add_packing(c.model.packings[p], radii, c.areal_density);
  }
  try {
    read_checkpoint(path, smaller.model, "case A");
    FAIL() << "accepted a checkpoint with other array sizes";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ": array "), std::string::npos)
        << e.what();
  }

  // the same fingerprint and sizes, another schedule: run_ensemble refuses to resume it
  const EnsembleCheckpoint cp = read_checkpoint(path, c.model, "case A");
  EnsembleCase longer = tiny_case();
  longer.schedule.settle_time = 0.2;
  auto backend = make_cpu_backend(1);
  EnsembleRunOptions options;
  options.resume = &cp.point;
  EXPECT_THROW(run_ensemble(longer, *backend, {}, options), std::invalid_argument);

  // the same fingerprint and sizes, another drive (the case's Γ of packing 1 changed): refused,
  // naming the packing and both Γ
  io::CheckpointHeader header = cp.header;
  header.gammas[1] += 0.5;
  write_checkpoint(path, header, cp.point.state, cp.point.rotation);
  try {
    read_checkpoint(path, c.model, "case A");
    FAIL() << "accepted a checkpoint of another drive";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ": packing 1 ran with Γ = "),
              std::string::npos)
        << e.what();
  }
}

TEST(Checkpoint, RejectsTruncatedOrForeignFiles) {
  const EnsembleCase c = tiny_case();
  const fs::path dir = scratch("truncated");
  const fs::path path = dir / "checkpoint.bin";
  run_until(c, 1, path, "tiny");
  ASSERT_NO_THROW(read_checkpoint(path, c.model, "tiny"));
  const std::string whole = slurp(path);

  const auto expect_rejected = [&](const std::string& bytes, const std::string& message) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    try {
      read_checkpoint(path, c.model, "tiny");
      ADD_FAILURE() << "accepted: " << message;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(path.string() + ": " + message), std::string::npos)
          << e.what();
    }
  };
  expect_rejected(whole.substr(0, whole.size() / 2), "damaged or truncated checkpoint");
  expect_rejected(whole.substr(0, whole.size() - 1), "damaged or truncated checkpoint");
  expect_rejected(whole.substr(0, 20), "damaged or truncated checkpoint");
  expect_rejected(whole.substr(0, 10), "truncated checkpoint (the file ends early)");
  expect_rejected(whole + "x", "damaged or truncated checkpoint");
  expect_rejected("t,packing,gamma\n0,0,0.5\n", "not a granular checkpoint");
  std::string other_version = whole;
  other_version[8] = 9;
  expect_rejected(other_version, "checkpoint version 9");
  fs::remove(path);
  EXPECT_THROW(read_checkpoint_header(path), std::runtime_error);
  fs::create_directories(path / "inside");
  try {
    read_checkpoint_header(path);
    ADD_FAILURE() << "accepted a folder";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ": is a folder, not a checkpoint");
  }
}

}  // namespace
}  // namespace granular::md
