// The 3-disk system in the MD engine (md/supported_disk/systems.hpp, md/supported_disk/run.hpp)
// against the closed forms of md/supported_disk/three_disk.hpp (Peraza-Mues 2018, ch. 5): slip
// onsets at +A_S2 and −A_S1 under a slow torque ramp, contact 2 opening above the detachment tilt
// θ_T^D = θ0 − arctan μ, and ω̄·ω_e under the harmonic torque against the stick–slip rotor (eq. 5.9
// where valid), with ω̄ = 0 at θ_T = 0; and with the upper disk's centre held (constant normal
// forces, thesis §5): symmetric slide thresholds and no rotation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "granular/constants.hpp"
#include "granular/md/supported_disk/run.hpp"
#include "granular/md/supported_disk/systems.hpp"
#include "granular/md/supported_disk/three_disk.hpp"

namespace granular::md {
namespace {

// The thesis' ch. 5 set (k_n = 10³, k_t = 10⁶, γ = 10, μ = 0.1, m = 0.1, R = 1, g = 10) at
// dt = 10⁻⁵ (60 steps per period of the stiffest mode, √(4k_t/m)).
ThreeDiskParams chapter5(double tilt) {
  ThreeDiskParams p;
  p.tilt = tilt;
  return p;
}

struct SystemRun {
  std::vector<SupportedDiskSample> samples;
  SupportedDiskPackingResult result;
};

SystemRun run(const ThreeDiskParams& p, const RunSchedule& schedule) {
  EnsembleModel m;
  m.dt = 1e-5;
  m.neighbor.skin = 0.2;
  m.neighbor.max_neighbors = 2;
  m.neighbor.max_contacts = 2;
  std::vector<double> x, y;
  add_three_disk(m, p, x, y);
  EnsembleState s = make_state(m, x, y, -schedule.settle_time);
  SystemRun r;
  SupportedDiskRunOptions o;
  o.threads = 1;
  o.on_sample = [&](int, const SupportedDiskSample& sample) { r.samples.push_back(sample); };
  r.result = run_supported_disk(m, s, schedule, o).packings[0];
  return r;
}

// The applied torque when both contacts first slide together (the disk turns), if they do.
std::optional<double> slip_onset(const SystemRun& r) {
  for (const SupportedDiskSample& s : r.samples) {
    if (s.contacts[0].sliding && s.contacts[1].sliding) return s.applied_torque;
  }
  return std::nullopt;
}

// At rest the upper disk holds the closed-form statics (4.29)–(4.30) with unloaded skins
// (τ = 0): it starts at its static overlaps, so nothing stretches the skins as it settles.
// Untilted, n01 = n02 = m g / (2 cos θ0) = 0.57735 m g; tilted below θ_T^D, the two differ.
TEST(ThreeDiskMd, RestsWithTheClosedFormStatics) {
  for (const double tilt : {0.0, 0.06 * pi, -0.1 * pi}) {
    const ThreeDiskParams p = chapter5(tilt);
    const SystemRun r = run(p, {0.3, 0.0, 0.2, 0.01});
    ASSERT_FALSE(r.samples.empty());
    const three_disk::NormalForces closed =
        three_disk::normal_forces(closed_form_params(p), 0.0, 0.0);
    const double mg = p.mass * p.gravity;
    for (const SupportedDiskSample& s : r.samples) {
      EXPECT_NEAR(s.contacts[0].normal / closed.n01, 1.0, 1e-3) << tilt << " t " << s.t;
      EXPECT_NEAR(s.contacts[1].normal / closed.n02, 1.0, 1e-3) << tilt << " t " << s.t;
      EXPECT_LT(std::fabs(s.contacts[0].tangential), 1e-3 * mg) << tilt << " t " << s.t;
      EXPECT_LT(std::fabs(s.contacts[1].tangential), 1e-3 * mg) << tilt << " t " << s.t;
    }
    if (tilt == 0.0) {
      EXPECT_NEAR(r.samples.back().contacts[0].normal / mg, 0.5773502692, 1e-3);
    }
  }
}

// A ramp of ±0.02 N m/s: 6 s to the thresholds, against an elastic period of 3e-4 s (quasi-
// static); sampled every 1 ms (2e-5 of torque).
SystemRun ramp(double tilt, double rate, double duration, double support_radius = 0.0) {
  ThreeDiskParams p = chapter5(tilt);
  p.torque.rate = rate;
  p.support_radius = support_radius;
  return run(p, {0.5, 0.0, duration, 1e-3});
}

// The statics and the slide thresholds depend on the supports only through the normals' angle
// θ0 (eqs. 4.29–4.30, 5.3–5.5): supports of half or four times the upper disk's radius, with
// the same θ0, give the same normal forces at rest and the same counter-clockwise onset A_S2.
TEST(ThreeDiskMd, SupportsOfAnyRadiusGiveTheSameStaticsAndThreshold) {
  const double tilt = 0.06 * pi;
  for (const double support_radius : {0.5, 4.0}) {
    ThreeDiskParams p = chapter5(tilt);
    p.support_radius = support_radius;
    const SystemRun r = run(p, {0.3, 0.0, 0.2, 0.01});
    ASSERT_FALSE(r.samples.empty());
    const three_disk::NormalForces closed =
        three_disk::normal_forces(closed_form_params(p), 0.0, 0.0);
    EXPECT_NEAR(r.samples.back().contacts[0].normal / closed.n01, 1.0, 1e-3) << support_radius;
    EXPECT_NEAR(r.samples.back().contacts[1].normal / closed.n02, 1.0, 1e-3) << support_radius;
  }
  const three_disk::ThreeDiskParams c = closed_form_params(chapter5(tilt));
  const std::optional<double> ccw = slip_onset(ramp(tilt, 0.02, 6.5, 4.0));
  ASSERT_TRUE(ccw.has_value());
  EXPECT_NEAR(*ccw, three_disk::ccw_threshold(c), 5e-3 * three_disk::ccw_threshold(c));
}

TEST(ThreeDiskMd, SlipOnsetsUnderATorqueRampAreTheThresholds) {
  const double tilt = 0.06 * pi;
  const three_disk::ThreeDiskParams c = closed_form_params(chapter5(tilt));
  // counter-clockwise: both contacts slip at S2 when the torque reaches A_S2
  const std::optional<double> ccw = slip_onset(ramp(tilt, 0.02, 6.5));
  ASSERT_TRUE(ccw.has_value());
  // the disk must accelerate a little before the skins reach the limit: 0.5 %
  EXPECT_NEAR(*ccw, three_disk::ccw_threshold(c), 5e-3 * three_disk::ccw_threshold(c));
  // clockwise: at S1, at −A_S1 (larger: the tilt favours counter-clockwise slides)
  const std::optional<double> cw = slip_onset(ramp(tilt, -0.02, 6.5));
  ASSERT_TRUE(cw.has_value());
  EXPECT_NEAR(*cw, -three_disk::cw_threshold(c), 5e-3 * three_disk::cw_threshold(c));
  EXPECT_LT(three_disk::ccw_threshold(c), three_disk::cw_threshold(c));
}

// Above θ_T^D contact 2 opens under the counter-clockwise ramp before the disk slides at S2
// (the polygon's vertex D2 comes first, eq. 4.50); below it the disk slides with both closed.
TEST(ThreeDiskMd, ContactTwoOpensAboveTheDetachmentTilt) {
  const double detach = three_disk::detachment_tilt(closed_form_params(chapter5(0.0)));
  for (double tilt : {detach - 0.02 * pi, detach + 0.02 * pi}) {
    const SystemRun r = ramp(tilt, 0.02, 6.5);
    bool opened = false;
    bool slid = false;
    for (const SupportedDiskSample& s : r.samples) {
      slid = slid || (s.contacts[0].sliding && s.contacts[1].sliding);
      if (!slid && !s.contacts[1].closed) opened = true;
    }
    EXPECT_EQ(opened, tilt > detach) << tilt / pi;
    EXPECT_EQ(slid, tilt < detach) << tilt / pi;
  }
}

// ω̄·ω_e under A_e sin(ω_e t), ω_e = 1 (quasi-static: 100 times below √(k_n/m); at ω_e = 2 the
// bidirectional cell is 6 % off, at 0.5 within 0.1 %), measured over two periods after one:
// the stick–slip rotor's (eq. 5.9 where it is valid), which idealizes the contacts as rigid
// until they slide; 2 % for the skins' compliance and the disk's inertia.
TEST(ThreeDiskMd, HarmonicTorqueRotationIsTheRotors) {
  const double omega_e = 1.0, period = 2.0 * pi / omega_e;
  struct Cell {
    double tilt_pi;
    double amplitude;
  };
  double smallest = 0.0;
  for (const Cell cell : {Cell{0.06, 0.113}, Cell{0.03, 0.2}}) {
    ThreeDiskParams p = chapter5(cell.tilt_pi * pi);
    p.torque.amplitude = cell.amplitude;
    p.torque.omega = omega_e;
    const SystemRun r = run(p, {0.5, period, 2.0 * period, period / 200.0});
    const double md = mean_omega(r.result.rotation) * omega_e;
    const double rotor =
        three_disk::mean_rotation_times_frequency(closed_form_params(p), cell.amplitude);
    EXPECT_GT(rotor, 0.0);
    EXPECT_NEAR(md, rotor, 0.02 * rotor) << cell.tilt_pi << " " << cell.amplitude;
    EXPECT_EQ(r.result.openings, 0);
    smallest = rotor;
  }
  // θ_T = 0: A_S1 = A_S2 and the slides cancel, to 1 % of the rotation at θ_T = 0.03π (what
  // remains decays with the periods: 0.6 % over the second and third, 0.1 % over six)
  ThreeDiskParams level = chapter5(0.0);
  level.torque.amplitude = 0.2;
  level.torque.omega = omega_e;
  const SystemRun r = run(level, {0.5, period, 2.0 * period, period / 200.0});
  EXPECT_LT(std::fabs(mean_omega(r.result.rotation) * omega_e), 1e-2 * smallest);
}

// The centre held at its static rest (thesis §5, fig. 4.3's dotted region): the normal forces
// stay the static ones (4.29)–(4.30) at τ = 0, n01 ≠ n02 when tilted, and a torque slides the
// disk only when both skins are on their limits, at ±μR(n01 + n02) either way: the admissible
// region is centrally symmetric, so the harmonic torque turns the disk back and forth and no
// rotation accumulates, where the free disk rotates.
ThreeDiskParams held(double tilt) {
  ThreeDiskParams p = chapter5(tilt);
  p.upper_centre = UpperCentre::held;
  return p;
}

TEST(ThreeDiskMd, HeldCentreSlidesAtTheSameTorqueEitherWay) {
  const double tilt = 0.06 * pi;
  const three_disk::ThreeDiskParams c = closed_form_params(chapter5(tilt));
  const three_disk::NormalForces n = three_disk::normal_forces(c, 0.0, 0.0);
  const double limit = c.mu * c.radius * (n.n01 + n.n02);
  for (const double rate : {0.02, -0.02}) {
    ThreeDiskParams p = held(tilt);
    p.torque.rate = rate;
    const SystemRun r = run(p, {0.5, 0.0, 6.5, 1e-3});
    ASSERT_FALSE(r.samples.empty());
    for (const SupportedDiskSample& s : r.samples) {
      ASSERT_EQ(s.contacts[0].normal, r.samples.front().contacts[0].normal) << s.t;
      ASSERT_EQ(s.contacts[1].normal, r.samples.front().contacts[1].normal) << s.t;
    }
    EXPECT_NEAR(r.samples.front().contacts[0].normal / n.n01, 1.0, 1e-3);
    EXPECT_NEAR(r.samples.front().contacts[1].normal / n.n02, 1.0, 1e-3);
    const std::optional<double> onset = slip_onset(r);
    ASSERT_TRUE(onset.has_value()) << rate;
    EXPECT_NEAR(std::fabs(*onset), limit, 5e-3 * limit) << rate;
  }
  // the free disk's thresholds bracket it: A_S2 < μR(n01 + n02) < A_S1
  EXPECT_LT(three_disk::ccw_threshold(c), limit);
  EXPECT_LT(limit, three_disk::cw_threshold(c));
}

TEST(ThreeDiskMd, HeldCentreDoesNotRotateUnderTheHarmonicTorque) {
  const double omega_e = 1.0, period = 2.0 * pi / omega_e;
  for (const double amplitude : {0.13, 0.15}) {
    ThreeDiskParams p = held(0.06 * pi);
    p.torque.amplitude = amplitude;
    p.torque.omega = omega_e;
    const SystemRun r = run(p, {0.5, period, 2.0 * period, period / 200.0});
    std::int64_t sliding = 0;
    for (const std::int64_t k : r.result.sliding_samples) sliding += k;
    EXPECT_GT(sliding, 0) << amplitude;  // it slides, back and forth
    ThreeDiskParams free = p;
    free.upper_centre = UpperCentre::free;
    const double free_rotation =
        mean_omega(run(free, {0.5, period, 2.0 * period, period / 200.0}).result.rotation);
    EXPECT_GT(free_rotation * omega_e, 0.01) << amplitude;
    EXPECT_LT(std::fabs(mean_omega(r.result.rotation)), 1e-6 * free_rotation) << amplitude;
  }
}

}  // namespace
}  // namespace granular::md
