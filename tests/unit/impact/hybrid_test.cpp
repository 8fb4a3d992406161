// Tests for include/granular/impact/hybrid.hpp, the event-driven driver, on a ball bouncing on
// a floor (closed-form impact times), and on the ways a run ends: t_end, the event budget, a
// Zeno accumulation, a non-finite state, an integrator failure, a model's own stop.
#include "granular/impact/hybrid.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

namespace granular::impact {
namespace {

constexpr double kG = 9.81;

enum class BallEvent { floor, apex };

// y = (height, velocity); impacts with Newton's restitution e; a Zeno accumulation stops the
// run (the guard sees the approach speeds); `at_rest` lets the ball lie still after it instead.
class Ball : public HybridModel<BallEvent> {
 public:
  explicit Ball(double e) : e_(e) {}

  Phase<BallEvent> phase(double, State& y, DriverContext&) override {
    Phase<BallEvent> ph;
    if (resting_) return ph;  // nothing moves
    if (y[0] <= 0.0 && y[1] < 0.0) {
      ph.now = BallEvent::floor;  // on the floor, moving into it
      return ph;
    }
    ph.rhs = [this](double, const State& s, State& f) {
      f.resize(2);
      f << s[1], -kG + forcing_nan_;
    };
    ph.events.push_back({BallEvent::floor, [](double, const State& s) { return s[0]; }});
    if (stop_at_apex_)
      ph.events.push_back({BallEvent::apex, [](double, const State& s) { return s[1]; }});
    return ph;
  }

  std::optional<Stop> on_event(BallEvent kind, double t, State& y, DriverContext& ctx) override {
    if (kind == BallEvent::apex) {
      ++apexes_;
      if (apexes_ == stop_after_apexes_) return Stop{RunStatus::model_stop, "apex", "enough"};
      return std::nullopt;
    }
    impact_times_.push_back(t);
    const bool accumulating = ctx.zeno.accumulating(t, -y[1]);
    y[1] = -e_ * y[1];
    if (accumulating) {
      if (!rest_after_zeno_) return Stop{RunStatus::zeno, "at_rest", "impacts accumulate"};
      resting_ = true;
      y[0] = y[1] = 0.0;
    }
    return std::nullopt;
  }

  void sample(double t, const State&) override { rows_.push_back(t); }
  void finish(const RunOutcome& o) override { finished_ = o.status; }

