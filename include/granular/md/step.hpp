// The stages of one MD step, each a GRANULAR_HD function of one disk (or one packing, for the
// rebuild decision and the binning). A backend calls them in this order for every packing:
//   predict -> rebuild_if_needed (needs_rebuild, bin_packing, rebuild_disk) -> forces -> correct
// and adds scheduling only (docs/architecture.md, "Data flow").
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "granular/contact_law.hpp"
#include "granular/hd.hpp"
#include "granular/md/bodies.hpp"
#include "granular/md/contact.hpp"
#include "granular/md/integrator.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

GRANULAR_HD inline DiskKinematics disk_kinematics(const EnsembleView& v, int i) {
  return {{v.x[i], v.y[i]}, {v.vx[i], v.vy[i]}, v.theta[i], v.radius[i]};
}

// Index of the lowest set bit of a non-zero mask.
GRANULAR_HD inline int lowest_bit(std::uint64_t mask) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(mask)) - 1;
#else
  return __builtin_ctzll(mask);
#endif
}

// Gear's predict of disk i with the step's constants.
GRANULAR_HD inline void gear5_predict_disk(const EnsembleView& v, const Gear5Step& s, int i) {
  const auto g = [&](int k) -> double& { return gear_column(v, k)[i]; };
  gear5_predict(s, v.x[i], v.vx[i], v.ax[i], g(0), g(1), g(2));
  gear5_predict(s, v.y[i], v.vy[i], v.ay[i], g(3), g(4), g(5));
  gear5_predict(s, v.theta[i], v.omega[i], v.alpha[i], g(6), g(7), g(8));
}

// predict: advance disk i's coordinates to the end of the step (before forces).
GRANULAR_HD inline void predict_disk(const EnsembleView& v, int i) {
  if (v.integrator == Integrator::gear5) {
    gear5_predict_disk(v, gear5_step(v.dt), i);
  } else {
    verlet_predict(v.dt, v.x[i], v.vx[i], v.ax[i]);
    verlet_predict(v.dt, v.y[i], v.vy[i], v.ay[i]);
    verlet_predict(v.dt, v.theta[i], v.omega[i], v.alpha[i]);
  }
}

// Has disk i moved more than half the skin since the last rebuild?
GRANULAR_HD inline bool moved_beyond_half_skin(const EnsembleView& v, int i) {
  const double dx = v.x[i] - v.x_ref[i];
  const double dy = v.y[i] - v.y_ref[i];
  return 4.0 * (dx * dx + dy * dy) > v.skin * v.skin;
}

// Has any disk of [first, last) moved more than half the skin? (moved_beyond_half_skin over a
// packing, as an integer OR, which vectorizes without an in-order floating-point sum)
GRANULAR_HOST_OUT_OF_LINE GRANULAR_HD inline bool any_moved_beyond_half_skin(const EnsembleView& v,
                                                                             int first, int last) {
  int moved = 0;
  for (int i = first; i < last; ++i) moved |= moved_beyond_half_skin(v, i) ? 1 : 0;
  return moved != 0;
}

// Row of a height in packing p's cell grid; disks above the allocated rows share the top row
// and disks below the floor the bottom row (still correct, only slower).
GRANULAR_HD inline int cell_row(const CellGrid& g, double y) {
  const double r = floor((y - g.y_min) / g.size);
  if (!(r >= 0.0)) return 0;  // also catches NaN
  return r >= g.ny - 1 ? g.ny - 1 : static_cast<int>(r);
}

GRANULAR_HD inline int cell_column(const CellGrid& g, double x) {
  const double c = floor(x / g.size);
  if (!(c >= 0.0)) return 0;
  return c >= g.nx - 1 ? g.nx - 1 : static_cast<int>(c);
}

// Cell of a disk at (x, y) in grid g.
GRANULAR_HD inline int disk_cell(const CellGrid& g, double x, double y) {
  return cell_row(g, y) * g.nx + cell_column(g, x);
}

// Packing p's cell_start entries: cells 0 … nx·ny of its grid (one past the last).
GRANULAR_HD inline int* packing_cell_start(const EnsembleView& v, int p) {
  return v.cell_start + v.cell_offset[p] + p;
}

