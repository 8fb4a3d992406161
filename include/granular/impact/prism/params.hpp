// A regular N-gon prism rolling down a ramp by pure rotation about its edges (Zhao, Liu & Ma
// 2014; docs/prism.md). Contact phases are a 1-DOF inverted pendulum about the rolling
// edge A (§2.1, with the corrected reaction forces); each face impact is either the Winkler
// line impact integrated in the stress impulse p* with the signed-root state (§2.3) and ended
// by the termination rule (3.29), or the classic rigid plastic point impact at the leading
// edge B (κ_c, §0) for comparison.
//
// Conventions (§1): θ is counter-clockwise, so rolling downhill has θ̇ < 0; all angular
// velocities below are θ̇ in that sign convention. λ is the angle between the next face AB and
// the ramp; it falls from 2α to 0 in a contact phase (λ̇ = θ̇).
//
// This header: the geometry and the parameters. The driver's vocabulary (State, OdeOptions,
// RunStatus, ...) is used unqualified in the model's namespace.
#pragma once

#include "granular/hd.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/prism/params.hpp is host-only"
#endif

#include "granular/impact/hybrid.hpp"

namespace granular::prism {

// The impact driver's names (impact/hybrid.hpp, impact/event.hpp) this model uses unqualified.
using impact::Direction, impact::DriverContext, impact::DriverOptions, impact::Event,
    impact::EventHit, impact::EventIntegrator, impact::HybridModel, impact::OdeOptions,
    impact::Phase, impact::RunOutcome, impact::RunStatus, impact::Scheme, impact::State,
    impact::Stop, impact::run_hybrid, impact::run_status_names;

// The closed-form geometry and mass properties of §1 (per unit mass).
struct PrismGeometry {
  int n_sides;          // N
  double circumradius;  // a0, centre of mass C to each edge [m]
  double length;        // l, along the axis [m]
  double alpha;         // half central angle π/N [rad]
  double face_width;    // b = 2 a0 sinα [m]
  double apothem;       // h = a0 cosα, C to each face [m]
  double j_c;           // J/m = a0²(cos2α + 2)/6 [m²]
  double j_edge;        // J_A/m = a0²(cos2α + 8)/6, about an edge [m²]
  double j_face;        // J'/m = J/m + h², sticking face [m²]
  double area;          // cross-section (N/2) a0² sin2α [m²]
};

PrismGeometry prism_geometry(int n_sides, double circumradius, double length);

enum class PrismImpactModel { line, point };
inline constexpr Named<PrismImpactModel> impact_model_names[] = {
    {PrismImpactModel::line, "line"}, {PrismImpactModel::point, "point"}};

// The model: constant during a run.
struct Params {
  PrismGeometry geometry;
  double mass = 0.0;      // m [kg]
  double slope = 0.0;     // β [rad]
  double gravity = 9.81;  // g [m/s²]
  double mu_s = 0.12;     // stick coefficient μ_s
  double mu_slip = 0.12;  // slip coefficient μ (the paper gives none)
  PrismImpactModel impact = PrismImpactModel::line;
};

// The line impact's integration settings (§2.3).
struct LineImpactOptions {
  double start = 1e-12;  // p* of the start-up step in units of m|ω0|/l (§2.3 start-up)
  double rtol = 1e-12;   // Dormand–Prince tolerances on the scaled state
  double atol = 1e-14;
  double max_chunk = 0.02;   // largest p* span between samples, units of m|ω0|/l
  double max_impulse = 1e3;  // gives up beyond this p* (units of m|ω0|/l)
};

// The run's settings (§3).
struct Options {
  double lambda0 = 0.0;       // release angle λ0 [rad]
  double omega0 = 0.0;        // forward rolling rate at release, ≥ 0 [rad/s] (θ̇ = −omega0)
  double ramp_length = 0.65;  // the run ends when the edge has advanced this far [m]
  bool stop_on_violation = true;  // slip/detachment: stop, or record and go on (paper's model)
  LineImpactOptions line;
  // the driver's settings (hybrid.hpp): t_end (a time limit: the goal is the ramp's end), rows
  // of rolling.csv every sample_interval, the event budget (impacts and slip/detachment
  // events), the contact phases' integrator (dopri5), and zeno.min_speed, the approach speed of
  // B [m/s] below which the prism is at rest
  DriverOptions driver = [] {
    DriverOptions d;
    d.t_end = 60.0;
    d.sample_interval = 1e-3;
    d.max_events = 100'000;
    d.ode.scheme = Scheme::dopri5;
    d.ode.max_step = 1e-2;
    d.zeno.min_speed = 1e-9;
    return d;
  }();
};

}  // namespace granular::prism