  double e_;
  double forcing_nan_ = 0.0;
  bool stop_at_apex_ = false;
  int stop_after_apexes_ = -1;
  bool rest_after_zeno_ = false;
  bool resting_ = false;
  int apexes_ = 0;
  std::vector<double> impact_times_, rows_;
  std::optional<RunStatus> finished_;
};

State dropped_from(double h) {
  State y(2);
  y << h, 0.0;
  return y;
}

DriverOptions options(double t_end) {
  DriverOptions o;
  o.ode.step = 1e-3;
  o.ode.event_time_tol = 1e-13;
  o.t_end = t_end;
  o.zeno.min_speed = 0.0;
  o.zeno.max_impacts = 1 << 30;
  return o;
}

// Dropped from h with restitution e: the first impact at t1 = √(2h/g), then flights of
// 2 e^k v1 / g with v1 = g t1.
double impact_time(double h, double e, int n) {
  const double t1 = std::sqrt(2.0 * h / kG);
  double t = t1;
  for (int k = 1; k < n; ++k) t += 2.0 * std::pow(e, k) * t1;
  return t;
}

TEST(HybridDriver, BouncingBallImpactTimesMatchTheClosedForm) {
  Ball ball(0.8);
  const RunOutcome out = run_hybrid(ball, 0.0, dropped_from(1.0), options(3.0));
  EXPECT_EQ(out.status, RunStatus::completed);
  EXPECT_EQ(out.t, 3.0);
  ASSERT_GE(ball.impact_times_.size(), 5u);
  for (std::size_t n = 0; n < ball.impact_times_.size(); ++n)
    EXPECT_NEAR(ball.impact_times_[n], impact_time(1.0, 0.8, static_cast<int>(n) + 1), 1e-9)
        << "impact " << n + 1;
  EXPECT_EQ(out.events, static_cast<long long>(ball.impact_times_.size()));
  EXPECT_EQ(ball.finished_, RunStatus::completed);
}

TEST(HybridDriver, RowsLieOnTheGridKTimesDeltaAndAtTEnd) {
  Ball ball(0.8);
  DriverOptions o = options(1.05);
  o.sample_interval = 0.1;
  run_hybrid(ball, 0.0, dropped_from(1.0), o);
  // 0, 0.1, ..., 1.0 (11 rows) and t_end, each exactly k·Δ (no drift from summing Δ)
  ASSERT_EQ(ball.rows_.size(), 12u);
  for (int k = 0; k <= 10; ++k) EXPECT_EQ(ball.rows_[k], k * 0.1) << k;
  EXPECT_EQ(ball.rows_.back(), 1.05);
}

// Issue 33, item 4: the rows ended an integrator step on every grid time, so the sampling
// interval changed the step sequence and, through it, every result of a sensitive (multistable)
// run. The rows now come from each step's dense output: the motion is bitwise the same for any
// sampling interval, and a row is the state at its grid time.
TEST(HybridDriver, TheSamplingIntervalChangesNoResult) {
  std::vector<double> times;
  State end;
  for (const double interval : {0.0, 0.1, 0.0137, 1e-3}) {
    SCOPED_TRACE(interval);
    Ball ball(0.8);
    DriverOptions o = options(2.5);
    o.sample_interval = interval;
    const RunOutcome out = run_hybrid(ball, 0.0, dropped_from(1.0), o);
    if (times.empty()) {
      times = ball.impact_times_;
      end = out.y;
      continue;
    }
    EXPECT_EQ(ball.impact_times_, times);  // bitwise
    EXPECT_EQ(out.y[0], end[0]);
    EXPECT_EQ(out.y[1], end[1]);
  }
}

TEST(HybridDriver, ARowIsTheStateAtItsGridTime) {
  // before the first impact (t1 = 0.4515 s) the ball falls freely: h = 1 − g t²/2, v = −g t
  class Rows : public Ball {
   public:
    Rows() : Ball(0.8) {}
    void sample(double t, const State& y) override { states_.push_back({t, y[0], y[1]}); }
    std::vector<std::array<double, 3>> states_;
  } ball;
  DriverOptions o = options(0.45);
  o.sample_interval = 0.0137;  // off the integrator's 1 ms steps
  run_hybrid(ball, 0.0, dropped_from(1.0), o);
  ASSERT_EQ(ball.states_.size(), 34u);  // 0, 0.0137, ..., 0.4384 and t_end
  for (const auto& [t, h, v] : ball.states_) {
    EXPECT_NEAR(h, 1.0 - 0.5 * kG * t * t, 1e-12) << t;
    EXPECT_NEAR(v, -kG * t, 1e-12) << t;
  }
}

TEST(HybridDriver, NoRowsWithoutASamplingInterval) {
  Ball ball(0.8);
  run_hybrid(ball, 0.0, dropped_from(1.0), options(1.0));
  EXPECT_TRUE(ball.rows_.empty());
}

TEST(HybridDriver, AGoalElsewhereMakesTEndATimeLimit) {
  Ball ball(0.8);
  DriverOptions o = options(0.2);
  o.at_t_end = RunStatus::time_limit;
  const RunOutcome out = run_hybrid(ball, 0.0, dropped_from(1.0), o);
  EXPECT_EQ(out.status, RunStatus::time_limit);
  EXPECT_EQ(out.t, 0.2);
  EXPECT_NEAR(out.y[0], 1.0 - 0.5 * kG * 0.04, 1e-12);
}

TEST(HybridDriver, TheEventBudgetStopsTheRunAfterExactlyThatManyEvents) {
  Ball ball(0.9);
  DriverOptions o = options(10.0);
  o.max_events = 3;
  const RunOutcome out = run_hybrid(ball, 0.0, dropped_from(1.0), o);
  EXPECT_EQ(out.status, RunStatus::event_limit);
  EXPECT_EQ(ball.impact_times_.size(), 3u);
  EXPECT_NEAR(out.t, impact_time(1.0, 0.9, 4), 1e-9);  // stopped at the 4th, not applied
}

TEST(HybridDriver, AccumulatingImpactsEndInZenoBeforeTheAccumulationTime) {
  // impacts accumulate at t∞ = t1 (1 + e)/(1 − e); the guard stops at the first impact
  // slower than min_speed
  Ball ball(0.5);
  DriverOptions o = options(10.0);
  o.zeno.min_speed = 0.05;
  const RunOutcome out = run_hybrid(ball, 0.0, dropped_from(1.0), o);
  const double t1 = std::sqrt(2.0 / kG), v1 = kG * t1;
  const double t_inf = t1 * 1.5 / 0.5;
  EXPECT_EQ(out.status, RunStatus::zeno);
  EXPECT_EQ(out.reason, "at_rest");
  EXPECT_LT(out.t, t_inf);
  // the first impact with e^(n-1) v1 < min_speed
  const int n = static_cast<int>(std::ceil(std::log(0.05 / v1) / std::log(0.5))) + 1;
  EXPECT_EQ(ball.impact_times_.size(), static_cast<std::size_t>(n));
}

TEST(HybridDriver, AStaticPhaseJumpsToItsTargets) {
  Ball ball(0.5);
  ball.rest_after_zeno_ = true;
  DriverOptions o = options(2.0);
  o.zeno.min_speed = 0.05;
  o.sample_interval = 0.25;
  const RunOutcome out = run_hybrid(ball, 0.0, dropped_from(1.0), o);
  EXPECT_EQ(out.status, RunStatus::completed);
  EXPECT_EQ(out.t, 2.0);
  EXPECT_EQ(out.y[0], 0.0);
  ASSERT_EQ(ball.rows_.size(), 9u);
  EXPECT_EQ(ball.rows_.back(), 2.0);
}

TEST(HybridDriver, AnEventThatHoldsAtOnceIsAppliedWithoutMoving) {
  Ball ball(0.8);
  State y(2);
  y << 0.0, -2.0;  // on the floor, moving into it
  const RunOutcome out = run_hybrid(ball, 0.0, y, options(0.1));
  ASSERT_FALSE(ball.impact_times_.empty());
  EXPECT_EQ(ball.impact_times_.front(), 0.0);
  EXPECT_EQ(out.status, RunStatus::completed);
}

TEST(HybridDriver, AModelStopCarriesItsReason) {
  Ball ball(0.8);
  ball.stop_at_apex_ = true;
  ball.stop_after_apexes_ = 2;
  const RunOutcome out = run_hybrid(ball, 0.0, dropped_from(1.0), options(10.0));
  EXPECT_EQ(out.status, RunStatus::model_stop);
  EXPECT_EQ(out.reason, "apex");
  // the second apex after the first impact: t1 + e t1 (apex), then + e t1 + e² t1
  const double t1 = std::sqrt(2.0 / kG);
  EXPECT_NEAR(out.t, t1 + 0.8 * t1 + 0.8 * t1 + 0.64 * t1, 1e-9);
  EXPECT_EQ(ball.finished_, RunStatus::model_stop);
}

TEST(HybridDriver, ANonFiniteStateEndsTheRunWithThatStatus) {
  Ball ball(0.8);
  ball.forcing_nan_ = std::numeric_limits<double>::quiet_NaN();
  const RunOutcome out = run_hybrid(ball, 0.0, dropped_from(1.0), options(1.0));
  EXPECT_EQ(out.status, RunStatus::non_finite);
  EXPECT_EQ(ball.finished_, RunStatus::non_finite);
}

// ẏ = 1/(1 − t)² blows up at t = 1: an adaptive integrator shrinks its step until it fails.
class Blowup : public HybridModel<BallEvent> {
 public:
  Phase<BallEvent> phase(double, State&, DriverContext&) override {
    Phase<BallEvent> ph;
    ph.rhs = [](double t, const State&, State& f) {
      f.resize(1);
      f[0] = 1.0 / ((1.0 - t) * (1.0 - t) * (1.0 - t));
    };
    return ph;
  }
  std::optional<Stop> on_event(BallEvent, double, State&, DriverContext&) override {
    return std::nullopt;
  }
};

TEST(HybridDriver, AnIntegratorFailureEndsTheRunWithThatStatus) {
  Blowup model;
  DriverOptions o = options(2.0);
  o.ode.scheme = Scheme::dopri5;
  o.ode.rtol = 1e-12;
  o.ode.atol = 1e-14;
  State y(1);
  y << 0.0;
  const RunOutcome out = run_hybrid(model, 0.0, y, o);
  EXPECT_EQ(out.status, RunStatus::integrator_failed) << name_of(run_status_names, out.status);
  EXPECT_NE(out.detail.find("step size underflow"), std::string::npos) << out.detail;
  EXPECT_LT(out.t, 1.0);
}

TEST(HybridDriver, StatusNamesAreDistinct) {
  const RunStatus all[] = {
      RunStatus::completed,  RunStatus::time_limit,        RunStatus::event_limit, RunStatus::zeno,
      RunStatus::non_finite, RunStatus::integrator_failed, RunStatus::model_stop};
  for (RunStatus a : all) {
    for (RunStatus b : all) {
      if (a != b) {
        EXPECT_STRNE(name_of(run_status_names, a), name_of(run_status_names, b));
      }
    }
  }
}

}  // namespace
}  // namespace granular::impact