// A key of a double whose unsigned order is the order of the numbers (IEEE 754 bits with the
// sign bit flipped for positives and all bits flipped for negatives), so that atomic integer
// min/max find the lowest and highest height exactly.
GRANULAR_HD inline std::uint64_t height_key(double y) {
  std::uint64_t bits;
  memcpy(&bits, &y, sizeof bits);
  return (bits >> 63) != 0 ? ~bits : bits | (1ull << 63);
}

GRANULAR_HD inline double height_of_key(std::uint64_t key) {
  const std::uint64_t bits = (key >> 63) != 0 ? key & ~(1ull << 63) : ~key;
  double y;
  memcpy(&y, &bits, sizeof y);
  return y;
}

// Sets the rows of packing p's grid for disks whose heights span [y_lo, y_hi]: row 0 starts at
// y_lo, and the rows in use are as many as the span needs, within those allocated.
GRANULAR_HD inline void set_grid_rows(const EnsembleView& v, int p, double y_lo, double y_hi) {
  CellGrid& g = v.grids[p];
  const int rows_allocated = (v.cell_offset[p + 1] - v.cell_offset[p]) / g.nx;
  g.y_min = y_lo;
  const int rows = static_cast<int>(floor((y_hi - y_lo) / g.size)) + 1;
  g.ny = rows < rows_allocated ? (rows > 0 ? rows : 1) : rows_allocated;
}

// Bins packing p's disks into its cell grid by a counting sort (serial within the packing, so
// the order of cell_disks is deterministic: ascending disk index within a cell). Also records
// the rebuild positions.
GRANULAR_HD inline void bin_packing(const EnsembleView& v, int p) {
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  double y_lo = v.y[first];
  double y_hi = v.y[first];
  for (int i = first; i < last; ++i) {
    y_lo = fmin(y_lo, v.y[i]);
    y_hi = fmax(y_hi, v.y[i]);
  }
  set_grid_rows(v, p, y_lo, y_hi);
  const CellGrid& g = v.grids[p];
  const int n_cells = g.nx * g.ny;

  // counting sort: cell_start[c] counts, then prefix sums, then scatter
  int* start = packing_cell_start(v, p);
  for (int c = 0; c <= n_cells; ++c) start[c] = 0;
  for (int i = first; i < last; ++i) ++start[disk_cell(g, v.x[i], v.y[i]) + 1];
  for (int c = 0; c < n_cells; ++c) start[c + 1] += start[c];
  for (int i = first; i < last; ++i) {
    // start[c] is used as the fill cursor and restored below
    v.cell_disks[first + start[disk_cell(g, v.x[i], v.y[i])]++] = i;
  }
  for (int c = n_cells; c > 0; --c) start[c] = start[c - 1];
  start[0] = 0;
  for (int i = first; i < last; ++i) {
    v.x_ref[i] = v.x[i];
    v.y_ref[i] = v.y[i];
  }
}

// Builds disk i's Verlet list: every disk j of its packing with |r_ij| < R_i + R_j + skin,
// in ascending index order. Frees history slots of partners that left the list. Returns false
// on overflow (the list is then incomplete and the packing must stop).
GRANULAR_HD inline bool build_neighbors(const EnsembleView& v, int p, int i) {
  const CellGrid& g = v.grids[p];
  const int first = v.offset[p];
  const int* start = packing_cell_start(v, p);
  int* list = v.neighbors + i * v.max_neighbors;
  int count = 0;
  bool ok = true;
  const int row = cell_row(g, v.y[i]);
  const int col = cell_column(g, v.x[i]);
  for (int r = row - 1; r <= row + 1; ++r) {
    if (r < 0 || r >= g.ny) continue;
    for (int c = col - 1; c <= col + 1; ++c) {
      if (c < 0 || c >= g.nx) continue;
      const int cell = r * g.nx + c;
      for (int k = start[cell]; k < start[cell + 1]; ++k) {
        const int j = v.cell_disks[first + k];
        if (j == i) continue;
        const double dx = v.x[j] - v.x[i];
        const double dy = v.y[j] - v.y[i];
        const double cut = v.radius[i] + v.radius[j] + v.skin;
        if (dx * dx + dy * dy >= cut * cut) continue;
        if (count == v.max_neighbors) {
          ok = false;
          continue;
        }
        // insertion keeps the list ascending
        int pos = count++;
        while (pos > 0 && list[pos - 1] > j) {
          list[pos] = list[pos - 1];
          --pos;
        }
        list[pos] = j;
      }
    }
  }
  v.neighbor_count[i] = count;
  int upper = 0;
  while (upper < count && list[upper] < i) ++upper;
  v.neighbor_upper[i] = upper;

  // a contact partner always stays in the list while the contact is open; free the rest
  ContactSlot* slots = v.contacts + i * v.max_contacts;
  for (std::uint64_t used = v.slots_used[i]; used != 0; used &= used - 1) {
    const int k = lowest_bit(used);
    bool listed = false;
    for (int n = 0; n < count; ++n) listed = listed || list[n] == slots[k].partner;
    if (!listed) {
      slots[k].partner = -1;
      v.slots_used[i] &= ~(1ull << k);
    }
  }
  return ok;
}

