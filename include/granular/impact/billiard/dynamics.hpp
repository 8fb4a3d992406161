// The billiard's dynamics (docs/billiard.md): energy, and persistent contact (the Zeno policy;
// not in the paper), the ball rolling or sliding on one surface of the moving boundary.
#pragma once

#include "granular/hd.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/billiard/dynamics.hpp is host-only"
#endif

#include <functional>
#include <optional>

#include "granular/impact/billiard/geometry.hpp"

namespace granular::billiard {

// Total energy ½ m v² + ½ J u3² + m g q2 [J] (lab frame).
double billiard_energy(const Params& m, Vec2 v, double spin, double q2);

// Persistent contact (the Zeno policy; not in the paper, docs/billiard.md). The ball stays on
// one surface: gap = 0 and zero relative normal velocity hold by construction, because the
// phase is integrated in the surface's own coordinates (foot s, tangential speed, spin).
enum class BilliardContactMode { roll, slide };
// Why a contact phase ended: roll → slide (slip), slide → roll (stick), slide reversing its
// sense (reverse), normal force reaching 0 (liftoff), the foot reaching the wedge corner
// (corner), another surface hit (impact), the run's time limit (run_end), or the constrained
// motion being undetermined (undetermined: the run then stops with status zeno).
enum class BilliardContactEnd {
  slip,
  stick,
  reverse,
  liftoff,
  corner,
  impact,
  run_end,
  undetermined
};
inline constexpr Named<BilliardContactMode> contact_mode_names[] = {
    {BilliardContactMode::roll, "roll"}, {BilliardContactMode::slide, "slide"}};
inline constexpr Named<BilliardContactEnd> contact_end_names[] = {
    {BilliardContactEnd::slip, "slip"},       {BilliardContactEnd::stick, "stick"},
    {BilliardContactEnd::reverse, "reverse"}, {BilliardContactEnd::liftoff, "liftoff"},
    {BilliardContactEnd::corner, "corner"},   {BilliardContactEnd::impact, "impact"},
    {BilliardContactEnd::run_end, "run_end"}, {BilliardContactEnd::undetermined, "undetermined"}};

// The ball on a surface, in the surface's coordinates.
struct BilliardOnSurface {
  Surface surface;
  double foot;  // s: ξ of the contact point in the boundary frame [m]
  double u_t;   // (v − wall velocity)·c1: tangential velocity of the centre [m/s]
  double spin;  // u3 [rad/s]
};

// The constrained motion at time t (docs/billiard.md, persistent contact): the normal force
// from the constraint, the friction of the mode (roll: the force keeping the slip at zero;
// slide: −σ μ' F_n) and the rates of (s, u_t, u3).
struct BilliardContactForces {
  double f_n;        // normal force along c2 [N]
  double f_t;        // friction along c1 [N]
  double f_t_roll;   // friction that rolling would need [N]
  double slip;       // u_s = u_t + b u3, contact point relative to the wall [m/s]
  double foot_rate;  // ds/dt [m/s]
  double u_t_rate;   // du_t/dt [m/s²]
  double spin_rate;  // du3/dt [rad/s²]
  bool determined;   // the centre's offset curve is regular (1 − κ b > 0)
};
BilliardContactForces billiard_contact_forces(const Params& m, const BilliardOnSurface& c, double t,
                                              BilliardContactMode mode, double sigma);

// Lab state (q1, q2, v1, v2, u3) → the surface's coordinates: the centre is projected onto the
// offset curve through the closest point and the relative normal velocity is dropped.
BilliardOnSurface billiard_to_surface(const Params& m, Surface s, double t, const State& y);
// The surface's coordinates → the lab state (q1, q2, v1, v2, u3).
State billiard_from_surface(const Params& m, double t, const BilliardOnSurface& c);

// The mode a contact takes at t (docs/billiard.md): with zero slip it rolls if the rolling
// friction lies in the static cone, else slides the way the forces drive it; with slip it
// slides against the slip; with F_n <= 0 it lifts off; with 1 − κ b <= 0 it is undetermined.
struct BilliardContactChoice {
  bool in_contact;  // roll or slide; else `end` says why not
  BilliardContactMode mode;
  double sigma;            // sense of the slip when sliding (±1)
  BilliardContactEnd end;  // liftoff or undetermined when !in_contact
};
BilliardContactChoice billiard_contact_mode(const Params& m, const BilliardOnSurface& c, double t,
                                            bool zero_slip);

// The contact state along a stretch of motion, at any time within it; and what hears each
// stretch (t0, t1] a contact mode moves through, with it (the run's rows come from it).
using SurfaceOutput = std::function<BilliardOnSurface(double t)>;
using SurfaceStretch = std::function<void(double t0, double t1, const SurfaceOutput& at)>;

// Integrates one contact mode from (t, c) towards t_end on the shared EventIntegrator; stops
// at the first event (lift-off, slip or stick, wedge corner, another surface's gap closing)
// or at t_end (returning nothing), with the integrator `ode`. `other` receives the index in
// surfaces() of a surface hit; `stretch`, when given, hears every stretch moved through.
std::optional<BilliardContactEnd> billiard_contact_advance(const Params& m, const OdeOptions& ode,
                                                           BilliardOnSurface& c,
                                                           BilliardContactMode mode, double sigma,
                                                           double& t, double t_end, int& other,
                                                           const SurfaceStretch& stretch = {});

}  // namespace granular::billiard
