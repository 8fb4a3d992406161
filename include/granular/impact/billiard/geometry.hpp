// The billiard's boundary (Hartl, Miller & Mazzoleni 2011, Eq. 9; docs/billiard.md): the
// surfaces that can be hit, the floor curve, the closest point of a surface to the ball and
// the ball's resting height.
#pragma once

#include "granular/hd.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/billiard/geometry.hpp is host-only"
#endif

#include <vector>

#include "granular/impact/billiard/params.hpp"

namespace granular::billiard {

// The surfaces that can be hit, each with its own gap event (two for the wedge, so that a
// hit on one branch never hides an immediate hit on the other).
enum class Surface { floor, wedge_left, wedge_right, ceiling };
inline constexpr Named<Surface> surface_names[] = {{Surface::floor, "floor"},
                                                   {Surface::wedge_left, "left"},
                                                   {Surface::wedge_right, "right"},
                                                   {Surface::ceiling, "ceiling"}};
std::vector<Surface> surfaces(const BilliardBoundary& b);

// Boundary height f(ξ) and slope f'(ξ) of the floor curve (the wedge's is |ξ|-shaped).
double floor_height(const BilliardBoundary& b, double xi);
double floor_slope(const BilliardBoundary& b, double xi);

// Closest point of a surface to the point (ξ, η) of the boundary frame (spec §3): foot s*
// (ξ coordinate of the contact point), squared distance, the signed gap (distance − radius,
// negative when the centre is on the far side) and the contact angle z.
struct SurfaceContact {
  double foot;   // s* [m]
  double dist2;  // L² [m²]
  double gap;    // signed distance − radius [m]
  double z;      // angle of the tangent c1 from n1 [rad]
};
SurfaceContact surface_contact(const BilliardBoundary& b, Surface s, double xi, double eta,
                               double radius);

// Every real stationary point of L²(s) on the floor curve (parabola: the cubic of spec §3;
// hyperbola: its quartic as one equation; flat and wedge: closed forms). For tests.
std::vector<double> floor_stationary_points(const BilliardBoundary& b, double xi, double eta);

// Centre height at which the ball at q1 touches the floor at t = 0 [m]. Throws
// std::domain_error when there is none a double can hold (a floor so high or steep that
// positions there are coarser than the ball's radius).
double resting_height(const Params& m, double q1);

}  // namespace granular::billiard
