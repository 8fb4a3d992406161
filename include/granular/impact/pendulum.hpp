// The damped, excited double pendulum hitting a rough horizontal floor (spec pendulum.md;
// Sypniewska-Kamińska, Starosta & Awrejcewicz 2017): Lagrange equations between impacts
// (§2.1), the gap f (§2.2), impacts by Routh's method with Poisson's restitution (§2.3–2.6),
// joint reaction impulses and joint forces (§2.6–2.7), and a run loop with event location and
// a Zeno policy (persistent contact with Coulomb friction, §5/§6 case 13).
//
// Conventions (spec §1, §2.3): ψ1, ψ2 are absolute angles from the downward vertical, same
// sense, not wrapped; the state is y = (ψ1, ψ2, ψ̇1, ψ̇2). At the contact point M, s is the slip
// velocity along i (horizontal, opposite to the bob's motion for increasing ψ) and c the normal
// velocity along k (up; c < 0 approaching). F̄ ≥ 0 is the normal and T̄ the tangential impulse.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/pendulum.hpp is host-only"
#endif

#include <Eigen/Dense>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "granular/contact_law.hpp"
#include "granular/impact/hybrid.hpp"

namespace granular::impact {

// The model, constant during a run (spec §1, §4).
struct PendulumParams {
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

// Rows of the contact Jacobian (spec §2.4): s = J_s·ψ̇, c = J_c·ψ̇, J_c = ∇f.
struct ContactJacobian {
  Eigen::Vector2d j_s;
  Eigen::Vector2d j_c;
};

// Mass matrix A(ψ) of the Lagrange equations (spec §2.1).
Eigen::Matrix2d pendulum_mass_matrix(const PendulumParams& p, double psi1, double psi2);
// |A| by the paper's closed form, eq. (6).
double pendulum_mass_determinant(const PendulumParams& p, double psi1, double psi2);
// Q(t, y): torques, damping, velocity terms and gravity (spec §2.1).
Eigen::Vector2d pendulum_generalized_forces(const PendulumParams& p, double t, const State& y);
// dy/dt of the free motion: (ψ̇, A⁻¹Q).
void pendulum_rhs(const PendulumParams& p, double t, const State& y, State& dydt);
// The gap f = D − l1 cos ψ1 − (l2 + r) cos ψ2 − r [m] (eq. 7).
double pendulum_gap(const PendulumParams& p, double psi1, double psi2);
ContactJacobian pendulum_contact_jacobian(const PendulumParams& p, double psi1, double psi2);
// W = J A⁻¹ Jᵀ as a Delassus matrix {γ, ε, α} (spec §2.4, compact form).
impulse::Delassus pendulum_delassus(const PendulumParams& p, double psi1, double psi2);
// The same from the paper's closed forms (36) A_i, Γ_i, E_i over 4|A|.
impulse::Delassus pendulum_delassus_closed_form(const PendulumParams& p, double psi1, double psi2);
// E = ½ψ̇ᵀAψ̇ − (m1/2 + m2) g l1 cos ψ1 − m2 g lc cos ψ2 [J], zero potential at O (spec §2.1).
double pendulum_energy(const PendulumParams& p, const State& y);

// Impulses at the joints (spec §2.3: H, V at A; R, P at O), [N s].
struct JointImpulses {
  double H, V, R, P;
};

// Forces at the joints (spec §2.7), [N]: P vertical and R horizontal at O, V vertical and H
// horizontal at A.
struct JointForces {
  double P, R, V, H;
};

// One impact, frozen configuration (spec §2.6).
struct PendulumImpact {
  double t;           // [s]
  double psi1, psi2;  // ψ* [rad], unwrapped
  double gap;         // f at the located impact (≤ 0, within the event tolerance) [m]
  Eigen::Vector2d omega_before;
  Eigen::Vector2d omega_after;  // [rad/s]
  double s_before, c_before;    // s0, c0 [m/s]
  impulse::Delassus w;          // {γ, ε, α} [1/kg]
  impulse::RouthImpact routh;   // impulses, s_f, c_f, case
  JointImpulses joint;
  double energy_before, energy_after;  // [J]
  bool plastic;  // applied with k = 0 on entering persistent contact (Zeno policy)
};

// Applies Routh's method at the state y (pre-impact); k and mu as given (spec §2.5–2.6).
// routh.routh_case == not_an_impact when c0 ≥ 0: then omega_after = omega_before.
PendulumImpact pendulum_impact(const PendulumParams& p, double t, const State& y, double k,
                               double mu);

// Joint forces from the state, its accelerations ψ̈ and the contact forces F (normal, up) and
// T (along i) acting at M (spec §2.7; with contact: H += T, V += F, P −= F).
JointForces pendulum_joint_forces(const PendulumParams& p, const State& y,
                                  const Eigen::Vector2d& psi_ddot, double F = 0.0, double T = 0.0);

// How the run treats the contact at a given moment.
enum class ContactMode { flight, sliding, rest };
const char* contact_mode_name(ContactMode m);

struct PendulumRunOptions {
  OdeOptions ode;                  // scheme, step, tolerances (event.hpp)
  double t_end = 6.0;              // [s]
  double output_interval = 1e-3;   // time-series spacing [s]
  ZenoGuard zeno;                  // accumulation detector
  double baumgarte_rate = 50.0;    // [1/s] drift correction of persistent contact
  long long max_events = 1000000;  // impacts and mode changes before the run stops (event_limit)
};

// One row of the time series.
struct PendulumSample {
  double t;
  State y;        // (ψ1, ψ2, ψ̇1, ψ̇2)
  double energy;  // [J]
  double gap;     // [m]
  JointForces joint;
  double F, T;  // contact forces at M [N] (0 in flight)
  ContactMode mode;
};

// The switch to persistent contact (Zeno policy) and where it led.
struct PendulumZeno {
  double t;               // time of the accumulating impact [s]
  double approach_speed;  // −c0 of that impact [m/s]
  int impact_index;       // its index in impacts
  int impacts_in_window;  // impacts counted by the guard's window
};

// A change of contact mode (persistent contact only): time, new mode and forces there.
struct ContactTransition {
  double t;
  ContactMode mode;
  double F, T;  // contact forces just after the switch [N]
};

struct PendulumRun {
  std::vector<PendulumImpact> impacts;
  std::vector<PendulumSample> samples;
  std::optional<PendulumZeno> zeno;
  std::vector<ContactTransition> transitions;
  // completed; or model_stop with reason painleve (persistent sliding with γ − μσε ≤ 0: no
  // consistent contact force) or missed_contact (the disk below the floor in flight: a flight
  // shorter than a step); or non_finite, event_limit, integrator_failed (hybrid.hpp)
  RunStatus status = RunStatus::completed;
  std::string reason;  // the model's word for a model_stop
  std::string detail;
  double t_final = 0.0;
  State y_final;
  ContactMode final_mode = ContactMode::flight;
};

// Runs from (ψ, ψ̇)(0) = y0 to options.t_end (spec §3, with exact event location).
PendulumRun run_pendulum(const PendulumParams& p, const State& y0,
                         const PendulumRunOptions& options);

}  // namespace granular::impact
