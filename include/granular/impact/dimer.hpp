// The bouncing dimer on a vertically vibrating plate (spec dimer.md; Zhao, Liu & Brogliato
// 2009, part II): two spheres joined by a rod, planar, 3 DOF, contacts at the lowest points of
// the spheres. Smooth phases (flight, and contact with the normal LCP and Coulomb friction,
// spec §2.4) alternate with impacts solved by Darboux–Keller impulse dynamics
// (impulse/darboux_keller.hpp, spec §2.5).
//
// Coordinates (spec §2.1 [D]): the centre of mass (x_G, y_G) and the tilt θ, θ > 0 raising the
// right sphere. Tip 0 is the left sphere (s = −1), tip 1 the right one (s = +1). The state
// vector is y = (x_G, y_G, θ, ẋ_G, ẏ_G, θ̇).
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/dimer.hpp is host-only"
#endif

#include <memory>
#include <string>
#include <vector>

#include "granular/impact/hybrid.hpp"
#include "granular/impulse/darboux_keller.hpp"

namespace granular::impact {

// The model: constant after loading (STYLE §2).
struct DimerParams {
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

// Plate motion y_p = A cos(ωt + α) and its derivatives.
struct PlateMotion {
  double y, v, a;
};
PlateMotion plate_motion(const DimerParams& p, double t);

// The paper's coefficients (3.2) of the left tip, with the squared l of b₆ (erratum 3).
struct DimerBCoefficients {
  double beta, b1, b4, b5, b6;
};
DimerBCoefficients dimer_b_coefficients(const DimerParams& p, double theta);

// Delassus matrix W = K M⁻¹ Kᵀ in the order n0, n1, t0, t1 (spec §2.3).
void dimer_delassus(const DimerParams& p, double theta, double w[4][4]);

// Stick coefficient of a single impact at the left tip (3.3): μ_st = b₆/(b₁ + b₄ + b₅).
double dimer_mu_stick_single(const DimerParams& p, double theta);

// Contact kinematics of tip i (spec §2.2): gap d, its rate, slip velocity v_t.
struct TipKinematics {
  double d, d_dot, v_t;
};
TipKinematics dimer_tip(const DimerParams& p, double t, const State& y, int tip);

// Kinetic energy (in the lab frame) [J].
double dimer_kinetic_energy(const DimerParams& p, const State& y);

// Contact state of a tip during a smooth phase.
enum class TipMode { open, stick, slip_positive, slip_negative };
const char* tip_mode_name(TipMode m);

// Contact forces and accelerations for a fixed set of tip modes (spec §2.4). Stick rows keep
// v̇_t = 0; slip rows carry F_t = −μ_c F_n sgn; closed rows keep d̈ = 0. A flat dimer with both
// tips sticking (superstatic, spec §2.4 [S]) has one tangential constraint on F_t0 + F_t1,
// split equally between the tips (the minimum-norm split; an assumption, the paper defers it).
struct DimerForces {
  double f_n[2];     // normal forces [N]
  double f_t[2];     // tangential forces [N]
  double d_ddot[2];  // gap accelerations [m/s²]
  double vt_dot[2];  // slip accelerations [m/s²]
  double accel[3];   // (ẍ_G, ÿ_G, θ̈)
  bool superstatic;  // both sticking on one merged constraint
  bool singular;     // the linear system could not be solved
};
DimerForces dimer_forces(const DimerParams& p, double t, const State& y, const TipMode mode[2]);

// Applies contact impulses (normal, tangential per tip) to the velocities.
void dimer_apply_impulse(const DimerParams& p, State& y, const double p_n[2], const double p_t[2]);

// Numerical settings of a run (the paper gives none, spec §3 [A]: ours, named).
struct DimerRunOptions {
  OdeOptions ode;                   // RK4 with a fixed step by default
  double t_end = 1.0;               // [s]
  double output_interval = 1e-4;    // time-series sampling [s]
  double average_from = 0.5;        // ⟨u⟩ and the mode use t ≥ average_from [s]
  double impact_to_contact = 1e-3;  // approach speed below which an impact is plastic (e = 0) and
                                    // the tip joins the contact phase (spec §3) [m/s]
  double slip_tol = 1e-7;           // |v_t| below which a closed tip is tested for stick [m/s]
  int impulse_steps = 2000;         // Darboux–Keller steps per impact
  long max_events = 2000000;        // events before the run stops (status)
  bool record_series = true;        // keep the time series
};

struct DimerImpact {
  double t;
  bool tips[2];     // tips in the impact set
  bool plastic[2];  // the approach was below impact_to_contact (e = 0)
  double d_dot_before[2], d_dot_after[2];
  double vt_before[2], vt_after[2];
  double p_n[2], p_t[2];
  impulse::DkSlip slip[2];
  int primary;  // first primary contact
  double theta;
  double energy_before, energy_after;  // kinetic energy in the plate frame [J]
  bool converged;
};

// A phase interval of one tip: open (flight), stick or slip.
struct DimerPhase {
  int tip;
  TipMode mode;
  double t_start, t_end;
};

struct DimerSample {
  double t;
  double x[2], y[2];      // sphere centres [m]
  double d[2], d_dot[2];  // gaps and their rates [m, m/s]
  double v_t[2];          // slip velocities of the tips [m/s]
  double vx[2];           // horizontal velocities of the sphere centres [m/s]
  double theta, theta_dot, y_plate;
  double f_n[2], f_t[2];
  TipMode mode[2];
};

enum class DimerMotion { rest, drift, jump, flutter, mixed };
const char* dimer_motion_name(DimerMotion m);

struct DimerRun {
  // How it ended (hybrid.hpp): completed at t_end; event_limit (max_events); model_stop with
  // reason impact_not_converged (Darboux–Keller within impulse_steps) or singular_contact (no
  // contact forces for the closed tips); non_finite (then the drifts are NaN);
  // integrator_failed.
  RunStatus status = RunStatus::completed;
  std::string reason;
  std::string detail;
  double t_final = 0.0;
  State y_final;
  std::vector<DimerSample> samples;
  std::vector<DimerImpact> impacts;
  std::vector<DimerPhase> phases;
  double mean_drift = 0.0;        // ⟨u⟩ of the left sphere over [average_from, t_end] [m/s]
  double mean_drift_right = 0.0;  // the same for the right sphere [m/s]
  DimerMotion motion = DimerMotion::mixed;
  // in drift: the tip lying on the plate (-1 otherwise), and ⟨u⟩ counted positive towards the
  // bouncing end, the paper's convention (spec §1), whichever sphere ended up bouncing [m/s]
  int resting_tip = -1;
  double drift_to_bouncing_end = 0.0;
  // the impact pattern behind the classification (per tip, over the averaging window)
  double impacts_per_period[2] = {0.0, 0.0};  // impacts with approach above 10% of Aω
  double contact_fraction[2] = {0.0, 0.0};    // time fraction closed
  long events = 0;
};

// Initial state: lower (left) tip h₀ above y = 0, tilt θ₀, at rest (spec §1).
State dimer_initial_state(const DimerParams& p, double h0, double theta0);

// Runs the event-driven scheme of spec §3 from y0 at t = 0.
DimerRun run_dimer(const DimerParams& p, const State& y0, const DimerRunOptions& o);

// Motion mode from the impact pattern and contact fractions (src/impact/dimer_mode.cpp).
DimerMotion classify_dimer_motion(const DimerParams& p, const DimerRun& run,
                                  const DimerRunOptions& o, double impacts_per_period[2],
                                  double contact_fraction[2]);

}  // namespace granular::impact
