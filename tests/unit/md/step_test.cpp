// Tests for include/granular/md/step.hpp: the neighbor list against all pairs, and the
// determinism of the CPU backend over thread counts and ensemble compositions.
#include "granular/md/step.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../../support/pair_scratch.hpp"
#include "../../support/scenes.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/schedules/block_step.hpp"
#include "granular/md/state.hpp"
#include "granular/md/view.hpp"

namespace granular::md {
namespace {

constexpr double kRMin = 0.015;
constexpr double kRMax = 0.025;
constexpr double kGap = 0.004;
constexpr int kColumns = 8;

PackingParams vibrated_box(double gamma, std::uint64_t seed) {
  PackingParams pp{};
  pp.box_width = test::lattice_box_width(kColumns, kRMax, kGap);
  pp.gravity = 9.8;
  pp.drive_omega = 2.0 * 3.141592653589793 * 80.0;
  pp.drive_amplitude = gamma * pp.gravity / (pp.drive_omega * pp.drive_omega);
  pp.gamma = gamma;
  pp.disk_disk = {1e4, 7.7e3, 0.1, 0.1};
  pp.disk_wall = {1e4, 7.7e3, 0.1, 0.1};
  pp.seed = seed;
  return pp;
}

// An ensemble of the given packings (by id: its Γ and lattice seed follow from the id), all
// starting from rest on jittered lattices.
struct Ensemble {
  EnsembleModel model;
  EnsembleState state;
};

Ensemble make_ensemble(const std::vector<int>& ids, double skin, int max_neighbors) {
  Ensemble e;
  e.model.integrator = Integrator::gear5;
  e.model.dt = 2e-5;
  e.model.neighbor.skin = skin;
  e.model.neighbor.max_neighbors = max_neighbors;
  std::vector<double> x, y;
  for (int id : ids) {
    const test::Scene scene = test::jittered_lattice(40, kColumns, kRMin, kRMax, kGap, 100 + id);
    e.model.add_packing(vibrated_box(0.5 + 0.5 * id, id), scene.radii, 3.57);
    x.insert(x.end(), scene.x.begin(), scene.x.end());
    y.insert(y.end(), scene.y.begin(), scene.y.end());
  }
  e.state = make_state(e.model, x, y, -0.05);
  return e;
}

// FNV-1a over the bytes of a packing's kinematics and contact history.
std::uint64_t hash_packing(const EnsembleModel& m, const EnsembleState& s, int p) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const void* data, std::size_t bytes) {
    const auto* c = static_cast<const unsigned char*>(data);
    for (std::size_t k = 0; k < bytes; ++k) h = (h ^ c[k]) * 1099511628211ull;
  };
  const int first = m.offset[p];
  const int n = m.packing_size(p);
  for (const auto* a : {&s.x, &s.y, &s.theta, &s.vx, &s.vy, &s.omega}) {
    mix(a->data() + first, n * sizeof(double));
  }
  // history slots, with partner indices made relative to the packing
  for (int i = first; i < first + n; ++i) {
    for (int k = 0; k < m.neighbor.max_contacts; ++k) {
      const ContactSlot& c = s.contacts[i * m.neighbor.max_contacts + k];
      const int partner = c.partner < 0 ? -1 : c.partner - first;
      mix(&partner, sizeof partner);
      if (c.partner >= 0) mix(&c.skin, sizeof c.skin);
    }
  }
  return h;
}

std::vector<std::uint64_t> run_and_hash(const std::vector<int>& ids, int threads, double skin,
                                        int max_neighbors, std::int64_t steps) {
  Ensemble e = make_ensemble(ids, skin, max_neighbors);
  auto backend = make_cpu_backend(threads);
  backend->initialize(e.model, e.state);
  backend->advance(e.model, e.state, steps / 2);
  backend->advance(e.model, e.state, steps - steps / 2);
  std::vector<std::uint64_t> hashes;
  for (int p = 0; p < e.model.n_packings(); ++p) {
    EXPECT_EQ(e.state.status[p], status_ok) << "packing " << p;
    hashes.push_back(hash_packing(e.model, e.state, p));
  }
  return hashes;
}

TEST(StepDeterminism, SameHashForAnyThreadCountAndEnsembleComposition) {
  std::vector<int> ids;
  for (int k = 0; k < 16; ++k) ids.push_back(k);
  const std::int64_t steps = 6000;  // 0.12 s: settling, then 0.07 s of drive
  const auto one_thread = run_and_hash(ids, 1, 0.004, 24, steps);
  const auto two_threads = run_and_hash(ids, 2, 0.004, 24, steps);
  EXPECT_EQ(one_thread, two_threads);
  // packing 5 alone and packing 5 as the first of a smaller, reordered ensemble
  EXPECT_EQ(run_and_hash({5}, 1, 0.004, 24, steps)[0], one_thread[5]);
  EXPECT_EQ(run_and_hash({5, 11, 2}, 2, 0.004, 24, steps)[1], one_thread[11]);
  // the packings differ from each other (the hash sees the state)
  EXPECT_NE(one_thread[0], one_thread[1]);
}

