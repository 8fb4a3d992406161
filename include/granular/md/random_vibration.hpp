// The random vibration of a support (thesis §5.3.1): each coordinate x of a support's
// deviation from rest (x_b, y_b, and θ_b, independently per support) follows the damped,
// noise-driven oscillator
//     ẍ + 2cω_b ẋ + ω_b² x = ξ(t),   ⟨ξ⟩ = 0,   ⟨ξ(t + τ) ξ(t)⟩ = D δ(τ),
// with D = 4cω_b³A_b², so that ⟨x²⟩ = A_b², ⟨ẋ²⟩ = ω_b²A_b², and the autocorrelation (thesis
// eq. 5.13, with √(1 − c²) where the thesis prints √(1 − c))
//     ⟨x(t + τ) x(t)⟩ = A_b² e^{−cω_b|τ|} [cos(ω_d τ) + c/√(1 − c²) sin(ω_d|τ|)],
// ω_d = ω_b√(1 − c²): correlation time 1/(cω_b). 0 < c < 1 (underdamped, as the thesis' 0.5).
//
// Integration: exact, not Euler–Maruyama. (x, ẋ) is a Gaussian Markov process, so over a step
// dt  (x, ẋ)_{n+1} = Φ (x, ẋ)_n + L (n1, n2)  with Φ = e^{M dt}, L Lᵀ the covariance the noise
// adds in dt, and n1, n2 standard normal deviates (random.hpp). The stationary statistics are
// those above for any dt, with no discretization bias. Φ and L are constants of the case,
// computed once on the host (host math); the step itself is + and × only, so every backend
// produces the same bits from the same random numbers (docs/model.md, "Random vibration").
#pragma once

#include "granular/hd.hpp"

namespace granular::md {

struct RandomVibration {
  double c = 0.5;          // damping ratio of the drive, 0 < c < 1
  double omega_b = 0.0;    // ω_b [rad/s]
  double amplitude = 0.0;  // A_b = √⟨x²⟩ [m], or [rad] for θ (A_b/R)
};

// The transition over one step: x' = p11 x + p12 v + l11 n1, v' = p21 x + p22 v + l21 n1 + l22 n2.
struct RandomVibrationStep {
  double p11, p12, p21, p22;
  double l11, l21, l22;
};

// Φ and the Cholesky factor L of the step's covariance, for the drive and the step dt (host).
RandomVibrationStep random_vibration_step(const RandomVibration& drive, double dt);

// ⟨x(t + τ) x(t)⟩ of the stationary process (eq. 5.13 with the erratum).
double random_vibration_autocorrelation(const RandomVibration& drive, double tau);

// One step of (x, v) with the normal deviates n1, n2.
GRANULAR_HD inline void advance_random_vibration(const RandomVibrationStep& s, double& x, double& v,
                                                 double n1, double n2) {
  const double x1 = s.p11 * x + s.p12 * v + s.l11 * n1;
  const double v1 = s.p21 * x + s.p22 * v + (s.l21 * n1 + s.l22 * n2);
  x = x1;
  v = v1;
}

}  // namespace granular::md
