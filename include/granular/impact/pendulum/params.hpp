// The damped, excited double pendulum hitting a rough horizontal floor (docs/pendulum.md;
// Sypniewska-Kamińska, Starosta & Awrejcewicz 2017): Lagrange equations between impacts
// (§2.1), the gap f (§2.2), impacts by Routh's method with Poisson's restitution (§2.3–2.6),
// joint reaction impulses and joint forces (§2.6–2.7), and a run loop with event location and
// a Zeno policy (persistent contact with Coulomb friction, §5/§6 case 13).
//
// Conventions (spec §1, §2.3): ψ1, ψ2 are absolute angles from the downward vertical, same
// sense, not wrapped; the state is y = (ψ1, ψ2, ψ̇1, ψ̇2). At the contact point M, s is the slip
// velocity along i (horizontal, opposite to the bob's motion for increasing ψ) and c the normal
// velocity along k (up; c < 0 approaching). F̄ ≥ 0 is the normal and T̄ the tangential impulse.
//
// This header: the model's parameters. The driver's vocabulary (State, OdeOptions, RunStatus,
// ...) is used unqualified in the model's namespace.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/pendulum/params.hpp is host-only"
#endif

#include "granular/impact/hybrid.hpp"

namespace granular::pendulum {

// The impact driver's names (impact/hybrid.hpp, impact/event.hpp) this model uses unqualified.
using impact::DriverContext, impact::DriverOptions, impact::HybridModel, impact::Phase,
    impact::RunOutcome, impact::RunStatus, impact::Scheme, impact::State, impact::Stop,
    impact::run_hybrid, impact::run_status_names;

// The model, constant during a run (spec §1, §4).
struct Params {
  double m1 = 3.2;      // mass of rod OA [kg]
  double m2 = 3.8;      // mass of body 2 (rod + disk) [kg]
  double l1 = 0.5;      // length OA [m]; C1 at l1/2
  double l2 = 0.6;      // rod length of body 2 [m]; the disk centre is l2 + r from A
  double r = 0.05;      // disk radius [m]
  double lc = 0.3627;   // distance A–C2 [m]
  double I1 = 6.76e-2;  // central moment of inertia of body 1 [kg m²]
  double I2 = 0.164;    // central moment of inertia of body 2 [kg m²]
  double D = 0.9;       // depth of the floor below O [m], l1 < D < l1 + l2 + 2r (eq. 1)
  double k = 0.9;       // Poisson's coefficient of restitution [-]
  double mu = 0.0;      // Coulomb friction coefficient at the floor [-]
  double c1 = 0.0;      // viscous damping at O [N m s/rad]
  double c2 = 0.0;      // viscous damping at A, on the relative rotation [N m s/rad]
  double M01 = 0.0;     // amplitude of the torque on body 1 [N m]
  double Omega1 = 0.0;  // its angular frequency [rad/s]
  double M02 = 0.0;     // amplitude of the torque on body 2 [N m]
  double Omega2 = 0.0;  // its angular frequency [rad/s]
  double g = 9.81;      // gravity [m/s²] (not stated by the paper; spec §1)

  double L() const { return l2 + r; }       // A to the disk centre [m]
  double d() const { return l2 + r - lc; }  // C2 to the disk centre [m]
};

// The run's settings.
struct Options {
  // the driver's settings (hybrid.hpp): t_end, rows every sample_interval, the event budget
  // (impacts and mode changes), the ODE, the Zeno guard
  DriverOptions driver = [] {
    DriverOptions d;
    d.t_end = 6.0;
    d.sample_interval = 1e-3;
    d.max_events = 1'000'000;
    d.ode.max_step = 1e-3;
    d.zeno.min_speed = 1e-2;  // and at least 2 g h (docs/cases.md)
    return d;
  }();
  double baumgarte_rate = 50.0;  // [1/s] drift correction of persistent contact
};

}  // namespace granular::pendulum
