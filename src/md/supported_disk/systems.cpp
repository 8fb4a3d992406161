#include "granular/md/supported_disk/systems.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "granular/constants.hpp"
#include "granular/md/model.hpp"
#include "granular/md/packing.hpp"

namespace granular::md {
namespace {

// Room the cell grid spans (the systems have no box walls; a disk beyond it still meets every
// neighbor, only in an edge cell).
constexpr double width_in_radii = 8.0;

PackingParams system_packing(double width, double gravity, double tilt, const ContactParams& c,
                             std::uint64_t seed) {
  PackingParams pp{};
  pp.box_width = width;
  pp.gravity = gravity;
  pp.disk_disk = c;
  pp.disk_wall = c;
  pp.seed = seed;
  pp.tilt = tilt;
  pp.box_walls = 0;
  return pp;
}

// The upper disk's centre at rest on supports centred at (x1, y) and (x2, y), its normal
// springs alone balancing gravity g (−sin θ_T, −cos θ_T) on mass m: the normal forces N_i of
// N1 n1 + N2 n2 = m g (sin θ_T, cos θ_T) with n_i the unit vector from support i to the
// centre, and the centre at reach − N_i/k_n from support i (reach = R + R_s; the upper
// intersection of the two circles). The normals depend on the overlaps, so the two are solved
// in turn until the centre stops moving (the overlaps are ~1e-4 R for the thesis' set). A
// contact that would pull (N_i < 0: a tilt beyond the cone of the normals) is placed at touch.
std::array<double, 2> static_rest(double x1, double x2, double y, double reach, double mass,
                                  double gravity, double tilt, double k_n, double touch_y) {
  const double load[2] = {mass * gravity * std::sin(tilt), mass * gravity * std::cos(tilt)};
  double px = 0.5 * (x1 + x2), py = touch_y;
  for (int pass = 0; pass < 50; ++pass) {
    double n[2][2];
    for (int i = 0; i < 2; ++i) {
      const double dx = px - (i == 0 ? x1 : x2), dy = py - y;
      const double len = std::sqrt(dx * dx + dy * dy);
      n[i][0] = dx / len;
      n[i][1] = dy / len;
    }
    // [n1 n2] (N1, N2) = load, by Cramer's rule
    const double det = n[0][0] * n[1][1] - n[1][0] * n[0][1];
    const double forces[2] = {(load[0] * n[1][1] - n[1][0] * load[1]) / det,
                              (n[0][0] * load[1] - load[0] * n[0][1]) / det};
    Vec2 centre;
    if (!touch_two_disks({x1, y}, reach - std::max(forces[0], 0.0) / k_n, {x2, y},
                         reach - std::max(forces[1], 0.0) / k_n, centre))
      break;  // not reached: the overlaps are far below the supports' distance
    const bool settled = centre.x == px && centre.y == py;
    px = centre.x;
    py = centre.y;
    if (settled) break;
  }
  return {px, py};
}

}  // namespace

void add_three_disk(EnsembleModel& m, const ThreeDiskParams& p, std::vector<double>& x,
                    std::vector<double>& y) {
  const double r = p.radius;
  const double rs = p.support_radius > 0.0 ? p.support_radius : r;
  const double width = width_in_radii * std::max(r, rs);
  PackingParams pp = system_packing(width, p.gravity, p.tilt, p.contact, p.seed);
  const int first = m.n_disks();
  pp.torque = p.torque;
  pp.torque.disk = first + upper_disk;
  m.add_packing(pp, {r, rs, rs}, disk_areal_density(p.mass, r));

  // supports on the floor of the grid, touching the upper disk at θ0 from the bisector; the
  // upper disk starts at its static overlaps with unloaded skins, so that it rests with the
  // closed-form statics (4.29)–(4.30) at τ = 0 (starting at touch, it sank and stretched its
  // skins: a residual tangential force pushed it down, N 1.9 % above the closed form)
  const double xc = 0.5 * width;
  const double lower = 2.0 * rs;
  const double reach = r + rs;  // centre distance at touch
  const double dx = reach * std::sin(p.half_angle);
  const std::array<double, 2> rest =
      static_rest(xc - dx, xc + dx, lower, reach, m.mass[first + upper_disk], p.gravity, p.tilt,
                  p.contact.k_n, lower + reach * std::cos(p.half_angle));
  const double centre_x[3] = {rest[0], xc - dx, xc + dx};
  const double centre_y[3] = {rest[1], lower, lower};
  for (int k = 0; k < 3; ++k) {
    x.push_back(centre_x[k]);
    y.push_back(centre_y[k]);
  }
  // held: no inverse mass, so forces move it no more than a prescribed disk; it keeps its
  // inverse moment of inertia and turns
  if (p.upper_centre == UpperCentre::held) m.inv_mass[first + upper_disk] = 0.0;
  // the sine drive along the vertical of the laboratory: (sin θ_T, cos θ_T) in the set-up's frame
  const double up[2] = {std::sin(p.tilt), std::cos(p.tilt)};
  for (int k : {left_support, right_support}) {
    Body support;
    support.shape = BodyShape::disk;
    support.disk = first + k;
    support.x0 = centre_x[k];
    support.y0 = centre_y[k];
    if (p.supports.drive == SupportDrive::random) {
      for (int axis = 0; axis < 3; ++axis) {
        support.axis[axis] = {AxisDrive::random,
                              axis == 2 ? p.supports.amplitude / rs : p.supports.amplitude,
                              p.supports.omega,
                              p.supports.damping,
                              {}};
      }
    }
    if (p.supports.drive == SupportDrive::sine) {
      for (int axis = 0; axis < 2; ++axis)
        support.axis[axis] = {
            AxisDrive::sine, p.supports.amplitude * up[axis], p.supports.omega, 0.5, {}};
    }
    m.add_body(support);
  }
}

three_disk::ThreeDiskParams closed_form_params(const ThreeDiskParams& p) {
  three_disk::ThreeDiskParams c;
  c.mass = p.mass;
  c.radius = p.radius;
  c.gravity = p.gravity;
  c.mu = p.contact.mu;
  c.k_t = p.contact.k_t;
  c.theta0 = p.half_angle;
  c.tilt = p.tilt;
  return c;
}

void add_wedge_disk(EnsembleModel& m, const WedgeDiskParams& p, std::vector<double>& x,
                    std::vector<double>& y) {
  const double r = p.radius;
  const double width = width_in_radii * r;
  const PackingParams pp = system_packing(width, p.gravity, p.tilt, p.contact, p.seed);
  m.add_packing(pp, {r}, disk_areal_density(p.mass, r));

  // vertex at (W/2, R); walls at ±θ0 = ±(π − θ_W)/2 from the horizontal of the set-up; the disk
  // on the bisector, touching both
  const double half = 0.5 * (pi - p.aperture);
  const double vx = 0.5 * width;
  const double vy = r;
  x.push_back(vx);
  y.push_back(vy + r / std::cos(half));
  const double inf = std::numeric_limits<double>::infinity();
  // the drive along the vertical of the laboratory: (sin θ_T, cos θ_T) in the set-up's frame
  const double up[2] = {std::sin(p.tilt), std::cos(p.tilt)};
  for (int side : {-1, 1}) {
    Body wall;
    wall.shape = BodyShape::wall;
    wall.x0 = vx;
    wall.y0 = vy;
    wall.theta0 = side * half;
    wall.s_min = side < 0 ? -inf : 0.0;
    wall.s_max = side < 0 ? 0.0 : inf;
    if (p.amplitude != 0.0) {
      for (int axis = 0; axis < 2; ++axis) {
        wall.axis[axis] = {AxisDrive::sine, p.amplitude * up[axis], p.omega, 0.5, {}};
      }
    }
    m.add_body(wall);
  }
}

}  // namespace granular::md
