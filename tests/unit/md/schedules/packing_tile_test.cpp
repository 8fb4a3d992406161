// Tests for include/granular/md/schedules/packing_tile.hpp: a packing copied into its tile, stepped
// there by the CUDA block kernel's steps (advance_packing_on_block with one thread) and copied back
// ends bitwise where the CPU backend ends, whatever the tile holds; the steps write the tiled
// arrays only in the tile and the others only within the packing, touch no other packing, and
// the tile's size is the one the header documents.
#include "granular/md/schedules/packing_tile.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../../../support/pair_scratch.hpp"
#include "../../../support/scenes.hpp"
#include "granular/constants.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/schedules/block_step.hpp"
#include "granular/md/state.hpp"
#include "granular/md/step.hpp"
#include "granular/md/view.hpp"

namespace granular::md {
namespace {

struct Ensemble {
  EnsembleModel model;
  EnsembleState state;
};

// Packings of different sizes and widths on jittered lattices, settling for 0.5 s, then
// driven at different Γ; a skin of 0.1 mm makes them rebuild their lists every few steps.
Ensemble make_ensemble() {
  struct Shape {
    int disks, columns;
  };
  const Shape shapes[] = {{12, 4}, {45, 6}, {60, 8}, {31, 5}};
  Ensemble e;
  e.model.integrator = Integrator::gear5;
  e.model.dt = 2e-5;
  e.model.neighbor.skin = 1e-4;
  std::vector<double> x, y;
  for (int p = 0; p < 4; ++p) {
    const test::Scene s =
        test::jittered_lattice(shapes[p].disks, shapes[p].columns, 0.015, 0.025, 0.004, 70 + p);
    PackingParams pp{};
    pp.box_width = test::lattice_box_width(shapes[p].columns, 0.025, 0.004);
    pp.gravity = 9.8;
    pp.drive_omega = 2.0 * pi * 80.0;
    pp.gamma = 1.0 + p;
    pp.drive_amplitude = pp.gamma * pp.gravity / (pp.drive_omega * pp.drive_omega);
    pp.disk_disk = {1e4, 7.7e3, 0.1, 0.1};
    pp.disk_wall = pp.disk_disk;
    pp.seed = p;
    e.model.add_packing(pp, s.radii, 3.57);
    x.insert(x.end(), s.x.begin(), s.x.end());
    y.insert(y.end(), s.y.begin(), s.y.end());
  }
  e.state = make_state(e.model, x, y, -0.5);
  return e;
}

// A tile buffer with guard bytes behind it, filled with a NaN pattern so that any array the
// copy-in missed shows up in the trajectory.
struct TileBuffer {
  static constexpr std::size_t guard = 64;
  static constexpr unsigned char fill = 0xff;
  std::vector<std::max_align_t> storage;
  std::size_t bytes;

