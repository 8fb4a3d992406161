// EnsembleState: everything that changes during a run of an ensemble (MuJoCo's mjData).
// A checkpoint is this struct: restarting from it reproduces the uninterrupted run bitwise.
// Arrays are sized once by make_state; no step allocates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "granular/contact_law.hpp"
#include "granular/md/model.hpp"
#include "granular/md/staggered_allocator.hpp"

namespace granular::md {

// One contact-history slot of a disk. Disk–disk slots are keyed by the partner's index and
// hold the pair's history in canonical order (a = lower index), so both disks of a pair
// carry bitwise-identical copies. Wall slots are keyed by the wall.
struct ContactSlot {
  int partner;  // partner disk index (disk–disk) or wall id (wall slots); −1 when free
  int mirror;   // pairwise schedule: index of the copy's slot in the partner's slots (a hint)
  SkinHistory skin;
};

enum Wall : int { wall_left = 0, wall_right = 1, wall_bottom = 2 };
constexpr int n_walls = 3;

// Cell grid of one packing, written at each neighbor rebuild.
struct CellGrid {
  int nx;        // cells across the box
  int ny;        // cell rows in use (≤ rows allocated; higher disks share the top row)
  double size;   // cell edge ≥ largest diameter + skin [m]
  double y_min;  // bottom edge of row 0 [m]
};

// Per-packing status flags; a packing with any flag set stops advancing, the others go on.
enum StatusFlag : std::uint32_t {
  status_ok = 0,
  status_neighbor_overflow = 1u << 0,  // a disk had more than max_neighbors candidates
  status_contact_overflow = 1u << 1,   // a disk had more than max_contacts open contacts
  status_non_finite = 1u << 2,         // a position or velocity became NaN or infinite
  status_outside_box = 1u << 3,        // a disk's centre left the box (disk_domain_flags)
  status_too_fast = 1u << 4,           // a disk moved its radius or more in one step
  // the event-driven method's (md/ed/packing.hpp), in high bits: checkpoints record them
  status_inelastic_collapse = 1u << 16,  // the event cap was reached
  status_no_bounce = 1u << 17,           // no FBRPA draw of 1000 bounced the disk
};

struct EnsembleState {
  std::int64_t step = 0;  // steps taken since t0
  double t0 = 0.0;        // time at step 0 [s]; the drive starts at t = 0 (t0 < 0 settles)

  // kinematics (n_disks); written by predict() and correct()
  EnsembleArray<double> x, y;    // centre [m]
  EnsembleArray<double> theta;   // unwrapped rotation angle, counter-clockwise [rad]
  EnsembleArray<double> vx, vy;  // velocity [m/s]
  EnsembleArray<double> omega;   // angular velocity [rad/s]
  EnsembleArray<double> ax, ay;  // acceleration [m/s²]
  EnsembleArray<double> alpha;   // angular acceleration [rad/s²]
  // Gear 5th order: 3rd, 4th and 5th time derivatives of x, y, θ, SI units, as 9 columns of
  // n_disks (column 3c + k − 3 holds the k-th derivative of coordinate c = x, y, θ; see
  // gear_column), so that a loop over disks runs along each; written by predict() and
  // correct(), unused by velocity Verlet
  EnsembleArray<double> gear_high;

  // force [N] and torque [N m] on each disk (n_disks); written by forces()
  EnsembleArray<double> fx, fy, torque;

  // Verlet neighbor list (n_disks x max_neighbors, ascending partner index) and counts
  // (n_disks); positions at the last rebuild (n_disks); written by rebuild()
  EnsembleArray<int> neighbors;
  EnsembleArray<int> neighbor_count;
  EnsembleArray<int> neighbor_upper;  // list index of the first partner above the disk (n_disks)
  EnsembleArray<double> x_ref, y_ref;

  // cell binning scratch of rebuild(): cells of packing p are
  // [cell_offset[p], cell_offset[p+1]); cell_start has one extra entry per packing
  std::vector<int> cell_offset;   // (n_packings+1)
  EnsembleArray<int> cell_start;  // (total cells + n_packings)
  EnsembleArray<int> cell_disks;  // disk indices sorted by cell (n_disks)
  std::vector<CellGrid> grids;    // (n_packings)

  // contact history: disk–disk (n_disks x max_contacts) and wall (n_disks x n_walls) slots;
  // written by forces()
  EnsembleArray<ContactSlot> contacts;
  EnsembleArray<ContactSlot> walls;
  // prescribed bodies: the motion of each (n_bodies x body_motion_size: deviations from rest
  // and their rates), written by move_bodies; the wall bodies' contact slots of every disk
  // (n_disks x model.wall_bodies), written by forces()
  EnsembleArray<double> body_motion;
  EnsembleArray<ContactSlot> body_walls;
  // bit k set when disk–disk slot k of the disk holds a contact (n_disks); written by forces()
  // and rebuild()
  EnsembleArray<std::uint64_t> slots_used;
  // scratch of the pairwise force pass: bit k set when slot k is in contact (n_disks)
  EnsembleArray<std::uint64_t> contact_mask;

