// Closed forms of the 3-disk system of Peraza-Mues (2018), "Spontaneous rotation in vibrated
// disk packings", PhD thesis, ch. 4–5 (docs/three_disk.md): an upper disk 0 resting on two
// fixed supports with closed contacts, 1 on the left and 2 on the right.
//   - statics: normal forces (4.25)–(4.30), the Amonton inequalities (4.32)–(4.39) and the
//     vertices of the admissible polygon (4.40)–(4.49), by closed forms and by a generic
//     linear solve of the lines, and the condition that keeps the contacts closed (4.50);
//   - the slide thresholds of a slowly varying torque (5.3)–(5.5) and the sliding regimes;
//   - the mean rotation under the harmonic torque T_e = A_e sin(ω_e t): eq. (5.9) and the
//     one-degree-of-freedom stick–slip rotor it idealizes;
//   - the torques at the four sliding points under random vibration (5.15)–(5.18), (5.21).
//
// Conventions (thesis §4.1, (4.12), (4.23)–(4.24)): x right, y up, gravity −y; angles,
// rotations and torques counter-clockwise (CCW) positive. α1 = θ0 − θ_T and α2 = θ0 + θ_T are
// the angles between gravity and the contact normals; θ_T > 0 loads contact 1 more. τ01 acts on
// disk 0 along (cos α1, −sin α1), τ02 along (cos α2, sin α2); each gives the torque R τ0i.
// Reduced coordinates (4.14)–(4.17), with the erratum of (4.16): τ01 = −k_t R (Θ + δθ),
// τ02 = +k_t R (Θ − δθ); the torque of the contacts is 𝒯 = R(τ01 + τ02) = −2R²k_t δθ (4.18).
#pragma once

#include "granular/constants.hpp"