// Is disk i still in the packing's physical domain? Its centre must lie inside the box
// (between the side walls, above the lowest position −A of the bottom wall: a centre beyond a
// wall went through it), and a step must move it less than its radius (faster, it passes
// through the disks and walls it meets, and the contact law no longer resolves anything).
// Returns the status flags it breaks. Checked at every rebuild: a disk that escapes or races
// moves beyond half the skin, so a rebuild follows within a step.
GRANULAR_HD inline std::uint32_t disk_domain_flags(const EnsembleView& v, int p, int i) {
  const PackingParams& pp = v.packings[p];
  const double x = v.x[i];
  const double y = v.y[i];
  const double r = v.radius[i];
  const double step_x = v.vx[i] * v.dt;
  const double step_y = v.vy[i] * v.dt;
  const unsigned box = pp.box_walls;
  const bool inside = ((box & (1u << wall_left)) == 0 || x > 0.0) &&
                      ((box & (1u << wall_right)) == 0 || x < pp.box_width) &&
                      ((box & (1u << wall_bottom)) == 0 || y > -pp.drive_amplitude);
  std::uint32_t flags = 0;
  if (!inside) flags |= status_outside_box;
  if (!(step_x * step_x + step_y * step_y < r * r)) flags |= status_too_fast;
  return flags;
}

// Disk i's part of a rebuild, after bin_packing: its neighbor list and the domain check.
// Returns the status flags raised (0 when all is well).
GRANULAR_HD inline std::uint32_t rebuild_disk(const EnsembleView& v, int p, int i) {
  const std::uint32_t listed = build_neighbors(v, p, i) ? 0u : status_neighbor_overflow;
  return listed | disk_domain_flags(v, p, i);
}

// What acts on packing p's disks from outside at time t, evaluated once per packing and step:
// its three box walls, gravity (turned by the tilt) and the applied torque.
struct PackingEnvironment {
  WallKinematics wall[n_walls];
  Vec2 gravity;           // [m/s²]
  double applied_torque;  // on disk pp.torque.disk [N m]
};

GRANULAR_HD inline PackingEnvironment packing_environment(const PackingParams& pp, double t) {
  // sin_cos(0) is {0, 1} exactly: an untilted packing with no torque skips both evaluations
  const SinCos tilt = pp.tilt == 0.0 ? SinCos{0.0, 1.0} : sin_cos(pp.tilt);
  return {{wall_at(pp, wall_left, t), wall_at(pp, wall_right, t), wall_at(pp, wall_bottom, t)},
          {-pp.gravity * tilt.sin, -pp.gravity * tilt.cos},
          pp.torque.disk < 0 ? 0.0 : applied_torque(pp.torque, t)};
}

// Slot of partner j among a disk's history slots (bit k of `used` set when slot k holds a
// contact); when there is none, opens the lowest free one and sets `fresh`. Returns −1 when
// every slot is taken.
GRANULAR_HD inline int find_or_open_slot(ContactSlot* slots, std::uint64_t& used, int max_contacts,
                                         int j, bool& fresh) {
  for (std::uint64_t m = used; m != 0; m &= m - 1) {
    const int k = lowest_bit(m);
    if (slots[k].partner == j) {
      fresh = false;
      return k;
    }
  }
  fresh = true;
  const std::uint64_t all = max_contacts == 64 ? ~0ull : (1ull << max_contacts) - 1;
  const std::uint64_t free_slots = all & ~used;
  if (free_slots == 0) return -1;
  const int k = lowest_bit(free_slots);
  slots[k] = {j, -1, slots[k].skin};
  used |= 1ull << k;
  return k;
}

