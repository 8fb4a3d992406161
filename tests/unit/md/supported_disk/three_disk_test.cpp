// Tests for include/granular/md/supported_disk/three_disk.hpp, the closed forms of the 3-disk
// system (Peraza-Mues 2018, ch. 4–5; docs/three_disk.md): the Amonton polygon by closed forms
// against a linear solve, the static balance, the slide thresholds (5.3)–(5.5) against the polygon,
// the exact mean rotation (5.9) against the stick–slip rotor and a crude time stepper, the
// scaling of ω̄ with the amplitude, and the torques of the random-vibration mechanism.
#include "granular/md/supported_disk/three_disk.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <random>
#include <vector>

namespace granular::three_disk {
namespace {

double distance(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }
double norm(Point a) { return std::hypot(a.x, a.y); }

// a·x + b·y − c: zero on the line, ≤ 0 inside the half-plane.
double excess(const HalfPlane& h, Point q) { return h.a * q.x + h.b * q.y - h.c; }

// Random parameters over wide ranges with both contacts closed for every admissible
// (τ01, τ02) (§4.4), the regime the polygon describes, and θ0 + arctan μ at least 0.05 below
// π/2: there T2 runs to infinity (μ = cot θ0, the disk can wedge itself in) and its closed
// forms lose digits as 1/(cos θ0 − μ sin θ0). Accelerations up to 0.3 g.
class RandomParams {
 public:
  explicit RandomParams(unsigned seed) : rng_(seed) {}

  ThreeDiskParams next() {
    while (true) {
      ThreeDiskParams p;
      p.mass = std::pow(10.0, uniform(-2.0, 1.0));
      p.radius = std::pow(10.0, uniform(-2.0, 0.3));
      p.gravity = uniform(1.0, 20.0);
      p.k_t = std::pow(10.0, uniform(2.0, 7.0));
      p.theta0 = uniform(0.2, 1.2);
      p.tilt = uniform(-p.theta0, p.theta0);
      p.mu = uniform(0.01, 1.0);
      p.x_acc = uniform(-0.3, 0.3) * p.gravity;
      p.y_acc = uniform(-0.3, 0.3) * p.gravity;
      if (contacts_stay_closed(p) && p.theta0 + std::atan(p.mu) < 0.5 * pi - 0.05) return p;
    }
  }

  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng_);
  }

 private:
  std::mt19937_64 rng_;
};

std::vector<AmontonVertex> vertices(const AmontonPolygon& poly) {
  return {poly.s1, poly.s2, poly.t1, poly.t2, poly.d1, poly.d2};
}

TEST(ThreeDisk, AmontonVerticesMatchLinearSolve) {
  RandomParams random(11);
  // The closed forms and Cramer's rule round differently, most where a corner is far out
  // (T1 as μ → tan θ0, T2 as μ → cot θ0); measured: up to 2e-14 of the vertex's size over
  // 20 000 samples.
  const double tolerance = 1e-10;
  for (int i = 0; i < 2000; ++i) {
    const ThreeDiskParams p = random.next();
    const std::vector<AmontonVertex> closed = vertices(amonton_polygon(p));
    const std::vector<AmontonVertex> solved = vertices(amonton_polygon_by_linear_solve(p));
    for (std::size_t v = 0; v < closed.size(); ++v) {
      EXPECT_LE(distance(closed[v].tau, solved[v].tau), tolerance * norm(solved[v].tau))
          << "sample " << i << " vertex " << v;
      EXPECT_LE(distance(closed[v].reduced, solved[v].reduced), tolerance * norm(solved[v].reduced))
          << "sample " << i << " vertex " << v;
      // the two closed-form sets describe one point: (4.17) maps one onto the other
      EXPECT_LE(distance(reduced_from_tau(p, closed[v].tau), closed[v].reduced),
                tolerance * norm(closed[v].reduced))
          << "sample " << i << " vertex " << v;
    }
  }
}

