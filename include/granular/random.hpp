// Counter-based random numbers: Philox4x32-10 (Salmon, Moraes, Dror & Shaw 2011, "Parallel
// random numbers: as easy as 1, 2, 3"), from Random123. A draw is a pure function of its key
// and its counter, with no state carried from one draw to the next, so a run's random drive is
// the same for any thread count, ensemble size, MPI split or backend (docs/model.md, "Random
// vibration").
//
// Key: the case seed (64 bits). Counter: the step (64 bits), the packing and the stream (32
// bits each: a body's coordinate, e.g. stream = 3·body + axis). Each call gives four 32-bit
// words; two make a pair of normal deviates by Box–Muller, with the portable log and sin/cos so
// that host and device produce the same bits.
#pragma once

#include <Random123/philox.h>

#include <cmath>
#include <cstdint>

#include "granular/constants.hpp"
#include "granular/portable_sincos.hpp"
#include "granular/hd.hpp"
#include "granular/portable_log.hpp"

namespace granular {

// Where a draw belongs.
struct RandomKey {
  std::uint64_t seed = 0;
  std::uint32_t packing = 0;
  std::uint32_t stream = 0;
};

// The four words of the draw at `step` of `key`'s stream.
GRANULAR_HD inline r123::Philox4x32::ctr_type random_words(const RandomKey& key,
                                                           std::uint64_t step) {
  const r123::Philox4x32::ctr_type ctr = {{static_cast<std::uint32_t>(step),
                                           static_cast<std::uint32_t>(step >> 32), key.packing,
                                           key.stream}};
  const r123::Philox4x32::key_type k = {
      {static_cast<std::uint32_t>(key.seed), static_cast<std::uint32_t>(key.seed >> 32)}};
  return r123::Philox4x32()(ctr, k);
}

// A uniform deviate in (0, 1): (u + ½)·2^-32, exact in a double, never 0 or 1.
GRANULAR_HD inline double uniform_open(std::uint32_t u) {
  return (static_cast<double>(u) + 0.5) * 2.3283064365386963e-10;
}

struct NormalPair {
  double first;
  double second;
};

// Two independent standard normal deviates from two words (Box–Muller: r = √(−2 ln u1),
// φ = 2π u2), the same bits on every backend.
GRANULAR_HD inline NormalPair normal_pair(std::uint32_t a, std::uint32_t b) {
  const double r = std::sqrt(-2.0 * portable_log(uniform_open(a)));
  const SinCos sc = sin_cos(2.0 * pi * uniform_open(b));
  return {r * sc.cos, r * sc.sin};
}

// Four normal deviates for `step` of `key`'s stream.
struct NormalQuad {
  double n[4];
};
GRANULAR_HD inline NormalQuad random_normals(const RandomKey& key, std::uint64_t step) {
  const r123::Philox4x32::ctr_type w = random_words(key, step);
  const NormalPair p = normal_pair(w.v[0], w.v[1]);
  const NormalPair q = normal_pair(w.v[2], w.v[3]);
  return {{p.first, p.second, q.first, q.second}};
}

}  // namespace granular