// Frees the used slots of a disk whose bit is not set in `in_contact`: those contacts opened,
// and their memory is lost.
GRANULAR_HD inline void free_opened_slots(ContactSlot* slots, std::uint64_t& used,
                                          std::uint64_t in_contact) {
  for (std::uint64_t stale = used & ~in_contact; stale != 0; stale &= stale - 1) {
    slots[lowest_bit(stale)].partner = -1;
  }
  used &= in_contact;
}

// Do disks a and b touch? (squared distances: no sqrt for the many neighbors that don't)
GRANULAR_HD inline bool disks_touch(double x_a, double y_a, double radius_a, double x_b, double y_b,
                                    double radius_b) {
  const double dx = x_b - x_a;
  const double dy = y_b - y_a;
  const double reach = radius_a + radius_b;
  return dx * dx + dy * dy < reach * reach;
}

// Do disks i and j touch?
GRANULAR_HD inline bool touching(const EnsembleView& v, int i, int j) {
  return disks_touch(v.x[i], v.y[i], v.radius[i], v.x[j], v.y[j], v.radius[j]);
}

// Box-wall contacts of disk i, added to its force and torque (after its pairs). The walls are
// axis-aligned, so the overlaps need no dot product: r − (x − x_left), r − (x_right − x) and
// r − (y − y_bottom) are the values wall_overlap computes, at a third of the instructions, and
// a disk's kinematics are loaded only when it touches a wall.
GRANULAR_HD inline void add_wall_forces(const EnsembleView& v, int p, int i,
                                        const PackingEnvironment& env, Vec2& force,
                                        double& torque) {
  const double x = v.x[i];
  const double y = v.y[i];
  const double r = v.radius[i];
  const double overlap[n_walls] = {r - (x - env.wall[wall_left].point.x),
                                   r - (env.wall[wall_right].point.x - x),
                                   r - (y - env.wall[wall_bottom].point.y)};
  const PackingParams& pp = v.packings[p];
  ContactSlot* slots = v.walls + i * n_walls;
  for (int w = 0; w < n_walls; ++w) {
    ContactSlot& s = slots[w];
    if (overlap[w] <= 0.0 || (pp.box_walls & (1u << w)) == 0) {
      s.partner = -1;
      continue;
    }
    const bool fresh = s.partner < 0;
    s.partner = w;
    const ContactResult c = disk_wall_contact(v.packings[p].disk_wall, disk_kinematics(v, i),
                                              env.wall[w], fresh, s.skin);
    force = force + c.force_a;
    torque += c.torque_a;
  }
}

// Disk i's contacts with the packing's wall bodies and the applied torque, added last.
GRANULAR_HD inline void add_body_forces(const EnsembleView& v, int p, int i,
                                        const PackingEnvironment& env, Vec2& force,
                                        double& torque) {
  const PackingParams& pp = v.packings[p];
  if (pp.body_count > 0) add_body_wall_forces(v, p, i, force, torque);
  if (i == pp.torque.disk) torque += env.applied_torque;
}

// Box walls, wall bodies and the applied torque of disk i: what follows its pairs.
GRANULAR_HD inline void add_external_forces(const EnsembleView& v, int p, int i,
                                            const PackingEnvironment& env, Vec2& force,
                                            double& torque) {
  add_wall_forces(v, p, i, env, force, torque);
  add_body_forces(v, p, i, env, force, torque);
}

