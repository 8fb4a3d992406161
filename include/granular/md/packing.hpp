// Packing construction by the advancing-front algorithm (thesis §2.1.1, spec
// thesis-packings-ch2-3.md §2): each new disk is placed touching exactly two elements of the
// front (the top layer of disks plus the walls) without overlapping any placed disk.
#pragma once

#include <cstdint>
#include <vector>

#include "granular/vec2.hpp"

namespace granular::md {

// The centre of a disk at distance r_ia from centre a and r_ib from centre b (touching both:
// r_ia = R + R_a), the upper of the two solutions (eqs. 2.3-2.4; the left of a->b once a is the
// left one); false when the two circles do not meet. The builder's placement, and the 3-disk
// system's rest on its supports.
bool touch_two_disks(Vec2 a, double r_ia, Vec2 b, double r_ib, Vec2& out);

// Centres of a packing, in the order of the radii given.
struct PackingLayout {
  std::vector<double> x;  // [m], side walls at x = 0 and x = box_width
  std::vector<double> y;  // [m], bottom wall at y = 0
};

// Places disks of the given radii [m] in a box of width box_width [m] (open at the top).
// The insertion order and the choice among candidate positions are drawn from `seed`, so that
// every seed gives a different packing and the same seed the same one, bitwise.
// Rules beyond the thesis text: among all free positions touching two front elements, the
// lowest (smallest y) that rests on its two supports (the upward vertical within the cone of the
// two contact normals, or touching the bottom) is taken, so the packing grows layer by layer;
// positions within 1e-9 R of the lowest are ties, broken by the seed. The seed also shuffles the
// insertion order and puts the first disk on the bottom at a uniform x. Disks touch exactly
// (distance R_i + R_j), up to rounding. Same seed and same build give bitwise-equal layouts.
// Throws std::invalid_argument when a disk is wider than the box, a radius is not > 0 and
// finite, or the box width is not > 0 and finite.
PackingLayout advancing_front(const std::vector<double>& radii, double box_width,
                              std::uint64_t seed);

// The same bed numbered in cell order: the centres of disks of equal radius (identical disks:
// one areal density per packing gives them one mass and inertia) are dealt to their labels,
// lowest label first, in rows of height 2 r_max from the bottom up, left to right within a row
// (then by height). The packing is the same set of disks in the same places; only which label
// sits where changes, so the model's per-disk arrays stay as they are. The front labels disks
// in the seed's shuffled insertion order, at random in space; in cell order, disks that touch
// have nearby labels and nearby places in every per-disk array, which keeps a big bed's pair
// loops in the caches (docs/performance.md).
PackingLayout in_cell_order(const std::vector<double>& radii, PackingLayout layout);

// The bed every run starts from: advancing_front, then in_cell_order.
PackingLayout build_bed(const std::vector<double>& radii, double box_width, std::uint64_t seed);

}  // namespace granular::md
