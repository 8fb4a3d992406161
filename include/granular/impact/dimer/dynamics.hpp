// The dimer between impacts (Zhao, Liu & Brogliato 2009, part II, §2.1–2.4; docs/dimer.md):
// plate motion, tip kinematics, the Delassus matrix, contact modes and contact-phase forces.
#pragma once

#include "granular/hd.hpp"
#include "granular/impulse/restitution.hpp"
#include "granular/names.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/dimer/dynamics.hpp is host-only"
#endif

#include "granular/impact/dimer/params.hpp"

namespace granular::dimer {

// An open tip at this gap or below that approaches the plate is impacting [m].
inline constexpr double kGapTol = 1e-12;

// Plate motion y_p = A cos(ωt + α) and its derivatives.
struct PlateMotion {
  double y, v, a;
};
PlateMotion plate_motion(const Params& p, double t);

// The paper's coefficients (3.2) of the left tip, with the squared l of b₆ (erratum 3).
struct DimerBCoefficients {
  double beta, b1, b4, b5, b6;
};
DimerBCoefficients dimer_b_coefficients(const Params& p, double theta);

// Delassus matrix W = K M⁻¹ Kᵀ in the order n0, n1, t0, t1 (spec §2.3).
void dimer_delassus(const Params& p, double theta, double w[4][4]);

// Stick coefficient of a single impact at the left tip (3.3): μ_st = b₆/(b₁ + b₄ + b₅).
double dimer_mu_stick_single(const Params& p, double theta);

// Contact kinematics of tip i (spec §2.2): gap d, its rate, slip velocity v_t.
struct TipKinematics {
  double d, d_dot, v_t;
};
TipKinematics dimer_tip(const Params& p, double t, const State& y, int tip);

// Kinetic energy (in the lab frame) [J].
double dimer_kinetic_energy(const Params& p, const State& y);

// Contact state of a tip during a smooth phase.
enum class TipMode { open, stick, slip_positive, slip_negative };
inline constexpr Named<TipMode> tip_mode_names[] = {{TipMode::open, "open"},
                                                    {TipMode::stick, "stick"},
                                                    {TipMode::slip_positive, "slip+"},
                                                    {TipMode::slip_negative, "slip-"}};

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
DimerForces dimer_forces(const Params& p, double t, const State& y, const TipMode mode[2]);

// Applies contact impulses (normal, tangential per tip) to the velocities.
void dimer_apply_impulse(const Params& p, State& y, const double p_n[2], const double p_t[2]);

// Initial state: lower (left) tip h₀ above y = 0, tilt θ₀, at rest (spec §1).
State dimer_initial_state(const Params& p, double h0, double theta0);

// s_i of §2.1: −1 for the left tip (0), +1 for the right one (1).
inline double side(int tip) { return tip == 0 ? -1.0 : 1.0; }

// True for a tip on the plate (stick or slip).
inline bool closed(TipMode m) { return m != TipMode::open; }

}  // namespace granular::dimer