// forces, per disk (a thread per disk on a GPU): gravity, then the contacts of disk i with its
// neighbors in ascending partner order, each pair evaluated in canonical order (lower index
// first) so that both disks compute bitwise-identical results and keep identical history
// copies, then the walls. No atomics. Returns false when a contact found no history slot (the
// packing must stop).
GRANULAR_HD inline bool disk_forces(const EnsembleView& v, int p, int i,
                                    const PackingEnvironment& env) {
  const PackingParams& pp = v.packings[p];
  const DiskKinematics me = disk_kinematics(v, i);
  Vec2 force = {v.mass[i] * env.gravity.x, v.mass[i] * env.gravity.y};
  double torque = 0.0;
  bool ok = true;

  ContactSlot* slots = v.contacts + i * v.max_contacts;
  const int* list = v.neighbors + i * v.max_neighbors;
  std::uint64_t in_contact = 0;  // bit k: slot k in contact (max_contact_slots = 64)
  for (int n = 0; n < v.neighbor_count[i]; ++n) {
    const int j = list[n];
    if (!touching(v, i, j)) continue;
    bool fresh;
    const int slot = find_or_open_slot(slots, v.slots_used[i], v.max_contacts, j, fresh);
    if (slot < 0) {
      ok = false;
      continue;
    }
    in_contact |= 1ull << slot;
    const DiskKinematics other = disk_kinematics(v, j);
    const bool i_is_a = i < j;
    const ContactResult c =
        i_is_a ? disk_disk_contact(pp.disk_disk, me, other, fresh, slots[slot].skin)
               : disk_disk_contact(pp.disk_disk, other, me, fresh, slots[slot].skin);
    force = i_is_a ? force + c.force_a : force - c.force_a;
    torque += i_is_a ? c.torque_a : c.torque_b;
  }
  free_opened_slots(slots, v.slots_used[i], in_contact);
  add_external_forces(v, p, i, env, force, torque);

  v.fx[i] = force.x;
  v.fy[i] = force.y;
  v.torque[i] = torque;
  return ok;
}

// forces, pairwise (one thread per packing: the CPU): gravity, then each touching pair once,
// in ascending (i, j > i) order, its force added to both disks and its history mirrored into
// j's slot. Every disk receives its contacts in ascending partner order, as in disk_forces, so
// the two schedules give bitwise-identical forces and histories at half the contact work.
// Disk i has all its pairs once its own loop ends (its lower partners came first): then its
// opened slots are released and its walls added, in disk_forces' order. Returns false when a
// contact found no history slot.
// Disk i's coordinates are held in locals and the arrays read through restrict pointers: the
// stores into the partners' sums would otherwise make the compiler reload them for every
// neighbor (the same arithmetic; 12 % faster on the 1 000-disk bench).
GRANULAR_HD inline bool packing_forces_pairwise(const EnsembleView& v, int p,
                                                const PackingEnvironment& env) {
  const PackingParams& pp = v.packings[p];
  const ContactParams contact = pp.disk_disk;
  const Vec2 gravity = env.gravity;
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  const double* __restrict__ x = v.x;
  const double* __restrict__ y = v.y;
  const double* __restrict__ radius = v.radius;
  const double* __restrict__ mass = v.mass;
  double* __restrict__ fx = v.fx;
  double* __restrict__ fy = v.fy;
  double* __restrict__ torque = v.torque;
  std::uint64_t* __restrict__ contact_mask = v.contact_mask;
  std::uint64_t* __restrict__ slots_used = v.slots_used;
  const int max_contacts = v.max_contacts;
  bool ok = true;
  for (int i = first; i < last; ++i) {
    fx[i] = mass[i] * gravity.x;
    fy[i] = mass[i] * gravity.y;
    torque[i] = 0.0;
    contact_mask[i] = 0;
  }

  for (int i = first; i < last; ++i) {
    ContactSlot* slots_i = v.contacts + i * max_contacts;
    const int* list = v.neighbors + i * v.max_neighbors;
    const int end = v.neighbor_count[i];
    const DiskKinematics a = disk_kinematics(v, i);
    // disk i's sums continue from its lower partners' contributions, in the same order
    double fx_i = fx[i];
    double fy_i = fy[i];
    double torque_i = torque[i];
    std::uint64_t mask_i = contact_mask[i];
    for (int n = v.neighbor_upper[i]; n < end; ++n) {
      const int j = list[n];
      if (!disks_touch(a.r.x, a.r.y, a.radius, x[j], y[j], radius[j])) continue;
      ContactSlot* slots_j = v.contacts + j * max_contacts;
      bool fresh;
      bool fresh_j;
      const int slot_i = find_or_open_slot(slots_i, slots_used[i], max_contacts, j, fresh);
      if (slot_i < 0) {
        ok = false;
        continue;
      }
      // the mirror copy: its slot index is remembered, searched for only when it moved
      const int hint = slots_i[slot_i].mirror;
      const int slot_j = !fresh && hint >= 0 && slots_j[hint].partner == i
                             ? hint
                             : find_or_open_slot(slots_j, slots_used[j], max_contacts, i, fresh_j);
      if (slot_j < 0) {
        ok = false;
        continue;
      }
      slots_i[slot_i].mirror = slot_j;
      // the history goes through registers to both copies: copying slot i to slot j in memory
      // right after its fields were stored stalled on store forwarding (a fifth of the 60-disk
      // profile; net +4 % there, −6 % on the 1 000-disk bed)
      SkinHistory history = slots_i[slot_i].skin;
      const ContactResult c = disk_disk_contact(contact, a, disk_kinematics(v, j), fresh, history);
      slots_i[slot_i].skin = history;
      slots_j[slot_j].skin = history;
      mask_i |= 1ull << slot_i;
      contact_mask[j] |= 1ull << slot_j;
      fx_i += c.force_a.x;
      fy_i += c.force_a.y;
      torque_i += c.torque_a;
      fx[j] -= c.force_a.x;
      fy[j] -= c.force_a.y;
      torque[j] += c.torque_b;
    }
    contact_mask[i] = mask_i;
    free_opened_slots(slots_i, slots_used[i], mask_i);
    Vec2 force = {fx_i, fy_i};
    add_wall_forces(v, p, i, env, force, torque_i);
    fx[i] = force.x;
    fy[i] = force.y;
    torque[i] = torque_i;
  }
  // then what packings with bodies or a torque add, in add_external_forces' order
  if (pp.body_count > 0 || pp.torque.disk >= 0) {
    for (int i = first; i < last; ++i) {
      Vec2 force = {fx[i], fy[i]};
      add_body_forces(v, p, i, env, force, torque[i]);
      fx[i] = force.x;
      fy[i] = force.y;
    }
  }

  return ok;
}

