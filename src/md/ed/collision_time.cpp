#include "granular/md/ed/collision_time.hpp"

#include <cmath>
#include <limits>

namespace granular::md::ed {
namespace {

constexpr double never = std::numeric_limits<double>::infinity();

// a + b = s + e exactly (Knuth's TwoSum)
void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bb = s - a;
  e = (a - (s - bb)) + (b - bb);
}

}  // namespace

double gap_of_squares(Vec2 r, double contact) {
  const double px = r.x * r.x, ex = std::fma(r.x, r.x, -px);
  const double py = r.y * r.y, ey = std::fma(r.y, r.y, -py);
  const double pc = contact * contact, ec = std::fma(contact, contact, -pc);
  double s1, t1, s2, t2;
  two_sum(px, py, s1, t1);
  two_sum(s1, -pc, s2, t2);
  return s2 + (((t1 + t2) + (ex + ey)) - ec);
}

double pair_collision_time(Vec2 r, Vec2 v, double contact) {
  const double rv = dot(r, v);
  if (!(rv < 0.0)) return never;
  const double gap = gap_of_squares(r, contact);
  if (gap <= 0.0) return 0.0;  // touching (or overlapping by round-off) and approaching
  const double disc = rv * rv - dot(v, v) * gap;
  if (disc < 0.0) return never;  // the disks pass each other
  return gap / (-rv + std::sqrt(disc));
}

double wall_collision_time(double gap, double v_n, double g_n) {
  if (v_n < 0.0) {
    if (gap <= 0.0) return 0.0;
    // the smaller root, 2·gap / (−v_n + √(v_n² + 2 g_n gap)): no cancellation, as v_n < 0
    return 2.0 * gap / (-v_n + std::sqrt(v_n * v_n + 2.0 * g_n * gap));
  }
  if (!(g_n > 0.0)) return never;
  // moving away: up to the apex and back, (v_n + √(v_n² + 2 g_n gap)) / g_n; a gap below 0 by
  // round-off cannot make the square root's argument negative by more than round-off
  const double disc = v_n * v_n + 2.0 * g_n * gap;
  return (v_n + std::sqrt(disc > 0.0 ? disc : 0.0)) / g_n;
}

}  // namespace granular::md::ed
