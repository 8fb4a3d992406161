// The double pendulum between impacts (Sypniewska-Kamińska, Starosta & Awrejcewicz 2017,
// §2.1–2.4, §2.7; docs/pendulum.md): mass matrix, generalized forces, the gap and its
// Jacobian, the Delassus matrix of the floor contact, energy and joint forces.
#pragma once

#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impact/pendulum/dynamics.hpp is host-only"
#endif

#include <Eigen/Dense>

#include "granular/impact/pendulum/params.hpp"
#include "granular/impulse/restitution.hpp"
#include "granular/impulse/routh.hpp"

namespace granular::pendulum {

// Rows of the contact Jacobian (spec §2.4): s = J_s·ψ̇, c = J_c·ψ̇, J_c = ∇f.
struct ContactJacobian {
  Eigen::Vector2d j_s;
  Eigen::Vector2d j_c;
};

// Mass matrix A(ψ) of the Lagrange equations (spec §2.1).
Eigen::Matrix2d pendulum_mass_matrix(const Params& p, double psi1, double psi2);
// |A| by the paper's closed form, eq. (6).
double pendulum_mass_determinant(const Params& p, double psi1, double psi2);
// Q(t, y): torques, damping, velocity terms and gravity (spec §2.1).
Eigen::Vector2d pendulum_generalized_forces(const Params& p, double t, const State& y);
// dy/dt of the free motion: (ψ̇, A⁻¹Q).
void pendulum_rhs(const Params& p, double t, const State& y, State& dydt);
// The gap f = D − l1 cos ψ1 − (l2 + r) cos ψ2 − r [m] (eq. 7).
double pendulum_gap(const Params& p, double psi1, double psi2);
ContactJacobian pendulum_contact_jacobian(const Params& p, double psi1, double psi2);
// W = J A⁻¹ Jᵀ as a Delassus matrix {γ, ε, α} (spec §2.4, compact form).
impulse::Delassus pendulum_delassus(const Params& p, double psi1, double psi2);
// The same from the paper's closed forms (36) A_i, Γ_i, E_i over 4|A|.
impulse::Delassus pendulum_delassus_closed_form(const Params& p, double psi1, double psi2);
// E = ½ψ̇ᵀAψ̇ − (m1/2 + m2) g l1 cos ψ1 − m2 g lc cos ψ2 [J], zero potential at O (spec §2.1).
double pendulum_energy(const Params& p, const State& y);

// Forces at the joints (spec §2.7), [N]: P vertical and R horizontal at O, V vertical and H
// horizontal at A.
struct JointForces {
  double P, R, V, H;
};

// Joint forces from the state, its accelerations ψ̈ and the contact forces F (normal, up) and
// T (along i) acting at M (spec §2.7; with contact: H += T, V += F, P −= F).
JointForces pendulum_joint_forces(const Params& p, const State& y, const Eigen::Vector2d& psi_ddot,
                                  double F = 0.0, double T = 0.0);

}  // namespace granular::pendulum
