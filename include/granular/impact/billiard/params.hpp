// The inelastic gravitational billiard with rotation (docs/billiard.md; Hartl, Miller &
// Mazzoleni 2011): a sphere of radius b in a vertical plane, above a boundary y = f(x − Δq1(t))
// that moves horizontally as Δq1 = A sin(ωt) (Eq. 9–10), with an optional flat ceiling.
// Between impacts the ball flies under gravity and linear + quadratic drag (Eqs. 1–6) on the
// shared EventIntegrator; an impact is the falling zero of the signed gap of a surface (closest
// point, spec §3) and applies the Kane–Levinson map of the appendix (spec §4) through
// impulse::newton_coulomb_impact, with the low-velocity rule e = 1 (Sec. V). When impacts
// accumulate (Zeno), the ball is put on the surface by a plastic impact and moves in persistent
// contact, rolling or sliding, until it lifts off (src/impact/billiard/dynamics.cpp).
//
// Frames and signs (spec §1, §4): n1 horizontal along the drive, n2 up; contact frame
// c1 = (cos z, sin z) tangent, c2 = (−sin z, cos z) normal into the domain, tan z = f'(s*),
// z = π on the ceiling; u3 = spin about n3, u4 = v·c1, u5 = v·c2 (absolute velocities).
//
// This header: the model's parameters. The driver's vocabulary (State, OdeOptions, RunStatus,
// ...) is used unqualified in the model's namespace.
#pragma once

#include "granular/hd.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/billiard/params.hpp is host-only"
#endif

#include "granular/impact/hybrid.hpp"
#include "granular/vec2.hpp"

namespace granular::billiard {

// The impact driver's names (impact/hybrid.hpp, impact/event.hpp) this model uses unqualified.
using impact::Direction, impact::DriverContext, impact::DriverOptions, impact::Event,
    impact::EventFunction, impact::EventHit, impact::EventIntegrator, impact::HybridModel,
    impact::OdeOptions, impact::Phase, impact::Rhs, impact::RunOutcome, impact::RunStatus,
    impact::Scheme, impact::State, impact::Stop, impact::run_hybrid, impact::run_status_names;

enum class BoundaryShape { parabola, wedge, hyperbola, flat };
inline constexpr Named<BoundaryShape> boundary_shape_names[] = {
    {BoundaryShape::parabola, "parabola"},
    {BoundaryShape::wedge, "wedge"},
    {BoundaryShape::hyperbola, "hyperbola"},
    {BoundaryShape::flat, "flat"}};

// The container in its own frame (ξ = q1 − Δq1, η = q2), spec §1 (all lengths SI).
struct BilliardBoundary {
  BoundaryShape shape = BoundaryShape::parabola;
  double a = 26.0;         // parabola: η = a ξ² + c [1/m]
  double slope = 1.85;     // wedge: η = slope |ξ| + c [-] (the paper's "b")
  double c = 0.0063;       // parabola, wedge, flat: vertex height [m]
  double alpha = 4.03e-3;  // hyperbola: η = √(α(1 + β ξ²)) − δ [m²]
  double beta = 800.0;     // hyperbola [1/m²]
  double delta = 0.0445;   // hyperbola [m]
  bool has_ceiling = false;
  double ceiling = 0.0;  // ceiling height η = H [m] (when has_ceiling)
};

// Horizontal drive Δq1(t) = A sin(ωt) (Eq. 10).
struct BilliardDrive {
  double amplitude = 0.0;  // A [m] (a negative A mirrors the drive; the case file wants A >= 0)
  double omega = 0.0;      // ω = 2π f [rad/s]
};

struct BilliardBall {
  double mass = 1.3028e-4;     // m [kg]
  double radius = 1.55e-3;     // b [m]
  double inertia = 1.252e-10;  // J about n3 [kg m²]
};

// Drag force −v (C1 + C2 |v|) in the lab frame (Eq. 2; the paper's c1, c2).
struct BilliardDrag {
  double c1 = 0.0;  // linear coefficient [N s/m]
  double c2 = 0.0;  // quadratic coefficient [kg/m]
};

enum class ImpactLaw { kane_levinson, gorski_srokowski };
inline constexpr Named<ImpactLaw> impact_law_names[] = {
    {ImpactLaw::kane_levinson, "kane_levinson"}, {ImpactLaw::gorski_srokowski, "gorski_srokowski"}};

struct BilliardImpactLaw {
  ImpactLaw law = ImpactLaw::kane_levinson;
  double e = 0.393;                  // normal restitution (Eq. 24)
  double mu_static = 0.61;           // μ of the no-slip test (Eq. 34)
  double mu_kinetic = 0.47;          // μ' of the slip impulse (Eq. 42)
  double low_velocity_speed = 0.05;  // e = 1 below this relative normal speed [m/s] (Sec. V)
  double r = 0.43;                   // gorski_srokowski: v' = r (v − 2n(v·n)) (Eq. 12)
};

struct Params {
  BilliardBoundary boundary;
  BilliardBall ball;
  BilliardDrive drive;
  BilliardDrag drag;
  BilliardImpactLaw law;
  double gravity = 9.81;  // g [m/s²]
};

// The run's settings.
struct Options {
  long long max_collisions = 25000;  // the run's goal
  // the driver's settings (hybrid.hpp): t_end (a time limit), trajectory rows every
  // sample_interval (0: none), the event budget (impacts and contact-mode changes), the flight
  // and contact integrator and event tolerance, the Zeno guard's thresholds
  DriverOptions driver = [] {
    DriverOptions d;
    d.t_end = 1e4;
    d.ode.max_step = 1e-3;
    d.zeno.window = 0.05;
    return d;
  }();
};

struct BilliardInitial {
  double q1 = 0.0;    // [m]
  double q2 = 0.0;    // [m]
  double v1 = 0.0;    // [m/s]
  double v2 = 0.0;    // [m/s]
  double spin = 0.0;  // u3 [rad/s]
};

}  // namespace granular::billiard