TEST(ThreeDisk, AmontonVerticesLieOnTheirTwoLines) {
  RandomParams random(12);
  for (int i = 0; i < 1000; ++i) {
    const ThreeDiskParams p = random.next();
    const AmontonPolygon poly = amonton_polygon(p);
    const AmontonLines t = amonton_lines_tau(p), r = amonton_lines_reduced(p);
    struct Corner {
      AmontonVertex v;
      const HalfPlane *tau1, *tau2, *red1, *red2;
    };
    const Corner corners[] = {{poly.s1, &t.b, &t.c, &r.b, &r.c}, {poly.s2, &t.a, &t.d, &r.a, &r.d},
                              {poly.t1, &t.a, &t.c, &r.a, &r.c}, {poly.t2, &t.b, &t.d, &r.b, &r.d},
                              {poly.d1, &t.a, &t.b, &r.a, &r.b}, {poly.d2, &t.c, &t.d, &r.c, &r.d}};
    for (const Corner& c : corners) {
      // residuals relative to the line's right-hand side (the load w_i or W_i): round-off
      const double tau_scale = std::fabs(c.tau1->c) + std::fabs(c.tau2->c);
      const double red_scale = std::fabs(c.red1->c) + std::fabs(c.red2->c);
      EXPECT_NEAR(excess(*c.tau1, c.v.tau), 0.0, 1e-12 * tau_scale) << i;
      EXPECT_NEAR(excess(*c.tau2, c.v.tau), 0.0, 1e-12 * tau_scale) << i;
      EXPECT_NEAR(excess(*c.red1, c.v.reduced), 0.0, 1e-12 * red_scale) << i;
      EXPECT_NEAR(excess(*c.red2, c.v.reduced), 0.0, 1e-12 * red_scale) << i;
    }
  }
}

// With the contacts closed, S1, T1, S2, T2 satisfy all four inequalities (they are the
// corners of the admissible region), D1 and D2 violate one, the quadrilateral S1–T1–S2–T2 is
// convex, and it contains τ = 0 (both normal forces positive without friction).
TEST(ThreeDisk, AdmissibleRegionIsTheConvexQuadrilateralAroundTheOrigin) {
  RandomParams random(13);
  for (int i = 0; i < 1000; ++i) {
    const ThreeDiskParams p = random.next();
    const AmontonPolygon poly = amonton_polygon(p);
    const AmontonLines r = amonton_lines_reduced(p);
    const HalfPlane lines[] = {r.a, r.b, r.c, r.d};
    // a corner lies on two of the lines: it satisfies them up to round-off of the loads W_i
    const double slack = 1e-12 * (std::fabs(r.a.c) + std::fabs(r.c.c));
    const auto admissible = [&](Point q) {
      return std::all_of(std::begin(lines), std::end(lines),
                         [&](const HalfPlane& h) { return excess(h, q) <= slack; });
    };
    const Point ring[] = {poly.s1.reduced, poly.t1.reduced, poly.s2.reduced, poly.t2.reduced};
    for (const Point q : ring) EXPECT_TRUE(admissible(q)) << i;
    EXPECT_FALSE(admissible(poly.d1.reduced)) << i;
    EXPECT_FALSE(admissible(poly.d2.reduced)) << i;
    // the origin strictly inside every half-plane
    for (const HalfPlane& h : lines) EXPECT_LT(excess(h, {0.0, 0.0}), 0.0) << i;
    // convex: the turn at every corner has the same sign (clockwise, S1 left, T1 on top)
    for (int k = 0; k < 4; ++k) {
      const Point a = ring[k], b = ring[(k + 1) % 4], c = ring[(k + 2) % 4];
      const double turn = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
      EXPECT_LT(turn, 0.0) << i << " corner " << k;
    }
  }
}

