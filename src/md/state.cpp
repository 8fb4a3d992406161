#include "granular/md/state.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "granular/constants.hpp"
#include "granular/md/bodies.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

GridShape packing_grid_shape(double box_width, double r_max, double disk_area, double skin) {
  const double min_size = 2.0 * r_max + skin;
  const double columns = std::max(1.0, std::floor(box_width / min_size));
  const double size = std::max(box_width / columns, min_size);
  return {columns, std::ceil(4.0 * disk_area / (box_width * size)) + 4.0, size};
}

namespace {

// The grid of packing p of the model.
GridShape model_grid_shape(const EnsembleModel& m, int p) {
  double r_max = 0.0;
  double area = 0.0;
  for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
    r_max = std::max(r_max, m.radius[i]);
    area += pi * m.radius[i] * m.radius[i];
  }
  return packing_grid_shape(m.packings[p].box_width, r_max, area, m.neighbor.skin);
}

// The bodies at the state's start: random coordinates drawn from their stationary distribution
// (⟨x²⟩ = A_b², ⟨ẋ²⟩ = ω_b²A_b², uncorrelated; counter ~0, which no step uses), sine ones at t0,
// prescribed disks placed.
void place_bodies(const EnsembleModel& m, EnsembleState& s) {
  s.body_motion.assign(m.bodies.size() * body_motion_size, 0.0);
  const EnsembleView v = make_view(m, s);
  for (int p = 0; p < m.n_packings(); ++p) {
    const PackingParams& pp = m.packings[p];
    for (int b = pp.body_first; b < pp.body_first + pp.body_count; ++b) {
      double* motion = s.body_motion.data() + body_motion_size * b;
      for (int axis = 0; axis < 3; ++axis) {
        const AxisMotion& a = m.bodies[b].axis[axis];
        if (a.drive == AxisDrive::random) {
          const NormalQuad n = random_normals(body_axis_key(pp, b, axis), ~0ull);
          motion[axis] = a.amplitude * n.n[0];
          motion[3 + axis] = a.omega * a.amplitude * n.n[1];
        } else if (a.drive == AxisDrive::sine) {
          const AxisValue value = sine_axis(a, s.t0);
          motion[axis] = value.deviation;
          motion[3 + axis] = value.rate;
        }
      }
      if (m.bodies[b].shape == BodyShape::disk) place_prescribed_disk(v, m.bodies[b], motion);
    }
  }
}

}  // namespace

EnsembleState make_state(const EnsembleModel& m, const std::vector<double>& x,
                         const std::vector<double>& y, double t0) {
  const int n = m.n_disks();
  const int n_packings = m.n_packings();
  EnsembleState s;
  s.t0 = t0;
  s.x.assign(x.begin(), x.end());
  s.y.assign(y.begin(), y.end());
  for (auto* a :
       {&s.theta, &s.vx, &s.vy, &s.omega, &s.ax, &s.ay, &s.alpha, &s.fx, &s.fy, &s.torque}) {
    a->assign(n, 0.0);
  }
  s.gear_high.assign(gear_columns * static_cast<std::size_t>(n), 0.0);
  s.neighbors.assign(static_cast<std::size_t>(n) * m.neighbor.max_neighbors, -1);
  s.neighbor_count.assign(n, 0);
  s.neighbor_upper.assign(n, 0);
  // infinitely far from the last rebuild: the first step builds the lists
  s.x_ref.assign(n, std::numeric_limits<double>::infinity());
  s.y_ref.assign(n, std::numeric_limits<double>::infinity());
  s.contacts.assign(static_cast<std::size_t>(n) * m.neighbor.max_contacts, ContactSlot{-1, -1, {}});
  s.walls.assign(static_cast<std::size_t>(n) * n_walls, ContactSlot{-1, -1, {}});
  s.body_walls.assign(static_cast<std::size_t>(n) * m.wall_bodies, ContactSlot{-1, -1, {}});
  s.slots_used.assign(n, 0);
  s.contact_mask.assign(n, 0);

  // cell grids: rows for four times the height the disks would fill as a solid layer, plus a
  // margin; disks above share the top row
  s.grids.resize(n_packings);
  s.cell_offset.assign(n_packings + 1, 0);
  for (int p = 0; p < n_packings; ++p) {
    const GridShape shape = model_grid_shape(m, p);
    const int nx = static_cast<int>(shape.columns);
    const int rows = static_cast<int>(shape.rows);
    s.grids[p] = CellGrid{nx, rows, shape.size, 0.0};
    s.cell_offset[p + 1] = s.cell_offset[p] + nx * rows;
  }
  s.cell_start.assign(static_cast<std::size_t>(s.cell_offset.back()) + n_packings, 0);
  s.cell_disks.assign(n, 0);

  s.status.assign(n_packings, status_ok);
  s.rebuild_count.assign(n_packings, 0);
  place_bodies(m, s);
  return s;
}

