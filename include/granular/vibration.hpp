// A base vibrated sinusoidally, y = A sin(ω t), at dimensionless acceleration Γ = A ω² / g (the
// thesis' packings, the dimer's plate): the one formula every model uses for it; and the wall
// velocity a collision with it meets by the fixed-bottom random-phase approximation (FBRPA,
// Peraza-Mues 2018 §2.3.3) and the bounce drawn by it, which the event-driven packings and the
// wedge's map share.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "granular/constants.hpp"
#include "granular/hd.hpp"
#include "granular/random.hpp"

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

// The first two moments of FBRPA's wall velocity at one approach speed vn (< 0) on a wall at
// angle θ (units of Aω_b), with their standard errors, from `draws` draws of stream 1 of
// `seed` (draw k at step k): what `granular validate` reports of a case's FBRPA wall. For
// |vn| ≫ 1, ⟨V⟩ → −1/(2 vn) and ⟨V²⟩ → 1/2 (thesis eqs. 2.45–2.46); as |vn| → 0, V → 1.
struct FbrpaMoments {
  double mean, mean_se;
  double mean_square, mean_square_se;
};

inline FbrpaMoments fbrpa_moments(double vn, double theta, std::int64_t draws, std::uint64_t seed) {
  double m1 = 0.0, m2 = 0.0, m4 = 0.0;
  for (std::int64_t k = 0; k < draws; ++k) {
    const auto words = random_words({seed, 0, 1}, static_cast<std::uint64_t>(k));
    const double v = fbrpa_wall_velocity(vn, theta, uniform_open(words.v[0]));
    m1 += v;
    m2 += v * v;
    m4 += v * v * v * v;
  }
  const double n = static_cast<double>(draws);
  m1 /= n;
  m2 /= n;
  m4 /= n;
  // the sample variances of V and of V², over n − 1
  const double var1 = std::max(0.0, (m2 - m1 * m1) * n / (n - 1.0));
  const double var2 = std::max(0.0, (m4 - m2 * m2) * n / (n - 1.0));
  return {m1, std::sqrt(var1 / n), m2, std::sqrt(var2 / n)};
}

// FBRPA draws at one collision before the model gives up on it (its run stops with a status).
inline constexpr std::uint32_t max_fbrpa_draws = 1000;

// An approach slower than this (units of Aω_b) is drawn as this one. The sampler's incoming line
// has the approach's slope, and its first crossing starts from 1/slope: at a vanishing approach
// (a disk resting on the wall, or grazing it) that is no number, while any approach below
// 1e-6 Aω_b meets the wall at its crest alike.
inline constexpr double slowest_fbrpa_approach = 1e-6;

struct FbrpaBounce {
  bool bounced = false;          // false: max_fbrpa_draws draws in a row would not bounce it
  double wall_velocity = 0.0;    // the accepted draw: the wall's vertical velocity, units of Aω_b
  std::uint32_t rejections = 0;  // the draws rejected before it
};

// A collision with the vibrating wall by FBRPA (§2.3.3): wall velocities drawn for the normal
// approach vn (< 0, units of Aω_b) on the wall at angle θ, draw k from the stream k of `seed` at
// step `collision` (the model's count of such collisions), until `bounces(V)` says the collision
// rules send the disk back from a wall moving at V; the draws that would not are rejected.
template <class Bounces>
FbrpaBounce fbrpa_bounce(double vn, double theta, std::uint64_t seed, std::uint64_t collision,
                         Bounces&& bounces) {
  const double approach = std::min(vn, -slowest_fbrpa_approach);
  FbrpaBounce b;
  for (std::uint32_t k = 0; k < max_fbrpa_draws; ++k) {
    const auto words = random_words({seed, 0, k}, collision);
    b.wall_velocity = fbrpa_wall_velocity(approach, theta, uniform_open(words.v[0]));
    if (bounces(b.wall_velocity)) {
      b.bounced = true;
      return b;
    }
    ++b.rejections;
  }
  return b;
}

}  // namespace granular
