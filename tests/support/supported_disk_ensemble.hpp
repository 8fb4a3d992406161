// An ensemble of the thesis' supported-disk systems with every kind of prescribed body and external
// load (md/supported_disk/systems.hpp): tilted 3-disk systems under a harmonic torque with randomly
// vibrated or sine-shaken supports, and tilted wedges vibrating sinusoidally. For the tests that
// check the schedules of the kernels against the CPU on them.
#pragma once

#include <vector>

#include "granular/md/state.hpp"
#include "granular/md/supported_disk/systems.hpp"

namespace granular::test {

inline md::EnsembleState supported_disk_ensemble(md::EnsembleModel& m, int copies) {
  m.integrator = md::Integrator::gear5;
  m.dt = 2e-6;
  m.neighbor.skin = 0.002;
  std::vector<double> x, y;
  for (int k = 0; k < copies; ++k) {
    md::ThreeDiskParams three;
    three.radius = 0.02;
    three.mass = 4.5e-3;
    three.contact = {4.5e4, 3.5e4, 0.5, 0.1};
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
  return md::make_state(m, x, y, 0.0);
}

}  // namespace granular::test
