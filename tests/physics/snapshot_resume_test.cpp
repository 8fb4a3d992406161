// Snapshots through the cases layer (cases::run_packing_ensemble with a SnapshotPlan): the
// frames hold the state of the run bit for bit, and a run interrupted and resumed from its
// checkpoint leaves snapshot files byte-identical to the uninterrupted run's, even when a
// session wrote past its checkpoint before it died (a GSD file then holds more frames, its index
// and header rewritten); a GSD file changed since its checkpoint is refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/checkpoint.hpp"
#include "granular/io/table.hpp"
#include "support/run_context.hpp"
#include "support/tiny_ensemble.hpp"

namespace granular {
namespace {

namespace fs = std::filesystem;

// chunks of 1000 steps: settle 10, transient 5, measure 5 chunks (20 chunk ends after the start)
md::EnsembleCase tiny_case() { return test::tiny_ensemble_case({0.1, 0.05, 0.05, 0.01}); }

// packings 1 and 2, a frame at chunk end 3 and every second one after: 3, 5, ..., 19
cases::SnapshotPlan plan() {
  cases::SnapshotPlan p;
  p.packings = {1, 2};
  p.first_chunk = 3;
  p.every_chunks = 2;
  p.lammps = true;
  p.vtk = true;
  p.gsd = true;
  return p;
}

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("granular_snapshot_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::map<std::string, std::string> snapshot_files(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir / "snapshots"))
    files[e.path().filename().string()] = slurp(e.path());
  return files;
}

const nlohmann::json echo = {{"model", "packing_ensemble"}, {"seed", 7}};

TEST(SnapshotResume, ResumedRunWritesByteIdenticalSnapshots) {
  std::ostringstream progress;
  const fs::path straight = scratch("straight");
  ASSERT_EQ(cases::run_packing_ensemble(tiny_case(), test::run_context(straight, echo, 2, progress),
                                        plan()),
            cases::RunEnd::complete);
  const std::map<std::string, std::string> expected = snapshot_files(straight);
  // two packings: a dump, a collection, a GSD file and nine frames each
  ASSERT_EQ(expected.size(), 2u * (3 + 9));

  // slices of 700 steps: the checkpoints fall inside chunks, after a frame and before one
  for (int slices : {7, 13, 27}) {
    const fs::path dir = scratch("resumed_" + std::to_string(slices));
    cases::RunContext control = test::run_context(dir, echo, 2, progress);
    int taken = 0;
    control.request.control.slice_steps = 700;
    control.request.control.stop = [&] { return ++taken >= slices; };
    ASSERT_EQ(cases::run_packing_ensemble(tiny_case(), control, plan()),
              cases::RunEnd::interrupted);
    // a session that died after its checkpoint had written more: a second session writes
    // frames past the checkpoint, which is then put back; all is cut back on resume
    fs::copy_file(dir / "checkpoint.bin", dir / "first.bin");
    const auto gsd_bytes = fs::file_size(dir / "snapshots/packing_1.gsd");
    cases::RunContext more = test::run_context(dir, echo, 1, progress);
    more.request.resume = true;
    more.request.control.slice_steps = 700;
    taken = 0;
    more.request.control.stop = [&] { return ++taken >= 9; };
    ASSERT_EQ(cases::run_packing_ensemble(tiny_case(), more, plan()), cases::RunEnd::interrupted);
    EXPECT_GT(fs::file_size(dir / "snapshots/packing_1.gsd"), gsd_bytes) << "frames past it";
    fs::rename(dir / "first.bin", dir / "checkpoint.bin");
    std::ofstream(dir / "snapshots/packing_1.lammpstrj", std::ios::app)
        << "ITEM: TIMESTEP\n99999\nITEM: NUMBER OF ATOMS\n";
    {
      std::string pvd = slurp(dir / "snapshots/packing_2.pvd");
      const std::string extra = "    <DataSet timestep=\"9\" part=\"0\" file=\"stale.vtp\"/>\n";
      pvd.insert(pvd.find("  </Collection>"), extra);
      std::ofstream(dir / "snapshots/packing_2.pvd", std::ios::trunc) << pvd;
    }
    cases::RunContext resume = test::run_context(dir, echo, 1, progress);
    resume.request.resume = true;
    ASSERT_EQ(cases::run_packing_ensemble(tiny_case(), resume, plan()), cases::RunEnd::complete);
    const std::map<std::string, std::string> got = snapshot_files(dir);
    ASSERT_EQ(got.size(), expected.size()) << slices;
    for (const auto& [name, bytes] : expected) {
      ASSERT_TRUE(got.count(name)) << name;
      EXPECT_TRUE(got.at(name) == bytes) << name << " after " << slices << " slices";
    }
  }
}

TEST(SnapshotResume, CheckpointWithoutSnapshotSizesIsRefused) {
  std::ostringstream progress;
  const fs::path dir = scratch("no_sizes");
  cases::RunContext control = test::run_context(dir, echo, 1, progress);
  control.request.control.stop = [] { return true; };
  // stopped without snapshots, resumed with them: the checkpoint knows no snapshot file (the
  // GSD files are opened first)
  ASSERT_EQ(cases::run_packing_ensemble(tiny_case(), control), cases::RunEnd::interrupted);
  cases::RunContext resume = test::run_context(dir, echo, 1, progress);
  resume.request.resume = true;
  try {
    cases::run_packing_ensemble(tiny_case(), resume, plan());
    FAIL() << "resumed snapshots the checkpoint has no size of";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no size recorded for snapshots/packing_1.gsd"),
              std::string::npos)
        << e.what();
  }
}

TEST(SnapshotResume, GsdFileChangedSinceTheCheckpointIsRefused) {
  std::ostringstream progress;
  const fs::path dir = scratch("gsd_changed");
  cases::RunContext control = test::run_context(dir, echo, 1, progress);
  int taken = 0;
  control.request.control.slice_steps = 700;
  control.request.control.stop = [&] { return ++taken >= 13; };
  ASSERT_EQ(cases::run_packing_ensemble(tiny_case(), control, plan()), cases::RunEnd::interrupted);
  // the last frame's last θ changed (the file ends with it: the index has not moved yet)
  const fs::path gsd = dir / "snapshots/packing_2.gsd";
  std::string bytes = slurp(gsd);
  ASSERT_NE(bytes.substr(bytes.size() - 8), std::string(8, '\0'));
  bytes.back() = static_cast<char>(bytes.back() ^ 1);
  std::ofstream(gsd, std::ios::binary | std::ios::trunc) << bytes;
  const std::string before = slurp(dir / "energy.csv");
  cases::RunContext resume = test::run_context(dir, echo, 1, progress);
  resume.request.resume = true;
  try {
    cases::run_packing_ensemble(tiny_case(), resume, plan());
    FAIL() << "resumed from a GSD file changed since its checkpoint";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("packing_2.gsd: does not hold the "), std::string::npos)
        << e.what();
  }
  // refused before anything was cut back or replaced, and no temporary left
  EXPECT_EQ(slurp(gsd), bytes);
  EXPECT_EQ(slurp(dir / "energy.csv"), before);
  EXPECT_FALSE(fs::exists(dir / "snapshots/packing_2.gsd.tmp"));
}

