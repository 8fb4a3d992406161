// Vec2: a 2D vector value type usable on host and device.
#pragma once

#include <cmath>

#include "granular/hd.hpp"

namespace granular {

struct Vec2 {
  double x;
  double y;
};

GRANULAR_HD inline Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
GRANULAR_HD inline Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
GRANULAR_HD inline Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
GRANULAR_HD inline Vec2 operator*(double s, Vec2 a) { return {s * a.x, s * a.y}; }
GRANULAR_HD inline double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
// z component of the 3D cross product of two in-plane vectors
GRANULAR_HD inline double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
GRANULAR_HD inline double norm(Vec2 a) { return sqrt(a.x * a.x + a.y * a.y); }
// z-hat x a: the in-plane vector a rotated by +90 degrees
GRANULAR_HD inline Vec2 perp(Vec2 a) { return {-a.y, a.x}; }

}  // namespace granular