bool observed_state_array(const std::string& name) {
  return name == "x" || name == "y" || name == "theta" || name == "vx" || name == "vy" ||
         name == "omega" || name == "contacts" || name == "walls" || name == "body_motion" ||
         name == "body_walls" || name == "status";
}

std::size_t state_bytes_per_disk(const NeighborParams& n) {
  const std::size_t doubles = 9 + 9 + 3 + 2;  // kinematics, Gear's derivatives, forces, refs
  const std::size_t ints = static_cast<std::size_t>(n.max_neighbors) + 3;  // list, counts, cells
  const std::size_t slots = static_cast<std::size_t>(n.max_contacts) + n_walls;
  return doubles * sizeof(double) + ints * sizeof(int) + slots * sizeof(ContactSlot) +
         2 * sizeof(std::uint64_t);
}

double ensemble_memory_bytes(double disks, double cells, const NeighborParams& neighbor) {
  const double per_disk = static_cast<double>(state_bytes_per_disk(neighbor)) +
                          5.0 * sizeof(double) + sizeof(RotationStats);
  return disks * per_disk + cells * sizeof(int);
}

std::size_t state_bytes(const EnsembleState& s) {
  std::size_t bytes = 0;
  for_each_state_array(s, s, [&bytes](const auto& v, const auto&, const char*) {
    bytes += v.size() * sizeof(v[0]);
  });
  return bytes;
}

EnsembleView make_view(const EnsembleModel& m, EnsembleState& s) {
  EnsembleView v = model_view(m, m);
  for_each_state_array(v, s, [](auto*& to, auto& array, const char*) { to = array.data(); });
  return v;
}