// (4.50) is the condition δθ^{S2} < δθ^{D2}, exactly, where its denominator is positive and
// θ0 + arctan μ < π/2, for either sign of the tilt: δθ^{D2} − δθ^{S2} =
// m cos(θ0 + arctan μ) [(g + ÿ) sin(α1 − arctan μ) − ẍ cos(α1 − arctan μ)] / (2 R k_t cos θ0)
// (docs/three_disk.md).
TEST(ThreeDisk, FrictionLimitIsTheDetachmentOfContact2) {
  RandomParams random(14);
  int compared = 0, open = 0;
  for (int i = 0; i < 20000; ++i) {
    ThreeDiskParams p;
    p.theta0 = random.uniform(0.2, 1.2);
    p.tilt = random.uniform(-p.theta0, p.theta0);
    p.mu = random.uniform(0.01, 1.0);
    p.x_acc = random.uniform(-0.3, 0.3) * p.gravity;
    p.y_acc = random.uniform(-0.3, 0.3) * p.gravity;
    const double alpha1 = p.theta0 - p.tilt, g = p.gravity + p.y_acc;
    if (p.x_acc * std::sin(alpha1) + g * std::cos(alpha1) <= 0.0) continue;
    if (p.theta0 + std::atan(p.mu) >= 0.5 * pi) continue;
    const AmontonPolygon poly = amonton_polygon(p);
    const double margin = poly.d2.reduced.x - poly.s2.reduced.x;
    const double beta = std::atan(p.mu);
    const double factored = p.mass * std::cos(p.theta0 + beta) *
                            (g * std::sin(alpha1 - beta) - p.x_acc * std::cos(alpha1 - beta)) /
                            (2.0 * p.radius * p.k_t * std::cos(p.theta0));
    const double size = std::fabs(poly.d2.reduced.x) + std::fabs(poly.s2.reduced.x);
    EXPECT_NEAR(margin, factored, 1e-12 * size) << i;  // measured: 1.3e-14
    if (std::fabs(margin) < 1e-9 * size) continue;     // on the boundary: the sign is round-off
    ++compared;
    open += margin < 0.0;
    const bool below_limit = p.mu < friction_limit_contact2(p);
    EXPECT_EQ(below_limit, margin > 0.0) << i;
  }
  EXPECT_GT(compared, 5000);
  EXPECT_GT(open, 500);  // both outcomes are exercised
}

TEST(ThreeDisk, StaticNormalForcesOfTheUntiltedStack) {
  const ThreeDiskParams p = chapter5_params(0.0);
  const NormalForces n = normal_forces(p, 0.0, 0.0);
  const double mg = p.mass * p.gravity;
  // two equal normals at ±θ0 from the vertical carry the weight: 2 n cos θ0 = m g
  EXPECT_NEAR(n.n01, mg / (2.0 * std::cos(pi / 6.0)), 1e-15);
  EXPECT_NEAR(n.n02, n.n01, 1e-15);
  // the thesis' form n01 = m g s2/s12, n02 = m g s1/s12 with s1 = s2 = sin θ0
  EXPECT_NEAR(n.n01, mg * std::sin(pi / 6.0) / std::sin(pi / 3.0), 1e-15);
}

// (4.23)–(4.24) from the force vectors, for admissible tangential forces: random convex
// combinations of the polygon's corners, where Amonton's |τ| ≤ μ n must also hold; and the
// contact torque R(τ01 + τ02) = −2R²k_t δθ (4.18).
TEST(ThreeDisk, NormalForcesBalanceTheDiskAndRespectAmonton) {
  RandomParams random(15);
  for (int i = 0; i < 1000; ++i) {
    const ThreeDiskParams p = random.next();
    const AmontonPolygon poly = amonton_polygon(p);
    const Point corner[] = {poly.s1.tau, poly.t1.tau, poly.s2.tau, poly.t2.tau};
    double w[4], sum = 0.0;
    for (double& x : w) sum += (x = random.uniform(0.0, 1.0));
    Point tau{0.0, 0.0};
    for (int k = 0; k < 4; ++k) {
      tau.x += w[k] / sum * corner[k].x;
      tau.y += w[k] / sum * corner[k].y;
    }
    const NormalForces n = normal_forces(p, tau.x, tau.y);
    const double a1 = p.theta0 - p.tilt, a2 = p.theta0 + p.tilt;
    // contact 1 below-left, pushing along (sin α1, cos α1); contact 2 below-right along
    // (−sin α2, cos α2); τ01 along (cos α1, −sin α1), τ02 along (cos α2, sin α2)
    const double fx =
        n.n01 * std::sin(a1) - n.n02 * std::sin(a2) + tau.x * std::cos(a1) + tau.y * std::cos(a2);
    const double fy = n.n01 * std::cos(a1) + n.n02 * std::cos(a2) - tau.x * std::sin(a1) +
                      tau.y * std::sin(a2) - p.mass * p.gravity;
    const double scale = p.mass * p.gravity;
    EXPECT_NEAR(fx, p.mass * p.x_acc, 1e-12 * scale) << i;
    EXPECT_NEAR(fy, p.mass * p.y_acc, 1e-12 * scale) << i;
    EXPECT_LE(std::fabs(tau.x), p.mu * n.n01 + 1e-12 * scale) << i;
    EXPECT_LE(std::fabs(tau.y), p.mu * n.n02 + 1e-12 * scale) << i;
    const Point reduced = reduced_from_tau(p, tau);
    EXPECT_NEAR(p.radius * (tau.x + tau.y), -2.0 * p.radius * p.radius * p.k_t * reduced.x,
                1e-12 * scale * p.radius)
        << i;
  }
}