  explicit TileBuffer(std::size_t tile_bytes)
      : storage((tile_bytes + guard) / sizeof(std::max_align_t) + 1), bytes(tile_bytes) {
    std::memset(storage.data(), fill, storage.size() * sizeof(std::max_align_t));
  }
  void* data() { return storage.data(); }
  bool guard_intact() const {
    const auto* b = reinterpret_cast<const unsigned char*>(storage.data());
    for (std::size_t k = bytes; k < storage.size() * sizeof(std::max_align_t); ++k) {
      if (b[k] != fill) return false;
    }
    return true;
  }
};

template <class T>
bool same_bytes(const T* a, const T* b, std::size_t count) {
  return std::memcmp(a, b, count * sizeof(T)) == 0;
}

// A column of an array, as the loops below read arrays.
struct Column {
  const double* begin;
  std::size_t count;
  const double* data() const { return begin; }
  std::size_t size() const { return count; }
};

// Calls f(name, a_array, b_array, elements per disk) for every per-disk state array.
template <class State, class F>
void for_each_disk_array(State& a, State& b, int max_neighbors, int max_contacts, F f) {
  f("x", a.x, b.x, 1);
  f("y", a.y, b.y, 1);
  f("theta", a.theta, b.theta, 1);
  f("vx", a.vx, b.vx, 1);
  f("vy", a.vy, b.vy, 1);
  f("omega", a.omega, b.omega, 1);
  f("ax", a.ax, b.ax, 1);
  f("ay", a.ay, b.ay, 1);
  f("alpha", a.alpha, b.alpha, 1);
  // gear_high as its 9 columns of one double per disk (state.hpp)
  const std::size_t n = a.x.size();
  for (std::size_t k = 0; k < 9; ++k)
    f("gear_high", Column{a.gear_high.data() + k * n, n}, Column{b.gear_high.data() + k * n, n}, 1);
  f("fx", a.fx, b.fx, 1);
  f("fy", a.fy, b.fy, 1);
  f("torque", a.torque, b.torque, 1);
  f("x_ref", a.x_ref, b.x_ref, 1);
  f("y_ref", a.y_ref, b.y_ref, 1);
  f("neighbors", a.neighbors, b.neighbors, max_neighbors);
  f("neighbor_count", a.neighbor_count, b.neighbor_count, 1);
  f("neighbor_upper", a.neighbor_upper, b.neighbor_upper, 1);
  f("cell_disks", a.cell_disks, b.cell_disks, 1);
  f("contacts", a.contacts, b.contacts, max_contacts);
  f("walls", a.walls, b.walls, n_walls);
  f("slots_used", a.slots_used, b.slots_used, 1);
  f("contact_mask", a.contact_mask, b.contact_mask, 1);
}

// The state arrays a tile of `contents` holds (packing_tile.hpp).
bool tiled(const std::string& name, TileContents contents) {
  const bool read = name == "x" || name == "y" || name == "theta" || name == "vx" || name == "vy" ||
                    name == "slots_used" || name == "cell_disks";
  const bool own = name == "omega" || name == "ax" || name == "ay" || name == "alpha" ||
                   name == "gear_high" || name == "fx" || name == "fy" || name == "torque" ||
                   name == "x_ref" || name == "y_ref" || name == "neighbors" ||
                   name == "neighbor_count" || name == "neighbor_upper";
  const bool history = name == "contacts" || name == "walls";
  switch (contents) {
    case TileContents::neighbours_read:
      return read;
    case TileContents::disk_state:
      return read || own;
    case TileContents::contact_history:
      return read || own || history;
  }
  return false;
}

// Every per-disk array and cell_start of `after` equals `before` bitwise outside packing p's
// range, and so do the other packings' grids and counters; while the tile is stepped
// (`stepping`), the tiled arrays and cell_start are unchanged inside packing p as well.
void expect_unchanged_outside(const EnsembleModel& m, const EnsembleState& before,
                              const EnsembleState& after, int p, TileContents contents,
                              bool stepping, const std::string& when) {
  for_each_disk_array(
      before, after, m.neighbor.max_neighbors, m.neighbor.max_contacts,
      [&](const char* name, const auto& a, const auto& b, int width) {
        const bool frozen = stepping && tiled(name, contents);
        const int first = frozen ? m.n_disks() : m.offset[p];
        const int last = frozen ? m.n_disks() : m.offset[p + 1];
        EXPECT_TRUE(same_bytes(a.data(), b.data(), static_cast<std::size_t>(first) * width))
            << name << " below packing " << p << " " << when;
        EXPECT_TRUE(same_bytes(a.data() + last * width, b.data() + last * width,
                               a.size() - static_cast<std::size_t>(last) * width))
            << name << " above packing " << p << " " << when;
      });
  const int cells_first =
      stepping ? static_cast<int>(before.cell_start.size()) : before.cell_offset[p] + p;
  const int cells_last = stepping ? cells_first : before.cell_offset[p + 1] + p + 1;
  EXPECT_TRUE(same_bytes(before.cell_start.data(), after.cell_start.data(), cells_first))
      << "cell_start below packing " << p << " " << when;
  EXPECT_TRUE(same_bytes(before.cell_start.data() + cells_last,
                         after.cell_start.data() + cells_last,
                         before.cell_start.size() - cells_last))
      << "cell_start above packing " << p << " " << when;
  for (int q = 0; q < m.n_packings(); ++q) {
    if (q == p) continue;
    EXPECT_TRUE(same_bytes(&before.grids[q], &after.grids[q], 1)) << "grid " << q << " " << when;
    EXPECT_EQ(before.status[q], after.status[q]) << "packing " << q << " " << when;
    EXPECT_EQ(before.rebuild_count[q], after.rebuild_count[q]) << "packing " << q << " " << when;
  }
}

// The CPU backend's state and the tiled state agree bitwise, except for the pairwise
// schedule's scratch (contact_mask) and mirror hints, which the per-disk schedule never writes.
void expect_same_trajectory(const EnsembleModel& m, const EnsembleState& cpu,
                            const EnsembleState& tiled) {
  for_each_disk_array(cpu, tiled, m.neighbor.max_neighbors, m.neighbor.max_contacts,
                      [](const char* name, const auto& a, const auto& b, int) {
                        if (std::string(name) == "contact_mask" || std::string(name) == "contacts")
                          return;
                        EXPECT_TRUE(same_bytes(a.data(), b.data(), a.size())) << name;
                      });
  for (std::size_t k = 0; k < cpu.contacts.size(); ++k) {
    ASSERT_EQ(cpu.contacts[k].partner, tiled.contacts[k].partner) << "contact slot " << k;
    EXPECT_TRUE(same_bytes(&cpu.contacts[k].skin, &tiled.contacts[k].skin, 1))
        << "contact slot " << k;
  }
  EXPECT_EQ(cpu.cell_start, tiled.cell_start);
  EXPECT_TRUE(same_bytes(cpu.grids.data(), tiled.grids.data(), cpu.grids.size()));
  EXPECT_EQ(cpu.status, tiled.status);
  EXPECT_EQ(cpu.rebuild_count, tiled.rebuild_count);
  EXPECT_EQ(cpu.step, tiled.step);
}

// Disk–disk history slots in use (two per touching pair).
int open_contacts(const EnsembleState& s) {
  int open = 0;
  for (const ContactSlot& c : s.contacts) open += c.partner >= 0 ? 1 : 0;
  return open;
}

class PackingTileContents : public ::testing::TestWithParam<TileContents> {};

TEST_P(PackingTileContents, TiledKernelStepsReproduceTheCpuBackendBitwise) {
  const TileContents contents = GetParam();
  Ensemble cpu = make_ensemble();
  Ensemble tiled = make_ensemble();
  const EnsembleModel& m = tiled.model;
  auto backend = make_cpu_backend(1);
  backend->initialize(cpu.model, cpu.state);
  backend->initialize(tiled.model, tiled.state);
  // settle into contact on the CPU first, then compare three launches of 300 steps
  backend->advance(cpu.model, cpu.state, 25000);
  backend->advance(tiled.model, tiled.state, 25000);
  const std::vector<std::int64_t> rebuilds_before = tiled.state.rebuild_count;

  const std::int64_t steps = 300;
  test::HostPairScratch pairs(m);
  for (int launch = 0; launch < 3; ++launch) {
    backend->advance(cpu.model, cpu.state, steps);
    for (int p = 0; p < m.n_packings(); ++p) {
      SCOPED_TRACE("launch " + std::to_string(launch) + ", packing " + std::to_string(p));
      const EnsembleView global = make_view(m, tiled.state);
      const EnsembleState before = tiled.state;
      TileBuffer tile(tile_bytes(global, p, contents));
      copy_packing_to_tile(global, p, tile.data(), 0, 1, contents);
      advance_packing_on_block(SerialBlock{}, tile_view(global, p, tile.data(), contents),
                               pairs.view, p, tiled.state.step, tiled.state.t0, steps);
      // the steps wrote the tiled arrays only into the tile, the others only within the
      // packing, and nothing behind the tile
      expect_unchanged_outside(m, before, tiled.state, p, contents, true,
                               "while stepping the tile");
      EXPECT_TRUE(tile.guard_intact());
      copy_tile_to_packing(tile.data(), global, p, 0, 1, contents);
      expect_unchanged_outside(m, before, tiled.state, p, contents, false,
                               "after copying the tile back");
    }
    tiled.state.step += steps;
    expect_same_trajectory(m, cpu.state, tiled.state);
    EXPECT_GT(open_contacts(tiled.state), 50) << "launch " << launch;
  }
  for (int p = 0; p < m.n_packings(); ++p) {
    EXPECT_EQ(tiled.state.status[p], status_ok) << "packing " << p;
    EXPECT_GT(tiled.state.rebuild_count[p], rebuilds_before[p]) << "packing " << p;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryDepth, PackingTileContents,
                         ::testing::Values(TileContents::neighbours_read, TileContents::disk_state,
                                           TileContents::contact_history));

// Threads copying with a stride fill the same tile as one thread (each element copied once),
// whatever the tile holds.
TEST(PackingTile, StridedCopiesFillTheSameTile) {
  Ensemble e = make_ensemble();
  auto backend = make_cpu_backend(1);
  backend->initialize(e.model, e.state);
  backend->advance(e.model, e.state, 1000);
  const EnsembleView global = make_view(e.model, e.state);
  const int p = 2;
  for (TileContents contents :
       {TileContents::neighbours_read, TileContents::disk_state, TileContents::contact_history}) {
    SCOPED_TRACE(static_cast<int>(contents));
    TileBuffer serial(tile_bytes(global, p, contents));
    TileBuffer strided(tile_bytes(global, p, contents));
    copy_packing_to_tile(global, p, serial.data(), 0, 1, contents);
    for (int thread = 0; thread < 32; ++thread) {
      copy_packing_to_tile(global, p, strided.data(), thread, 32, contents);
    }
    EXPECT_EQ(std::memcmp(serial.data(), strided.data(), serial.bytes), 0);

    // and a strided copy-out restores the packing from its tile
    const EnsembleState copied = e.state;
    for (double& x : e.state.x) x = 0.0;
    for (std::uint64_t& used : e.state.slots_used) used = 7;
    for (double& d : e.state.gear_high) d = -1.0;  // (zero in the free fall so far)
    for (ContactSlot& c : e.state.walls) c.partner = -7;
    for (int thread = 0; thread < 32; ++thread) {
      copy_tile_to_packing(strided.data(), global, p, thread, 32, contents);
    }
    const int first = e.model.offset[p];
    const int n = e.model.packing_size(p);
    EXPECT_TRUE(same_bytes(copied.x.data() + first, e.state.x.data() + first, n));
    EXPECT_TRUE(same_bytes(copied.slots_used.data() + first, e.state.slots_used.data() + first, n));
    const bool own = contents != TileContents::neighbours_read;
    const bool history = contents == TileContents::contact_history;
    for (int k = 0; k < gear_columns; ++k) {
      const std::size_t at = static_cast<std::size_t>(k) * e.model.n_disks() + first;
      EXPECT_EQ(same_bytes(copied.gear_high.data() + at, e.state.gear_high.data() + at, n), own)
          << "gear column " << k;
    }
    EXPECT_EQ(same_bytes(copied.walls.data() + first * n_walls,
                         e.state.walls.data() + first * n_walls, n * n_walls),
              history);
    e.state = copied;
  }
}

// The tile of a thesis packing of n disks (test::thesis_sized_model).
std::size_t thesis_tile_bytes(int n, TileContents contents = TileContents::neighbours_read) {
  const EnsembleModel m = test::thesis_sized_model(1, n);
  const std::vector<double> zeros(m.n_disks(), 0.0);
  EnsembleState s = make_state(m, zeros, zeros, 0.0);
  return tile_bytes(make_view(m, s), 0, contents);
}

TEST(PackingTile, BytesAreTheDocumentedOnes) {
  // 60 B per disk (7 arrays, each padded to 16 B) and 4 B per cell start: 126 cells (7 × 18)
  // + 1 entries, padded to 512 B
  EXPECT_EQ(thesis_tile_bytes(60), 60u * 60u + 512u);
  EXPECT_EQ(thesis_tile_bytes(60), 4112u);
  // eight blocks of 60-disk packings on one SM (228 KB of shared memory on an H100)
  EXPECT_LT(8 * thesis_tile_bytes(60), 228u * 1024u);
  // every packing of the block path (up to 2 048 disks) fits a block's opt-in shared memory on
  // an A100 (163 KB) and an H100 (227 KB)
  EXPECT_LT(thesis_tile_bytes(2046), 163u * 1024u);
  // each disk's own state: 12 doubles and Gear's 9 derivatives, 3 masses, 2 ints and a list of
  // 24 neighbours, 272 B; its history: 10 disk and 3 wall slots of 48 B, 624 B
  EXPECT_EQ(thesis_tile_bytes(60, TileContents::disk_state), 4112u + 60u * 272u);
  EXPECT_EQ(thesis_tile_bytes(60, TileContents::disk_state), 20432u);
  EXPECT_EQ(thesis_tile_bytes(60, TileContents::contact_history), 20432u + 60u * 624u);
  EXPECT_EQ(thesis_tile_bytes(60, TileContents::contact_history), 57872u);
  // eleven, or four, such tiles in an SM's 228 KB
  EXPECT_EQ(228u * 1024u / thesis_tile_bytes(60, TileContents::disk_state), 11u);
  EXPECT_EQ(228u * 1024u / thesis_tile_bytes(60, TileContents::contact_history), 4u);
}

}  // namespace
}  // namespace granular::md
