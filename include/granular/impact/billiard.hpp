// The inelastic gravitational billiard with rotation (spec billiard.md; Hartl, Miller &
// Mazzoleni 2011): a sphere of radius b in a vertical plane, above a boundary y = f(x − Δq1(t))
// that moves horizontally as Δq1 = A sin(ωt) (Eq. 9–10), with an optional flat ceiling.
// Between impacts the ball flies under gravity and linear + quadratic drag (Eqs. 1–6) on the
// shared EventIntegrator; an impact is the falling zero of the signed gap of a surface (closest
// point, spec §3) and applies the Kane–Levinson map of the appendix (spec §4) through
// impulse::newton_coulomb_impact, with the low-velocity rule e = 1 (Sec. V). When impacts
// accumulate (Zeno), the ball is put on the surface by a plastic impact and moves in persistent
// contact, rolling or sliding, until it lifts off (src/impact/billiard_contact.cpp).
//
// Frames and signs (spec §1, §4): n1 horizontal along the drive, n2 up; contact frame
// c1 = (cos z, sin z) tangent, c2 = (−sin z, cos z) normal into the domain, tan z = f'(s*),
// z = π on the ceiling; u3 = spin about n3, u4 = v·c1, u5 = v·c2 (absolute velocities).
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/billiard.hpp is host-only"
#endif

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "granular/impact/hybrid.hpp"
#include "granular/vec2.hpp"