// (5.3)–(5.5) are the torques the contacts exert at S2 and S1 (4.18), at zero acceleration:
// an external torque +A_S2 slides the disk CCW, −A_S1 CW.
TEST(ThreeDisk, ThresholdsAreTheTorquesAtTheSlidingCorners) {
  RandomParams random(16);
  for (int i = 0; i < 1000; ++i) {
    ThreeDiskParams p = random.next();
    p.x_acc = p.y_acc = 0.0;
    if (!contacts_stay_closed(p)) continue;
    const AmontonPolygon poly = amonton_polygon(p);
    const double torque_unit = 2.0 * p.radius * p.radius * p.k_t;  // 𝒯 = −torque_unit δθ
    EXPECT_NEAR(torque_unit * poly.s2.reduced.x, ccw_threshold(p), 1e-12 * ccw_threshold(p));
    EXPECT_NEAR(-torque_unit * poly.s1.reduced.x, cw_threshold(p), 1e-12 * cw_threshold(p));
  }
}

TEST(ThreeDisk, ThresholdClosedForms) {
  RandomParams random(17);
  for (int i = 0; i < 200; ++i) {
    ThreeDiskParams p = random.next();
    p.x_acc = p.y_acc = 0.0;
    // θ0 + arctan μ < π/2: where (4.50), hence contacts_stay_closed, turns at θ_T^D
    p.mu = random.uniform(0.01, 0.5);
    p.theta0 = random.uniform(std::atan(p.mu) + 0.05, 0.5 * pi - std::atan(p.mu) - 0.05);
    // closed forms against each other: a few rounded trigonometric evaluations, 1e-14 of A0
    const double a0 = threshold_scale(p), mu = p.mu, td = detachment_tilt(p);
    // tilt loads contact 1: CCW slides first (equal at θ_T = 0, mirrored for θ_T < 0)
    p.tilt = random.uniform(1e-3, td);
    EXPECT_LT(ccw_threshold(p), cw_threshold(p));
    p.tilt = -p.tilt;
    EXPECT_GT(ccw_threshold(p), cw_threshold(p));
    p.tilt = 0.0;
    EXPECT_EQ(ccw_threshold(p), cw_threshold(p));
    EXPECT_DOUBLE_EQ(ccw_threshold(p), a0);
    // detachment: A_S2(θ_T^D) = m g R μ/√(1 + μ²), and (4.50) turns there at zero acceleration
    p.tilt = td;
    EXPECT_NEAR(ccw_threshold(p), ccw_threshold_at_detachment(p), 1e-14 * a0);
    p.tilt = td * (1.0 - 1e-9);
    EXPECT_TRUE(contacts_stay_closed(p));
    p.tilt = td * (1.0 + 1e-9);
    EXPECT_FALSE(contacts_stay_closed(p));
    // A_S1 peaks at arctan μ with A0 √(1 + μ²)
    p.tilt = std::atan(mu);
    EXPECT_NEAR(cw_threshold(p), max_cw_threshold(p), 1e-14 * a0);
    EXPECT_NEAR(max_cw_threshold(p), a0 * std::sqrt(1.0 + mu * mu), 1e-14 * a0);
    for (double step : {-1e-3, 1e-3}) {
      p.tilt = std::atan(mu) + step;
      EXPECT_LT(cw_threshold(p), max_cw_threshold(p));
    }
    // the inverses round-trip: A_S2(θ_S2) = A_e, A_S1 = A_e at both ends of the blocked range
    const double amplitude = random.uniform(ccw_threshold_at_detachment(p), a0);
    p.tilt = onset_tilt(p, amplitude);
    EXPECT_NEAR(ccw_threshold(p), amplitude, 1e-14 * a0);
    EXPECT_GE(p.tilt, 0.0);
    EXPECT_LE(p.tilt, td);
    const TiltInterval blocked = cw_blocked_tilts(p, amplitude);
    for (double tilt : {blocked.lower, blocked.upper}) {
      p.tilt = tilt;
      EXPECT_NEAR(cw_threshold(p), amplitude, 1e-14 * a0);
    }
    p.tilt = 0.5 * (blocked.lower + blocked.upper);
    EXPECT_GT(cw_threshold(p), amplitude);
  }
}

