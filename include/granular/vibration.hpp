// A base vibrated sinusoidally, y = A sin(ω t), at dimensionless acceleration Γ = A ω² / g (the
// thesis' packings, the dimer's plate): the one formula every model uses for it; and the wall
// velocity a collision with it meets by the fixed-bottom random-phase approximation (FBRPA,
// Peraza-Mues 2018 §2.3.3), which the event-driven packings and the wedge's map share.
#pragma once

#include <cmath>

#include "granular/constants.hpp"
#include "granular/hd.hpp"

namespace granular {

// Amplitude A = Γ g / ω² [m] for Γ [-], g [m/s²], ω = 2π f [rad/s].
GRANULAR_HD inline double drive_amplitude(double gamma, double gravity, double omega) {
  return gamma * gravity / (omega * omega);
}

// FBRPA: the vertical wall velocity V (units of Aω_b) at a collision whose normal approach
// speed is vn (< 0, units of Aω_b) on a wall at angle θ: the first intersection of a straight
// incoming trajectory of slope vn, at a uniformly random phase (`u` ∈ (0, 1)), with the wall's
// normal displacement cos θ sin(φ). Flux weighting and shadowing follow (thesis eq. 2.40).
inline double fbrpa_wall_velocity(double vn, double theta, double u) {
  // in units of the wall's normal displacement amplitude A cos θ and of 1/ω_b: the wall is at
  // sin φ, the disk on the line s(φ − φ0) with s = v_n/(Aω_b cos θ) < 0; the first crossing
  // lies within one period after φ_a = φ0 − 1/|s|, where the line is at the wall's crest
  const double s = vn / std::cos(theta);
  const double phi0 = 2.0 * pi * u;
  const auto h = [&](double phi) { return s * (phi - phi0) - std::sin(phi); };
  double a = phi0 + 1.0 / s;
  if (!(h(a) > 0.0)) return std::cos(a);
  const double step = 2.0 * pi / 256.0;
  double b = a;
  for (int k = 0; k < 258; ++k) {
    b = a + step;
    if (h(b) <= 0.0) break;
    a = b;
  }
  for (int it = 0; it < 80 && b - a > 1e-15 * (1.0 + std::fabs(a)); ++it) {
    const double m = 0.5 * (a + b);
    (h(m) > 0.0 ? a : b) = m;
  }
  return std::cos(b);  // the wall's vertical velocity, units of Aω_b
}

}  // namespace granular