namespace granular::impact {

enum class BoundaryShape { parabola, wedge, hyperbola, flat };

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

struct BilliardImpactLaw {
  ImpactLaw law = ImpactLaw::kane_levinson;
  double e = 0.393;                  // normal restitution (Eq. 24)
  double mu_static = 0.61;           // μ of the no-slip test (Eq. 34)
  double mu_kinetic = 0.47;          // μ' of the slip impulse (Eq. 42)
  double low_velocity_speed = 0.05;  // e = 1 below this relative normal speed [m/s] (Sec. V)
  double r = 0.43;                   // gorski_srokowski: v' = r (v − 2n(v·n)) (Eq. 12)
};

struct BilliardModel {
  BilliardBoundary boundary;
  BilliardBall ball;
  BilliardDrive drive;
  BilliardDrag drag;
  BilliardImpactLaw law;
  double gravity = 9.81;  // g [m/s²]
  OdeOptions ode;         // flight integrator and event tolerance
  ZenoGuard zeno;         // accumulation thresholds (a copy is used per run)
  long long max_collisions = 25000;
  double max_time = 1e4;              // simulated time limit [s]
  double sample_interval = 0;         // trajectory samples every this many s (0: none)
  long long max_events = 10'000'000;  // impacts and contact-mode changes before event_limit
};

struct BilliardInitial {
  double q1 = 0.0;    // [m]
  double q2 = 0.0;    // [m]
  double v1 = 0.0;    // [m/s]
  double v2 = 0.0;    // [m/s]
  double spin = 0.0;  // u3 [rad/s]
};

// The surfaces that can be hit, each with its own gap event (two for the wedge, so that a
// hit on one branch never hides an immediate hit on the other).
enum class Surface { floor, wedge_left, wedge_right, ceiling };
const char* surface_name(Surface s);
std::vector<Surface> surfaces(const BilliardBoundary& b);

// Boundary height f(ξ) and slope f'(ξ) of the floor curve (the wedge's is |ξ|-shaped).
double floor_height(const BilliardBoundary& b, double xi);
double floor_slope(const BilliardBoundary& b, double xi);

// Closest point of a surface to the point (ξ, η) of the boundary frame (spec §3): foot s*
// (ξ coordinate of the contact point), squared distance, the signed gap (distance − radius,
// negative when the centre is on the far side) and the contact angle z.
struct SurfaceContact {
  double foot;   // s* [m]
  double dist2;  // L² [m²]
  double gap;    // signed distance − radius [m]
  double z;      // angle of the tangent c1 from n1 [rad]
};
SurfaceContact surface_contact(const BilliardBoundary& b, Surface s, double xi, double eta,
                               double radius);

// Every real stationary point of L²(s) on the floor curve (parabola: the cubic of spec §3;
// hyperbola: its quartic as one equation; flat and wedge: closed forms). For tests.
std::vector<double> floor_stationary_points(const BilliardBoundary& b, double xi, double eta);

// One impact (spec §4): lab velocity v and spin before, the wall's velocity, angle z.
struct BilliardImpactResult {
  Vec2 v;             // velocity after [m/s]
  double spin;        // u3 after [rad/s]
  double u_n_before;  // relative normal velocity before (< 0 approaching) [m/s]
  double u_t_before;  // slip of the contact point relative to the wall before [m/s]
  double u4_after;    // v·c1 after [m/s]
  double u5_after;    // v·c2 after [m/s]
  double p_n;         // normal impulse S2 [N s]
  double p_t;         // tangential impulse S1 [N s]
  double e_used;      // restitution applied (1 under the low-velocity rule)
  bool sticking;      // the no-slip trial was accepted (Eq. 34)
};
BilliardImpactResult billiard_impact(const BilliardBall& ball, const BilliardImpactLaw& law,
                                     double z, Vec2 v, double spin, Vec2 wall_velocity);

// Centre height at which the ball at q1 touches the floor at t = 0 [m]. Throws
// std::domain_error when there is none a double can hold (a floor so high or steep that
// positions there are coarser than the ball's radius).
double resting_height(const BilliardModel& m, double q1);
// Total energy ½ m v² + ½ J u3² + m g q2 [J] (lab frame).
double billiard_energy(const BilliardModel& m, Vec2 v, double spin, double q2);

struct BilliardCollision {
  double t;            // impact time [s]
  double q1;           // centre [m]
  double height;       // centre height q2 [m]
  double flight_time;  // t − previous impact (or − start) [s]
  double u_n_before;   // relative normal velocity before [m/s]
  double u_t_after;    // post-impact tangential speed u4 [m/s]
  double spin_after;   // post-impact spin u3 [rad/s]
  double u5_after;     // post-impact normal speed u5 [m/s]
  double energy;       // total energy after [J]
  double norm_height;  // q2 / q2,max (spec §5, literal reading)
  double norm_u_t;     // u4 / u4,max
  double e_used;
  Surface surface;
  bool sticking;
};

struct BilliardSample {
  double t, q1, q2, v1, v2, spin, wall_offset;
};

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
const char* billiard_mode_name(BilliardContactMode m);
const char* billiard_end_name(BilliardContactEnd e);

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
BilliardContactForces billiard_contact_forces(const BilliardModel& m, const BilliardOnSurface& c,
                                              double t, BilliardContactMode mode, double sigma);

// Lab state (q1, q2, v1, v2, u3) → the surface's coordinates: the centre is projected onto the
// offset curve through the closest point and the relative normal velocity is dropped.
BilliardOnSurface billiard_to_surface(const BilliardModel& m, Surface s, double t, const State& y);
// The surface's coordinates → the lab state (q1, q2, v1, v2, u3).
State billiard_from_surface(const BilliardModel& m, double t, const BilliardOnSurface& c);

// The mode a contact takes at t (docs/billiard.md): with zero slip it rolls if the rolling
// friction lies in the static cone, else slides the way the forces drive it; with slip it
// slides against the slip; with F_n <= 0 it lifts off; with 1 − κ b <= 0 it is undetermined.
struct BilliardContactChoice {
  bool in_contact;  // roll or slide; else `end` says why not
  BilliardContactMode mode;
  double sigma;            // sense of the slip when sliding (±1)
  BilliardContactEnd end;  // liftoff or undetermined when !in_contact
};
BilliardContactChoice billiard_contact_mode(const BilliardModel& m, const BilliardOnSurface& c,
                                            double t, bool zero_slip);

// Integrates one contact mode from (t, c) towards t_end on the shared EventIntegrator; stops
// at the first event (lift-off, slip or stick, wedge corner, another surface's gap closing)
// or at t_end (returning nothing). `other` receives the index in surfaces() of a surface hit.
std::optional<BilliardContactEnd> billiard_contact_advance(const BilliardModel& m,
                                                           BilliardOnSurface& c,
                                                           BilliardContactMode mode, double sigma,
                                                           double& t, double t_end, int& other);

struct BilliardContactPhase {
  int episode;  // which accumulation (Zeno switch) led to it, from 0
  Surface surface;
  BilliardContactMode mode;
  BilliardContactEnd end;
  double t_start, t_end;                      // [s]
  double q1_start, q2_start, q1_end, q2_end;  // centre [m]
  double f_n_end;                             // normal force at the end [N]
};

struct BilliardResult {
  std::vector<BilliardCollision> collisions;
  std::vector<BilliardSample> trajectory;
  // How it ended (hybrid.hpp): completed (max_collisions impacts); time_limit (max_time);
  // zeno (persistent contact could not go on: why in `fallback`); model_stop with reason
  // penetrated (an impact missed by a flight shorter than a step); non_finite;
  // integrator_failed; event_limit.
  RunStatus status = RunStatus::completed;
  std::string reason;
  std::string detail;
  double t_end = 0.0;              // time reached [s]
  long long grazing = 0;           // gap zeros with no approach (no impulse applied)
  long long low_velocity = 0;      // impacts under the e = 1 rule
  long long sticking = 0;          // impacts that stuck
  long long plastic_switches = 0;  // plastic impacts (e = 0) handed over to persistent contact
  long long ceiling_hits = 0;
  std::vector<BilliardContactPhase> contact_phases;
  long long zeno_switches = 0;    // accumulations detected (each ends in a plastic impact)
  long long liftoff_at_once = 0;  // plastic impacts after which F_n <= 0 (flight goes on)
  double zeno_time = 0.0;         // when the first accumulation was detected [s]
  double zeno_q1 = 0.0, zeno_q2 = 0.0;
  std::string fallback;  // status zeno: why persistent contact could not continue
};

// Runs from `init` until max_collisions impacts, max_time, or a clean stop (an undetermined
// contact, a lost event, a non-finite state). A ball placed on a surface (gap within 1e-9 b,
// relative normal speed below zeno.min_speed) starts in persistent contact. Never throws on
// numerical trouble: the status says.
BilliardResult run_billiard(const BilliardModel& m, const BilliardInitial& init);

}  // namespace granular::impact
