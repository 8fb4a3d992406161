// EnsembleModel: the constant parameters of an ensemble of independent vibrated packings.
// Written once by cases::load_case (or a test) and never during a run (MuJoCo's mjModel).
#pragma once

#include <cstdint>
#include <vector>

#include "granular/constants.hpp"
#include "granular/contact_law.hpp"
#include "granular/hd.hpp"
#include "granular/md/random_vibration.hpp"
#include "granular/md/staggered_allocator.hpp"
#include "granular/names.hpp"
#include "granular/vibration.hpp"

namespace granular::md {

enum class Integrator { gear5, velocity_verlet };
inline constexpr Named<Integrator> integrator_names[] = {
    {Integrator::gear5, "gear5"}, {Integrator::velocity_verlet, "velocity_verlet"}};

// Mass of a disk of radius r [m] at areal density ρ [kg/m²]: ρ π r² [kg].
GRANULAR_HD inline double disk_mass(double areal_density, double radius) {
  return areal_density * pi * radius * radius;
}

// The areal density [kg/m²] of a disk of mass m [kg] and radius r [m]: m / (π r²), disk_mass's
// inverse.
GRANULAR_HD inline double disk_areal_density(double mass, double radius) {
  return mass / (pi * radius * radius);
}

// Moment of inertia of a uniform disk of mass m about its centre: m r²/2 [kg m²].
GRANULAR_HD inline double disk_inertia(double mass, double radius) {
  return 0.5 * mass * radius * radius;
}

using granular::drive_amplitude;  // A = Γ g / ω² (vibration.hpp)

// How one coordinate of a prescribed body moves (bodies.hpp).
enum class AxisDrive : int { fixed = 0, sine = 1, random = 2 };

struct AxisMotion {
  AxisDrive drive = AxisDrive::fixed;
  double amplitude = 0.0;      // sine: A; random: A_b = √⟨x²⟩ [m, or rad for θ]
  double omega = 0.0;          // sine: ω; random: ω_b [rad/s]
  double damping = 0.5;        // random: c, 0 < c < 1
  RandomVibrationStep step{};  // random: the exact step over the model's dt (add_body sets it)
};

enum class BodyShape : int { disk = 0, wall = 1 };

// A disk or straight wall of a packing whose motion is prescribed (bodies.hpp).
struct Body {
  BodyShape shape = BodyShape::disk;
  int disk = -1;       // disk: its index among the model's disks
  int wall_slot = -1;  // wall: its contact slot among the packing's walls (add_body sets it)
  double x0 = 0.0;     // rest pose: the disk's centre, or the wall's reference point [m]
  double y0 = 0.0;
  double theta0 = 0.0;  // the disk's angle, or the angle of the wall's tangent [rad]
  double s_min = 0.0;   // wall: extent along the tangent from the reference point [m] (±inf)
  double s_max = 0.0;
  AxisMotion axis[3];  // x, y, θ
};

// An external torque on one disk: A_e sin(ω_e t) + rate·t for t > 0 (bodies.hpp).
struct AppliedTorque {
  int disk = -1;           // the disk's index among the model's disks; −1: none
  double amplitude = 0.0;  // A_e [N m]
  double omega = 0.0;      // ω_e [rad/s]
  double rate = 0.0;       // [N m/s]
};

// Which of the box's walls a packing has (bit w for Wall w, state.hpp).
constexpr unsigned all_box_walls = 7u;

// Parameters of one packing: its box, drive and contact laws.
struct PackingParams {
  double box_width;        // distance between the side walls, walls at x = 0 and x = W [m]
  double gravity;          // g [m/s²], along −y turned by the tilt
  double drive_amplitude;  // A of the bottom wall y_b(t) = A sin(ω t), t ≥ 0 [m]
  double drive_omega;      // ω = 2π f [rad/s]
  double gamma;            // Γ = A ω² / g, kept for reporting [-]
  ContactParams disk_disk;
  ContactParams disk_wall;
  std::uint64_t seed;  // seed of this packing's construction and random drives
  // tilt θ_T of the whole set-up [rad]: gravity is g(−sin θ_T, −cos θ_T), the set-up turned
  // counter-clockwise by θ_T (thesis §4.1)
  double tilt = 0.0;
  unsigned box_walls = all_box_walls;
  int body_first = 0;  // the packing's prescribed bodies: model.bodies[body_first, + body_count)
  int body_count = 0;
  AppliedTorque torque;
};

// Most contact-history slots a disk can have: forces() marks the slots in contact in a 64-bit
// mask.
constexpr int max_contact_slots = 64;

// Capacities of the per-disk neighbor list and contact slots. Exceeding one stops the packing
// with a status flag; nothing is dropped silently.
struct NeighborParams {
  double skin = 0.0;       // Verlet skin [m]; lists rebuilt when a disk moved > skin/2
  int max_neighbors = 24;  // neighbor-list slots per disk
  int max_contacts = 10;   // contact-history slots per disk, <= max_contact_slots
};

struct EnsembleModel {
  Integrator integrator = Integrator::gear5;
  double dt = 0.0;  // time step [s]
  NeighborParams neighbor;

  std::vector<PackingParams> packings;  // (n_packings)
  std::vector<int> offset;         // packing p owns disks [offset[p], offset[p+1]) (n_packings+1)
  EnsembleArray<double> radius;    // [m] (n_disks)
  EnsembleArray<double> mass;      // [kg] (n_disks)
  EnsembleArray<double> inertia;   // moment of inertia m R²/2 [kg m²] (n_disks)
  EnsembleArray<double> inv_mass;  // 1/m [1/kg] (n_disks): correct() multiplies
  EnsembleArray<double> inv_inertia;  // 1/I [1/(kg m²)] (n_disks)
  std::vector<Body> bodies;           // prescribed bodies, packing by packing
  int wall_bodies = 0;                // most wall bodies of a packing: wall slots per disk

  int n_packings() const { return static_cast<int>(packings.size()); }
  int n_disks() const { return offset.empty() ? 0 : offset.back(); }
  int packing_size(int p) const { return offset[p + 1] - offset[p]; }

  // Appends a packing of uniform disks (areal density [kg/m²]) and returns its index.
  int add_packing(const PackingParams& params, const std::vector<double>& radii,
                  double areal_density);

  // Appends packing p of `from` with its prescribed bodies (their disks renumbered): a shard's
  // model. `from` made its disks with this areal density [kg/m²]; dt must be set.
  int add_packing_of(const EnsembleModel& from, int p, double areal_density);

  // Adds a prescribed body to the last packing: a disk of it (body.disk, which then has no
  // inverse mass) or a wall. Random coordinates get their step over dt, which must be set.
  // Throws std::invalid_argument for a disk outside the last packing or a random drive
  // without a valid step.
  void add_body(const Body& body);
};

}  // namespace granular::md
