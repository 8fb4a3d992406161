// Tests for include/granular/impact/event.hpp: integrator orders, event location to tolerance,
// event directions and the Zeno guard on a bouncing ball.
#include <gtest/gtest.h>

#include <cmath>

#include "granular/impact/event.hpp"

namespace granular::impact {
namespace {

// y = (position, velocity) of a harmonic oscillator ẍ = −x.
void oscillator(double, const State& y, State& f) {
  f.resize(2);
  f << y[1], -y[0];
}

// y = (height, velocity) of a ball falling under g = 9.81.
void falling(double, const State& y, State& f) {
  f.resize(2);
  f << y[1], -9.81;
}

double integrate_error(Scheme scheme, double h) {
  OdeOptions o;
  o.scheme = scheme;
  o.step = h;
  EventIntegrator ode(oscillator, o);
  State y(2);
  y << 1.0, 0.0;
  double t = 0.0;
  ode.advance(t, y, 2.0, {});
  return std::fabs(y[0] - std::cos(2.0));
}

TEST(EventIntegrator, Rk4IsFourthOrder) {
  const double coarse = integrate_error(Scheme::rk4, 0.02);
  const double fine = integrate_error(Scheme::rk4, 0.01);
  EXPECT_NEAR(coarse / fine, 16.0, 1.5);
}

TEST(EventIntegrator, Dopri5MeetsItsTolerance) {
  OdeOptions o;
  o.scheme = Scheme::dopri5;
  o.step = 1e-3;
  o.rtol = 1e-11;
  o.atol = 1e-13;
  EventIntegrator ode(oscillator, o);
  State y(2);
  y << 1.0, 0.0;
  double t = 0.0;
  ode.advance(t, y, 10.0, {});
  EXPECT_EQ(t, 10.0);
  EXPECT_NEAR(y[0], std::cos(10.0), 1e-9);
  EXPECT_NEAR(y[1], -std::sin(10.0), 1e-9);
}

// A falling gap is located at the exact impact time t = √(2h/g) on both schemes.
TEST(EventIntegrator, LocatesAFallingGapToTolerance) {
  for (Scheme scheme : {Scheme::rk4, Scheme::dopri5}) {
    OdeOptions o;
    o.scheme = scheme;
    o.step = 1e-2;
    EventIntegrator ode(falling, o);
    State y(2);
    y << 1.0, 0.0;
    double t = 0.0;
    const Event gap{[](double, const State& s) { return s[0]; }, Direction::falling};
    const auto hit = ode.advance(t, y, 10.0, {gap});
    ASSERT_TRUE(hit.has_value());
    const double expected = std::sqrt(2.0 / 9.81);
    EXPECT_NEAR(hit->t, expected, 1e-11);
    EXPECT_LE(hit->y[0], 0.0);  // on the far side of the crossing
    EXPECT_NEAR(hit->y[1], -9.81 * expected, 1e-9);
    EXPECT_EQ(t, hit->t);
  }
}

// A rising event ignores a falling crossing; `both` sees it.
TEST(EventIntegrator, RespectsDirections) {
  OdeOptions o;
  o.step = 1e-2;
  EventIntegrator ode(falling, o);
  const EventFunction level = [](double, const State& s) { return s[0] - 0.5; };
  State y(2);
  y << 1.0, 0.0;
  double t = 0.0;
  EXPECT_FALSE(ode.advance(t, y, 0.6, {{level, Direction::rising}}).has_value());
  y << 1.0, 0.0;
  t = 0.0;
  const auto hit = ode.advance(t, y, 0.6, {{level, Direction::both}});
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->t, std::sqrt(1.0 / 9.81), 1e-11);
}

// A gap that starts a step on its far side (right after an impact, located to the far side)
// and whose flight is shorter than the step crosses back and forth within it: unseen at the
// step ends. With the gap's rate the crossing is found at the closed-form time 2 v / g on both
// schemes; without a flight (no turn of the gap on its near side) nothing is found, and where
// the gap crosses at a step end the rate changes nothing.
TEST(EventIntegrator, FindsAFlightShorterThanAStepFromTheFarSide) {
  const EventFunction height = [](double, const State& s) { return s[0]; };
  const EventFunction rate = [](double, const State& s) { return s[1]; };
  const double v = 0.004, g = 9.81;  // a flight of 2 v / g = 0.82 ms
  for (Scheme scheme : {Scheme::rk4, Scheme::dopri5}) {
    OdeOptions o;
    o.scheme = scheme;
    o.step = 1e-3;
    o.max_step = 1e-3;
    EventIntegrator ode(falling, o);
    State y(2);
    y << -1e-15, v;
    double t = 0.0;
    ASSERT_FALSE(ode.advance(t, y, 0.01, {{height, Direction::falling}}).has_value())
        << "the step ends see no crossing";
    ode.set_step(o.step);
    y << -1e-15, v;
    t = 0.0;
    const auto hit = ode.advance(t, y, 0.01, {{height, Direction::falling, rate}});
    ASSERT_TRUE(hit.has_value());
    EXPECT_NEAR(hit->t, 2.0 * v / g, 1e-11);
    EXPECT_LE(hit->y[0], 0.0);
    EXPECT_NEAR(hit->y[1], -v, 1e-9);
    // no flight: a gap that starts on its far side and sinks
    ode.set_step(o.step);
    y << -1e-15, -v;
    t = 0.0;
    EXPECT_FALSE(ode.advance(t, y, 0.01, {{height, Direction::falling, rate}}).has_value());
    // an ordinary fall: the same hit, bit for bit, with or without the rate
    ode.set_step(o.step);
    y << 1.0, 0.0;
    t = 0.0;
    const auto plain = ode.advance(t, y, 10.0, {{height, Direction::falling}});
    ode.set_step(o.step);
    y << 1.0, 0.0;
    t = 0.0;
    const auto with_rate = ode.advance(t, y, 10.0, {{height, Direction::falling, rate}});
    ASSERT_TRUE(plain && with_rate);
    EXPECT_EQ(plain->t, with_rate->t);
    EXPECT_EQ(plain->y, with_rate->y);
  }
}

// A ball bouncing with restitution e accumulates impacts at t∞ = t0 (1 + 2e/(1 − e)),
// t0 = √(2h/g). The guard stops it once the approach speed falls below 2 g dt (every later
// flight would be shorter than the integrator could resolve); the flights it cut off would
// have lasted 2 e v / (g (1 − e)) in all.
TEST(ZenoGuard, BouncingBallStopsAtTheAccumulationTime) {
  const double e = 0.5;
  const double g = 9.81;
  OdeOptions o;
  o.step = 1e-3;
  EventIntegrator ode(falling, o);
  const Event gap{[](double, const State& s) { return s[0]; }, Direction::falling};
  ZenoGuard guard;
  guard.min_speed = 2.0 * g * o.step;
  State y(2);
  y << 1.0, 0.0;
  double t = 0.0;
  int impacts = 0;
  bool at_rest = false;
  double v = 0.0;
  while (t < 5.0 && !at_rest) {
    const auto hit = ode.advance(t, y, 5.0, {gap});
    if (!hit) break;
    ++impacts;
    v = std::fabs(y[1]);
    at_rest = guard.accumulating(t, v);
    y[0] = 0.0;
    y[1] = e * v;
  }
  ASSERT_TRUE(at_rest);
  const double t0 = std::sqrt(2.0 / g);
  EXPECT_NEAR(t + 2.0 * e * v / (g * (1.0 - e)), t0 * (1.0 + 2.0 * e / (1.0 - e)), 1e-9);
  EXPECT_LT(impacts, 20);
}

}  // namespace
}  // namespace granular::impact