// All of disk i's coordinates finite?
GRANULAR_HD inline bool disk_state_finite(const EnsembleView& v, int i) {
  const double sum = v.x[i] + v.y[i] + v.theta[i] + v.vx[i] + v.vy[i] + v.omega[i];
  return sum - sum == 0.0;  // false for NaN and ±inf
}

// Gear's correct of disk i with the step's constants. Returns false when the state became
// non-finite.
GRANULAR_HD inline bool gear5_correct_disk(const EnsembleView& v, const Gear5Step& s, int i) {
  const auto g = [&](int k) -> double& { return gear_column(v, k)[i]; };
  gear5_correct(s, v.fx[i] * v.inv_mass[i], v.x[i], v.vx[i], v.ax[i], g(0), g(1), g(2));
  gear5_correct(s, v.fy[i] * v.inv_mass[i], v.y[i], v.vy[i], v.ay[i], g(3), g(4), g(5));
  gear5_correct(s, v.torque[i] * v.inv_inertia[i], v.theta[i], v.omega[i], v.alpha[i], g(6), g(7),
                g(8));
  return disk_state_finite(v, i);
}

// correct: finish the step of disk i with its new accelerations. Returns false when the
// state became non-finite.
GRANULAR_HD inline bool correct_disk(const EnsembleView& v, int i) {
  if (v.integrator == Integrator::gear5) return gear5_correct_disk(v, gear5_step(v.dt), i);
  verlet_correct(v.dt, v.fx[i] * v.inv_mass[i], v.vx[i], v.ax[i]);
  verlet_correct(v.dt, v.fy[i] * v.inv_mass[i], v.vy[i], v.ay[i]);
  verlet_correct(v.dt, v.torque[i] * v.inv_inertia[i], v.omega[i], v.alpha[i]);
  return disk_state_finite(v, i);
}

// Velocity Verlet's predict of one coordinate for disks [first, last), a loop the compiler
// vectorizes (restrict parameters, out of line on the host).
GRANULAR_HOST_OUT_OF_LINE GRANULAR_HD inline void verlet_predict_coordinate(
    double dt, double* __restrict__ q, double* __restrict__ u, const double* __restrict__ a,
    int first, int last) {
  for (int i = first; i < last; ++i) verlet_predict(dt, q[i], u[i], a[i]);
}

