// An ensemble of the thesis' supported-disk systems with every kind of prescribed body and external
// load (md/supported_disk/systems.hpp): tilted 3-disk systems under a harmonic torque with randomly
// vibrated or sine-shaken supports, tilted wedges vibrating sinusoidally, a 3-disk system whose
// upper centre is held (no inverse mass, free to turn) on fixed supports, and a 30-disk bed on a
// randomly vibrated bottom layer (md/bottom_layer.hpp). For the tests that check the schedules
// of the kernels against the CPU on them.
#pragma once

#include <vector>

#include "granular/md/bottom_layer.hpp"
#include "granular/md/packing.hpp"
#include "granular/md/state.hpp"
#include "granular/md/supported_disk/systems.hpp"

namespace granular::test {

inline md::EnsembleState supported_disk_ensemble(md::EnsembleModel& m, int copies) {
  m.integrator = md::Integrator::gear5;
  m.dt = 2e-6;
  m.neighbor.skin = 0.002;
  std::vector<double> x, y;
  md::ThreeDiskParams chapter6;  // the ch. 6 disk, softer contacts
  chapter6.radius = 0.02;
  chapter6.mass = 4.5e-3;
  chapter6.contact = {4.5e4, 3.5e4, 0.5, 0.1};
  for (int k = 0; k < copies; ++k) {
    md::ThreeDiskParams three = chapter6;
    three.tilt = 0.05 * k;
    three.torque = {-1, 4e-4, 500.0, 0.0};
    // randomly vibrated supports, and every other copy supports shaken as a sine
    three.supports = k % 2 == 0 ? md::SupportVibration{md::SupportDrive::random, 2e-4, 200.0, 0.5}
                                : md::SupportVibration{md::SupportDrive::sine, 1e-4, 300.0, 0.5};
    three.seed = 7 + k;
    md::add_three_disk(m, three, x, y);

    md::WedgeDiskParams wedge;
    wedge.tilt = 0.1 - 0.07 * k;
    wedge.amplitude = 3.0 * 9.81 / (502.6548 * 502.6548);
    wedge.omega = 502.6548;  // 80 Hz
    md::add_wedge_disk(m, wedge, x, y);
  }
  md::ThreeDiskParams held = chapter6;
  held.tilt = 0.03;
  held.torque = {-1, 6e-4, 300.0, 0.0};
  held.upper_centre = md::UpperCentre::held;
  md::add_three_disk(m, held, x, y);

  md::PackingParams bed{};
  bed.box_width = 0.2;
  bed.gravity = 9.8;
  bed.disk_disk = {1e4, 7.7e3, 0.1, 0.1};
  bed.disk_wall = bed.disk_disk;
  bed.seed = 11;
  std::vector<double> radii;
  for (int k = 0; k < 30; ++k) radii.push_back(0.015 + 0.005 * (k % 3));
  m.add_packing(bed, radii, 3.57);
  const double omega = 502.6548;  // 80 Hz, Γ = 2
  md::add_random_bottom_layer(m, {2.0 * 9.8 / (omega * omega), omega, 0.5});
  const md::PackingLayout layout = md::build_bed(radii, bed.box_width, bed.seed);
  x.insert(x.end(), layout.x.begin(), layout.x.end());
  y.insert(y.end(), layout.y.begin(), layout.y.end());
  return md::make_state(m, x, y, 0.0);
}

}  // namespace granular::test
