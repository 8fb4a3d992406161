// Tests for the random drive's building blocks: Philox4x32-10 against the Random123 known-answer
// vectors; draws as pure functions of (seed, packing, stream, step); the portable log within one
// ulp of logl; normal deviates with the moments of N(0, 1); and the random vibration of thesis
// §5.3.1, whose exact step keeps ⟨x²⟩ = A_b², ⟨ẋ²⟩ = ω_b²A_b² and the autocorrelation (5.13,
// with the √(1 − c²) erratum) for any dt.
#include "granular/random.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "granular/md/random_vibration.hpp"
#include "granular/portable_log.hpp"

namespace granular {
namespace {

TEST(Random, PhiloxMatchesTheKnownAnswers) {
  // Random123's kat_vectors: counter[4] key[2] -> output[4]
  struct Kat {
    std::uint32_t ctr[4], key[2], out[4];
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
  };
  for (const Kat& k : kats) {
    const RandomKey key{k.key[0] | (static_cast<std::uint64_t>(k.key[1]) << 32), k.ctr[2],
                        k.ctr[3]};
    const auto w = random_words(key, k.ctr[0] | (static_cast<std::uint64_t>(k.ctr[1]) << 32));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(w.v[i], k.out[i]) << i;
  }
}

TEST(Random, ADrawDependsOnlyOnItsKeyAndStep) {
  const RandomKey a{42, 3, 7};
  std::vector<double> forward, backward(1000);
  for (std::uint64_t s = 0; s < 1000; ++s) forward.push_back(random_normals(a, s).n[0]);
  for (std::uint64_t s = 1000; s-- > 0;) backward[s] = random_normals(a, s).n[0];
  EXPECT_EQ(forward, backward);
  // another packing, stream or seed is another sequence
  int same = 0;
  for (std::uint64_t s = 0; s < 1000; ++s) {
    same += random_normals({42, 4, 7}, s).n[0] == forward[s];
    same += random_normals({42, 3, 8}, s).n[0] == forward[s];
    same += random_normals({43, 3, 7}, s).n[0] == forward[s];
  }
  EXPECT_EQ(same, 0);
}

double ulps(double value, long double reference) {
  const double nearest = static_cast<double>(reference);
  const double ulp = std::nextafter(std::fabs(nearest), INFINITY) - std::fabs(nearest);
  return static_cast<double>(std::fabs(static_cast<long double>(value) - reference) / ulp);
}

TEST(Random, PortableLogIsWithinOneUlp) {
  std::mt19937_64 rng(5);
  double worst = 0.0;
  for (int i = 0; i < 400000; ++i) {
    // uniforms of the generator's grid, and doubles over the whole positive range
    const double x = i % 2 ? uniform_open(static_cast<std::uint32_t>(rng()))
                           : std::ldexp(1.0 + static_cast<double>(rng() >> 12) * 0x1p-52,
                                        static_cast<int>(rng() % 2090) - 1070);
    if (!(x > 0.0) || x == 1.0) continue;
    worst = std::max(worst, ulps(portable_log(x), std::log(static_cast<long double>(x))));
  }
  EXPECT_LT(worst, 1.0);
  std::printf("portable_log: at most %.3f ulp from logl\n", worst);
  EXPECT_EQ(portable_log(1.0), 0.0);
  EXPECT_EQ(portable_log(0.0), -INFINITY);
  EXPECT_TRUE(std::isnan(portable_log(-1.0)));
  EXPECT_EQ(portable_log(INFINITY), INFINITY);
  EXPECT_EQ(portable_log(4.9406564584124654e-324), std::log(4.9406564584124654e-324));
}

TEST(Random, NormalDeviatesHaveTheMomentsOfAStandardNormal) {
  const int n = 1 << 20;  // pairs of quads: 4n deviates
  double m1 = 0.0, m2 = 0.0, m3 = 0.0, m4 = 0.0, corr = 0.0;
  for (int s = 0; s < n; ++s) {
    const NormalQuad q = random_normals({9, 1, 2}, static_cast<std::uint64_t>(s));
    for (double x : q.n) {
      m1 += x;
      m2 += x * x;
      m3 += x * x * x;
      m4 += x * x * x * x;
    }
    corr += q.n[0] * q.n[1] + q.n[2] * q.n[3];
  }
  const double count = 4.0 * n;
  // standard errors: 1/√N, √2/√N, √15/√N, √96/√N, 1/√(N/2)
  EXPECT_NEAR(m1 / count, 0.0, 5.0 / std::sqrt(count));
  EXPECT_NEAR(m2 / count, 1.0, 5.0 * std::sqrt(2.0 / count));
  EXPECT_NEAR(m3 / count, 0.0, 5.0 * std::sqrt(15.0 / count));
  EXPECT_NEAR(m4 / count, 3.0, 5.0 * std::sqrt(96.0 / count));
  EXPECT_NEAR(corr / (count / 2.0), 0.0, 5.0 / std::sqrt(count / 2.0));
}

// The thesis' drive: c = 0.5, ω_b = 20π, A_b = 1e-4.
const md::RandomVibration thesis_drive{0.5, 20.0 * 3.141592653589793, 1e-4};

TEST(RandomVibration, TheStepKeepsTheStationaryCovariance) {
  // exact discretization: Σ∞ = Φ Σ∞ Φᵀ + L Lᵀ with Σ∞ = diag(A², ω²A²), for any dt
  const double a2 = thesis_drive.amplitude * thesis_drive.amplitude;
  const double w2 = thesis_drive.omega_b * thesis_drive.omega_b;
  // steps of 50 periods and more take Σ∞ − Φ Σ∞ Φᵀ instead of the quadrature, which would take
  // 20 panels per period (a drive of ω_b = 6e229 rad/s hung validation)
  for (double dt : {1e-6, 1e-4, 1e-3, 0.05, 0.3, 1.0, 10.0, 1e6}) {
    const md::RandomVibrationStep s = md::random_vibration_step(thesis_drive, dt);
    const double xx = s.p11 * s.p11 * a2 + s.p12 * s.p12 * w2 * a2 + s.l11 * s.l11;
    const double xv = s.p11 * s.p21 * a2 + s.p12 * s.p22 * w2 * a2 + s.l11 * s.l21;
    const double vv = s.p21 * s.p21 * a2 + s.p22 * s.p22 * w2 * a2 + s.l21 * s.l21 + s.l22 * s.l22;
    EXPECT_NEAR(xx / a2, 1.0, 1e-10) << dt;
    EXPECT_NEAR(xv / (std::sqrt(w2) * a2), 0.0, 1e-10) << dt;
    EXPECT_NEAR(vv / (w2 * a2), 1.0, 1e-10) << dt;
    // the noise added in a short step: ⟨Δv²⟩ = D dt (1 + O(cω dt)), ⟨Δx²⟩ = D dt³/3 (1 + ...)
    if (dt <= 1e-6) {
      const double noise = 4.0 * thesis_drive.c * w2 * std::sqrt(w2) * a2;
      EXPECT_NEAR(s.l21 * s.l21 + s.l22 * s.l22, noise * dt, 1e-3 * noise * dt) << dt;
      EXPECT_NEAR(s.l11 * s.l11, noise * dt * dt * dt / 3.0, 1e-3 * noise * dt * dt * dt) << dt;
    }
  }
  EXPECT_THROW(md::random_vibration_step({1.0, 1.0, 1.0}, 1e-3), std::invalid_argument);
}

TEST(RandomVibration, VarianceAndAutocorrelationMatchTheThesis) {
  // 10^6 steps of 1 ms: 31 000 correlation times (1/(cω_b) = 32 ms)
  const double dt = 1e-3;
  const md::RandomVibrationStep s = md::random_vibration_step(thesis_drive, dt);
  const int steps = 1000000, lags[] = {0, 10, 20, 32, 50};
  std::vector<double> x(steps);
  double xi = 0.0, vi = 0.0, v2 = 0.0;
  for (int n = 0; n < steps; ++n) {
    const NormalQuad q = random_normals({2024, 0, 0}, static_cast<std::uint64_t>(n));
    md::advance_random_vibration(s, xi, vi, q.n[0], q.n[1]);
    x[n] = xi;
    v2 += vi * vi;
  }
  const double a2 = thesis_drive.amplitude * thesis_drive.amplitude;
  EXPECT_NEAR(v2 / steps / (thesis_drive.omega_b * thesis_drive.omega_b * a2), 1.0, 0.05);
  for (int lag : lags) {
    double c = 0.0;
    for (int n = 1000; n + lag < steps; ++n) c += x[n] * x[n + lag];
    c /= steps - 1000 - lag;
    const double expected = md::random_vibration_autocorrelation(thesis_drive, lag * dt);
    EXPECT_NEAR(c / a2, expected / a2, 0.05) << "lag " << lag * dt << " s";
  }
  // the thesis' printed √(1 − c) instead of √(1 − c²) would give, at 20 ms:
  const double c = thesis_drive.c, w = thesis_drive.omega_b, tau = 0.02;
  const double printed =
      std::exp(-c * w * tau) * (std::cos(std::sqrt(1.0 - c) * w * tau) +
                                c / std::sqrt(1.0 - c) * std::sin(std::sqrt(1.0 - c) * w * tau));
  EXPECT_GT(std::fabs(printed - md::random_vibration_autocorrelation(thesis_drive, tau) / a2), 0.1);
}

TEST(RandomVibration, TheSameRandomNumbersGiveTheSameBits) {
  // what a CUDA kernel will compute from the same key: the same sequence of doubles
  const md::RandomVibrationStep s = md::random_vibration_step(thesis_drive, 1e-5);
  double x1 = 0.0, v1 = 0.0, x2 = 0.0, v2 = 0.0;
  for (std::uint64_t n = 0; n < 10000; ++n) {
    const NormalQuad q = random_normals({1, 2, 3}, n);
    md::advance_random_vibration(s, x1, v1, q.n[0], q.n[1]);
    const NormalPair p =
        normal_pair(random_words({1, 2, 3}, n).v[0], random_words({1, 2, 3}, n).v[1]);
    md::advance_random_vibration(s, x2, v2, p.first, p.second);
  }
  EXPECT_EQ(std::memcmp(&x1, &x2, sizeof x1), 0);
  EXPECT_EQ(std::memcmp(&v1, &v2, sizeof v1), 0);
  EXPECT_NE(x1, 0.0);
}

}  // namespace
}  // namespace granular
