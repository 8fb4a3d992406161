// One packing at one instant, as a picture needs it (docs/outputs.md, "snapshots/"): its disks,
// its contact network with the forces of every contact, and its walls as segments. Gathered
// from the state by packing_frame; the io layer writes it (io/snapshot.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "granular/md/model.hpp"
#include "granular/md/state.hpp"
#include "granular/vec2.hpp"

namespace granular::md {

// Walls of a frame: the box's walls by their Wall id (wall_left, wall_right, wall_bottom), the
// packing's wall bodies as frame_wall_body + their index among the packing's bodies.
constexpr int frame_wall_body = n_walls;

// One open contact. Disk–disk: disk a < disk b, both indices within the packing. Disk–wall:
// b = −1, `wall` names the wall and `point` is the contact point on it (the disk's centre
// projected onto the wall).
struct FrameContact {
  int a;
  int b;
  int wall;           // −1 for a disk–disk contact
  Vec2 point;         // disk–wall: the contact point [m]
  double normal;      // normal force n [N], ≥ 0
  double tangential;  // skin force k_t ξ [N]: the force on disk a along t̂ = ẑ × ê (ê from a's
                      // centre towards b or the wall) is −k_t ξ
};

// A wall as a segment from `from` to `to`.
struct FrameWall {
  int wall;  // a Wall id, or frame_wall_body + body index within the packing
  Vec2 from;
  Vec2 to;
};

struct PackingFrame {
  int packing;
  std::int64_t step;     // state.step: steps since t0
  double t;              // time [s]
  double box_width;      // side walls at x = 0 and x = box_width [m]
  double bottom_y;       // the bottom wall's height y_b(t) [m]
  double bottom_lowest;  // the bottom's lowest height −A [m]
  double top;            // highest disk top, max(y + r) [m]
  // the packing's disks, in their order (packing_size each)
  std::vector<double> x, y, vx, vy, omega, theta, radius;
  std::vector<FrameContact> contacts;  // disk–disk pairs by (a, b), then the walls by disk
  std::vector<FrameWall> walls;        // the box's walls, then the wall bodies
};

// Packing p at the state's time. The contacts are those packing_energy counts, evaluated the
// same way (on copies of the stored history: the state is not changed). Side walls reach from
// the bottom's lowest height to the frame's top; a wall body's segment is its extent
// [s_min, s_max], an unbounded end cut where the disks' reach ends.
PackingFrame packing_frame(const EnsembleModel& m, const EnsembleState& s, int p);

}  // namespace granular::md
