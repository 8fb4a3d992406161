// A disk bouncing in a vibrated wedge, by the event-driven map of Peraza-Mues' thesis §6.3
// (docs/wedge.md): between collisions the disk's centre flies on a parabola in the wedge offset
// inward by R; at a collision the rules (2.11), (2.23), (2.24) apply with the wall's velocity
// drawn by the fixed-bottom random-phase approximation (FBRPA, §2.3.3). Everything runs in the
// scaled variables of §6.3.2 (velocities in units of Aω_b, lengths of (Aω_b)²/g, times of
// Aω_b/g, rotation as Rω/(Aω_b)), so that the result Rω̄/(Aω_b) depends on neither A, ω_b, g
// nor R: the same random stream gives the same bits for any Γ and ω_b.
//
// This header: the parameters. The driver's vocabulary (State, RunStatus, ...) is used
// unqualified in the model's namespace.
#pragma once

#include <cstdint>
#include <vector>

#include "granular/hd.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/wedge/params.hpp is host-only"
#endif

#include "granular/constants.hpp"
#include "granular/impact/hybrid.hpp"
#include "granular/impulse/tangential_restitution.hpp"

namespace granular::wedge {

// The impact driver's names (impact/hybrid.hpp, impact/event.hpp) this model uses unqualified.
using impact::DriverContext, impact::DriverOptions, impact::HybridModel, impact::Phase,
    impact::RunOutcome, impact::RunStatus, impact::State, impact::Stop, impact::run_hybrid,
    impact::run_status_names;

// How the walls move at a collision (thesis §2.3.3).
enum class WallMotion {
  fbrpa,     // vibrated sinusoidally: the velocity drawn by FBRPA (vibration.hpp)
  sawtooth,  // rising at Aω_b at every collision (the drop between takes no time)
  fixed      // at rest (tests)
};
inline constexpr Named<WallMotion> wall_motion_names[] = {
    {WallMotion::fbrpa, "fbrpa"}, {WallMotion::sawtooth, "sawtooth"}, {WallMotion::fixed, "fixed"}};

struct Params {
  double aperture = 2.0943951023931957;  // θ_W, the angle between the walls [rad] (0, π)
  double tilt = 0.0;                     // θ_T, rotation of the whole wedge [rad]
  // the walls' e_n (2.11) and e_t (2.23)–(2.24)
  impulse::TangentialRestitution wall{impulse::TangentialRule::large_kappa, 0.9, 0.1, 0.0, {}};
  WallMotion motion = WallMotion::fbrpa;
  std::uint64_t seed = 1;

  // Angles of the two walls, lines y = tan θ x through the vertex (spec: θ_R = θ0 + θ_T,
  // θ_L = θ_T − θ0 with θ0 = (π − θ_W)/2).
  double theta_right() const { return 0.5 * (pi - aperture) + tilt; }
  double theta_left() const { return tilt - 0.5 * (pi - aperture); }
};

// The run's settings.
struct Options {
  long long collisions = 100000;  // the run's goal
  double release_x = 0.2;         // start at rest at (release_x, release_height) (scaled),
  double release_height = 1.0;    // off the vertex's vertical so that it does not land on it
  // the driver's settings: t_end (scaled time, a limit), the event budget
  DriverOptions driver = [] {
    DriverOptions d;
    d.t_end = 1e300;
    d.max_events = 10'000'000;
    return d;
  }();
};

}  // namespace granular::wedge
