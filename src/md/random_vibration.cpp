// The random vibration's exact step (include/granular/md/random_vibration.hpp).
#include "granular/md/random_vibration.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "granular/constants.hpp"

namespace granular::md {

namespace {

// e^{Ms} for M = [[0, 1], [−ω², −2cω]] (underdamped): rows (x, v), columns (x0, v0).
struct Propagator {
  double xx, xv, vx, vv;
};

Propagator propagator(double c, double omega, double s) {
  const double a = c * omega, wd = omega * std::sqrt(1.0 - c * c);
  const double e = std::exp(-a * s), sn = std::sin(wd * s), cs = std::cos(wd * s);
  return {e * (cs + a / wd * sn), e * sn / wd, -e * omega * omega / wd * sn,
          e * (cs - a / wd * sn)};
}

// Quadrature panels of the covariance at most: 50 periods of a step, 20 panels each
constexpr double max_panels = 1000.0;

// s with the Cholesky factor of the covariance (sxx, sxv; sxv, svv) the noise adds over a step
RandomVibrationStep with_covariance(RandomVibrationStep s, double sxx, double sxv, double svv) {
  if (sxx > 0.0) {
    s.l11 = std::sqrt(sxx);
    s.l21 = sxv / s.l11;
    s.l22 = std::sqrt(std::max(0.0, svv - s.l21 * s.l21));
  }
  return s;
}

}  // namespace

RandomVibrationStep random_vibration_step(const RandomVibration& d, double dt) {
  if (!(d.c > 0.0 && d.c < 1.0) || !(d.omega_b > 0.0) || !(dt > 0.0) || !(d.amplitude >= 0.0))
    throw std::invalid_argument("random_vibration_step: needs 0 < c < 1, omega_b > 0, dt > 0");
  const double w = d.omega_b;
  const double noise = 4.0 * d.c * w * w * w * d.amplitude * d.amplitude;  // D
  const Propagator phi = propagator(d.c, w, dt);

  // the covariance the noise adds over dt: D ∫_0^dt g gᵀ ds with g(s) = e^{Ms}(0, 1), by
  // Gauss–Legendre on panels of at most a twentieth of a period (no cancellation, unlike
  // Σ∞ − Φ Σ∞ Φᵀ, whose x–x entry is O((ω dt)³) below its terms)
  static const double node[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267,
                                 0.9602898564975363};
  static const double weight[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745,
                                   0.1012285362903763};
  const double period = 2.0 * pi / w;
  const double want = std::ceil(20.0 * dt / period);
  double sxx = 0.0, sxv = 0.0, svv = 0.0;
  if (!(want <= max_panels)) {
    // a step of more than 50 periods: there Φ is far from the identity and Σ_dt = Σ∞ − Φ Σ∞ Φᵀ
    // has no cancellation (Σ∞ = diag(A², ω² A²), the stationary covariance)
    const double a2 = d.amplitude * d.amplitude, v2 = w * w * a2;
    RandomVibrationStep s{phi.xx, phi.xv, phi.vx, phi.vv, 0.0, 0.0, 0.0};
    sxx = a2 - (phi.xx * phi.xx * a2 + phi.xv * phi.xv * v2);
    sxv = -(phi.xx * phi.vx * a2 + phi.xv * phi.vv * v2);
    svv = v2 - (phi.vx * phi.vx * a2 + phi.vv * phi.vv * v2);
    return with_covariance(s, sxx, sxv, svv);
  }
  const int panels = static_cast<int>(want);
  const double h = dt / panels;
  for (int p = 0; p < panels; ++p) {
    const double mid = (p + 0.5) * h;
    for (int k = 0; k < 4; ++k) {
      for (double sign : {-1.0, 1.0}) {
        const Propagator g = propagator(d.c, w, mid + sign * 0.5 * h * node[k]);
        const double wk = 0.5 * h * weight[k];
        sxx += wk * g.xv * g.xv;
        sxv += wk * g.xv * g.vv;
        svv += wk * g.vv * g.vv;
      }
    }
  }
  const RandomVibrationStep s{phi.xx, phi.xv, phi.vx, phi.vv, 0.0, 0.0, 0.0};
  return with_covariance(s, noise * sxx, noise * sxv, noise * svv);
}

double random_vibration_autocorrelation(const RandomVibration& d, double tau) {
  const double t = std::fabs(tau), root = std::sqrt(1.0 - d.c * d.c), wd = d.omega_b * root;
  return d.amplitude * d.amplitude * std::exp(-d.c * d.omega_b * t) *
         (std::cos(wd * t) + d.c / root * std::sin(wd * t));
}

}  // namespace granular::md
