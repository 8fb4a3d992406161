// A base vibrated sinusoidally, y = A sin(ω t), at dimensionless acceleration Γ = A ω² / g (the
// thesis' packings, the dimer's plate): the one formula every model uses for it.
#pragma once

#include "granular/hd.hpp"

namespace granular {

// Amplitude A = Γ g / ω² [m] for Γ [-], g [m/s²], ω = 2π f [rad/s].
GRANULAR_HD inline double drive_amplitude(double gamma, double gravity, double omega) {
  return gamma * gravity / (omega * omega);
}

}  // namespace granular