namespace {

bool all_finite(const EnsembleArray<double>& v, int first, int last, int stride) {
  for (std::size_t k = static_cast<std::size_t>(first) * stride;
       k < static_cast<std::size_t>(last) * stride; ++k) {
    if (!std::isfinite(v[k])) return false;
  }
  return true;
}

std::string at(const char* array, std::size_t k) {
  return std::string(array) + "[" + std::to_string(k) + "]";
}

// What is wrong with packing p's part of s, or "".
std::string packing_defect(const EnsembleModel& m, const EnsembleState& s, int p) {
  const int first = m.offset[p];
  const int last = m.offset[p + 1];
  const int max_neighbors = m.neighbor.max_neighbors;
  const int max_contacts = m.neighbor.max_contacts;
  const auto in_packing = [&](int j) { return j >= first && j < last; };

  // the cell grid: the allocated shape, rows in use within it, a counting sort of the disks
  const CellGrid& g = s.grids[p];
  const GridShape shape = model_grid_shape(m, p);
  if (g.nx != static_cast<int>(shape.columns) || g.size != shape.size || g.ny < 1 ||
      g.ny > static_cast<int>(shape.rows) || !std::isfinite(g.y_min)) {
    return at("grids", p) + " is not a grid of the packing";
  }
  const int* start = s.cell_start.data() + s.cell_offset[p] + p;
  const int cells = g.nx * g.ny;
  if (start[0] != 0 || start[cells] != last - first) return at("cell_start", p) + " is not a sort";
  for (int c = 0; c < cells; ++c) {
    if (start[c + 1] < start[c]) return at("cell_start", p) + " is not a sort";
  }
  std::vector<char> seen(last - first, 0);
  for (int i = first; i < last; ++i) {
    const int j = s.cell_disks[i];
    if (!in_packing(j) || seen[j - first]++) return at("cell_disks", i) + " is not a disk's index";
  }

  for (int i = first; i < last; ++i) {
    // the neighbor list: partners of the packing, ascending, split at the disk itself
    const int count = s.neighbor_count[i];
    if (count < 0 || count > max_neighbors) return at("neighbor_count", i) + " is out of range";
    const int* list = s.neighbors.data() + static_cast<std::size_t>(i) * max_neighbors;
    for (int n = 0; n < count; ++n) {
      if (!in_packing(list[n]) || list[n] == i || (n > 0 && list[n] <= list[n - 1]))
        return at("neighbors", static_cast<std::size_t>(i) * max_neighbors + n) +
               " is not a neighbor's index";
    }
    const int upper = s.neighbor_upper[i];
    if (upper < 0 || upper > count || (upper > 0 && list[upper - 1] > i) ||
        (upper < count && list[upper] < i))
      return at("neighbor_upper", i) + " does not split the list at the disk";

    // contact slots: a used slot holds a partner of the packing, a free one none
    const std::uint64_t used = s.slots_used[i];
    if (max_contacts < 64 && (used >> max_contacts) != 0)
      return at("slots_used", i) + " is out of range";
    const ContactSlot* slots = s.contacts.data() + static_cast<std::size_t>(i) * max_contacts;
    for (int k = 0; k < max_contacts; ++k) {
      const bool is_used = (used >> k) & 1u;
      const ContactSlot& slot = slots[k];
      const bool partner_ok =
          is_used ? in_packing(slot.partner) && slot.partner != i : slot.partner == -1;
      if (!partner_ok || slot.mirror < -1 || slot.mirror >= max_contacts)
        return at("contacts", static_cast<std::size_t>(i) * max_contacts + k) +
               " is not a contact of the packing";
    }
    for (int w = 0; w < n_walls; ++w) {
      const int partner = s.walls[static_cast<std::size_t>(i) * n_walls + w].partner;
      if (partner != -1 && partner != w)
        return at("walls", static_cast<std::size_t>(i) * n_walls + w) + " is not a wall contact";
    }
    for (int w = 0; w < m.wall_bodies; ++w) {
      const std::size_t k = static_cast<std::size_t>(i) * m.wall_bodies + w;
      if (s.body_walls[k].partner != -1 && s.body_walls[k].partner != w)
        return at("body_walls", k) + " is not a wall contact";
    }
  }

  // a packing that still advances has a finite state
  if (s.status[p] == status_ok) {
    for (const auto* v : {&s.x, &s.y, &s.theta, &s.vx, &s.vy, &s.omega, &s.ax, &s.ay, &s.alpha,
                          &s.fx, &s.fy, &s.torque}) {
      if (!all_finite(*v, first, last, 1)) return "packing " + std::to_string(p) + " is not finite";
    }
    for (int k = 0; k < gear_columns; ++k)
      if (!all_finite(s.gear_high, k * m.n_disks() + first, k * m.n_disks() + last, 1))
        return "packing " + std::to_string(p) + " is not finite";
    if (!all_finite(s.body_motion, m.packings[p].body_first,
                    m.packings[p].body_first + m.packings[p].body_count, body_motion_size))
      return "packing " + std::to_string(p) + " is not finite";
  }
  return "";
}

}  // namespace

