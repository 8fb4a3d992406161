// Tests for include/granular/md/schedules/grid_step.hpp, the stages of the grid-wide CUDA path
// replayed on the host: a whole trajectory equals the CPU backend's bitwise (kinematics, contact
// history, neighbor lists, cell lists, rebuild counts), also when every stage visits its threads in
// a scrambled order, as a GPU may; and statuses raised inside a stage stop only their packing.
#include "granular/md/schedules/grid_step.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "../../../support/scenes.hpp"
#include "../../../support/supported_disk_ensemble.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/state.hpp"
#include "granular/md/view.hpp"

namespace granular::md {
namespace {

struct Ensemble {
  EnsembleModel model;
  EnsembleState state;
};

// Vibrated packings of different sizes (40, 55, 70 disks) on jittered lattices.
Ensemble make_ensemble(Integrator integrator) {
  Ensemble e;
  e.model.integrator = integrator;
  e.model.dt = 2e-5;
  e.model.neighbor.skin = 0.004;
  std::vector<double> x, y;
  for (int p = 0; p < 3; ++p) {
    const test::Scene s = test::jittered_lattice(40 + 15 * p, 7, 0.015, 0.025, 0.004, 70 + p);
    PackingParams pp{};
    pp.box_width = test::lattice_box_width(7, 0.025, 0.004);
    pp.gravity = 9.8;
    pp.drive_omega = 2.0 * 3.141592653589793 * 80.0;
    pp.gamma = 1.0 + 1.5 * p;
    pp.drive_amplitude = pp.gamma * pp.gravity / (pp.drive_omega * pp.drive_omega);
    pp.disk_disk = {1e4, 7.7e3, 0.1, 0.1};
    pp.disk_wall = pp.disk_disk;
    e.model.add_packing(pp, s.radii, 3.57);
    x.insert(x.end(), s.x.begin(), s.x.end());
    y.insert(y.end(), s.y.begin(), s.y.end());
  }
  e.state = make_state(e.model, x, y, -0.01);
  return e;
}

// Host storage of the grid path's scratch.
struct HostScratch {
  std::vector<int> disk_packing, entry_packing, active, rebuild, counts, scanned;
  std::vector<std::uint64_t> y_lo, y_hi;
  GridScratch view;

