// Tests for the backends (src/md/cpu_backend.cpp, kernels/cuda_backend.cu): one test body on
// every backend, as HOOMD runs its force tests with a CPU and a GPU creator. The CUDA
// instantiation compiles everywhere and skips when no device is present, saying why; with
// GRANULAR_REQUIRE_CUDA=1 (set on GPU machines, docs/gpu-first-run.md) it fails instead, so a
// driver too old for the runtime cannot turn the GPU tests into silent skips.
#include "granular/md/backend.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../support/scenes.hpp"
#include "../../support/supported_disk_ensemble.hpp"
#include "granular/md/cuda_schedule.hpp"
#include "granular/md/state.hpp"

namespace granular::md {
namespace {

// Each backend under test has a name the tests are listed by (BackendTest/Cuda.*), which
// scripts/gpu_first_run.sh filters on.
struct Cpu {
  static std::unique_ptr<Backend> make() { return make_cpu_backend(2); }
  static bool available() { return true; }
  static std::string name() { return "Cpu"; }
};

struct Cuda {
  static std::unique_ptr<Backend> make() { return make_cuda_backend(); }
  static bool available() { return cuda_device_available(); }
  static std::string name() { return "Cuda"; }
};

// The grid-wide path of large packings, forced on these small ones.
struct CudaGridWide {
  static std::unique_ptr<Backend> make() { return make_cuda_backend(0); }
  static bool available() { return cuda_device_available(); }
  static std::string name() { return "CudaGridWide"; }
};

// The block path on another schedule (cuda_schedule.hpp): Name is its name.
template <const char* Name>
struct CudaOn {
  static std::unique_ptr<Backend> make() {
    return make_cuda_backend(default_large_packing, parse_cuda_schedule(Name));
  }
  static bool available() { return cuda_device_available(); }
  static std::string name() {
    std::string name = std::string("Cuda_") + Name;
    for (char& c : name) c = c == ':' ? '_' : c;
    return name;  // e.g. Cuda_warp_4_state
  }
};
constexpr char block_state[] = "block:state";
constexpr char block_history[] = "block:history";
constexpr char warp_1[] = "warp:1";
constexpr char warp_4_state[] = "warp:4:state";
constexpr char warp_8_history[] = "warp:8:history";  // too large: falls back to warp:8:state
using CudaBlockState = CudaOn<block_state>;
using CudaBlockHistory = CudaOn<block_history>;
using CudaWarp1 = CudaOn<warp_1>;
using CudaWarp4State = CudaOn<warp_4_state>;
using CudaWarp8History = CudaOn<warp_8_history>;

struct BackendName {
  template <class B>
  static std::string GetName(int) {
    return B::name();
  }
};

// Three vibrated packings of 30 disks, stepped on the backend under test and on the 1-thread
// CPU reference: the trajectories must agree bitwise (same step functions, same order of
// every sum).
template <class B>
class BackendTest : public ::testing::Test {};
using Backends = ::testing::Types<Cpu, Cuda, CudaGridWide, CudaBlockState, CudaBlockHistory,
                                  CudaWarp1, CudaWarp4State, CudaWarp8History>;
TYPED_TEST_SUITE(BackendTest, Backends, BackendName);

struct Run {
  EnsembleModel model;
  EnsembleState state;
};

// `packings` vibrated packings of `disks` disks on lattices `columns` wide (Γ from 1 to 3).
Run vibrated_ensemble(int packings, int disks, int columns) {
  Run r;
  r.model.dt = 2e-5;
  r.model.neighbor.skin = 0.004;
  std::vector<double> x, y;
  for (int p = 0; p < packings; ++p) {
    const test::Scene s = test::jittered_lattice(disks, columns, 0.015, 0.025, 0.004, 40 + p);
    PackingParams pp{};
    pp.box_width = test::lattice_box_width(columns, 0.025, 0.004);
    pp.gravity = 9.8;
    pp.drive_omega = 2.0 * 3.141592653589793 * 80.0;
    pp.drive_amplitude = (1.0 + p % 3) * 9.8 / (pp.drive_omega * pp.drive_omega);
    pp.disk_disk = {1e4, 7.7e3, 0.1, 0.1};
    pp.disk_wall = pp.disk_disk;
    r.model.add_packing(pp, s.radii, 3.57);
    x.insert(x.end(), s.x.begin(), s.x.end());
    y.insert(y.end(), s.y.begin(), s.y.end());
  }
  r.state = make_state(r.model, x, y, -0.02);
  return r;
}

// Three vibrated packings of 30 disks.
Run vibrated_ensemble() { return vibrated_ensemble(3, 30, 6); }

// Skips (or, with GRANULAR_REQUIRE_CUDA set, fails) a test of backend B where it cannot run.
template <class B>
bool backend_unavailable() {
  if (B::available()) return false;
  const char* require = std::getenv("GRANULAR_REQUIRE_CUDA");
  if (require != nullptr && std::string(require) != "" && std::string(require) != "0") {
    ADD_FAILURE() << "GRANULAR_REQUIRE_CUDA is set, but " << cuda_unavailable_reason();
  }
  return true;
}

TYPED_TEST(BackendTest, MatchesTheSingleThreadCpuReferenceBitwise) {
  if (backend_unavailable<TypeParam>()) GTEST_SKIP() << cuda_unavailable_reason();
  Run reference = vibrated_ensemble();
  Run tested = vibrated_ensemble();
  auto cpu = make_cpu_backend(1);
  auto backend = TypeParam::make();
  cpu->initialize(reference.model, reference.state);
  backend->initialize(tested.model, tested.state);
  for (int chunk = 0; chunk < 4; ++chunk) {
    cpu->advance(reference.model, reference.state, 2000);
    backend->advance(tested.model, tested.state, 2000);
  }
  EXPECT_EQ(tested.state.step, reference.state.step);
  EXPECT_EQ(tested.state.x, reference.state.x);
  EXPECT_EQ(tested.state.y, reference.state.y);
  EXPECT_EQ(tested.state.theta, reference.state.theta);
  EXPECT_EQ(tested.state.omega, reference.state.omega);
  EXPECT_EQ(tested.state.status, std::vector<std::uint32_t>(3, status_ok));
}

// Prescribed bodies (random and sine), tilt and an applied torque: the supported-disk systems.
TYPED_TEST(BackendTest, PrescribedBodiesMatchTheSingleThreadCpuReferenceBitwise) {
  if (backend_unavailable<TypeParam>()) GTEST_SKIP() << cuda_unavailable_reason();
  Run reference;
  reference.state = test::supported_disk_ensemble(reference.model, 4);
  Run tested = reference;
  auto cpu = make_cpu_backend(1);
  auto backend = TypeParam::make();
  cpu->initialize(reference.model, reference.state);
  backend->initialize(tested.model, tested.state);
  for (int chunk = 0; chunk < 3; ++chunk) {
    cpu->advance(reference.model, reference.state, 1000);
    backend->advance(tested.model, tested.state, 1000);
  }
  EXPECT_EQ(tested.state.x, reference.state.x);
  EXPECT_EQ(tested.state.y, reference.state.y);
  EXPECT_EQ(tested.state.theta, reference.state.theta);
  EXPECT_EQ(tested.state.omega, reference.state.omega);
  EXPECT_EQ(tested.state.body_motion, reference.state.body_motion);
  EXPECT_EQ(tested.state.status, reference.state.status);
}

// A drive changed between advances (granular.Ensemble.set_gamma) acts from the next step on
// every backend, also when the state stayed on the device between the calls.
TYPED_TEST(BackendTest, ADriveChangedBetweenAdvancesActsFromTheNextStep) {
  if (backend_unavailable<TypeParam>()) GTEST_SKIP() << cuda_unavailable_reason();
  Run reference = vibrated_ensemble();
  Run tested = vibrated_ensemble();
  Run unchanged = vibrated_ensemble();
  auto cpu = make_cpu_backend(1);
  auto backend = TypeParam::make();
  cpu->initialize(reference.model, reference.state);
  cpu->initialize(unchanged.model, unchanged.state);
  backend->initialize(tested.model, tested.state);
  cpu->advance(reference.model, reference.state, 1000);
  cpu->advance(unchanged.model, unchanged.state, 1000);
  backend->advance_resident(tested.model, tested.state, 1000);
  for (Run* r : {&reference, &tested}) r->model.packings[1].drive_amplitude *= 2.0;
  backend->model_changed(tested.state);
  cpu->advance(reference.model, reference.state, 1000);
  cpu->advance(unchanged.model, unchanged.state, 1000);
  backend->advance_resident(tested.model, tested.state, 1000);
  backend->download(tested.state);
  EXPECT_EQ(tested.state.x, reference.state.x);
  EXPECT_EQ(tested.state.y, reference.state.y);
  EXPECT_EQ(tested.state.omega, reference.state.omega);
  // the changed packing moved otherwise than with the old drive; the others did not
  const auto heights = [](const Run& r, int p) {
    return std::vector<double>(r.state.y.begin() + r.model.offset[p],
                               r.state.y.begin() + r.model.offset[p + 1]);
  };
  EXPECT_NE(heights(reference, 1), heights(unchanged, 1));
  EXPECT_EQ(heights(reference, 0), heights(unchanged, 0));
  EXPECT_EQ(heights(reference, 2), heights(unchanged, 2));
  EXPECT_EQ(tested.state.status, std::vector<std::uint32_t>(3, status_ok));
}

// The shapes the kernel meets (issue 10): 60-disk thesis packings (two warps), a 300-disk
// packing (ten warps, several disks per thread) and 1 000 packings.
template <class B>
void expect_matches_cpu(Run reference, std::int64_t steps) {
  Run tested = reference;
  auto cpu = make_cpu_backend(2);
  auto backend = B::make();
  cpu->initialize(reference.model, reference.state);
  backend->initialize(tested.model, tested.state);
  cpu->advance(reference.model, reference.state, steps);
  backend->advance(tested.model, tested.state, steps);
  EXPECT_EQ(tested.state.x, reference.state.x);
  EXPECT_EQ(tested.state.y, reference.state.y);
  EXPECT_EQ(tested.state.theta, reference.state.theta);
  EXPECT_EQ(tested.state.omega, reference.state.omega);
  EXPECT_EQ(tested.state.status, reference.state.status);
}

// (the CUDA paths only: the CPU backend's schedules are compared on these shapes in
// block_step_test.cpp and step_test.cpp)
template <class B>
class CudaShapeTest : public ::testing::Test {};
using CudaBackends = ::testing::Types<Cuda, CudaGridWide, CudaBlockState, CudaBlockHistory,
                                      CudaWarp1, CudaWarp4State, CudaWarp8History>;
TYPED_TEST_SUITE(CudaShapeTest, CudaBackends, BackendName);

TYPED_TEST(CudaShapeTest, SixtyDiskPackings) {
  if (backend_unavailable<TypeParam>()) GTEST_SKIP() << cuda_unavailable_reason();
  expect_matches_cpu<TypeParam>(vibrated_ensemble(8, 60, 8), 10000);
}

TYPED_TEST(CudaShapeTest, ThreeHundredDiskPacking) {
  if (backend_unavailable<TypeParam>()) GTEST_SKIP() << cuda_unavailable_reason();
  expect_matches_cpu<TypeParam>(vibrated_ensemble(1, 300, 12), 5000);
}

TYPED_TEST(CudaShapeTest, ThousandPackings) {
  if (backend_unavailable<TypeParam>()) GTEST_SKIP() << cuda_unavailable_reason();
  expect_matches_cpu<TypeParam>(vibrated_ensemble(1000, 20, 5), 2000);
}

// The schedules' names read back as they are written, and a wrong one is refused, saying why.
TEST(CudaSchedule, NamesRoundTrip) {
  for (const char* name : {"block:reads", "block:state", "block:history", "warp:1:reads",
                           "warp:4:state", "warp:8:history"}) {
    EXPECT_EQ(cuda_schedule_name(parse_cuda_schedule(name)), name);
  }
  EXPECT_EQ(cuda_schedule_name(parse_cuda_schedule("block")), "block:reads");
  EXPECT_EQ(parse_cuda_schedule("warp:3").packings_per_block, 3);
  EXPECT_EQ(parse_cuda_schedule("warp:3:history").tile, TileContents::contact_history);
  for (const char* wrong : {"", "warp", "warp:0", "warp:9", "warp:12", "warp:x", "block:all",
                            "blocks", "warp:2:state:state"}) {
    try {
      parse_cuda_schedule(wrong);
      ADD_FAILURE() << "accepted '" << wrong << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("expected block or warp:N"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace granular::md
