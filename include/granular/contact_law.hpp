// The contact law shared by every model of granular (docs/model.md §2, §3.2–3.3).
//
// Normal force (eq. 4.2, with the erratum of 4.53):   n = max(k_n δ + γ_n δ̇, 0)
//   δ  = R_a + R_b − |r_b − r_a| is the overlap, δ̇ its rate; no attraction, no cohesion.
// Tangential force, the "elastic skin" (eqs. 4.5–4.7): τ = −k_t ξ along t̂ on disk a,
//   ξ = λ − λ*, λ computed from coordinates (not by integrating u_t):
//   disk–disk  λ_ab = R_a θ_a + R_b θ_b − β_ab (R_a + R_b)
//   disk–wall  λ_aw = R_a θ_a + (r_a − r_ref)·t̂        (flat walls: β_aw is constant)
//   Coulomb cap |k_t ξ| ≤ μ n with μ_static = μ_dynamic; a slip moves λ* so that the force
//   sits on the cap; memory is lost when the contact opens.
// Sign convention (spec §2.2, "a self-consistent implementation"): e = (r_b − r_a)/|r_b − r_a|,
//   t̂ = ẑ × e, u_t = (v_a − v_b)·t̂ + R_a ω_a + R_b ω_b = dλ/dt. Force on a: −n e − k_t ξ t̂,
//   torque on a: −R_a k_t ξ; force on b is the opposite, torque on b: −R_b k_t ξ.
//
// The closed forms of a single collision (e_n, t_c, e_t limits) live here too, so that the
// simulated collisions and the event-driven rules mean the same thing.
#pragma once

#include <cmath>

#include "granular/constants.hpp"
#include "granular/hd.hpp"
#include "granular/portable_atan2.hpp"
#include "granular/vec2.hpp"