TEST(StepNeighborList, VerletListTrajectoryEqualsAllPairs) {
  // with a skin wider than the box every pair is a neighbor and the lists are never rebuilt:
  // the all-pairs reference. Contacts are summed in ascending partner order in both runs, so
  // the trajectories must agree bitwise.
  const std::int64_t steps = 5000;
  const auto verlet = run_and_hash({3}, 1, 0.004, 24, steps);
  const auto all_pairs = run_and_hash({3}, 1, 10.0, 64, steps);
  EXPECT_EQ(verlet, all_pairs);
}

TEST(StepNeighborList, RebuildsOnlyWhenSkinIsExceeded) {
  Ensemble e = make_ensemble({0}, 0.004, 24);
  auto backend = make_cpu_backend(1);
  backend->initialize(e.model, e.state);
  backend->advance(e.model, e.state, 2000);
  // every rebuild needs some disk to move skin/2 = 2 mm; free fall and settling of a 4 mm
  // gap lattice cannot take one per step
  EXPECT_GE(e.state.rebuild_count[0], 1);
  EXPECT_LT(e.state.rebuild_count[0], 200);
}

TEST(StepNeighborList, OverflowStopsThePackingWithAFlag) {
  Ensemble e = make_ensemble({0}, 10.0, 4);  // every pair is a candidate: far more than 4
  auto backend = make_cpu_backend(1);
  backend->initialize(e.model, e.state);
  backend->advance(e.model, e.state, 10);
  EXPECT_TRUE(e.state.status[0] & status_neighbor_overflow);
}

TEST(StepContactHistory, BothDisksOfAPairHoldIdenticalCopies) {
  Ensemble e = make_ensemble({1}, 0.004, 24);
  auto backend = make_cpu_backend(1);
  backend->initialize(e.model, e.state);
  backend->advance(e.model, e.state, 40000);
  const int slots = e.model.neighbor.max_contacts;
  int pairs = 0;
  for (int i = 0; i < e.model.n_disks(); ++i) {
    for (int k = 0; k < slots; ++k) {
      const ContactSlot& a = e.state.contacts[i * slots + k];
      if (a.partner < 0) continue;
      const int j = a.partner;
      bool found = false;
      for (int l = 0; l < slots; ++l) {
        const ContactSlot& b = e.state.contacts[j * slots + l];
        if (b.partner != i) continue;
        found = true;
        EXPECT_EQ(std::memcmp(&a.skin, &b.skin, sizeof a.skin), 0) << i << "-" << j;
      }
      EXPECT_TRUE(found) << i << "-" << j;
      ++pairs;
    }
  }
  EXPECT_GT(pairs, 40);  // a settled packing has many contacts
}

// The two force schedules (per disk with a full list, as a GPU thread per disk runs it, and
// pairwise, as the CPU runs it) must give bitwise-identical forces and history copies.
TEST(StepForceSchedules, PerDiskAndPairwiseAgreeBitwise) {
  Ensemble e = make_ensemble({0, 1}, 0.004, 24);
  auto backend = make_cpu_backend(1);
  backend->initialize(e.model, e.state);
  int compared_contacts = 0;
  for (int round = 0; round < 8; ++round) {
    backend->advance(e.model, e.state, 6000);
    EnsembleState per_disk = e.state;
    EnsembleState pairwise = e.state;
    const EnsembleView vd = make_view(e.model, per_disk);
    const EnsembleView vp = make_view(e.model, pairwise);
    const double t = e.state.time(e.model);
    for (int p = 0; p < e.model.n_packings(); ++p) {
      const PackingEnvironment walls = packing_environment(e.model.packings[p], t);
      for (int i = e.model.offset[p]; i < e.model.offset[p + 1]; ++i) {
        ASSERT_TRUE(disk_forces(vd, p, i, walls));
      }
      ASSERT_TRUE(packing_forces_pairwise(vp, p, walls));
    }
    EXPECT_EQ(per_disk.fx, pairwise.fx);
    EXPECT_EQ(per_disk.fy, pairwise.fy);
    EXPECT_EQ(per_disk.torque, pairwise.torque);
    ASSERT_EQ(per_disk.contacts.size(), pairwise.contacts.size());
    for (std::size_t k = 0; k < per_disk.contacts.size(); ++k) {
      const ContactSlot& a = per_disk.contacts[k];
      const ContactSlot& b = pairwise.contacts[k];
      ASSERT_EQ(a.partner, b.partner) << "slot " << k;
      if (a.partner < 0) continue;
      EXPECT_EQ(std::memcmp(&a.skin, &b.skin, sizeof a.skin), 0) << "slot " << k;
      ++compared_contacts;
    }
  }
  EXPECT_GT(compared_contacts, 300);
}

