#include "granular/md/frame.hpp"

#include <algorithm>
#include <cmath>

#include "granular/md/bodies.hpp"
#include "granular/md/contact.hpp"
#include "granular/md/observables.hpp"

namespace granular::md {

PackingFrame packing_frame(const EnsembleModel& m, const EnsembleState& s, int p) {
  const PackingParams& pp = m.packings[p];
  const int first = m.offset[p];
  const int last = m.offset[p + 1];
  PackingFrame f;
  f.packing = p;
  f.step = s.step;
  f.t = s.time(m);
  f.box_width = pp.box_width;
  f.bottom_y = wall_at(pp, wall_bottom, f.t).point.y;
  f.bottom_lowest = -pp.drive_amplitude;
  f.top = f.bottom_y;
  for (int i = first; i < last; ++i) {
    f.x.push_back(s.x[i]);
    f.y.push_back(s.y[i]);
    f.vx.push_back(s.vx[i]);
    f.vy.push_back(s.vy[i]);
    f.omega.push_back(s.omega[i]);
    f.theta.push_back(s.theta[i]);
    f.radius.push_back(m.radius[i]);
    f.top = std::max(f.top, s.y[i] + m.radius[i]);
  }

  // contacts: pairs in canonical order, then each disk's walls
  ContactResult c{};
  for (const auto& [i, j] : contact_candidates(m, s, p)) {
    if (disk_pair_contact(m, s, p, i, j, c))
      f.contacts.push_back(
          {i - first, j - first, -1, {0.0, 0.0}, c.normal, pp.disk_disk.k_t * c.xi});
  }
  for (int i = first; i < last; ++i) {
    const Vec2 centre{s.x[i], s.y[i]};
    const auto on_wall = [&](const WallKinematics& w) {
      return centre - dot(centre - w.point, w.normal) * w.normal;
    };
    for (int w = 0; w < n_walls; ++w) {
      if (box_wall_contact(m, s, p, i, w, c))
        f.contacts.push_back(
            {i - first, -1, w, on_wall(wall_at(pp, w, f.t)), c.normal, pp.disk_wall.k_t * c.xi});
    }
    for (int b = pp.body_first; b < pp.body_first + pp.body_count; ++b) {
      WallKinematics wall;
      if (wall_body_contact(m, s, p, i, b, wall, c))
        f.contacts.push_back({i - first, -1, frame_wall_body + (b - pp.body_first), on_wall(wall),
                              c.normal, pp.disk_wall.k_t * c.xi});
    }
  }

  // walls: the box's, then the wall bodies
  if (pp.box_walls & (1u << wall_left))
    f.walls.push_back({wall_left, {0.0, f.bottom_lowest}, {0.0, f.top}});
  if (pp.box_walls & (1u << wall_right))
    f.walls.push_back({wall_right, {pp.box_width, f.bottom_lowest}, {pp.box_width, f.top}});
  if (pp.box_walls & (1u << wall_bottom))
    f.walls.push_back({wall_bottom, {0.0, f.bottom_y}, {pp.box_width, f.bottom_y}});
  for (int b = pp.body_first; b < pp.body_first + pp.body_count; ++b) {
    const Body& body = m.bodies[b];
    if (body.shape != BodyShape::wall) continue;
    const PlacedWall w = placed_wall(body, s.body_motion.data() + body_motion_size * b);
    // an unbounded end stops where the disks' reach along the wall ends
    double reach = 0.0;
    for (int i = first; i < last; ++i)
      reach =
          std::max(reach, std::fabs(dot(Vec2{s.x[i], s.y[i]} - w.point, w.tangent)) + m.radius[i]);
    const double lo = std::isfinite(body.s_min) ? body.s_min : -reach;
    const double hi = std::isfinite(body.s_max) ? body.s_max : reach;
    f.walls.push_back({frame_wall_body + (b - pp.body_first), w.point + lo * w.tangent,
                       w.point + hi * w.tangent});
  }
  return f;
}

}  // namespace granular::md
