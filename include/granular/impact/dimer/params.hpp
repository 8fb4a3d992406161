// The bouncing dimer on a vertically vibrating plate (docs/dimer.md; Zhao, Liu & Brogliato
// 2009, part II): two spheres joined by a rod, planar, 3 DOF, contacts at the lowest points of
// the spheres. Smooth phases (flight, and contact with the normal LCP and Coulomb friction,
// spec §2.4) alternate with impacts solved by Darboux–Keller impulse dynamics
// (impulse/darboux_keller.hpp, spec §2.5).
//
// Coordinates (spec §2.1 [D]): the centre of mass (x_G, y_G) and the tilt θ, θ > 0 raising the
// right sphere. Tip 0 is the left sphere (s = −1), tip 1 the right one (s = +1). The state
// vector is y = (x_G, y_G, θ, ẋ_G, ẏ_G, θ̇).
//
// This header: the model's parameters and the numerical settings of a run. The driver's
// vocabulary (State, OdeOptions, RunStatus, ...) is used unqualified in the model's namespace.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/dimer/params.hpp is host-only"
#endif

#include "granular/impact/hybrid.hpp"

namespace granular::dimer {

// The impact driver's names (impact/hybrid.hpp, impact/event.hpp) this model uses unqualified.
using impact::DriverContext, impact::DriverOptions, impact::HybridModel, impact::Phase,
    impact::RunOutcome, impact::RunStatus, impact::Scheme, impact::State, impact::Stop,
    impact::run_hybrid, impact::run_status_names;

// The model: constant after loading.
struct Params {
  double m_b = 3.5e-3;     // mass of one sphere [kg]
  double r = 4.75e-3;      // sphere radius [m]
  double m_r = 0.0;        // rod mass [kg]
  double l = 27.55e-3;     // distance between the sphere centres [m]
  double g = 9.81;         // gravity [m/s²]
  double amplitude = 0.0;  // plate amplitude A [m]
  double omega = 0.0;      // plate angular frequency ω = 2πf [rad/s] (erratum 1)
  double phase = 0.0;      // plate phase α: y_p = A cos(ωt + α) [rad]
  double e = 0.65;         // energetic coefficient of restitution, both tips [-]
  double mu_s = 0.24;      // static friction coefficient (contacts and impacts) [-]
  double mu_c = 0.12;      // slip friction coefficient in contact phases [-]
  double mu_i = 0.12;      // slip friction coefficient in impacts [-]
  double kappa = 0.6;      // distributing-law exponent (erratum 2) [-]

  double mass() const { return 2.0 * m_b + m_r; }
  // inertia about the centre of mass, J = β/2 (spec §2.1 [D])
  double inertia() const {
    const double rod = l - 2.0 * r;
    return 0.5 * m_b * l * l + 0.8 * m_b * r * r + m_r * rod * rod / 12.0;
  }
  double aspect_ratio() const { return 1.0 + 0.5 * l / r; }
};

// Numerical settings of a run (the paper gives none, spec §3 [A]: ours, named).
struct Options {
  // the driver's settings (hybrid.hpp): t_end, rows of the time series every sample_interval
  // (0: none), the event budget, the ODE (RK4 with a fixed step by default), and
  // zeno.min_speed: the approach speed [m/s] below which an impact is plastic (e = 0) and the
  // tip joins the contact phase (spec §3)
  DriverOptions driver = [] {
    DriverOptions d;
    d.sample_interval = 1e-4;
    d.max_events = 2'000'000;
    d.zeno.min_speed = 1e-3;
    return d;
  }();
  double average_from = 0.5;  // ⟨u⟩ and the mode use t ≥ average_from [s]
  double slip_tol = 1e-7;     // |v_t| below which a closed tip is tested for stick [m/s]
  int impulse_steps = 2000;   // Darboux–Keller steps per impact
};

}  // namespace granular::dimer