TEST(SnapshotResume, FramesHoldTheStateBitForBit) {
  // stopped at the end of chunk 7, a frame: the dump's last frame is the checkpoint's state
  std::ostringstream progress;
  const fs::path dir = scratch("state");
  cases::RunContext control = test::run_context(dir, echo, 2, progress);
  int taken = 0;
  control.request.control.slice_steps = 1000;
  control.request.control.stop = [&] { return ++taken >= 7; };
  const md::EnsembleCase c = tiny_case();
  ASSERT_EQ(cases::run_packing_ensemble(c, control, plan()), cases::RunEnd::interrupted);
  const io::EnsembleCheckpoint cp =
      io::read_checkpoint(cases::checkpoint_path(dir), c.model, cases::case_fingerprint(echo));
  const md::EnsembleState& s = cp.point.state;
  ASSERT_EQ(s.step, 7000);

  const std::string dump = slurp(dir / "snapshots/packing_2.lammpstrj");
  const std::size_t last = dump.rfind("ITEM: TIMESTEP\n");
  std::istringstream in(dump.substr(last));
  std::string line;
  std::getline(in, line);
  std::getline(in, line);
  EXPECT_EQ(line, "7000");
  for (int k = 0; k < 7; ++k) std::getline(in, line);
  const int first = c.model.offset[2];
  for (int i = 0; i < c.model.packing_size(2); ++i) {
    std::getline(in, line);
    std::istringstream row(line);
    std::string id, type, radius, x, y, vx, vy, omega, theta;
    row >> id >> type >> radius >> x >> y >> vx >> vy >> omega >> theta;
    EXPECT_EQ(id, std::to_string(i + 1));
    EXPECT_EQ(x, io::round_trip(s.x[first + i]));
    EXPECT_EQ(y, io::round_trip(s.y[first + i]));
    EXPECT_EQ(vx, io::round_trip(s.vx[first + i]));
    EXPECT_EQ(omega, io::round_trip(s.omega[first + i]));
    EXPECT_EQ(theta, io::round_trip(s.theta[first + i]));
    EXPECT_EQ(std::strtod(x.c_str(), nullptr), s.x[first + i]);
    // three radii, types 1 to 3 by size
    EXPECT_EQ(type, std::to_string(c.model.radius[first + i] == 0.015  ? 1
                                   : c.model.radius[first + i] == 0.02 ? 2
                                                                       : 3));
  }
  // the VTK frame's points are the same doubles: frame 2 (chunk ends 3, 5, 7)
  const std::string vtp = slurp(dir / "snapshots/packing_2_000002.vtp");
  const std::size_t data = vtp.find("_", vtp.find("<AppendedData")) + 1;
  const std::size_t at = vtp.find("Name=\"Points\"");
  const std::size_t offset_at = vtp.find("offset=\"", at) + 8;
  const std::size_t offset = std::stoull(vtp.substr(offset_at));
  std::uint64_t bytes = 0;
  std::memcpy(&bytes, vtp.data() + data + offset, sizeof bytes);
  EXPECT_GE(bytes, 3 * sizeof(double) * c.model.packing_size(2));
  for (int i = 0; i < c.model.packing_size(2); ++i) {
    double xyz[3];
    std::memcpy(xyz, vtp.data() + data + offset + 8 + 24 * i, sizeof xyz);
    EXPECT_EQ(xyz[0], s.x[first + i]);
    EXPECT_EQ(xyz[1], s.y[first + i]);
    EXPECT_EQ(xyz[2], 0.0);
  }
}

}  // namespace
}  // namespace granular