TEST(ThreeDisk, SlidingRegimeFollowsTheThresholds) {
  ThreeDiskParams p = chapter5_params(0.1 * pi);
  const double ccw = ccw_threshold(p), cw = cw_threshold(p);
  EXPECT_EQ(sliding_regime(p, 0.99 * ccw), SlidingRegime::none);
  EXPECT_EQ(sliding_regime(p, 0.5 * (ccw + cw)), SlidingRegime::unidirectional);
  EXPECT_EQ(sliding_regime(p, 1.01 * cw), SlidingRegime::bidirectional);
  p.tilt = -p.tilt;  // mirrored: the CW slide comes first
  EXPECT_EQ(sliding_regime(p, 0.5 * (ccw + cw)), SlidingRegime::unidirectional);
  p.tilt = detachment_tilt(p) + 1e-3;
  EXPECT_EQ(sliding_regime(p, 1.0), SlidingRegime::detached);
  // Fig. 5.6: A_e = 0.113 at θ_T = 0.1π is bidirectional, 0.100 does not slide
  p.tilt = 0.1 * pi;
  EXPECT_EQ(sliding_regime(p, 0.113), SlidingRegime::bidirectional);
  EXPECT_EQ(sliding_regime(p, 0.100), SlidingRegime::none);
}

// Erratum: the thesis says A_e = 0.100 < A_S2(θ_T^D), so that 0.100 never slides. With the
// ch. 5 parameters A_S2(θ_T^D) = m g R μ/√(1 + μ²) is just below 0.100: there is a narrow
// window of tilts below θ_T^D where A_e = 0.100 slides CCW.
TEST(ThreeDisk, Chapter5AmplitudePointOneSlidesJustBelowDetachment) {
  ThreeDiskParams p = chapter5_params(0.0);
  EXPECT_LT(ccw_threshold_at_detachment(p), 0.100);
  const double onset = onset_tilt(p, 0.100), td = detachment_tilt(p);
  EXPECT_LT(onset, td);
  p.tilt = 0.5 * (onset + td);
  EXPECT_EQ(sliding_regime(p, 0.100), SlidingRegime::unidirectional);
}

// The thesis' grid (Figs. 5.2–5.5, 5.7) with the ch. 5 parameters (k_t plays no part).
const double kGridTilts[] = {0.03 * pi, 0.06 * pi, 0.09 * pi, 0.12 * pi};
const double kGridAmplitudes[] = {0.105, 0.110, 0.1125, 0.113, 0.115, 0.12, 0.13, 0.15, 0.2};

// (5.9) and the rotor are two exact routes to the same number where (5.9) holds (the stop
// identity vs. the integrated angle (5.8) and the stick/slide bookkeeping): they agree to
// round-off (measured ≤ 2e-14). Where a slide outlasts the opposite threshold, (5.9) misses
// the slide that starts while the disk moves; on this grid that happens once.
TEST(ThreeDisk, Eq59MatchesTheRotorWhereValid) {
  int invalid = 0;
  for (const double tilt : kGridTilts) {
    const ThreeDiskParams p = chapter5_params(tilt);
    for (const double amplitude : kGridAmplitudes) {
      const HarmonicTorque torque{amplitude, 0.5};
      const Eq59Rotation exact = mean_rotation_eq59(p, torque);
      const RotorRotation rotor = mean_rotation_rotor(p, torque);
      ASSERT_TRUE(rotor.converged) << tilt << " " << amplitude;
      if (sliding_regime(p, amplitude) == SlidingRegime::none) {
        EXPECT_EQ(exact.mean_omega, 0.0);
        EXPECT_EQ(rotor.mean_omega, 0.0);
        continue;
      }
      EXPECT_GT(rotor.mean_omega, 0.0) << tilt << " " << amplitude;
      if (exact.valid) {
        EXPECT_NEAR(exact.mean_omega, rotor.mean_omega, 1e-10 * rotor.mean_omega)
            << tilt << " " << amplitude;
      } else {
        ++invalid;
        EXPECT_GT(std::fabs(exact.mean_omega - rotor.mean_omega), 1e-3 * rotor.mean_omega);
      }
    }
  }
  EXPECT_EQ(invalid, 1);
}