namespace granular {

// Parameters of one contact type (disk–disk or disk–wall).
struct ContactParams {
  double k_n;      // normal stiffness [N/m]
  double k_t;      // skin (tangential) stiffness [N/m]
  double gamma_n;  // normal dashpot coefficient [kg/s]
  double mu;       // Coulomb friction coefficient, static = dynamic [-]
};

// Normal force magnitude with the cutoff that forbids attraction (eq. 4.2).
GRANULAR_HD inline double normal_force(const ContactParams& p, double overlap,
                                       double overlap_rate) {
  const double n = p.k_n * overlap + p.gamma_n * overlap_rate;
  return n > 0.0 ? n : 0.0;
}

// Elastic-skin history of one contact. ξ = xi_anchor + (change of λ since the anchor), with λ
// computed from coordinates (eqs. 4.5, 4.7): only differences of coordinates since the anchor
// enter, so θ may grow without bound (many turns) and ξ stays exact (spec §2.2 [S]).
struct SkinHistory {
  double theta_a;    // θ of disk a at the anchor [rad]
  double theta_b;    // θ of disk b at the anchor [rad] (disk–disk only)
  double anchor_x;   // disk–disk: x of the unit normal e* at the anchor; disk–wall: s* [m]
  double anchor_y;   // disk–disk: y of e* (disk–wall: unused, 0)
  double xi_anchor;  // ξ = λ − λ* at the anchor [m]
};

// A disk–disk pair re-anchors once its normal has turned by this angle [rad] since the anchor
// (keeping ξ, so nothing changes physically): the turn then always has the cheap, exact series
// below and never approaches the ±π ambiguity of an angle difference.
constexpr double skin_reanchor_turn = 1e-3;

// Anchors of a disk–disk pair with unit normal e, skin stretch xi.
GRANULAR_HD inline SkinHistory skin_anchor_pair(double theta_a, double theta_b, Vec2 e, double xi) {
  return {theta_a, theta_b, e.x, e.y, xi};
}

// Anchors of a disk–wall contact at tangential coordinate s = (r_a − r_ref)·t̂ [m].
GRANULAR_HD inline SkinHistory skin_anchor_wall(double theta_a, double s, double xi) {
  return {theta_a, 0.0, s, 0.0, xi};
}

// Angle [rad] by which the pair's normal turned from e* to e, counter-clockwise positive:
// β − β* of eq. 4.5 without atan2 in the common case. For a turn below 1e-3 the series of
// asin(sin(β − β*)) is exact to round-off: the first omitted term, (5/112) s⁷, is below
// 5e-20 s. Larger turns (the re-anchors) take portable_atan2, which gives the CPU's bits on a
// GPU too; a math library's atan2 would not.
GRANULAR_HD inline double skin_turn(const SkinHistory& h, Vec2 e) {
  const double sine = h.anchor_x * e.y - h.anchor_y * e.x;
  const double cosine = h.anchor_x * e.x + h.anchor_y * e.y;
  if (fabs(sine) < skin_reanchor_turn && cosine > 0.0) {
    const double s2 = sine * sine;
    return sine + (sine * s2) * (1.0 / 6.0 + s2 * (3.0 / 40.0));
  }
  return portable_atan2(sine, cosine);  // the same bits on every backend
}

// ξ of a disk–disk pair (eq. 4.5): λ = R_a θ_a + R_b θ_b − β (R_a + R_b), turn = β − β*.
GRANULAR_HD inline double skin_xi_disk_disk(const SkinHistory& h, double r_a, double r_b,
                                            double theta_a, double theta_b, double turn) {
  return h.xi_anchor + r_a * (theta_a - h.theta_a) + r_b * (theta_b - h.theta_b) -
         (r_a + r_b) * turn;
}

// ξ of a disk–wall contact (eq. 4.7): λ = R_a θ_a + s, s = (r_a − r_ref)·t̂ [m].
GRANULAR_HD inline double skin_xi_disk_wall(const SkinHistory& h, double r_a, double theta_a,
                                            double s) {
  return h.xi_anchor + r_a * (theta_a - h.theta_a) + (s - h.anchor_x);
}

// Coulomb cap of the skin (eq. 4.6 and the reset recipe): if k_t|ξ| > μ n the skin slips to
// ξ = sgn(ξ) μ n / k_t. Returns the capped ξ; a caller that sees it differ from ξ re-anchors
// the history at the current coordinates with the capped value (λ* moved by the slip).
GRANULAR_HD inline double skin_cap(const ContactParams& p, double xi, double n) {
  const double xi_max = p.k_t > 0.0 ? n * (p.mu / p.k_t) : 0.0;  // μ/k_t: loop-invariant
  // a clamp (maxsd, minsd on x86): no branch to mispredict when slips come and go
  const double above = xi < -xi_max ? -xi_max : xi;
  return above > xi_max ? xi_max : above;
}

// ---------------------------------------------------------------------------------------------
// Closed forms of one collision with a constant normal (spec §3.2–3.3).

// Effective mass of a disk–disk pair [kg]; for a wall pass m_b = INFINITY (gives m_a).
GRANULAR_HD inline double effective_mass(double m_a, double m_b) {
  return m_b > 1e300 ? m_a : m_a * m_b / (m_a + m_b);
}

struct NormalRestitution {
  double e_n;  // normal coefficient of restitution |u_n'/u_n| [-]
  double t_c;  // collision duration: from first touch until n first vanishes [s]
};

// Linear dashpot with cutoff, collision ending when n first vanishes (eqs. 4.55–4.56).
// ω0² = k_n/m_eff, β = γ_n/(2 m_eff), ω_n² = |ω0² − β²|; in every regime e_n = exp(−β t_c).
GRANULAR_HD inline NormalRestitution linear_dashpot_restitution(double k_n, double gamma_n,
                                                                double m_eff) {
  const double omega0 = sqrt(k_n / m_eff);
  const double beta = gamma_n / (2.0 * m_eff);
  const double c = beta / omega0;
  double t_c;
  if (fabs(c - 1.0) < 1e-9) {
    // critical damping: δ ∝ t e^{−βt}, n ∝ (2 − βt)
    t_c = 2.0 / beta;
  } else if (c < 1.0) {
    // underdamped: tan(ω_n t_c) = −2βω_n/(ω_n² − β²), the first root after 0 (4.55 a, b)
    const double omega_n = sqrt(omega0 * omega0 - beta * beta);
    t_c = (pi - atan2(2.0 * beta * omega_n, omega_n * omega_n - beta * beta)) / omega_n;
  } else {
    // overdamped (4.55 c)
    const double omega_n = sqrt(beta * beta - omega0 * omega0);
    t_c = log((beta + omega_n) / (beta - omega_n)) / omega_n;
  }
  return {exp(-beta * t_c), t_c};
}

// Damping ratio c = γ_n / (2 √(k_n m_eff)) of the linear dashpot [-]: c < 1 underdamped.
GRANULAR_HD inline double damping_ratio(double k_n, double gamma_n, double m_eff) {
  return gamma_n / (2.0 * sqrt(k_n * m_eff));
}

// Naive restitution of the undamped-cutoff reading (collision ends at δ = 0), underdamped only:
// e_n = exp(−πc/√(1−c²)). Kept to show how far it is from (4.56); NaN when c ≥ 1.
GRANULAR_HD inline double naive_restitution(double k_n, double gamma_n, double m_eff) {
  const double c = gamma_n / (2.0 * sqrt(k_n * m_eff));
  return c < 1.0 ? exp(-pi * c / sqrt(1.0 - c * c)) : NAN;
}

// Tangential restitution when the contact slides during the whole collision (eq. 4.75):
// e_t = 1 − 3μ(1 + e_n)|u_n/u_t|, with ratio = |u_t/u_n|. The factor 3 is m_eff/α for disks
// (I = mR²/2).
GRANULAR_HD inline double full_sliding_e_t(double e_n, double mu, double ratio) {
  return 1.0 - 3.0 * mu * (1.0 + e_n) / ratio;
}

// Smallest |u_t/u_n| above which the collision slides throughout (γ_n = 0), with the corrected
// condition of spec §3.3: max(μ/κ, 6μ − μ/κ), κ = k_t/k_n. The thesis' (4.76) alone is wrong.
GRANULAR_HD inline double full_sliding_threshold(double mu, double kappa) {
  const double a = mu / kappa;
  const double b = 6.0 * mu - mu / kappa;
  return a > b ? a : b;
}

// Small-|u_t/u_n| limit (eq. 4.79): the contact sticks and the skin oscillates at
// ω_t = √(3 k_t / m_eff) for the whole collision: e_t → cos(ω_t t_c).
GRANULAR_HD inline double sticking_limit_e_t(double k_t, double m_eff, double t_c) {
  return cos(sqrt(3.0 * k_t / m_eff) * t_c);
}

// The fastest rate [1/s] of one contact's linear dynamics: the normal mode (|eigenvalue| of
// the damped oscillator: ω0 when underdamped, β + ω_n when overdamped) and the sticking skin
// mode ω_t. An explicit integrator needs dt well below 1/rate.
GRANULAR_HD inline double fastest_contact_rate(const ContactParams& p, double m_eff) {
  const double omega0_sq = p.k_n / m_eff;
  const double beta = p.gamma_n / (2.0 * m_eff);
  double normal = sqrt(omega0_sq);
  if (beta * beta > omega0_sq) normal = beta + sqrt(beta * beta - omega0_sq);
  const double skin = sqrt(3.0 * p.k_t / m_eff);
  return normal > skin ? normal : skin;
}

// The largest time step an explicit integrator is given for a contact of effective mass m_eff
// [s]: ten steps per period 2π/rate of its fastest linear mode (fastest_contact_rate). The
// case loaders refuse a larger dt.
GRANULAR_HD inline double largest_time_step(const ContactParams& p, double m_eff) {
  return 2.0 * pi / (10.0 * fastest_contact_rate(p, m_eff));
}

// Shortest collision duration t_c (eq. 4.55) [s] over an ensemble's contacts: disk–disk at the
// smallest and largest pair m_eff (m/2 of the lightest and heaviest disks), disk–wall at the
// lightest and heaviest disks [kg]. t_c is monotonic in m_eff within a regime, so the two ends
// cover either direction.
GRANULAR_HD inline double shortest_collision_time(const ContactParams& disk_disk,
                                                  const ContactParams& disk_wall, double m_light,
                                                  double m_heavy) {
  double t = linear_dashpot_restitution(disk_disk.k_n, disk_disk.gamma_n, m_light / 2.0).t_c;
  const double t2 = linear_dashpot_restitution(disk_disk.k_n, disk_disk.gamma_n, m_heavy / 2.0).t_c;
  const double t3 = linear_dashpot_restitution(disk_wall.k_n, disk_wall.gamma_n, m_light).t_c;
  const double t4 = linear_dashpot_restitution(disk_wall.k_n, disk_wall.gamma_n, m_heavy).t_c;
  t = t2 < t ? t2 : t;
  t = t3 < t ? t3 : t;
  return t4 < t ? t4 : t;
}

}  // namespace granular