  HostScratch(const EnsembleModel& m, const EnsembleState& s) {
    const int n_packings = m.n_packings();
    for (int p = 0; p < n_packings; ++p) {
      disk_packing.insert(disk_packing.end(), m.packing_size(p), p);
      const int entries = s.cell_offset[p + 1] - s.cell_offset[p] + 1;
      entry_packing.insert(entry_packing.end(), entries, p);
    }
    active.assign(n_packings, 0);
    rebuild.assign(n_packings, 0);
    y_lo.assign(n_packings, 0);
    y_hi.assign(n_packings, 0);
    counts.assign(entry_packing.size(), 0);
    scanned.assign(entry_packing.size(), 0);
    view = {disk_packing.data(), entry_packing.data(), active.data(), rebuild.data(),
            y_lo.data(),         y_hi.data(),          counts.data(), scanned.data()};
  }
  int entries() const { return static_cast<int>(entry_packing.size()); }
};

// One grid step with every stage's indices visited in the order `perm_*` gives.
void scrambled_grid_step(const EnsembleView& v, const HostScratch& h, std::int64_t step_end,
                         double t_end, const std::vector<int>& disks,
                         const std::vector<int>& packings, const std::vector<int>& entries) {
  const SerialGrid grid;
  const GridScratch& g = h.view;
  for (int p : packings) grid_begin(v, g, p);
  for (int i : disks) grid_predict(grid, v, g, i);
  for (int p : packings) grid_bodies(grid, v, g, p, step_end, t_end);
  for (int i : disks) grid_height_range(grid, v, g, i);
  for (int p : packings) grid_rows(v, g, p);
  for (int e : entries) grid_zero_count(g, e);
  for (int i : disks) grid_count(grid, v, g, i);
  serial_scan_by_packing(g, h.entries());
  for (int e : entries) grid_copy_start(v, g, e);
  for (int i : disks) grid_scatter(grid, v, g, i);
  for (int e : entries) grid_sort_cell(v, g, e);
  for (int i : disks) grid_neighbors(grid, v, g, i);
  for (int i : disks) grid_reference(v, g, i);
  for (int i : disks) grid_forces(grid, v, g, i, t_end);
  for (int i : disks) grid_correct(grid, v, g, i);
}

std::vector<int> indices(int n, std::mt19937* scramble) {
  std::vector<int> k(n);
  std::iota(k.begin(), k.end(), 0);
  if (scramble) std::shuffle(k.begin(), k.end(), *scramble);
  return k;
}

// The used cell starts of every packing (entries beyond a grid's rows in use are scratch).
std::vector<int> used_cell_starts(const EnsembleState& s, int n_packings) {
  std::vector<int> used;
  for (int p = 0; p < n_packings; ++p) {
    const CellGrid& g = s.grids[p];
    const int* start = s.cell_start.data() + s.cell_offset[p] + p;
    used.insert(used.end(), start, start + g.nx * g.ny + 1);
  }
  return used;
}

void expect_equal_states(const EnsembleState& a, const EnsembleState& b, int n_packings) {
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.y, b.y);
  EXPECT_EQ(a.theta, b.theta);
  EXPECT_EQ(a.vx, b.vx);
  EXPECT_EQ(a.vy, b.vy);
  EXPECT_EQ(a.omega, b.omega);
  EXPECT_EQ(a.gear_high, b.gear_high);
  EXPECT_EQ(a.neighbors, b.neighbors);
  EXPECT_EQ(a.neighbor_count, b.neighbor_count);
  EXPECT_EQ(a.cell_disks, b.cell_disks);
  EXPECT_EQ(used_cell_starts(a, n_packings), used_cell_starts(b, n_packings));
  EXPECT_EQ(a.rebuild_count, b.rebuild_count);
  EXPECT_EQ(a.status, b.status);
  for (std::size_t k = 0; k < a.contacts.size(); ++k) {
    ASSERT_EQ(a.contacts[k].partner, b.contacts[k].partner) << k;
    ASSERT_EQ(a.contacts[k].skin.xi_anchor, b.contacts[k].skin.xi_anchor) << k;
  }
}

void grid_replay_matches_cpu(Integrator integrator, bool scrambled) {
  Ensemble cpu = make_ensemble(integrator);
  Ensemble replay = make_ensemble(integrator);
  auto backend = make_cpu_backend(1);
  backend->initialize(cpu.model, cpu.state);
  backend->initialize(replay.model, replay.state);
  const std::int64_t steps = 6000;
  backend->advance(cpu.model, cpu.state, steps);

  HostScratch scratch(replay.model, replay.state);
  const EnsembleView v = make_view(replay.model, replay.state);
  std::mt19937 random(2026);
  for (std::int64_t k = 1; k <= steps; ++k) {
    const double t_end = replay.state.t0 + static_cast<double>(k) * replay.model.dt;
    if (!scrambled) {
      serial_grid_step(v, scratch.view, replay.model.n_packings(), replay.model.n_disks(),
                       scratch.entries(), k, t_end);
      continue;
    }
    // a new order for every step and stage kind
    scrambled_grid_step(v, scratch, k, t_end, indices(replay.model.n_disks(), &random),
                        indices(replay.model.n_packings(), &random),
                        indices(scratch.entries(), &random));
  }
  replay.state.step = steps;
  for (int p = 0; p < replay.model.n_packings(); ++p) {
    ASSERT_EQ(replay.state.status[p], status_ok);
    EXPECT_GT(replay.state.rebuild_count[p], 10);  // the rebuild stages ran, many times
  }
  expect_equal_states(cpu.state, replay.state, cpu.model.n_packings());
}

// Prescribed bodies, tilt and an applied torque (the supported-disk systems): the grid's stages, in
// scrambled order, give the CPU's bits.
TEST(GridStep, PrescribedBodiesGiveTheCpuBits) {
  Ensemble cpu;
  cpu.state = test::supported_disk_ensemble(cpu.model, 3);
  Ensemble replay = cpu;
  auto backend = make_cpu_backend(1);
  backend->initialize(cpu.model, cpu.state);
  backend->initialize(replay.model, replay.state);
  const std::int64_t steps = 3000;
  backend->advance(cpu.model, cpu.state, steps);
  HostScratch scratch(replay.model, replay.state);
  const EnsembleView v = make_view(replay.model, replay.state);
  std::mt19937 random(9);
  for (std::int64_t k = 1; k <= steps; ++k) {
    scrambled_grid_step(v, scratch, k, static_cast<double>(k) * replay.model.dt,
                        indices(replay.model.n_disks(), &random),
                        indices(replay.model.n_packings(), &random),
                        indices(scratch.entries(), &random));
  }
  expect_equal_states(cpu.state, replay.state, cpu.model.n_packings());
  EXPECT_EQ(replay.state.body_motion, cpu.state.body_motion);
  for (std::uint32_t s : cpu.state.status) EXPECT_EQ(s, status_ok);
}

TEST(GridStep, ReplayReproducesTheCpuTrajectoryBitwise) {
  for (Integrator integrator : {Integrator::gear5, Integrator::velocity_verlet}) {
    SCOPED_TRACE(integrator == Integrator::gear5 ? "gear5" : "velocity_verlet");
    grid_replay_matches_cpu(integrator, false);
  }
}

// A GPU runs a stage's threads in any order: atomic cursors scatter the disks of a cell in any
// order, and the per-cell sort must restore the CPU's.
TEST(GridStep, AnyThreadOrderGivesTheSameBits) { grid_replay_matches_cpu(Integrator::gear5, true); }

TEST(GridStep, HeightKeysOrderLikeTheNumbers) {
  const double heights[] = {-1e300, -2.5, -1e-300, -0.0, 0.0, 1e-310, 3.0, 1e300};
  for (std::size_t a = 0; a + 1 < std::size(heights); ++a) {
    EXPECT_LE(height_key(heights[a]), height_key(heights[a + 1])) << heights[a];
    EXPECT_EQ(height_of_key(height_key(heights[a])), heights[a]);
  }
}

// A disk kicked out of the box in one packing stops that packing with outside_box at the next
// rebuild of the grid path, the others go on as on the CPU.
TEST(GridStep, StatusesStopOnlyTheirPacking) {
  Ensemble cpu = make_ensemble(Integrator::gear5);
  Ensemble replay = make_ensemble(Integrator::gear5);
  auto backend = make_cpu_backend(1);
  backend->initialize(cpu.model, cpu.state);
  backend->initialize(replay.model, replay.state);
  const int victim = replay.model.offset[1] + 5;
  cpu.state.x[victim] = -0.002;
  replay.state.x[victim] = -0.002;
  backend->advance(cpu.model, cpu.state, 200);
  HostScratch scratch(replay.model, replay.state);
  const EnsembleView v = make_view(replay.model, replay.state);
  for (int k = 1; k <= 200; ++k) {
    serial_grid_step(v, scratch.view, replay.model.n_packings(), replay.model.n_disks(),
                     scratch.entries(), k, replay.state.t0 + k * replay.model.dt);
  }
  EXPECT_EQ(replay.state.status, (std::vector<std::uint32_t>{0, status_outside_box, 0}));
  EXPECT_EQ(replay.state.status, cpu.state.status);
  for (int i = replay.model.offset[2]; i < replay.model.offset[3]; ++i) {
    EXPECT_EQ(replay.state.x[i], cpu.state.x[i]);
  }
}

}  // namespace
}  // namespace granular::md