// Over a scan of bidirectional amplitudes, (5.9)'s validity condition marks exactly the cells
// where it agrees with the rotor: valid ones to round-off, invalid ones differ (measured: by
// at least 5e-4 relative on this scan; 1e-5 leaves room).
TEST(ThreeDisk, Eq59ValidityMarksWhereItMatchesTheRotor) {
  int valid = 0, invalid = 0;
  for (double tilt = 0.01 * pi; tilt < 0.135 * pi; tilt += 0.02 * pi) {
    const ThreeDiskParams p = chapter5_params(tilt);
    for (double amplitude = cw_threshold(p) * 1.001; amplitude < 3.0; amplitude *= 1.02) {
      const HarmonicTorque torque{amplitude, 1.0};
      const Eq59Rotation exact = mean_rotation_eq59(p, torque);
      const double rotor = mean_rotation_rotor(p, torque).mean_omega;
      const double difference = std::fabs(exact.mean_omega - rotor);
      if (exact.valid) {
        ++valid;
        EXPECT_LE(difference, 1e-10 * rotor) << tilt << " " << amplitude;
      } else {
        ++invalid;
        EXPECT_GT(difference, 1e-5 * rotor) << tilt << " " << amplitude;
      }
    }
  }
  EXPECT_GT(valid, 100);
  EXPECT_GT(invalid, 100);
}

// An independent check of the rotor where (5.9) cannot check it: a first-order time stepper
// (semi-implicit Euler, stops by linear interpolation of ω), 2^17 steps per period, over
// enough periods to forget the start. Its error is O(dt): measured 1e-5 where the rotor sticks
// every period, 2e-4 where it slides continuously (the periodic orbit attracts weakly, so
// per-period errors add up over several periods).
double time_stepped_rotation_times_frequency(double ccw, double cw, double amplitude,
                                             double inertia, int periods) {
  const int steps = 1 << 17;
  const double dt = 2.0 * pi / steps;  // ω_e = 1
  double theta = 0.0, omega = 0.0, period_start = 0.0;
  for (int k = 0; k < periods; ++k) {
    period_start = theta;
    for (int i = 0; i < steps; ++i) {
      const double torque = amplitude * std::sin((static_cast<double>(k) * steps + i + 0.5) * dt);
      if (omega == 0.0) {
        const double net = torque > ccw ? torque - ccw : torque < -cw ? torque + cw : 0.0;
        omega = net / inertia * dt;
        theta += 0.5 * omega * dt;
        continue;
      }
      const double next = omega + (torque - (omega > 0.0 ? ccw : -cw)) / inertia * dt;
      if (next * omega <= 0.0) {  // stops within the step
        theta += 0.5 * omega * dt * omega / (omega - next);
        omega = 0.0;
        continue;
      }
      theta += 0.5 * (omega + next) * dt;
      omega = next;
    }
  }
  return (theta - period_start) / (2.0 * pi);
}

TEST(ThreeDisk, RotorMatchesTimeStepping) {
  struct Cell {
    double tilt, amplitude;
    int periods;
  };
  // the grid's invalid cell for (5.9), a bidirectional cell, and a cell that slides
  // continuously (no stuck phase: the transient decays over tens of periods)
  for (const Cell c :
       {Cell{0.12 * pi, 0.2, 4}, Cell{0.03 * pi, 0.13, 4}, Cell{0.12 * pi, 0.5, 120}}) {
    const ThreeDiskParams p = chapter5_params(c.tilt);
    const double inertia = 0.5 * p.mass * p.radius * p.radius;
    const double stepped = time_stepped_rotation_times_frequency(ccw_threshold(p), cw_threshold(p),
                                                                 c.amplitude, inertia, c.periods);
    const double exact = mean_rotation_times_frequency(p, c.amplitude);
    EXPECT_NEAR(stepped, exact, 1e-3 * exact) << c.tilt << " " << c.amplitude;
  }
}