// Velocity Verlet's correct of one coordinate for disks [first, last): a_new = f/m, then
// verlet_correct, in a loop the compiler vectorizes. Returns false when a velocity became
// non-finite.
GRANULAR_HOST_OUT_OF_LINE GRANULAR_HD inline bool verlet_correct_coordinate(
    double dt, const double* __restrict__ f, const double* __restrict__ inv_m,
    double* __restrict__ u, double* __restrict__ a, int first, int last) {
  int non_finite = 0;  // an integer OR: a floating-point sum would be reduced in order
  for (int i = first; i < last; ++i) {
    const double a_new = f[i] * inv_m[i];
    const double u_new = u[i] + 0.5 * dt * a_new;  // verlet_correct, spelled out
    u[i] = u_new;
    a[i] = a_new;
    non_finite |= u_new - u_new == 0.0 ? 0 : 1;  // NaN for ±inf and NaN
  }
  return non_finite == 0;
}

// correct_disk of velocity Verlet for a packing's disks [first, last), one coordinate at a
// time (the same arithmetic). Positions follow from the velocities, so checking these finds
// any non-finite state.
GRANULAR_HD inline bool correct_packing_verlet(const EnsembleView& v, int first, int last) {
  const bool x_ok = verlet_correct_coordinate(v.dt, v.fx, v.inv_mass, v.vx, v.ax, first, last);
  const bool y_ok = verlet_correct_coordinate(v.dt, v.fy, v.inv_mass, v.vy, v.ay, first, last);
  const bool theta_ok =
      verlet_correct_coordinate(v.dt, v.torque, v.inv_inertia, v.omega, v.alpha, first, last);
  return x_ok && y_ok && theta_ok;
}

// Gear's predict of one coordinate for disks [first, last), a loop the compiler vectorizes
// (restrict parameters, out of line on the host).
GRANULAR_HOST_OUT_OF_LINE GRANULAR_HD inline void gear5_predict_coordinate(
    const Gear5Step s, double* __restrict__ q, double* __restrict__ u, double* __restrict__ a,
    double* __restrict__ d3, double* __restrict__ d4, double* __restrict__ d5, int first,
    int last) {
  for (int i = first; i < last; ++i) gear5_predict(s, q[i], u[i], a[i], d3[i], d4[i], d5[i]);
}

// Gear's predict of a packing's disks [first, last), one coordinate at a time: disk by disk
// the arithmetic of gear5_predict_disk.
GRANULAR_HD inline void gear5_predict_packing(const EnsembleView& v, const Gear5Step& s, int first,
                                              int last) {
  gear5_predict_coordinate(s, v.x, v.vx, v.ax, gear_column(v, 0), gear_column(v, 1),
                           gear_column(v, 2), first, last);
  gear5_predict_coordinate(s, v.y, v.vy, v.ay, gear_column(v, 3), gear_column(v, 4),
                           gear_column(v, 5), first, last);
  gear5_predict_coordinate(s, v.theta, v.omega, v.alpha, gear_column(v, 6), gear_column(v, 7),
                           gear_column(v, 8), first, last);
}

// Gear's correct of one coordinate for disks [first, last) with a_new = f / m (vectorized as
// the predict).
GRANULAR_HOST_OUT_OF_LINE GRANULAR_HD inline void gear5_correct_coordinate(
    const Gear5Step s, const double* __restrict__ f, const double* __restrict__ inv_m,
    double* __restrict__ q, double* __restrict__ u, double* __restrict__ a, double* __restrict__ d3,
    double* __restrict__ d4, double* __restrict__ d5, int first, int last) {
  for (int i = first; i < last; ++i)
    gear5_correct(s, f[i] * inv_m[i], q[i], u[i], a[i], d3[i], d4[i], d5[i]);
}