std::string state_defect(const EnsembleModel& m, const EnsembleState& s) {
  const int n_packings = m.n_packings();
  // the cell layout make_state gives the model
  int cells = 0;
  for (int p = 0; p < n_packings; ++p) {
    if (s.cell_offset[p] != cells) return at("cell_offset", p) + " is not the model's";
    const GridShape shape = model_grid_shape(m, p);
    cells += static_cast<int>(shape.columns) * static_cast<int>(shape.rows);
  }
  if (s.cell_offset[n_packings] != cells)
    return at("cell_offset", n_packings) + " is not the model's";
  constexpr std::uint32_t known = status_neighbor_overflow | status_contact_overflow |
                                  status_non_finite | status_outside_box | status_too_fast;
  for (int p = 0; p < n_packings; ++p) {
    if ((s.status[p] & ~known) != 0) return at("status", p) + " has unknown flags";
    if (s.rebuild_count[p] < 0) return at("rebuild_count", p) + " is negative";
    const std::string defect = packing_defect(m, s, p);
    if (!defect.empty()) return defect;
  }
  return "";
}

std::string state_impossible(const EnsembleModel& m, const EnsembleState& s) {
  const auto bad = [](double v) { return !std::isfinite(v); };
  const auto name = [](double v) {
    return std::isnan(v) ? std::string("nan") : std::string("infinite");
  };
  for (int p = 0; p < m.n_packings(); ++p) {
    if (s.status[p] != status_ok) continue;
    const std::string where = "packing " + std::to_string(p) + " (status ok): ";
    for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
      const std::pair<const char*, const EnsembleArray<double>*> arrays[] = {
          {"x", &s.x},         {"y", &s.y},         {"theta", &s.theta}, {"vx", &s.vx},
          {"vy", &s.vy},       {"omega", &s.omega}, {"ax", &s.ax},       {"ay", &s.ay},
          {"alpha", &s.alpha}, {"fx", &s.fx},       {"fy", &s.fy},       {"torque", &s.torque},
          {"x_ref", &s.x_ref}, {"y_ref", &s.y_ref}};
      for (const auto& [array, values] : arrays)
        if (bad((*values)[i])) return where + at(array, i) + " is " + name((*values)[i]);
      for (std::size_t column = 0; !s.gear_high.empty() && column < std::size_t{gear_columns};
           ++column) {
        const double v = s.gear_high[column * m.n_disks() + i];
        if (bad(v)) return where + at("gear_high", column * m.n_disks() + i) + " is " + name(v);
      }
      const auto slots = [&](const char* array, const EnsembleArray<ContactSlot>& v,
                             std::size_t per) {
        for (std::size_t k = i * per; k < (i + 1) * per; ++k) {
          const SkinHistory& h = v[k].skin;
          for (const double x : {h.theta_a, h.theta_b, h.anchor_x, h.anchor_y, h.xi_anchor})
            if (bad(x)) return where + at(array, k) + " holds " + name(x);
          // a disk–disk contact's anchor normal e* is a unit vector
          const bool pair = &v == &s.contacts && v[k].partner >= 0;
          if (pair && !(std::fabs(h.anchor_x * h.anchor_x + h.anchor_y * h.anchor_y - 1.0) < 1e-9))
            return where + at(array, k) + " holds an anchor normal that is not a unit vector";
        }
        return std::string();
      };
      for (const std::string& defect :
           {slots("contacts", s.contacts, static_cast<std::size_t>(m.neighbor.max_contacts)),
            slots("walls", s.walls, n_walls),
            slots("body_walls", s.body_walls, static_cast<std::size_t>(m.wall_bodies))})
        if (!defect.empty()) return defect;
    }
    for (int b = m.packings[p].body_first; b < m.packings[p].body_first + m.packings[p].body_count;
         ++b)
      for (int k = 0; k < body_motion_size; ++k) {
        const double v = s.body_motion[static_cast<std::size_t>(b) * body_motion_size + k];
        if (bad(v))
          return where + at("body_motion", static_cast<std::size_t>(b) * body_motion_size + k) +
                 " is " + name(v);
      }
  }
  return "";
}

}  // namespace granular::md
