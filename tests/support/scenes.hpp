// Small scenes shared by tests: disks on a jittered lattice in the packing box (no packer
// needed), with deterministic pseudo-random radii and offsets.
#pragma once

#include <cstdint>
#include <vector>

#include "granular/md/model.hpp"

namespace granular::test {

// splitmix64: a tiny deterministic generator, identical on every platform.
inline std::uint64_t splitmix64(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

inline double uniform01(std::uint64_t& s) { return (splitmix64(s) >> 11) * 0x1.0p-53; }

struct Scene {
  std::vector<double> radii, x, y;
};

// n disks of radius in [r_min, r_max] on a lattice of pitch 2 r_max + gap, `columns` across,
// starting just above the bottom wall; each disk jittered within the gap. Box width
// columns · pitch.
inline Scene jittered_lattice(int n, int columns, double r_min, double r_max, double gap,
                              std::uint64_t seed) {
  Scene s;
  const double pitch = 2.0 * r_max + gap;
  for (int i = 0; i < n; ++i) {
    const int row = i / columns;
    const int col = i % columns;
    s.radii.push_back(r_min + (r_max - r_min) * uniform01(seed));
    s.x.push_back((col + 0.5) * pitch + gap * (uniform01(seed) - 0.5) * 0.8);
    s.y.push_back(r_max + 0.5 * gap + row * pitch + gap * (uniform01(seed) - 0.5) * 0.8);
  }
  return s;
}

inline double lattice_box_width(int columns, double r_max, double gap) {
  return columns * (2.0 * r_max + gap);
}

}  // namespace granular::test