  std::vector<std::uint32_t> status;        // StatusFlag bits (n_packings)
  std::vector<std::int64_t> rebuild_count;  // neighbor rebuilds so far (n_packings)

  double time(const EnsembleModel& m) const { return t0 + static_cast<double>(step) * m.dt; }
};

// The cell grid make_state gives a packing: columns of edge ≥ 2 r_max + skin across the box,
// and rows for four times the height its disks (total area disk_area) fill as a solid layer,
// plus a margin; disks above share the top row. Counted in double, so that the case loader can
// check the grid's size before anything is allocated.
struct GridShape {
  double columns;
  double rows;
  double size;  // cell edge [m]
};
GridShape packing_grid_shape(double box_width, double r_max, double disk_area, double skin);

// The one list of the state's arrays: calls f(a.x, b.x, "x"), and so on, for every array of
// EnsembleState, over any two objects that name them as EnsembleState does (the state, its
// device mirror, its view: make_view, the CUDA glue's upload, download and view), so that no
// array is left out or paired with another's.
template <class A, class B, class F>
void for_each_state_array(A& a, B& b, F&& f) {
  f(a.x, b.x, "x");
  f(a.y, b.y, "y");
  f(a.theta, b.theta, "theta");
  f(a.vx, b.vx, "vx");
  f(a.vy, b.vy, "vy");
  f(a.omega, b.omega, "omega");
  f(a.ax, b.ax, "ax");
  f(a.ay, b.ay, "ay");
  f(a.alpha, b.alpha, "alpha");
  f(a.gear_high, b.gear_high, "gear_high");
  f(a.fx, b.fx, "fx");
  f(a.fy, b.fy, "fy");
  f(a.torque, b.torque, "torque");
  f(a.x_ref, b.x_ref, "x_ref");
  f(a.y_ref, b.y_ref, "y_ref");
  f(a.neighbors, b.neighbors, "neighbors");
  f(a.neighbor_count, b.neighbor_count, "neighbor_count");
  f(a.neighbor_upper, b.neighbor_upper, "neighbor_upper");
  f(a.cell_offset, b.cell_offset, "cell_offset");
  f(a.cell_start, b.cell_start, "cell_start");
  f(a.cell_disks, b.cell_disks, "cell_disks");
  f(a.grids, b.grids, "grids");
  f(a.contacts, b.contacts, "contacts");
  f(a.walls, b.walls, "walls");
  f(a.body_motion, b.body_motion, "body_motion");
  f(a.body_walls, b.body_walls, "body_walls");
  f(a.slots_used, b.slots_used, "slots_used");
  f(a.contact_mask, b.contact_mask, "contact_mask");
  f(a.status, b.status, "status");
  f(a.rebuild_count, b.rebuild_count, "rebuild_count");
}

// True for the arrays of EnsembleState that a run's observers read (packing_energy, the
// rotation samples, the count of healthy packings, the snapshots' packing_frame): x, y, theta,
// vx, vy, omega, contacts, walls, body_motion, body_walls (the wall bodies' contacts), status.
// A device backend downloads only these for an observer (Backend::Download).
bool observed_state_array(const std::string& name);

// Bytes of the state per disk (without the cell grid and per-packing arrays), for estimating a
// case's memory before it is allocated.
std::size_t state_bytes_per_disk(const NeighborParams& n);

// What is wrong with `s` as a state of `m` (every array the model's size assumed, as
// read_checkpoint ensures): an index of a neighbor list, contact slot, wall slot or cell list
// that a step would follow out of its packing, a list out of order, a grid not the model's,
// unknown status flags, or a non-finite coordinate of a packing that still advances. "" when
// there is nothing wrong.
std::string state_defect(const EnsembleModel& m, const EnsembleState& s);

// What a healthy packing (status ok) of `s` holds that no run of it can have written: a number
// that is not finite (its disks' kinematics, accelerations, Gear derivatives, forces, reference
// positions and contact histories, its bodies' motion) or a disk–disk anchor normal that is not
// a unit vector ("packing 0 (status ok): x[3] is nan"); "" when there is none. A packing whose
// run failed may hold NaN; a healthy one never does, so a state loaded with one is damaged.
std::string state_impossible(const EnsembleModel& m, const EnsembleState& s);

// Memory an ensemble of `disks` disks and `cells` neighbor cells holds while it runs [bytes]:
// the state, the model's five per-disk arrays and the rotation accumulators per disk, and the
// cells. The loader refuses ensembles larger than the machine's memory; `validate` prints it.
double ensemble_memory_bytes(double disks, double cells, const NeighborParams& neighbor);

// Bytes held by the state's arrays (its memory footprint, without the model).
std::size_t state_bytes(const EnsembleState& s);

// Sizes every array of the state for the model, with disks at rest at the given positions
// (n_disks each) and no contacts; the first step builds the neighbor lists.
EnsembleState make_state(const EnsembleModel& m, const std::vector<double>& x,
                         const std::vector<double>& y, double t0);

}  // namespace granular::md