void kernel_stage_order_matches_cpu(Integrator integrator) {
  Ensemble cpu = make_ensemble({1, 4}, 0.004, 24);
  Ensemble emulated = make_ensemble({1, 4}, 0.004, 24);
  cpu.model.integrator = integrator;
  emulated.model.integrator = integrator;
  auto backend = make_cpu_backend(1);
  backend->initialize(cpu.model, cpu.state);
  backend->initialize(emulated.model, emulated.state);
  const std::int64_t steps = 12000;
  backend->advance(cpu.model, cpu.state, steps);

  const EnsembleView v = make_view(emulated.model, emulated.state);
  test::HostPairScratch pairs(emulated.model);
  for (int p = 0; p < emulated.model.n_packings(); ++p) {
    advance_packing_on_block(SerialBlock{}, v, pairs.view, p, 0, emulated.state.t0, steps);
    ASSERT_EQ(emulated.state.status[p], status_ok);
  }
  emulated.state.step = steps;
  for (int p = 0; p < cpu.model.n_packings(); ++p) {
    EXPECT_EQ(hash_packing(cpu.model, cpu.state, p),
              hash_packing(emulated.model, emulated.state, p));
  }
  EXPECT_EQ(cpu.state.rebuild_count, emulated.state.rebuild_count);
}

// The CUDA kernel's steps (advance_packing_on_block, block_step.hpp), run by one thread on
// the host: predict every disk, rebuild when any moved beyond half the skin, per-disk forces
// with full lists, correct. A whole trajectory must equal the CPU backend's pairwise schedule
// bitwise, so the device path is exercised here except for its concurrency.
TEST(StepForceSchedules, KernelStageOrderReproducesTheCpuTrajectory) {
  for (Integrator integrator : {Integrator::gear5, Integrator::velocity_verlet}) {
    SCOPED_TRACE(integrator == Integrator::gear5 ? "gear5" : "velocity_verlet");
    kernel_stage_order_matches_cpu(integrator);
  }
}

// A packing whose state turns non-finite stops with status_non_finite at that step (the CPU
// step checks whole packings at once after the correct, velocity Verlet's vectorized); its
// neighbours go on exactly as without it.
TEST(StepPacking, NonFiniteStateStopsOnlyItsPacking) {
  for (Integrator integrator : {Integrator::gear5, Integrator::velocity_verlet}) {
    for (double poison : {std::nan(""), HUGE_VAL}) {
      SCOPED_TRACE(integrator == Integrator::gear5 ? "gear5" : "velocity_verlet");
      Ensemble clean = make_ensemble({0, 1, 2}, 0.004, 24);
      Ensemble poisoned = make_ensemble({0, 1, 2}, 0.004, 24);
      clean.model.integrator = integrator;
      poisoned.model.integrator = integrator;
      auto backend = make_cpu_backend(1);
      backend->initialize(clean.model, clean.state);
      backend->initialize(poisoned.model, poisoned.state);
      backend->advance(clean.model, clean.state, 50);
      backend->advance(poisoned.model, poisoned.state, 50);
      const int victim = poisoned.model.offset[1] + 7;  // a disk of packing 1
      poisoned.state.omega[victim] = poison;
      backend->advance(clean.model, clean.state, 50);
      backend->advance(poisoned.model, poisoned.state, 50);
      EXPECT_EQ(poisoned.state.status[0], status_ok);
      EXPECT_EQ(poisoned.state.status[1], status_non_finite);
      EXPECT_EQ(poisoned.state.status[2], status_ok);
      for (int p : {0, 2}) {
        EXPECT_EQ(hash_packing(clean.model, clean.state, p),
                  hash_packing(poisoned.model, poisoned.state, p));
      }
    }
  }
}

