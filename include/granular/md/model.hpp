// EnsembleModel: the constant parameters of an ensemble of independent vibrated packings.
// Written once by io::load_case (or a test) and never during a run (MuJoCo's mjModel).
#pragma once

#include <cstdint>
#include <vector>

#include "granular/constants.hpp"
#include "granular/contact_law.hpp"
#include "granular/hd.hpp"
#include "granular/vibration.hpp"

namespace granular::md {

enum class Integrator { gear5, velocity_verlet };

// Mass of a disk of radius r [m] at areal density ρ [kg/m²]: ρ π r² [kg].
GRANULAR_HD inline double disk_mass(double areal_density, double radius) {
  return areal_density * pi * radius * radius;
}

// Moment of inertia of a uniform disk of mass m about its centre: m r²/2 [kg m²].
GRANULAR_HD inline double disk_inertia(double mass, double radius) {
  return 0.5 * mass * radius * radius;
}

using granular::drive_amplitude;  // A = Γ g / ω² (vibration.hpp)

// Parameters of one packing: its box, drive and contact laws.
struct PackingParams {
  double box_width;        // distance between the side walls, walls at x = 0 and x = W [m]
  double gravity;          // g, acting along −y [m/s²]
  double drive_amplitude;  // A of the bottom wall y_b(t) = A sin(ω t), t ≥ 0 [m]
  double drive_omega;      // ω = 2π f [rad/s]
  double gamma;            // Γ = A ω² / g, kept for reporting [-]
  ContactParams disk_disk;
  ContactParams disk_wall;
  std::uint64_t seed;  // seed of this packing's construction
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
  std::vector<int> offset;          // packing p owns disks [offset[p], offset[p+1]) (n_packings+1)
  std::vector<double> radius;       // [m] (n_disks)
  std::vector<double> mass;         // [kg] (n_disks)
  std::vector<double> inertia;      // moment of inertia m R²/2 [kg m²] (n_disks)
  std::vector<double> inv_mass;     // 1/m [1/kg] (n_disks): correct() multiplies
  std::vector<double> inv_inertia;  // 1/I [1/(kg m²)] (n_disks)

  int n_packings() const { return static_cast<int>(packings.size()); }
  int n_disks() const { return offset.empty() ? 0 : offset.back(); }
  int packing_size(int p) const { return offset[p + 1] - offset[p]; }

  // Appends a packing of uniform disks (areal density [kg/m²]) and returns its index.
  int add_packing(const PackingParams& params, const std::vector<double>& radii,
                  double areal_density);
};

}  // namespace granular::md