namespace granular::three_disk {

// The upper disk and its contacts. Defaults: the thesis' ch. 5 MD set (§5.1), untilted and at
// rest (accelerations only enter the statics, §4.3–4.4).
struct ThreeDiskParams {
  double mass = 0.1;         // m of the upper disk
  double radius = 1.0;       // R (R0 of the thesis), radius of the upper disk
  double gravity = 10.0;     // g
  double mu = 0.1;           // Coulomb friction coefficient, static = dynamic
  double k_t = 1e6;          // skin (tangential) stiffness of both contacts
  double theta0 = pi / 6.0;  // θ0, half the angle between the contact normals (π/6: 3 equal disks)
  double tilt = 0.0;         // θ_T, angle between gravity and the bisector of the contacts
  double x_acc = 0.0;        // ẍ of the upper disk's centre (4.23)
  double y_acc = 0.0;        // ÿ (4.24)
};

// ---------------------------------------------------------------------------------------------
// Statics with closed contacts (§4.3–4.4)

struct NormalForces {
  double n01;  // on the upper disk at contact 1
  double n02;  // at contact 2
};

// The normal forces that balance gravity, the acceleration and the tangential forces τ01, τ02
// (4.29)–(4.30): s12 n01 = w1 − τ01 c12 − τ02, s12 n02 = w2 + τ01 + τ02 c12, with
// w1 = m ẍ c2 + m(g + ÿ) s2 and w2 = −m ẍ c1 + m(g + ÿ) s1 (4.27)–(4.28).
NormalForces normal_forces(const ThreeDiskParams& p, double tau01, double tau02);

// A point of the (τ01, τ02) plane or of the (δθ, Θ) plane.
struct Point {
  double x;
  double y;
};

// (δθ, Θ) of the tangential forces (τ01, τ02) (4.17): δθ = −(τ01 + τ02)/(2 k_t R),
// Θ = (τ02 − τ01)/(2 k_t R).
Point reduced_from_tau(const ThreeDiskParams& p, Point tau);

// A half-plane a·x + b·y ≤ c; its boundary line is where it holds as an equality.
struct HalfPlane {
  double a;
  double b;
  double c;
};

// The four Amonton inequalities |τ0i| ≤ μ n0i, each one side of one contact's friction cone:
//   (a) contact 1 slips CCW when violated, (b) contact 1 slips CW, (c) contact 2 slips CW,
//   (d) contact 2 slips CCW.
struct AmontonLines {
  HalfPlane a;
  HalfPlane b;
  HalfPlane c;
  HalfPlane d;
};

// (4.32)–(4.35) in (τ01, τ02), with B± = s12/μ ± c12.
AmontonLines amonton_lines_tau(const ThreeDiskParams& p);

// (4.36)–(4.39) in (δθ, Θ), with C±± = s12/μ ± c12 ± 1 and W_i = w_i/(R k_t).
AmontonLines amonton_lines_reduced(const ThreeDiskParams& p);

// The point where two lines cross (Cramer's rule). The lines must not be parallel.
Point intersect(const HalfPlane& first, const HalfPlane& second);

// The tangential forces at a point of the polygon and the same point in reduced coordinates.
struct AmontonVertex {
  Point tau;      // (τ01, τ02)
  Point reduced;  // (δθ, Θ)
};

// The corners of the admissible region: S1 = (b)∩(c), both contacts slip CW; S2 = (a)∩(d),
// both slip CCW; T1 = (a)∩(c) and T2 = (b)∩(d), opposite slips with Θ > 0 and Θ < 0;
// D1 = (a)∩(b) and D2 = (c)∩(d), where contact 1 or 2 detaches (n and τ vanish).
// T1 is finite for μ < tan θ0, T2 for μ < cot θ0 (beyond, the disk can wedge itself between
// the supports and the stretch Θ is unbounded below).
struct AmontonPolygon {
  AmontonVertex s1;
  AmontonVertex s2;
  AmontonVertex t1;
  AmontonVertex t2;
  AmontonVertex d1;
  AmontonVertex d2;
};

// The vertices by the thesis' closed forms: (τ01, τ02) by (4.40), (4.42), (4.44)–(4.46),
// (4.48); (δθ, Θ) by the trigonometric forms of (4.41), (4.43), (4.44), (4.45), (4.47), (4.49).
AmontonPolygon amonton_polygon(const ThreeDiskParams& p);

// The same vertices by intersecting the lines of amonton_lines_tau and amonton_lines_reduced:
// nothing shared with amonton_polygon but the lines' definition, so each checks the other.
AmontonPolygon amonton_polygon_by_linear_solve(const ThreeDiskParams& p);

// Both contacts stay closed for every admissible (τ01, τ02): D1 and D2 lie outside the
// polygon, δθ^{S1} > δθ^{D1} and δθ^{S2} < δθ^{D2} (§4.4).
bool contacts_stay_closed(const ThreeDiskParams& p);

// The right-hand side of (4.50): contact 2 stays closed while μ is below it,
//   [−ẍ cos(θ0 − θ_T) + (g + ÿ) sin(θ0 − θ_T)] / [ẍ sin(θ0 − θ_T) + (g + ÿ) cos(θ0 − θ_T)].
// It is δθ^{S2} < δθ^{D2} exactly where the denominator is positive and θ0 + arctan μ < π/2
// (docs/three_disk.md); tan(θ0 − θ_T) at zero acceleration (4.51).
double friction_limit_contact2(const ThreeDiskParams& p);

// ---------------------------------------------------------------------------------------------
// Slide thresholds of a slowly varying external torque, ẍ = ÿ = 0 (§5.2)

// A0 = m g μ R / (cos θ0 (1 + μ²)) (5.4).
double threshold_scale(const ThreeDiskParams& p);

// A_S2 = A0 (cos θ_T − μ sin θ_T) (5.3): the torque at which both contacts slide CCW (S2).
double ccw_threshold(const ThreeDiskParams& p);

// A_S1 = A0 (cos θ_T + μ sin θ_T) (5.5): the magnitude of the CW torque that slides at S1.
double cw_threshold(const ThreeDiskParams& p);

// θ_T^D = θ0 − arctan μ: above this tilt the detachment point D2 is reachable (4.51).
double detachment_tilt(const ThreeDiskParams& p);

// A_S1^max = A0 √(1 + μ²), the largest A_S1, reached at θ_T = arctan μ (§5.2.1).
double max_cw_threshold(const ThreeDiskParams& p);

// A_S2(θ_T^D) = m g R μ / √(1 + μ²) (§5.2.1): below it the disk never slides before detaching.
double ccw_threshold_at_detachment(const ThreeDiskParams& p);

// θ_S2, the tilt at which A_S2(θ_S2) = A_e (§5.2.2): A_S2 = A_S1^max cos(θ_T + arctan μ), so
// θ_S2 = arccos(A_e / A_S1^max) − arctan μ. A_S2 falls with the tilt on [−arctan μ,
// π − arctan μ], so the disk slides CCW at tilts above θ_S2. Needs 0 < A_e ≤ A_S1^max
// (std::domain_error otherwise).
double onset_tilt(const ThreeDiskParams& p, double amplitude);

struct TiltInterval {
  double lower;
  double upper;
};

// The tilts where A_S1(θ_T) = A_e: A_S1 = A_S1^max cos(θ_T − arctan μ), so arctan μ ∓
// arccos(A_e / A_S1^max). Between them A_S1 > A_e: no CW slide. Outside, sliding is
// bidirectional: `upper` is where it turns bidirectional as the tilt grows, and `lower` > 0
// only for A_e > A0 (the re-entrant case of §5.2.1). Needs 0 < A_e ≤ A_S1^max.
TiltInterval cw_blocked_tilts(const ThreeDiskParams& p, double amplitude);

enum class SlidingRegime {
  none,            // A_e ≤ min(A_S1, A_S2): the disk never slides
  unidirectional,  // slides one way only (CCW at S2 for θ_T > 0)
  bidirectional,   // A_e > max(A_S1, A_S2): slides both ways
  detached         // |θ_T| ≥ θ_T^D: a contact can open, the closed forms do not apply
};

// The regime of the torque amplitude A_e at the tilt p.tilt (Fig. 5.1).
SlidingRegime sliding_regime(const ThreeDiskParams& p, double amplitude);

// ---------------------------------------------------------------------------------------------
// Mean rotation under the harmonic torque T_e = A_e sin(ω_e t) (§5.2.4)
//
// The idealization: a rotor I θ̈ = T_e − f, I = m R²/2, with f = +A_S2 while ω > 0, f = −A_S1
// while ω < 0, and stuck (ω = 0) while −A_S1 ≤ T_e ≤ A_S2. ω̄ ∝ 1/ω_e, so ω̄·ω_e is the
// frequency-free result. Both functions need A_S1, A_S2 > 0, A_e > 0 and ω_e > 0
// (std::domain_error otherwise); they do not check detachment (see sliding_regime).

struct HarmonicTorque {
  double amplitude;  // A_e
  double frequency;  // ω_e [rad/s]
};

// Eq. (5.9), evaluated exactly: each slide starts from rest where T_e crosses its threshold
// and stops at t_s, the root of (5.7), found by bracketing and bisection; it turns Δθ_i =
// (A_Si ∓ T_e(t_si))² / (2 I ω_e² A_Si) (exact, by (5.7), (5.8) and the stop condition).
// Valid when every slide stops before T_e reaches the opposite threshold (the S2 slide stops
// before T_e falls through −A_S1, the S1 slide before T_e rises through A_S2); otherwise the
// next slide starts while moving and (5.9) does not describe the cycle.
struct Eq59Rotation {
  double mean_omega;  // ω̄
  bool valid;
};
Eq59Rotation mean_rotation_eq59(const ThreeDiskParams& p, const HarmonicTorque& torque);

// The rotor integrated exactly from rest at t = 0: within a slide ω(t) and θ(t) are closed
// forms ((5.7), (5.8) with any starting velocity), stops are roots of ω found by bisection on
// intervals where ω is monotonic, and a stop where T_e is outside [−A_S1, A_S2] starts the
// opposite slide at once. ω̄ is the rotation of one period once the per-period rotation repeats
// to 1e-12 relative: 2–3 periods when the rotor sticks every period (a stuck phase erases the
// past), more when it slides continuously (tens; tens of thousands when A_e ≫ A_Si).
struct RotorRotation {
  double mean_omega;  // ω̄
  int periods;        // torque periods integrated
  bool converged;     // false: no repetition within 100 000 periods; ω̄ is then the mean of
                      // the second half of the periods
};
RotorRotation mean_rotation_rotor(const ThreeDiskParams& p, const HarmonicTorque& torque);

// ω̄·ω_e for the amplitude A_e: (5.9) where it is valid, the rotor elsewhere.
double mean_rotation_times_frequency(const ThreeDiskParams& p, double amplitude);

// ---------------------------------------------------------------------------------------------
// Random vibration: the torque of the contacts at each sliding point, ẍ = ÿ = 0 (§5.3.3)

// 𝒯 = −2R²k_t δθ at S1, S2, T1, T2 (5.15)–(5.18), with θ_h = θ0 and the T labels of (4.47),
// (4.49): the thesis' (5.17) is the torque at T2 and (5.18) the one at T1.
struct SlidingPointTorques {
  double s1;  //  m g R μ (cos θ_T + μ sin θ_T) / ((1 + μ²) cos θ0) = A_S1
  double s2;  // −m g R μ (cos θ_T − μ sin θ_T) / ((1 + μ²) cos θ0) = −A_S2
  double t1;  // −m g R μ sin θ_T / (sin θ0 − μ cos θ0)
  double t2;  //  m g R μ sin θ_T / (sin θ0 + μ cos θ0)
};
SlidingPointTorques sliding_point_torques(const ThreeDiskParams& p);

// 𝒯̄* (5.21): the mean torque when the four sliding points take equal times,
//   m g R μ² (μ² + (1 + μ²) cos 2θ0) sec³θ0 sin θ_T / (2 (1 + μ²)(μ² − tan²θ0)).
double equal_time_mean_torque(const ThreeDiskParams& p);

// The parameters of the thesis' ch. 5 runs (§5.1) at the tilt θ_T: m = 0.1, R = 1, g = 10,
// μ = 0.1, k_t = 1e6, θ0 = π/6.
inline ThreeDiskParams chapter5_params(double tilt) {
  ThreeDiskParams p;
  p.tilt = tilt;
  return p;
}

}  // namespace granular::three_disk
