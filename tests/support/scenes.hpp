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

// `packings` thesis packings of `disks` disks each (equal thirds of radius 15, 20 and 25 mm in
// a 0.40 m box, skin 0.2 x the smallest radius, default capacities), as cases/demo_sweep.json
// builds them: for tests of the state's size and layout, which place no disk.
inline md::EnsembleModel thesis_sized_model(int packings, int disks = 60) {
  md::EnsembleModel m;
  m.dt = 1e-5;
  m.neighbor.skin = 0.003;
  md::PackingParams pp{};
  pp.box_width = 0.40;
  std::vector<double> radii;
  for (double r : {0.015, 0.020, 0.025}) radii.insert(radii.end(), disks / 3, r);
  for (int p = 0; p < packings; ++p) m.add_packing(pp, radii, 3.57);
  return m;
}

}  // namespace granular::test
