// A tiny packing-ensemble case shared by the run and checkpoint tests: 2 Γ × 2 packings of 12
// thesis disks (4 of each radius) in a 15 cm box, the chapter-3 contact, gear5, dt = 1e-5 s.
#pragma once

#include <cmath>
#include <vector>

#include "granular/md/ensemble/case.hpp"

namespace granular::test {

constexpr int tiny_disks_per_packing = 12;

inline md::EnsembleCase tiny_ensemble_case(const md::RunSchedule& schedule) {
  md::EnsembleCase c;
  c.gamma_values = {0.5, 2.0};
  c.packings_per_gamma = 2;
  c.schedule = schedule;
  md::EnsembleModel& m = c.model;
  m.integrator = md::Integrator::gear5;
  m.dt = 1e-5;
  m.neighbor.skin = 0.004;
  std::vector<double> radii;
  for (double r : {0.015, 0.02, 0.025}) radii.insert(radii.end(), tiny_disks_per_packing / 3, r);
  const double omega = 2.0 * M_PI * 80.0;
  for (std::size_t g = 0; g < c.gamma_values.size(); ++g) {
    for (int r = 0; r < c.packings_per_gamma; ++r) {
      md::PackingParams pp{};
      pp.box_width = 0.15;
      pp.gravity = 9.8;
      pp.drive_omega = omega;
      pp.gamma = c.gamma_values[g];
      pp.drive_amplitude = pp.gamma * pp.gravity / (omega * omega);
      pp.disk_disk = {1e4, 7.7e3, 0.1, 0.1};
      pp.disk_wall = pp.disk_disk;
      pp.seed = 1000 + r;
      m.add_packing(pp, radii, c.areal_density);
    }
  }
  return c;
}

}  // namespace granular::test
