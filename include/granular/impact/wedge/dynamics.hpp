// Flights of the disk in the wedge (thesis §6.3, eqs. 6.16–6.25; docs/wedge.md): the centre
// moves on a parabola under gravity g = 1 (scaled units) between the two wall lines
// y = tan θ x, the right wall on x > 0 and the left on x < 0.
#pragma once

#include <optional>

#include "granular/impact/wedge/params.hpp"

namespace granular::wedge {

enum class Wall { left, right };

// Components in a wall's frame: n̂ = (−sin θ, cos θ) into the wedge, t̂ = (cos θ, sin θ).
struct WallVelocity {
  double vn, vt;
};
WallVelocity to_wall(double theta, double vx, double vy);
void from_wall(double theta, WallVelocity v, double& vx, double& vy);

// One flight: its duration, the wall it ends on and the velocity there (in that wall's frame).
struct Flight {
  double time;
  Wall to;
  WallVelocity v;  // pre-collision at the landing
  double y;        // height of the landing point
};

// The next collision from the point of wall `from` at abscissa x_k with post-collision velocity v
// (in that wall's frame), by the maps (6.16)–(6.20) to the other wall and (6.21)–(6.25) to the same
// wall: the earliest root that lands on its wall's half-line. Nothing when neither does (a
// tilt past the critical one: the disk leaves the wedge).
std::optional<Flight> next_flight(const Params& p, Wall from, double x_k, WallVelocity v);

// The same by direct intersection of the parabola from (x, y, vx, vy) with each wall line
// (the first flight, from a release point; and the maps' cross-check).
std::optional<Flight> first_hit(const Params& p, double x, double y, double vx, double vy);

// Where the flight from (x, y, vx, vy) is after time t.
void fly(double t, double& x, double& y, double& vx, double& vy);

}  // namespace granular::wedge