// Gear's correct of a packing's disks [first, last): disk by disk the arithmetic and the
// finiteness test of gear5_correct_disk. Returns false when some disk's state became
// non-finite.
GRANULAR_HD inline bool gear5_correct_packing(const EnsembleView& v, const Gear5Step& s, int first,
                                              int last) {
  gear5_correct_coordinate(s, v.fx, v.inv_mass, v.x, v.vx, v.ax, gear_column(v, 0),
                           gear_column(v, 1), gear_column(v, 2), first, last);
  gear5_correct_coordinate(s, v.fy, v.inv_mass, v.y, v.vy, v.ay, gear_column(v, 3),
                           gear_column(v, 4), gear_column(v, 5), first, last);
  gear5_correct_coordinate(s, v.torque, v.inv_inertia, v.theta, v.omega, v.alpha, gear_column(v, 6),
                           gear_column(v, 7), gear_column(v, 8), first, last);
  int non_finite = 0;  // an integer OR: a floating-point sum would be reduced in order
  for (int i = first; i < last; ++i) non_finite |= disk_state_finite(v, i) ? 0 : 1;
  return non_finite == 0;
}

// Rebuilds packing p's cell binning and neighbor lists.
GRANULAR_HD inline void rebuild_neighbors(const EnsembleView& v, int p) {
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  bin_packing(v, p);
  for (int i = first; i < last; ++i) {
    v.status[p] |= rebuild_disk(v, p, i);
  }
  ++v.rebuild_count[p];
}

// rebuild_if_needed: rebuild packing p's neighbor lists when a disk moved beyond half the skin.
GRANULAR_HD inline void rebuild_if_needed(const EnsembleView& v, int p) {
  bool rebuild = false;
  for (int i = v.offset[p]; i < v.offset[p + 1] && !rebuild; ++i) {
    rebuild = moved_beyond_half_skin(v, i);
  }
  if (rebuild) rebuild_neighbors(v, p);
}

// forces of every disk of packing p at time t, pairwise (the serial schedule).
GRANULAR_HD inline void packing_forces(const EnsembleView& v, int p, double t) {
  if (!packing_forces_pairwise(v, p, packing_environment(v.packings[p], t))) {
    v.status[p] |= status_contact_overflow;
  }
}

// Sets packing p's accelerations from the forces of its initial state at time t, so that the
// first step starts from consistent accelerations (both integrators need them).
GRANULAR_HD inline void prime_packing(const EnsembleView& v, int p, double t) {
  rebuild_if_needed(v, p);
  packing_forces(v, p, t);
  for (int i = v.offset[p]; i < v.offset[p + 1]; ++i) {
    v.ax[i] = v.fx[i] * v.inv_mass[i];
    v.ay[i] = v.fy[i] * v.inv_mass[i];
    v.alpha[i] = v.torque[i] * v.inv_inertia[i];
  }
}

// One whole step of packing p, serially over its disks: the unit the CPU backend schedules
// (a CUDA block runs the same stages with a disk per thread and barriers between them).
// step_end is the step's number, t_end the time at its end, where the forces are evaluated.
// Predict and correct run one coordinate at a time over the packing, so that the compiler
// vectorizes them; the walls are added in the pair pass as each disk's pairs are
// done. Neither changes a result: the same operations on the same numbers, in the same order.
GRANULAR_HD inline void step_packing(const EnsembleView& v, int p, std::int64_t step_end,
                                     double t_end) {
  const int first = v.offset[p];
  const int last = v.offset[p + 1];
  if (v.integrator == Integrator::velocity_verlet) {
    verlet_predict_coordinate(v.dt, v.x, v.vx, v.ax, first, last);
    verlet_predict_coordinate(v.dt, v.y, v.vy, v.ay, first, last);
    verlet_predict_coordinate(v.dt, v.theta, v.omega, v.alpha, first, last);
  } else {
    gear5_predict_packing(v, gear5_step(v.dt), first, last);
  }
  if (v.packings[p].body_count > 0) move_bodies(v, p, step_end, t_end);
  const bool moved = any_moved_beyond_half_skin(v, first, last);
  if (moved) rebuild_neighbors(v, p);
  packing_forces(v, p, t_end);
  if (v.integrator == Integrator::velocity_verlet) {
    if (!correct_packing_verlet(v, first, last)) v.status[p] |= status_non_finite;
  } else if (!gear5_correct_packing(v, gear5_step(v.dt), first, last)) {
    v.status[p] |= status_non_finite;
  }
}

}  // namespace granular::md