// A packing whose disk leaves the box, or races through a radius per step, stops with that
// status at the next rebuild on both the CPU step and the kernel's stage order; the others go
// on exactly as without it.
TEST(StepPacking, LeavingTheDomainStopsOnlyItsPacking) {
  struct Kick {
    const char* what;
    std::uint32_t status;
    void (*apply)(EnsembleState& s, int disk, double box_width);
  };
  const Kick kicks[] = {
      {"through the left wall", status_outside_box,
       [](EnsembleState& s, int i, double) { s.x[i] = -0.001; }},
      {"through the right wall", status_outside_box,
       [](EnsembleState& s, int i, double w) { s.x[i] = w + 0.001; }},
      {"below the bottom", status_outside_box,
       [](EnsembleState& s, int i, double) { s.y[i] = -0.01; }},
      // 2 km/s at dt = 2e-5 s: 4 cm per step, more than any radius here
      {"racing", status_too_fast, [](EnsembleState& s, int i, double) { s.vy[i] = 2000.0; }},
  };
  for (const Kick& kick : kicks) {
    for (bool block : {false, true}) {
      SCOPED_TRACE(std::string(kick.what) + (block ? ", kernel stage order" : ", CPU step"));
      Ensemble clean = make_ensemble({0, 1, 2}, 0.004, 24);
      Ensemble kicked = make_ensemble({0, 1, 2}, 0.004, 24);
      auto backend = make_cpu_backend(1);
      backend->initialize(clean.model, clean.state);
      backend->initialize(kicked.model, kicked.state);
      const int victim = kicked.model.offset[1] + 3;
      kick.apply(kicked.state, victim, kicked.model.packings[1].box_width);
      const auto advance = [&](Ensemble& e) {
        if (!block) return backend->advance(e.model, e.state, 20);
        const EnsembleView v = make_view(e.model, e.state);
        test::HostPairScratch pairs(e.model);
        for (int p = 0; p < e.model.n_packings(); ++p) {
          advance_packing_on_block(SerialBlock{}, v, pairs.view, p, e.state.step, e.state.t0, 20);
        }
        e.state.step += 20;
      };
      advance(clean);
      advance(kicked);
      EXPECT_EQ(kicked.state.status[0], status_ok);
      EXPECT_EQ(kicked.state.status[1] & kick.status, kick.status) << kicked.state.status[1];
      EXPECT_EQ(kicked.state.status[2], status_ok);
      EXPECT_EQ(clean.state.status[1], status_ok);
      for (int p : {0, 2}) {
        EXPECT_EQ(hash_packing(clean.model, clean.state, p),
                  hash_packing(kicked.model, kicked.state, p));
      }
    }
  }
}

// state_defect finds what a step would follow out of bounds, and nothing in a real state.
TEST(StateDefect, FindsIndicesOutsideTheirPacking) {
  Ensemble e = make_ensemble({0, 1}, 0.004, 24);
  auto backend = make_cpu_backend(1);
  backend->initialize(e.model, e.state);
  backend->advance(e.model, e.state, 200);
  ASSERT_EQ(state_defect(e.model, e.state), "");
  const int i = e.model.offset[1] + 2;  // a disk of packing 1
  const auto defect = [&](void (*damage)(EnsembleState&, int, const EnsembleModel&)) {
    EnsembleState s = e.state;
    damage(s, i, e.model);
    return state_defect(e.model, s);
  };
  EXPECT_NE(defect([](EnsembleState& s, int i, const EnsembleModel& m) {
              s.neighbor_count[i] = std::max(s.neighbor_count[i], 1);
              s.neighbors[i * m.neighbor.max_neighbors] = 0;  // a disk of packing 0
            }),
            "");
  EXPECT_NE(defect([](EnsembleState& s, int i, const EnsembleModel&) { s.neighbor_count[i] = 25; }),
            "");
  EXPECT_NE(defect([](EnsembleState& s, int i, const EnsembleModel& m) {
              s.contacts[i * m.neighbor.max_contacts].partner = 1000000000;
              s.slots_used[i] |= 1;
            }),
            "");
  EXPECT_NE(defect([](EnsembleState& s, int i, const EnsembleModel&) { s.slots_used[i] = ~0ull; }),
            "");
  EXPECT_NE(defect([](EnsembleState& s, int i, const EnsembleModel&) { s.cell_disks[i] = -1; }),
            "");
  EXPECT_NE(defect([](EnsembleState& s, int, const EnsembleModel&) { s.grids[1].ny = 1 << 30; }),
            "");
  EXPECT_NE(defect([](EnsembleState& s, int, const EnsembleModel&) { s.cell_start[3] = -5; }), "");
  EXPECT_NE(
      defect([](EnsembleState& s, int i, const EnsembleModel&) { s.walls[3 * i].partner = 2; }),
      "");
  EXPECT_NE(defect([](EnsembleState& s, int, const EnsembleModel&) { s.status[0] = 1u << 20; }),
            "");
  EXPECT_NE(defect([](EnsembleState& s, int i, const EnsembleModel&) { s.vx[i] = NAN; }), "");
}

}  // namespace
}  // namespace granular::md
