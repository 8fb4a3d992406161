// The wedge map's run through the driver (include/granular/impact/wedge/run.hpp).
#include "granular/impact/wedge/run.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "granular/vibration.hpp"

namespace granular::wedge {

namespace {

enum class WedgeEvent { collision };

// state: (x, y, vx, vy, W = Rω/(Aω_b)), scaled (params.hpp)
enum { kX = 0, kY, kVx, kVy, kW, kSize };

double energy(const State& y) { return 0.5 * (y[kVx] * y[kVx] + y[kVy] * y[kVy]) + y[kY]; }

// The map as a hybrid system: each flight is solved in closed form (a phase with its own
// solver), each collision is the event, its rules and the wall's velocity the transition.
class WedgeModel : public HybridModel<WedgeEvent> {
 public:
  WedgeModel(const Params& p, const Options& o) : p_(p), o_(o) {}

  std::optional<Stop> start(double, State& y, DriverContext&) override {
    out_.energy_initial = energy(y);
    auto f = first_hit(p_, y[kX], y[kY], y[kVx], y[kVy]);
    if (!f) {
      // a release point off the vertex's vertical lies inside a wall steeper than its own
      // direction from the vertex (a 90° wedge tilted by 0.8 θ_0): release at the mirrored point
      y[kX] = -y[kX];
      f = first_hit(p_, y[kX], y[kY], y[kVx], y[kVy]);
    }
    if (!f) return escaped();
    flight_ = *f;
    return std::nullopt;
  }

  Phase<WedgeEvent> phase(double, State&, DriverContext&) override {
    Phase<WedgeEvent> ph;
    ph.solver = [this](double& t, State& y, double target,
                       const impact::StretchRows& rows) -> std::optional<WedgeEvent> {
      const double dt = std::min(flight_.time, target - t);
      // the rows within the flight from its closed form
      const State start = y;
      const double t0 = t;
      rows(t0, t0 + dt, [&](double at) {
        State s = start;
        fly(at - t0, s[kX], s[kY], s[kVx], s[kVy]);
        return s;
      });
      fly(dt, y[kX], y[kY], y[kVx], y[kVy]);
      in_flight_ += dt;
      if (dt < flight_.time) {
        flight_.time -= dt;
        t = target;
        return std::nullopt;
      }
      t += dt;
      return WedgeEvent::collision;
    };
    return ph;
  }

  std::optional<Stop> on_event(WedgeEvent, double, State& y, DriverContext&) override {
    // eq. 6.1: the rotation of the flight that just ended, weighted by its duration
    if (first_done_) {
      rotation_time_ += y[kW] * in_flight_;
      out_.flight_time += in_flight_;
    }
    first_done_ = true;
    in_flight_ = 0.0;
    if (flight_.to != wall_) ++out_.wall_changes;
    wall_ = flight_.to;
    const double theta = wall_ == Wall::right ? p_.theta_right() : p_.theta_left();
    const WallVelocity v = to_wall(theta, y[kVx], y[kVy]);
    Collision c{};
    if (p_.motion == WallMotion::fbrpa) {
      // FBRPA: draws that would not bounce the disk back are rejected and redrawn (§2.3.3)
      const FbrpaBounce b =
          fbrpa_bounce(v.vn, theta, p_.seed, static_cast<std::uint64_t>(out_.collisions),
                       [&](double wall_v) { return collide(p_, theta, v, y[kW], wall_v, c); });
      out_.rejections += b.rejections;
      if (!b.bounced)
        return Stop{RunStatus::model_stop, "no_bounce",
                    std::to_string(max_fbrpa_draws) +
                        " FBRPA draws in a row would not bounce the disk back"};
    } else {
      // the sawtooth's wall rises at Aω_b at every collision; a fixed one rests
      const double wall_v = p_.motion == WallMotion::sawtooth ? 1.0 : 0.0;
      if (!collide(p_, theta, v, y[kW], wall_v, c))
        return Stop{RunStatus::model_stop, "no_bounce",
                    "the collision would not bounce the disk back"};
    }
    from_wall(theta, c.v, y[kVx], y[kVy]);
    y[kY] = std::tan(theta) * y[kX];  // on the wall line: no drift from round-off
    y[kW] = c.w;
    if (++out_.collisions >= o_.collisions) return Stop{RunStatus::completed, "", ""};
    const auto f = next_flight(p_, wall_, y[kX], c.v);
    if (!f) return escaped();
    flight_ = *f;
    return std::nullopt;
  }

  void finish(const RunOutcome& o) override {
    static_cast<Stop&>(out_) = o;
    out_.mean_rotation = out_.flight_time > 0.0 ? rotation_time_ / out_.flight_time : 0.0;
    out_.energy_final = energy(o.y);
  }

  Result take() { return out_; }

 private:
  static Stop escaped() {
    return {RunStatus::model_stop, "escaped",
            "no flight ends on a wall: the disk leaves the wedge (tilt beyond the critical one)"};
  }

  const Params& p_;
  const Options& o_;
  Result out_;
  Flight flight_{};
  Wall wall_ = Wall::left;
  bool first_done_ = false;
  double in_flight_ = 0.0, rotation_time_ = 0.0;
};

}  // namespace

Result run_wedge(const Params& p, const Options& o) {
  WedgeModel model(p, o);
  State y(kSize);
  y << o.release_x, o.release_height, 0.0, 0.0, 0.0;
  run_hybrid(model, 0.0, y, o.driver);
  return model.take();
}

}  // namespace granular::wedge
