// Tests for include/granular/md/schedules/block_step.hpp with its pair schedule (pair_forces.hpp):
// the CUDA block's stages replayed on the host equal the CPU backend bitwise on the shapes the
// kernel meets: 60-disk thesis packings (two warps), a 300-disk packing (ten warps, several
// disks per thread) and an ensemble of 1 000 packings; and they do so when every stage visits
// its threads in a scrambled order, as the lanes of a GPU may, and thread by thread as the
// CUDA block's and the warp schedule's threads take them (indices 64 or 32 apart, the height
// range by butterflies over the lanes, the pair numbering by the warps' scans); the block's
// prime equals the CPU's.
#include "granular/md/schedules/block_step.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "../../../support/pair_scratch.hpp"
#include "../../../support/scenes.hpp"
#include "../../../support/supported_disk_ensemble.hpp"
#include "granular/constants.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/state.hpp"
#include "granular/md/view.hpp"

namespace granular::md {
namespace {

// A block whose stages visit their indices in a fresh random order each time (the rest is one
// thread's, SerialBlock's).
struct ScrambledBlock : SerialBlock {
  std::mt19937* random;
  explicit ScrambledBlock(std::mt19937* r) : random(r) {}
  template <class F>
  void for_each(int begin, int end, F&& f) const {
    std::vector<int> order(std::max(0, end - begin));
    std::iota(order.begin(), order.end(), begin);
    std::shuffle(order.begin(), order.end(), *random);
    for (int k : order) f(k);
  }
};

// The CUDA policies (kernels/cuda_backend.cu) replayed thread by thread: CudaWarp (kThreads =
// 32) and CudaBlock (kThreads = 64 for 60 disks, 256 for 300). A stage runs thread 0's indices
// (begin, begin + kThreads, ...), then thread 1's, and so on; the height range is each warp's
// butterfly of shuffles on the order-preserving keys, then the lowest and highest over the
// warps; the exclusive sum takes rounds of kThreads indices: each warp's scan by shuffles up,
// plus the totals of the warps below and of the rounds before. The rest is SerialBlock's.
template <int kThreads>
struct Lanes : SerialBlock {
  static constexpr int lanes = 32;
  static constexpr int warps = kThreads / lanes;
  template <class F>
  void for_each(int begin, int end, F&& f) const {
    for (int thread = 0; thread < kThreads; ++thread) {
      for (int k = begin + thread; k < end; k += kThreads) f(k);
    }
  }
  // the butterfly of one warp: every lane ends with the warp's lowest and highest key
  static void butterfly(std::uint64_t* lo, std::uint64_t* hi) {
    for (int d = lanes / 2; d > 0; d /= 2) {
      std::uint64_t next_lo[lanes], next_hi[lanes];
      for (int lane = 0; lane < lanes; ++lane) {
        next_lo[lane] = std::min(lo[lane], lo[lane ^ d]);
        next_hi[lane] = std::max(hi[lane], hi[lane ^ d]);
      }
      std::copy(next_lo, next_lo + lanes, lo);
      std::copy(next_hi, next_hi + lanes, hi);
    }
    for (int lane = 1; lane < lanes; ++lane) {
      EXPECT_EQ(lo[lane], lo[0]);
      EXPECT_EQ(hi[lane], hi[0]);
    }
  }
  HeightRange height_range(const EnsembleView& v, int first, int last) const {
    std::uint64_t lo = ~0ull, hi = 0;
    for (int w = 0; w < warps; ++w) {
      std::uint64_t warp_lo[lanes], warp_hi[lanes];
      for (int lane = 0; lane < lanes; ++lane) {
        warp_lo[lane] = ~0ull;
        warp_hi[lane] = 0;
        for (int i = first + w * lanes + lane; i < last; i += kThreads) {
          warp_lo[lane] = std::min(warp_lo[lane], height_key(v.y[i]));
          warp_hi[lane] = std::max(warp_hi[lane], height_key(v.y[i]));
        }
      }
      butterfly(warp_lo, warp_hi);
      lo = std::min(lo, warp_lo[0]);
      hi = std::max(hi, warp_hi[0]);
    }
    return {height_of_key(lo), height_of_key(hi)};
  }
  int exclusive_sum(int* a, int first, int last, int base) const {
    int carry = base;
    for (int round = first; round < last; round += kThreads) {
      int own[kThreads], inclusive[kThreads], warp_total[warps];
      for (int thread = 0; thread < kThreads; ++thread) {
        own[thread] = round + thread < last ? a[round + thread] : 0;
        inclusive[thread] = own[thread];
      }
      for (int w = 0; w < warps; ++w) {  // each warp's shuffles up
        int* value = inclusive + w * lanes;
        for (int d = 1; d < lanes; d *= 2) {
          int below[lanes];
          for (int lane = 0; lane < lanes; ++lane) below[lane] = value[std::max(0, lane - d)];
          for (int lane = d; lane < lanes; ++lane) value[lane] += below[lane];
        }
        warp_total[w] = value[lanes - 1];
      }
      int round_total = 0;
      for (int w = 0; w < warps; ++w) {
        for (int lane = 0; lane < lanes; ++lane) {
          const int thread = w * lanes + lane;
          if (round + thread < last) {
            a[round + thread] = carry + round_total + inclusive[thread] - own[thread];
          }
        }
        round_total += warp_total[w];
      }
      carry += round_total;
    }
    return carry - base;
  }
};
using WarpLanes = Lanes<32>;

struct Ensemble {
  EnsembleModel model;
  EnsembleState state;
};

// `packings` packings of `disks` thesis disks on jittered lattices `columns` wide with `gap`
// between neighbours, driven at Γ from 0.3 to 0.9 (the bed stays packed), with damped contacts.
Ensemble make_ensemble(int packings, int disks, int columns, double gap = 0.0005) {
  Ensemble e;
  e.model.integrator = Integrator::gear5;
  e.model.dt = 2e-5;
  e.model.neighbor.skin = 0.003;
  std::vector<double> x, y;
  for (int p = 0; p < packings; ++p) {
    const test::Scene s = test::jittered_lattice(disks, columns, 0.015, 0.025, gap, 500 + p);
    PackingParams pp{};
    pp.box_width = test::lattice_box_width(columns, 0.025, gap);
    pp.gravity = 9.8;
    pp.drive_omega = 2.0 * pi * 80.0;
    pp.gamma = 0.3 + 0.1 * (p % 7);
    pp.drive_amplitude = pp.gamma * pp.gravity / (pp.drive_omega * pp.drive_omega);
    pp.disk_disk = {1e4, 7.7e3, 2.0, 0.3};  // e_n ≈ 0.5: the bed settles within the test
    pp.disk_wall = pp.disk_disk;
    e.model.add_packing(pp, s.radii, 3.57);
    x.insert(x.end(), s.x.begin(), s.x.end());
    y.insert(y.end(), s.y.begin(), s.y.end());
  }
  e.state = make_state(e.model, x, y, -0.02);
  return e;
}

// Steps `e` on the CPU and a copy through the block's stages; both must end bitwise equal.
template <class Block>
void expect_block_matches_cpu(Ensemble e, const Block& block, std::int64_t settle,
                              std::int64_t steps) {
  auto backend = make_cpu_backend(2);
  backend->initialize(e.model, e.state);
  backend->advance(e.model, e.state, settle);  // into contact first
  Ensemble replay = e;
  backend->advance(e.model, e.state, steps);

  test::HostPairScratch pairs(replay.model);
  const EnsembleView v = make_view(replay.model, replay.state);
  for (int p = 0; p < replay.model.n_packings(); ++p) {
    advance_packing_on_block(block, v, pairs.view, p, replay.state.step, replay.state.t0, steps);
  }
  replay.state.step += steps;
  EXPECT_EQ(replay.state.x, e.state.x);
  EXPECT_EQ(replay.state.y, e.state.y);
  EXPECT_EQ(replay.state.theta, e.state.theta);
  EXPECT_EQ(replay.state.omega, e.state.omega);
  EXPECT_EQ(replay.state.status, e.state.status);
  EXPECT_EQ(replay.state.rebuild_count, e.state.rebuild_count);
  ASSERT_EQ(replay.state.contacts.size(), e.state.contacts.size());
  int open = 0;
  for (std::size_t k = 0; k < e.state.contacts.size(); ++k) {
    ASSERT_EQ(replay.state.contacts[k].partner, e.state.contacts[k].partner) << k;
    ASSERT_EQ(replay.state.contacts[k].skin.xi_anchor, e.state.contacts[k].skin.xi_anchor) << k;
    open += e.state.contacts[k].partner >= 0;
  }
  // a bed in contact: hundreds of open contacts (a contact takes two slots)
  EXPECT_GT(4 * open, e.model.n_disks());
  for (std::uint32_t s : e.state.status) EXPECT_EQ(s, status_ok);
}

TEST(BlockStep, SixtyDiskPackings) {
  expect_block_matches_cpu(make_ensemble(3, 60, 8), SerialBlock{}, 20000, 2000);
}

TEST(BlockStep, ThreeHundredDiskPacking) {
  expect_block_matches_cpu(make_ensemble(1, 300, 12), SerialBlock{}, 15000, 1000);
}

TEST(BlockStep, ThousandPackingEnsemble) {
  // near-touching lattices settle into contact within a few thousand steps
  expect_block_matches_cpu(make_ensemble(1000, 8, 2, 1e-5), SerialBlock{}, 5000, 200);
}

TEST(BlockStep, AnyThreadOrderGivesTheSameBits) {
  std::mt19937 random(11);
  expect_block_matches_cpu(make_ensemble(4, 60, 8), ScrambledBlock{&random}, 20000, 1500);
}

TEST(BlockStep, WarpScheduleGivesTheSameBits) {
  expect_block_matches_cpu(make_ensemble(3, 60, 8), WarpLanes{}, 20000, 2000);
  expect_block_matches_cpu(make_ensemble(1, 300, 12), WarpLanes{}, 15000, 1000);
  expect_block_matches_cpu(make_ensemble(200, 8, 2, 1e-5), WarpLanes{}, 5000, 200);
}

// The block's own threads, as the kernel launches them: two warps for a 60-disk packing, eight
// for a 300-disk one (two rounds of the scan).
TEST(BlockStep, BlockThreadsGiveTheSameBits) {
  expect_block_matches_cpu(make_ensemble(3, 60, 8), Lanes<64>{}, 20000, 2000);
  expect_block_matches_cpu(make_ensemble(1, 300, 12), Lanes<256>{}, 15000, 1000);
}

// Prescribed bodies, tilt and an applied torque (the supported-disk systems): the same bits, also
// with the threads in any order (move_bodies runs on the first thread between two barriers).
TEST(BlockStep, PrescribedBodiesGiveTheCpuBits) {
  for (bool scrambled : {false, true}) {
    Ensemble cpu;
    cpu.state = test::supported_disk_ensemble(cpu.model, 3);
    Ensemble replay = cpu;
    auto backend = make_cpu_backend(2);
    backend->initialize(cpu.model, cpu.state);
    backend->initialize(replay.model, replay.state);
    const std::int64_t steps = 3000;
    backend->advance(cpu.model, cpu.state, steps);
    test::HostPairScratch pairs(replay.model);
    const EnsembleView v = make_view(replay.model, replay.state);
    std::mt19937 random(5);
    for (int p = 0; p < replay.model.n_packings(); ++p) {
      if (scrambled) {
        advance_packing_on_block(ScrambledBlock{&random}, v, pairs.view, p, 0, 0.0, steps);
      } else {
        advance_packing_on_block(SerialBlock{}, v, pairs.view, p, 0, 0.0, steps);
      }
    }
    EXPECT_EQ(replay.state.x, cpu.state.x);
    EXPECT_EQ(replay.state.y, cpu.state.y);
    EXPECT_EQ(replay.state.theta, cpu.state.theta);
    EXPECT_EQ(replay.state.omega, cpu.state.omega);
    EXPECT_EQ(replay.state.body_motion, cpu.state.body_motion);
    EXPECT_EQ(replay.state.rebuild_count, cpu.state.rebuild_count);
    for (std::size_t k = 0; k < cpu.state.body_walls.size(); ++k) {
      ASSERT_EQ(replay.state.body_walls[k].partner, cpu.state.body_walls[k].partner) << k;
      ASSERT_EQ(replay.state.body_walls[k].skin.xi_anchor, cpu.state.body_walls[k].skin.xi_anchor);
    }
    for (std::uint32_t s : cpu.state.status) EXPECT_EQ(s, status_ok);
    // the systems moved: the upper disks turned, the walls threw their disks
    for (int p = 0; p < cpu.model.n_packings(); ++p) {
      const int first = cpu.model.offset[p];
      EXPECT_NE(cpu.model.packing_size(p) == 3 ? cpu.state.theta[first] : cpu.state.vy[first], 0.0);
    }
  }
}

// The block's prime (lists, forces, accelerations of the initial state) equals the CPU's.
TEST(BlockStep, PrimeEqualsTheCpuPrime) {
  Ensemble cpu = make_ensemble(5, 60, 8);
  Ensemble block = cpu;
  make_cpu_backend(1)->initialize(cpu.model, cpu.state);
  std::mt19937 random(3);
  test::HostPairScratch pairs(block.model);
  const EnsembleView v = make_view(block.model, block.state);
  for (int p = 0; p < block.model.n_packings(); ++p) {
    prime_packing_on_block(ScrambledBlock{&random}, v, pairs.view, p,
                           block.state.time(block.model));
  }
  EXPECT_EQ(block.state.ax, cpu.state.ax);
  EXPECT_EQ(block.state.ay, cpu.state.ay);
  EXPECT_EQ(block.state.alpha, cpu.state.alpha);
  EXPECT_EQ(block.state.neighbors, cpu.state.neighbors);
  EXPECT_EQ(block.state.cell_disks, cpu.state.cell_disks);
  EXPECT_EQ(block.state.rebuild_count, cpu.state.rebuild_count);
}

}  // namespace
}  // namespace granular::md
