// The event-driven packing (docs/ed.md; Peraza-Mues 2018, §2.3): elastic, frictionless disks
// in a box with fixed walls keep their energy to round-off over many events; a disk bouncing on
// the fixed bottom with spin and sliding leaves as it does in the MD engine; a disk that comes
// to rest on the fixed bottom (infinitely many bounces in a finite time) stops its packing with
// the collapse flag instead of hanging; the restitution tables keep e_t within [−1, 1].
#include "granular/md/ed/packing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "granular/md/backend.hpp"
#include "granular/md/ed/restitution.hpp"
#include "granular/md/packing.hpp"
#include "granular/md/state.hpp"

namespace granular::md::ed {
namespace {

constexpr double density = 3.57;  // [kg/m²], the thesis' acrylic

PackingParams box(double width, const ContactParams& law) {
  PackingParams p{};
  p.box_width = width;
  p.gravity = 9.8;
  p.drive_omega = 2.0 * M_PI * 80.0;
  p.disk_disk = law;
  p.disk_wall = law;
  p.seed = 42;
  return p;
}

std::vector<double> masses(const std::vector<double>& radii) {
  std::vector<double> m;
  for (double r : radii) m.push_back(disk_mass(density, r));
  return m;
}

TEST(EdPacking, ElasticFrictionlessDisksKeepTheirEnergyToRoundOff) {
  // γ_n = 0 gives e_n = 1 (eq. 4.56), μ = 0 gives e_t = 1
  const ContactParams law{1e5, 0.0, 0.0, 0.0};
  const PackingParams p = box(0.4, law);
  std::vector<double> radii;
  std::vector<DiskSnapshot> start;
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  // 40 disks on a loose grid (no overlaps), random velocities and spins
  for (int k = 0; k < 40; ++k) {
    const double r = 0.015 + 0.005 * (k % 3);
    radii.push_back(r);
    start.push_back({0.05 + 0.1 * (k % 4) + 0.01 * unit(rng), 0.05 + 0.07 * (k / 4), unit(rng),
                     unit(rng), 0.0, 20.0 * unit(rng)});
  }
  const RestitutionSet laws =
      make_restitution_set(law, law, radii, density, TangentialRule::large_kappa);
  EdPacking packing(p, radii, masses(radii), laws, start, 0.0, 1e6);
  const double e0 = packing.energy_at(0.0).total();
  std::vector<double> omega0;
  for (int i = 0; i < packing.size(); ++i) omega0.push_back(start[i].omega);
  double worst = 0.0;
  for (int k = 1; k <= 100; ++k) {
    packing.advance_to(0.05 * k);
    worst = std::max(worst, std::fabs(packing.energy_at(packing.time()).total() - e0) / e0);
  }
  ASSERT_EQ(packing.status(), 0u);
  EXPECT_GT(packing.counts().disk_disk, 3000);
  EXPECT_GT(packing.counts().bottom, 300);
  EXPECT_GT(packing.counts().side_wall, 300);
  // each event rounds a few energies of order E/N: a random walk of ~10⁴ roundings of ε
  std::printf("largest relative energy change over %lld events: %.3g\n",
              static_cast<long long>(packing.counts().total()), worst);
  EXPECT_LT(worst, 1e-13);
  // without friction no collision changes a spin
  for (int i = 0; i < packing.size(); ++i)
    EXPECT_EQ(packing.disk_at(i, packing.time()).omega, omega0[i]);
}

// The MD engine's single disk of radius r, dropped with velocity (vx, vy) and spin ω at height
// y0 onto the fixed bottom, at time t.
DiskSnapshot md_bounce(const ContactParams& law, double r, const DiskSnapshot& s0, double t) {
  EnsembleModel m;
  m.integrator = Integrator::gear5;
  const double t_c = linear_dashpot_restitution(law.k_n, law.gamma_n, disk_mass(density, r)).t_c;
  m.dt = t_c / 1000.0;
  m.neighbor.skin = 0.2 * r;
  m.add_packing(box(0.4, law), {r}, density);
  EnsembleState s = make_state(m, {s0.x}, {s0.y}, 0.0);
  s.vx[0] = s0.vx;
  s.vy[0] = s0.vy;
  s.omega[0] = s0.omega;
  auto backend = make_cpu_backend(1);
  backend->initialize(m, s);
  backend->advance(m, s, static_cast<std::int64_t>(std::llround(t / m.dt)));
  EXPECT_EQ(s.status[0], status_ok);
  return {s.x[0], s.y[0], s.vx[0], s.vy[0], s.theta[0], s.omega[0]};
}

TEST(EdPacking, ABounceOnTheFixedBottomLeavesAsInTheMdEngine) {
  // the thesis' chapter-6 wall (e_n ≈ 0.9 on a 4.5 g disk), a disk of 2 cm hitting it at
  // 1 m/s: the collision lasts t_c ≈ 0.1 ms, gravity changes the velocity by g t_c ≈ 1e-3 m/s
  // during it, which the ED rule ignores (thesis §2.3.1)
  const ContactParams law{4.5e6, 3.4785e6, 9.84, 0.1};
  const double r = 0.02;
  const std::vector<double> radii{r};
  const RestitutionSet laws =
      make_restitution_set(law, law, radii, density, TangentialRule::contact_law);
  PackingParams p = box(0.4, law);
  // slides and spins: |u_t/u_n| at impact ≈ 0.25 and ≈ 1.4, in the table's stick–slip range
  for (const DiskSnapshot s0 : {DiskSnapshot{0.2, r + 0.005, 0.1, -1.0, 0.0, 5.0},
                                DiskSnapshot{0.2, r + 0.005, -0.5, -1.0, 0.0, 60.0}}) {
    EdPacking packing(p, radii, masses(radii), laws, {s0}, 0.0, 1e6);
    const double t = 0.02;  // after the bounce, before the next
    packing.advance_to(t);
    ASSERT_EQ(packing.counts().bottom, 1);
    const DiskSnapshot ed = packing.disk_at(0, t);
    const DiskSnapshot md = md_bounce(law, r, s0, t);
    std::printf("bounce: ED v = (%.6f, %.6f) Rω = %.6f; MD v = (%.6f, %.6f) Rω = %.6f\n", ed.vx,
                ed.vy, r * ed.omega, md.vx, md.vy, r * md.omega);
    // the MD's step (t_c/1000) costs ~1e-3 of the velocities; gravity during contact ~1e-3;
    // the table's linear interpolation in log ratio ~1e-3 of e_t
    const double tol = 5e-3;
    EXPECT_NEAR(ed.vy, md.vy, tol * 1.0);
    EXPECT_NEAR(ed.vx, md.vx, tol * std::fabs(s0.vx + r * s0.omega));
    EXPECT_NEAR(r * ed.omega, r * md.omega, tol * std::fabs(s0.vx + r * s0.omega));
  }
}

TEST(EdPacking, ADiskComingToRestOnTheFixedBottomStopsWithTheCollapseFlag) {
  // A = 0: bounces shrink by e_n each, infinitely many within 2 v0 / (g (1 − e_n)) ≈ 0.2 s
  // (γ_n = 2 kg/s: e_n ≈ 0.6 on a 4.5 g disk)
  const ContactParams law{1e4, 7.7e3, 2.0, 0.1};
  const std::vector<double> radii{0.02};
  const RestitutionSet laws =
      make_restitution_set(law, law, radii, density, TangentialRule::large_kappa);
  EdPacking packing(box(0.4, law), radii, masses(radii), laws, {{0.2, 0.03, 0.0, 0.0, 0.0, 0.0}},
                    0.0, 1e5);
  for (int k = 1; k <= 10 && packing.status() == 0; ++k) packing.advance_to(0.1 * k);
  EXPECT_EQ(packing.status(), status_inelastic_collapse);
  // the cap: at most max_event_rate × N × (chunk length) = 10⁴ events in the chunk that
  // collapsed, after a few dozen visible bounces (heights fall by e_n² ≈ 0.36 each)
  EXPECT_LE(packing.counts().total(), 1e4 + 100);
  EXPECT_GT(packing.counts().total(), 1e4);
}

TEST(EdPacking, ADenseBedOfSmallRestitutionCollapsesWithoutHanging) {
  // the thesis' 60-disk layout, lifted, falling onto a fixed bottom with e_n ≈ 0.3 (γ_n = 5)
  const ContactParams law{1e4, 7.7e3, 5.0, 0.1};
  std::vector<double> radii;
  for (double r : {0.015, 0.02, 0.025}) radii.insert(radii.end(), 20, r);
  const PackingLayout layout = advancing_front(radii, 0.4, 3);
  std::vector<DiskSnapshot> start;
  for (std::size_t i = 0; i < radii.size(); ++i)
    start.push_back({layout.x[i], 1.01 * layout.y[i], 0.0, 0.0, 0.0, 0.0});
  const RestitutionSet laws =
      make_restitution_set(law, law, radii, density, TangentialRule::large_kappa);
  EdPacking packing(box(0.4, law), radii, masses(radii), laws, start, 0.0, 1e5);
  for (int k = 1; k <= 40 && packing.status() == 0; ++k) packing.advance_to(0.05 * k);
  EXPECT_EQ(packing.status(), status_inelastic_collapse);
  EXPECT_LT(packing.time(), 2.0);
}

TEST(EdPacking, TheBottomsDrawsKeepADiskOnTheBottomBouncing) {
  // the same disk on the FBRPA bottom at Γ = 2 never comes to rest (§2.3.3)
  const ContactParams law{1e4, 7.7e3, 0.1, 0.1};
  const std::vector<double> radii{0.02};
  const RestitutionSet laws =
      make_restitution_set(law, law, radii, density, TangentialRule::large_kappa);
  PackingParams p = box(0.4, law);
  p.drive_amplitude = drive_amplitude(2.0, p.gravity, p.drive_omega);
  EdPacking packing(p, radii, masses(radii), laws, {{0.2, 0.03, 0.0, 0.0, 0.0, 0.0}}, 0.0, 1e5);
  for (int k = 1; k <= 20; ++k) packing.advance_to(0.1 * k);
  EXPECT_EQ(packing.status(), 0u);
  EXPECT_GT(packing.counts().bottom, 20);  // ~45: flights of ~0.04 s
  EXPECT_GT(packing.disk_at(0, packing.time()).y, 0.0);
}

TEST(EdRestitution, TangentialRestitutionStaysWithinPlusMinusOne) {
  // the thesis' chapter-3 laws at kn = 1e4 and 1e6 for its three radii, tabulated from single
  // collisions; the tables span the stick (e_t → cos ω_t t_c, possibly < 0) and slide regimes
  for (double k_n : {1e4, 1e6}) {
    const ContactParams law{k_n, 0.77 * k_n, 0.1, 0.1};
    const RestitutionSet set = make_restitution_set(law, law, {0.015, 0.02, 0.025, 0.015}, density,
                                                    TangentialRule::contact_law);
    ASSERT_EQ(set.species_radius.size(), 3u);
    ASSERT_EQ(set.pairs.size(), 9u);
    for (const std::vector<Restitution>* group : {&set.pairs, &set.walls}) {
      for (const Restitution& r : *group) {
        EXPECT_GT(r.e_n, 0.9);  // lightly damped (docs/cases.md, γ_n in kg/s)
        for (double x = -4.0; x <= 4.0; x += 0.01) {
          const double e_t = r.e_t(std::pow(10.0, x));
          EXPECT_GE(e_t, -1.0);
          EXPECT_LE(e_t, 1.0);
        }
        // the full-sliding limit (4.75) at large ratios, which holds there
        EXPECT_NEAR(r.e_t(100.0), full_sliding_e_t(r.e_n, r.mu, 100.0), 1e-3);
      }
    }
    // a symmetric pair table
    EXPECT_EQ(set.pair(0, 1).table.e_t, set.pair(1, 0).table.e_t);
    EXPECT_EQ(set.pair(0, 3).e_n, set.pair(0, 0).e_n);
  }
  // the large-κ approximation (ch. 6) is 0 at small ratios and 1 − 3μ(1 + e_n)/ratio above
  Restitution r;
  r.e_n = 0.9;
  r.mu = 0.1;
  EXPECT_EQ(r.e_t(0.1), 0.0);
  EXPECT_DOUBLE_EQ(r.e_t(2.0), 1.0 - 0.3 * 1.9 / 2.0);
}

// The thesis' ED rule (thesis_rule): the contact law's table where the collision starts in
// stick, |u_t/u_n| <= μ/κ, the full-sliding e_t (4.75) above, clamped: at the onset it jumps
// from the table to the formula, which is the erratum's point.
TEST(EdRestitution, TheThesisRuleSwitchesToTheFullSlidingLawAt4_76) {
  const ContactParams law{1e4, 0.773e4, 0.1, 0.1};
  const Restitution rule = make_restitution(law, 0.02, 0.0, density, TangentialRule::thesis_rule);
  const Restitution table = make_restitution(law, 0.02, 0.0, density, TangentialRule::contact_law);
  EXPECT_DOUBLE_EQ(rule.kappa, 0.773);
  EXPECT_EQ(rule.table.e_t, table.table.e_t);  // the same integrated law
  const double onset = law.mu / rule.kappa;
  for (double ratio : {0.01, 0.05, 0.5 * onset, 0.99 * onset})
    EXPECT_EQ(rule.e_t(ratio), table.e_t(ratio)) << ratio;
  for (double ratio : {1.01 * onset, 0.5, 2.0, 50.0})
    EXPECT_EQ(rule.e_t(ratio), std::clamp(full_sliding_e_t(rule.e_n, rule.mu, ratio), -1.0, 1.0))
        << ratio;
  EXPECT_EQ(rule.e_t(1.01 * onset), -1.0);  // (4.75) < −1 there
}

}  // namespace
}  // namespace granular::md::ed
