// The thesis' supported-disk systems as packings of the ensemble engine (Peraza-Mues 2018, ch. 5
// and §6.2; docs/three_disk.md, docs/wedge.md): the 3-disk system, an upper disk resting on two
// support disks, and a disk resting in a wedge of two half-line walls. Each is one packing with
// its supports as prescribed bodies (bodies.hpp), no box walls and gravity turned by the tilt
// θ_T, so that a sweep runs as an ensemble, on any backend.
#pragma once

#include <cstdint>
#include <vector>

#include "granular/constants.hpp"
#include "granular/contact_law.hpp"
#include "granular/md/model.hpp"
#include "granular/md/supported_disk/three_disk.hpp"
#include "granular/names.hpp"

namespace granular::md {

// How the supports move: fixed; each of x, y and θ of each support by the random vibration of
// random_vibration.hpp (thesis §5.3.1), with A_b on x and y and A_b/R on θ; or both together
// as A sin(ω_b t) along the laboratory's vertical (the thesis' experiment and ch. 6's
// comparison with the wedge, §6.2).
enum class SupportDrive { fixed, random, sine };
inline constexpr Named<SupportDrive> support_drive_names[] = {
    {SupportDrive::fixed, "fixed"}, {SupportDrive::random, "random"}, {SupportDrive::sine, "sine"}};

struct SupportVibration {
  SupportDrive drive = SupportDrive::fixed;
  double amplitude = 0.0;  // random: A_b [m]; sine: A [m]
  double omega = 0.0;      // ω_b [rad/s]
  double damping = 0.5;    // random: c
};

// The upper disk's centre: free, or held at its static rest (an axle through it, the disk free
// to turn): its overlaps, normal forces and Coulomb limits μ n_i then stay at their static
// values, the thesis' constant normal forces (§5, fig. 4.3's dotted region).
enum class UpperCentre { free, held };
inline constexpr Named<UpperCentre> upper_centre_names[] = {{UpperCentre::free, "free"},
                                                            {UpperCentre::held, "held"}};

// The 3-disk system (thesis §4.1, ch. 5): contact 1 is the left support, contact 2 the right;
// the contact normals make the half-angle θ0 with the bisector (π/6 with equal radii: the
// supports touch each other). The supports' radius R_s is the upper disk's unless set: the
// thesis' §6.2 compares the disk on two supports with the disk in a wedge without giving the
// supports' size, and R_s → ∞ at fixed θ0 is the wedge (prescribed supports may overlap).
struct ThreeDiskParams {
  double radius = 1.0;                         // R of the upper disk
  double support_radius = 0.0;                 // R_s of the supports [m]; 0: R
  double mass = 0.1;                           // m of the upper disk (the supports' is unused)
  ContactParams contact{1e3, 1e6, 10.0, 0.1};  // every contact (thesis ch. 5)
  double gravity = 10.0;
  double tilt = 0.0;             // θ_T [rad]
  double half_angle = pi / 6.0;  // θ0 [rad]
  AppliedTorque torque;          // on the upper disk (its disk index is set here)
  SupportVibration supports;
  UpperCentre upper_centre = UpperCentre::free;
  std::uint64_t seed = 1;  // the random vibration's stream
};

// Disks of a 3-disk packing, in this order.
enum ThreeDiskDisk : int { upper_disk = 0, left_support = 1, right_support = 2 };

// The disk in a wedge (thesis §6.2): two half-line walls from the vertex, aperture θ_W, moving
// together as y_w = A sin(ω t) along the vertical (against gravity) for t > 0.
struct WedgeDiskParams {
  double radius = 0.02;
  double mass = 4.5e-3;
  ContactParams contact{4.5e6, 3.4785e6, 9.84, 0.1};  // disk–wall (thesis ch. 6)
  double gravity = 9.81;
  double tilt = 0.0;                     // θ_T [rad]
  double aperture = 2.0943951023931957;  // θ_W [rad]
  double amplitude = 0.0;                // A [m]
  double omega = 0.0;                    // ω_b [rad/s]
  std::uint64_t seed = 1;
};

// Appends the system as the model's last packing (the model's dt must be set: the random
// vibration's step depends on it), and its disks' starting centres to x and y: touching without
// overlap, the supports and walls at rest.
void add_three_disk(EnsembleModel& m, const ThreeDiskParams& p, std::vector<double>& x,
                    std::vector<double>& y);
void add_wedge_disk(EnsembleModel& m, const WedgeDiskParams& p, std::vector<double>& x,
                    std::vector<double>& y);

// The closed forms' parameters (three_disk.hpp) of a 3-disk system, quasi-static.
three_disk::ThreeDiskParams closed_form_params(const ThreeDiskParams& p);

}  // namespace granular::md