TEST(ThreeDisk, NoRotationBelowOnsetOrWithoutTilt) {
  for (const double tilt : kGridTilts) {
    const ThreeDiskParams p = chapter5_params(tilt);
    const HarmonicTorque below{ccw_threshold(p) * (1.0 - 1e-9), 1.0};
    EXPECT_EQ(mean_rotation_eq59(p, below).mean_omega, 0.0);
    EXPECT_EQ(mean_rotation_rotor(p, below).mean_omega, 0.0);
  }
  // untilted, A_S1 = A_S2: the CCW and CW slides cancel, in every regime
  const ThreeDiskParams flat = chapter5_params(0.0);
  for (const double amplitude : {0.115, 0.12, 0.2, 0.5, 2.0}) {
    const HarmonicTorque torque{amplitude, 1.0};
    EXPECT_EQ(mean_rotation_eq59(flat, torque).mean_omega, 0.0);
    // the rotor's two half-periods round differently: zero to round-off of one slide's
    // rotation, A_e/(2π I ω_e) in these units
    const double slide_scale = amplitude / (2.0 * pi * 0.5 * flat.mass);
    EXPECT_NEAR(mean_rotation_rotor(flat, torque).mean_omega, 0.0, 1e-12 * slide_scale);
  }
}

TEST(ThreeDisk, RotationIsOddInTheTilt) {
  for (const double tilt : kGridTilts) {
    for (const double amplitude : {0.113, 0.13, 0.2, 0.5}) {
      const double up = mean_rotation_times_frequency(chapter5_params(tilt), amplitude);
      const double down = mean_rotation_times_frequency(chapter5_params(-tilt), amplitude);
      EXPECT_NEAR(down, -up, 1e-10 * std::fabs(up)) << tilt << " " << amplitude;
    }
  }
}

TEST(ThreeDisk, RotationIsPositiveAboveOnsetForPositiveTilt) {
  for (const double tilt : kGridTilts) {
    const ThreeDiskParams p = chapter5_params(tilt);
    const double onset = ccw_threshold(p);
    double previous = 0.0;
    for (double x = 1e-4; x < 10.0; x *= 1.5) {
      const double rate = mean_rotation_times_frequency(p, onset * (1.0 + x));
      EXPECT_GT(rate, 0.0) << tilt << " " << x;
      EXPECT_GT(rate, previous) << tilt << " " << x;  // and grows with the amplitude
      previous = rate;
    }
  }
}

TEST(ThreeDisk, MeanRotationScalesAsInverseFrequency) {
  const ThreeDiskParams p = chapter5_params(0.09 * pi);
  for (const double amplitude : {0.11, 0.115, 0.15, 0.5}) {
    const double reference = mean_rotation_times_frequency(p, amplitude);
    for (const double frequency : {1e-3, 0.1, 3.0, 1e3}) {
      const HarmonicTorque torque{amplitude, frequency};
      const Eq59Rotation exact = mean_rotation_eq59(p, torque);
      const double value =
          exact.valid ? exact.mean_omega : mean_rotation_rotor(p, torque).mean_omega;
      EXPECT_NEAR(value * frequency, reference, 1e-10 * reference) << amplitude << " " << frequency;
    }
  }
}

// Just above onset the slide is short and ω̄ ∝ (A_e − A_S2)²: the log-log slope over a decade
// tends to 2, its deviation shrinking in proportion to (A_e − A_S2)/A_S2.
TEST(ThreeDisk, OnsetExponentIsTwo) {
  for (const double tilt : kGridTilts) {
    const ThreeDiskParams p = chapter5_params(tilt);
    const double onset = ccw_threshold(p);
    const auto rate = [&](double x) { return mean_rotation_times_frequency(p, onset * (1.0 + x)); };
    double previous_deviation = INFINITY;
    for (const double x : {1e-2, 1e-3, 1e-4, 1e-5}) {
      ASSERT_EQ(sliding_regime(p, onset * (1.0 + x)), SlidingRegime::unidirectional);
      const double slope = std::log(rate(x) / rate(0.1 * x)) / std::log(10.0);
      const double deviation = std::fabs(slope - 2.0);
      EXPECT_LT(deviation, 0.5 * x) << tilt << " " << x;
      EXPECT_LT(deviation, 0.2 * previous_deviation) << tilt << " " << x;
      previous_deviation = deviation;
    }
  }
}

