#include "granular/md/observables.hpp"

#include <algorithm>
#include <cmath>

#include "granular/md/bodies.hpp"
#include "granular/md/contact.hpp"

namespace granular::md {
namespace {

DiskKinematics kinematics_of(const EnsembleModel& m, const EnsembleState& s, int i) {
  return {{s.x[i], s.y[i]}, {s.vx[i], s.vy[i]}, s.theta[i], m.radius[i]};
}

// A copy of the history disk i keeps for partner j, or nullptr when it has none.
const ContactSlot* disk_slot(const EnsembleModel& m, const EnsembleState& s, int i, int j) {
  const int slots = m.neighbor.max_contacts;
  for (int k = 0; k < slots; ++k) {
    const ContactSlot& c = s.contacts[static_cast<std::size_t>(i) * slots + k];
    if (c.partner == j) return &c;
  }
  return nullptr;
}

}  // namespace

bool disk_pair_contact(const EnsembleModel& m, const EnsembleState& s, int p, int i, int j,
                       ContactResult& out) {
  const DiskKinematics a = kinematics_of(m, s, i);
  const DiskKinematics b = kinematics_of(m, s, j);
  if (pair_overlap(a, b) <= 0.0) return false;
  const ContactSlot* slot = disk_slot(m, s, i, j);
  SkinHistory h = slot ? slot->skin : SkinHistory{};
  out = disk_disk_contact(m.packings[p].disk_disk, a, b, slot == nullptr, h);
  return true;
}

bool box_wall_contact(const EnsembleModel& m, const EnsembleState& s, int p, int i, int w,
                      ContactResult& out) {
  const PackingParams& pp = m.packings[p];
  if ((pp.box_walls & (1u << w)) == 0) return false;
  const DiskKinematics a = kinematics_of(m, s, i);
  const WallKinematics wall = wall_at(pp, w, s.time(m));
  if (wall_overlap(a, wall) <= 0.0) return false;
  const ContactSlot& slot = s.walls[static_cast<std::size_t>(i) * n_walls + w];
  SkinHistory h = slot.skin;
  out = disk_wall_contact(pp.disk_wall, a, wall, slot.partner < 0, h);
  return true;
}

bool wall_body_contact(const EnsembleModel& m, const EnsembleState& s, int p, int i, int b,
                       WallKinematics& wall, ContactResult& out) {
  const Body& body = m.bodies[b];
  if (body.shape != BodyShape::wall ||
      !touches_wall_body(body, s.body_motion.data() + body_motion_size * b, kinematics_of(m, s, i),
                         wall)) {
    return false;
  }
  const ContactSlot& slot =
      s.body_walls[static_cast<std::size_t>(i) * m.wall_bodies + body.wall_slot];
  SkinHistory h = slot.skin;
  out =
      disk_wall_contact(m.packings[p].disk_wall, kinematics_of(m, s, i), wall, slot.partner < 0, h);
  return true;
}

std::vector<std::pair<int, int>> contact_candidates(const EnsembleModel& m, const EnsembleState& s,
                                                    int p) {
  const int first = m.offset[p];
  const int last = m.offset[p + 1];
  std::vector<std::pair<int, int>> pairs;
  double r_max = 0.0;
  for (int i = first; i < last; ++i) r_max = std::max(r_max, m.radius[i]);
  const double edge = 2.0 * r_max;  // touching centres lie in neighboring cells
  constexpr int small = 128;        // all pairs below: no faster to sort
  if (last - first <= small || !(edge > 0.0) || !std::isfinite(edge)) {
    for (int i = first; i < last; ++i)
      for (int j = i + 1; j < last; ++j) pairs.emplace_back(i, j);
    return pairs;
  }
  // the disks by cell (row, column, index); cell indices stay exact integers in a double
  constexpr double reach = 1e15;
  struct Binned {
    double row, column;
    int disk;
    bool operator<(const Binned& o) const {
      return row < o.row ||
             (row == o.row && (column < o.column || (column == o.column && disk < o.disk)));
    }
  };
  std::vector<Binned> binned;
  std::vector<int> loose;  // out of the grid's reach: paired with every other disk
  for (int i = first; i < last; ++i) {
    const double row = std::floor(s.y[i] / edge);
    const double column = std::floor(s.x[i] / edge);
    if (std::fabs(row) < reach && std::fabs(column) < reach)
      binned.push_back({row, column, i});
    else
      loose.push_back(i);
  }
  std::sort(binned.begin(), binned.end());
  for (const Binned& a : binned) {
    for (double dr = -1.0; dr <= 1.0; dr += 1.0) {
      for (double dc = -1.0; dc <= 1.0; dc += 1.0) {
        const Binned lo{a.row + dr, a.column + dc, -1};
        const Binned hi{a.row + dr, a.column + dc, last};
        const auto begin = std::lower_bound(binned.begin(), binned.end(), lo);
        const auto end = std::lower_bound(begin, binned.end(), hi);
        for (auto b = begin; b != end; ++b)
          if (b->disk > a.disk) pairs.emplace_back(a.disk, b->disk);
      }
    }
  }
  for (const int l : loose) {
    for (int i = first; i < last; ++i) {
      const bool other_loose = std::binary_search(loose.begin(), loose.end(), i);
      if (i != l && (!other_loose || i > l)) pairs.emplace_back(std::min(i, l), std::max(i, l));
    }
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

PackingEnergy packing_energy(const EnsembleModel& m, const EnsembleState& s, int p) {
  const PackingParams& pp = m.packings[p];
  PackingEnergy e{0.0, 0.0, 0.0, 0.0, 0.0, 0, 0};
  const int first = m.offset[p];
  const int last = m.offset[p + 1];
  const double up_x = std::sin(pp.tilt);  // "up", against gravity
  const double up_y = std::cos(pp.tilt);
  const std::vector<std::pair<int, int>> pairs = contact_candidates(m, s, p);
  std::size_t next = 0;  // the first pair of disk i
  for (int i = first; i < last; ++i) {
    // kinetic and gravitational energy of the disk; a prescribed disk's are the drive's
    if (m.inv_mass[i] != 0.0) {
      e.kinetic += 0.5 * m.mass[i] * (s.vx[i] * s.vx[i] + s.vy[i] * s.vy[i]);
      e.gravitational += m.mass[i] * pp.gravity * (s.y[i] * up_y + s.x[i] * up_x);
    }
    // a disk held at its centre (inv_mass 0) still turns
    if (m.inv_inertia[i] != 0.0) e.rotational += 0.5 * m.inertia[i] * s.omega[i] * s.omega[i];

    // disk–disk contacts in canonical order (i < j), each pair once, then the walls
    const auto add = [&](const ContactParams& law, const ContactResult& c, int& count) {
      e.elastic += 0.5 * law.k_n * c.overlap * c.overlap;
      e.skin += 0.5 * law.k_t * c.xi * c.xi;
      ++count;
    };
    ContactResult c{};
    for (; next < pairs.size() && pairs[next].first == i; ++next) {
      if (disk_pair_contact(m, s, p, i, pairs[next].second, c))
        add(pp.disk_disk, c, e.disk_contacts);
    }
    for (int w = 0; w < n_walls; ++w) {
      if (box_wall_contact(m, s, p, i, w, c)) add(pp.disk_wall, c, e.wall_contacts);
    }
    for (int b = pp.body_first; b < pp.body_first + pp.body_count; ++b) {
      WallKinematics wall;
      if (wall_body_contact(m, s, p, i, b, wall, c)) add(pp.disk_wall, c, e.wall_contacts);
    }
  }
  return e;
}

Vec2 wall_force(const EnsembleModel& m, const EnsembleState& s, int p, int wall) {
  Vec2 f{0.0, 0.0};
  for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
    ContactResult c{};
    // the disk pushes the wall with the opposite of the wall's force on the disk
    if (box_wall_contact(m, s, p, i, wall, c)) f = f - c.force_a;
  }
  return f;
}

}  // namespace granular::md