// Bidirectional sliding: the thesis reads exponent 1 off Fig. 5.3. It is not a clean power
// law: the local slope of log ω̄ against log(A_e − A_S2) falls from about 2 just above A_S1 to
// about 0.7 near A_e = 0.2 (and jumps up where (5.9) stops holding), but the chord over the
// thesis' range A_e ∈ [0.115, 0.2] is within 0.1 of 1 at every tilt (measured 0.98–1.06), and
// far above both thresholds the local slope tends to 1 (ω̄ ∝ A_e: the friction only sets the
// asymmetry).
TEST(ThreeDisk, BidirectionalExponentIsNearOne) {
  for (const double tilt : kGridTilts) {
    const ThreeDiskParams p = chapter5_params(tilt);
    const double onset = ccw_threshold(p);
    const auto rate = [&](double amplitude) { return mean_rotation_times_frequency(p, amplitude); };
    const double chord =
        std::log(rate(0.2) / rate(0.115)) / std::log((0.2 - onset) / (0.115 - onset));
    EXPECT_NEAR(chord, 1.0, 0.1) << tilt;
    double previous_deviation = INFINITY;
    for (const double x : {10.0, 100.0}) {
      const double a = onset * (1.0 + x), b = onset * (1.0 + 1.01 * x);
      const double slope = std::log(rate(b) / rate(a)) / std::log((b - onset) / (a - onset));
      const double deviation = std::fabs(slope - 1.0);
      EXPECT_LT(deviation, 2.0 / x) << tilt << " " << x;
      EXPECT_LT(deviation, previous_deviation) << tilt << " " << x;
      previous_deviation = deviation;
    }
  }
}

// (5.15)–(5.18) are −2R²k_t δθ at the four sliding corners (4.18) at zero acceleration, with
// T1 and T2 as in (4.47), (4.49) (the thesis swaps the labels of (5.17) and (5.18)).
TEST(ThreeDisk, SlidingPointTorquesAreTheCornerTorques) {
  RandomParams random(18);
  for (int i = 0; i < 500; ++i) {
    ThreeDiskParams p = random.next();
    p.x_acc = p.y_acc = 0.0;
    if (!contacts_stay_closed(p)) continue;
    const AmontonPolygon poly = amonton_polygon(p);
    const SlidingPointTorques torques = sliding_point_torques(p);
    const double unit = -2.0 * p.radius * p.radius * p.k_t;
    const double scale = p.mass * p.gravity * p.radius * p.mu;
    EXPECT_NEAR(torques.s1, unit * poly.s1.reduced.x, 1e-12 * scale) << i;
    EXPECT_NEAR(torques.s2, unit * poly.s2.reduced.x, 1e-12 * scale) << i;
    EXPECT_NEAR(torques.t1, unit * poly.t1.reduced.x, 1e-12 * scale) << i;
    EXPECT_NEAR(torques.t2, unit * poly.t2.reduced.x, 1e-12 * scale) << i;
    // (5.21) is the equal-time mean of the four, exactly (θ_h = θ0)
    const double mean = 0.25 * (torques.s1 + torques.s2 + torques.t1 + torques.t2);
    EXPECT_NEAR(equal_time_mean_torque(p), mean, 1e-12 * scale) << i;
  }
}

// §5.3.3: with the ch. 5 parameters a small tilt gives a negative mean torque when all four
// sliding points take equal times (hence ω̄ < 0 under random vibration), but a positive one
// over S1 and S2 alone (the harmonic torque's ω̄ > 0).
TEST(ThreeDisk, MechanismTorqueSigns) {
  for (const double tilt : {1e-3, 0.01, 0.02 * pi, 0.04 * pi, 0.08 * pi}) {
    const ThreeDiskParams p = chapter5_params(tilt);
    const SlidingPointTorques torques = sliding_point_torques(p);
    EXPECT_LT(equal_time_mean_torque(p), 0.0) << tilt;
    EXPECT_GT(0.5 * (torques.s1 + torques.s2), 0.0) << tilt;
  }
  EXPECT_EQ(equal_time_mean_torque(chapter5_params(0.0)), 0.0);
}

}  // namespace
}  // namespace granular::three_disk
