// Darboux–Keller impulse dynamics of a planar frictional impact at up to two contacts (spec
// dimer.md §2.5, §3; Liu, Zhao & Brogliato 2008). Configuration is frozen and non-impulsive
// forces are ignored, so the contact velocities u = (u_n0, u_n1, u_t0, u_t1) follow
//   du = W dP,  W = K M⁻¹ Kᵀ  (index 0,1: normals of contacts 0,1; 2,3: their tangents),
// with the normal impulse of the *primary* contact (the one storing the most potential energy)
// as the time-like variable. Per contact:
//   - stored energy Ẽ_i ≥ 0 (2.11, read piecewise [D]): dẼ = −u_n dP_n in compression (u_n < 0),
//     dẼ = −u_n dP_n / e_i² in expansion; the contact is done when Ẽ_i is back to 0, which is
//     the energetic coefficient of restitution (2.9);
//   - distributing law (2.10) with the Hertz exponent of the erratum: dP_ni/dP_nj =
//     (Ẽ_i/Ẽ_j)^κ, κ = 3/5 by default (printed 5/3 [A]);
//   - Coulomb in impulse space: slip dP_t = −μ dP_n sgn(u_t); at u_t = 0 the impulse keeping
//     du_t = 0 is tried and kept when |dP_t| ≤ μ_s dP_n (stick), else the contact reverses with
//     |dP_t| = μ dP_n against the tendency.
// Explicit steps of the primary impulse; every step is cut where a slip velocity reaches 0,
// where a compression ends and where an expansion releases its last energy, so a single
// contact in constant slip is integrated exactly (its u is linear and Ẽ quadratic in P).
// Host and device: fixed arrays, no allocation; a failure is a status.
#pragma once

#include <cmath>

#include "granular/hd.hpp"

namespace granular::impulse {

// At most two contacts take part in one impact (the dimer's two tips).
constexpr int dk_max_contacts = 2;

struct DkParams {
  double e[dk_max_contacts];  // energetic coefficient of restitution per contact (2.9) [-]
  double mu_static;           // static coefficient: stick if |dP_t| ≤ μ_s dP_n [-]
  double mu_slip;             // slip coefficient during impacts (μ_i of spec §4) [-]
  double kappa;               // distributing-law exponent, 0 < κ < 1 (3/5 by default) [-]
  int steps;                  // primary-impulse steps over the estimated impact [-]
  int max_steps;              // give up (status) after this many steps [-]
  // the outcome label only (DkResult::slip): a contact ends stuck when its slip at the end is
  // at most this; 0: exactly 0, in stick [m/s]
  double slip_tol = 0.0;
};

// Pre-impact contact velocities and which contacts take part (approaching, or closed with
// u_n = 0).
struct DkInput {
  double w[4][4];                  // Delassus matrix, order n0, n1, t0, t1 [1/kg]
  bool in_set[dk_max_contacts];    // the contact takes part in the impact
  double u_n[dk_max_contacts];     // normal relative velocity, < 0 approaching [m/s]
  double u_t[dk_max_contacts];     // tangential slip velocity [m/s]
};

// Tangential outcome of a contact over the impact.
enum class DkSlip { none, slip, stick, reverse };

struct DkResult {
  double p_n[dk_max_contacts];       // normal impulse [N s]
  double p_t[dk_max_contacts];       // tangential impulse [N s]
  double u_n[dk_max_contacts];       // post-impact normal velocity [m/s]
  double u_t[dk_max_contacts];       // post-impact slip velocity [m/s]
  double energy_max[dk_max_contacts];  // largest stored energy Ẽ_i [J]
  DkSlip slip[dk_max_contacts];      // stick if the contact ends stuck (|u_t| ≤ slip_tol),
                                     // else reverse if it reversed on the way, else slip
  int first_primary;                 // the contact that drove the start (-1: no impact)
  int steps;                         // steps taken
  bool converged;                    // false: max_steps reached
};

namespace dk_detail {

GRANULAR_HD inline double sign_of(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

// Tangential impulse increments for normal increments dpn (spec §2.5 tangential direction).
// mode: +1/−1 slipping with that sign of u_t, 0 stick candidate; a stick candidate whose
// sticking impulse leaves the static cone gets the reversal direction. When both contacts
// stick and their tangent rows coincide (the superstatic flat dimer, spec §2.4 [S]), only the
// total dP_t1 + dP_t2 is determined: it is split in proportion to the normal increments and
// checked against μ_s (dP_n1 + dP_n2), as in (3.4).
GRANULAR_HD inline void tangential(const double w[4][4], const bool active[2],
                                   const double dpn[2], double mu_s, double mu, int mode[2],
                                   double dpt[2]) {
  for (int pass = 0; pass < 3; ++pass) {
    bool stick[2];
    for (int i = 0; i < 2; ++i) {
      stick[i] = active[i] && mode[i] == 0;
      dpt[i] = active[i] && mode[i] != 0 ? -mu * mode[i] * dpn[i] : 0.0;
    }
    // right-hand side of du_t = 0 for the sticking rows, the slipping impulses known
    double rhs[2];
    for (int i = 0; i < 2; ++i)
      rhs[i] = -(w[2 + i][0] * dpn[0] + w[2 + i][1] * dpn[1] +
                 (stick[0] ? 0.0 : w[2 + i][2] * dpt[0]) +
                 (stick[1] ? 0.0 : w[2 + i][3] * dpt[1]));
    bool ok = true;
    if (stick[0] && stick[1]) {
      const double det = w[2][2] * w[3][3] - w[2][3] * w[3][2];
      if (fabs(det) <= 1e-8 * w[2][2] * w[3][3]) {
        // superstatic: one constraint on the total
        const double total = rhs[0] / w[2][2];
        const double n = dpn[0] + dpn[1];
        dpt[0] = n > 0.0 ? total * dpn[0] / n : 0.5 * total;
        dpt[1] = total - dpt[0];
        if (fabs(total) > mu_s * n * (1.0 + 1e-12)) {
          mode[0] = mode[1] = total > 0.0 ? -1 : 1;
          ok = false;
        }
      } else {
        dpt[0] = (w[3][3] * rhs[0] - w[2][3] * rhs[1]) / det;
        dpt[1] = (w[2][2] * rhs[1] - w[3][2] * rhs[0]) / det;
      }
    } else {
      for (int i = 0; i < 2; ++i)
        if (stick[i]) dpt[i] = rhs[i] / w[2 + i][2 + i];
    }
    if (!ok) continue;
    // the static cone; a violating contact slips against its sticking impulse's tendency
    for (int i = 0; i < 2; ++i) {
      if (stick[i] && fabs(dpt[i]) > mu_s * dpn[i] * (1.0 + 1e-12)) {
        mode[i] = dpt[i] > 0.0 ? -1 : 1;
        ok = false;
      }
    }
    if (ok) return;
  }
  // modes settled by the last pass: recompute the slipping impulses with them
  for (int i = 0; i < 2; ++i)
    if (active[i] && mode[i] != 0) dpt[i] = -mu * mode[i] * dpn[i];
}

// Smallest root in (0, 1] of a λ² + b λ + c (c > 0 at λ = 0), or 2 if none.
GRANULAR_HD inline double first_root(double a, double b, double c) {
  double best = 2.0;
  if (fabs(a) < 1e-300) {
    if (b < 0.0) best = -c / b;
  } else {
    const double disc = b * b - 4.0 * a * c;
    if (disc >= 0.0) {
      const double sq = sqrt(disc);
      // numerically stable pair of roots
      const double q = -0.5 * (b + (b >= 0.0 ? sq : -sq));
      const double r1 = q / a;
      const double r2 = q != 0.0 ? c / q : 2.0;
      if (r1 > 0.0 && r1 < best) best = r1;
      if (r2 > 0.0 && r2 < best) best = r2;
    }
  }
  return best > 0.0 && best <= 1.0 ? best : 2.0;
}

// The normal impulses of one step of the primary contact j (its step h): the distributing law
// (2.10); a secondary contact with Ẽ = 0 that approaches is the non-Lipschitz start of spec §3:
// its impulse over the step is the exact solution of dP_i/dP_j = (−u_i P_i / Ẽ_j)^κ, i.e.
// P_i^{1−κ} = (1−κ)(−u_i)^κ ∫ Ẽ_j^{−κ} dP_j, with Ẽ_j frozen over the step, or Ẽ_j = −u_j P_j when
// both start together (ratio (u_i/u_j)^{κ/(1−κ)}).
GRANULAR_HD inline void distribute_normal(const bool active[2], int j, const double energy[2],
                                          const double un[2], double h, double kappa,
                                          double dpn[2]) {
  for (int i = 0; i < 2; ++i) {
    dpn[i] = 0.0;
    if (!active[i]) continue;
    double rho = 1.0;
    if (i != j) {
      if (energy[i] > 0.0) {
        rho = pow(energy[i] / energy[j], kappa);
      } else if (energy[j] > 0.0) {
        const double p_i = pow((1.0 - kappa) * pow(-un[i], kappa) * h * pow(energy[j], -kappa),
                               1.0 / (1.0 - kappa));
        rho = p_i / h;
      } else {
        rho = pow(un[i] / un[j], kappa / (1.0 - kappa));
      }
      if (rho > 1.0) rho = 1.0;
    }
    dpn[i] = rho * h;
  }
}

// The first event within a step of velocity increments du (normal 0–1, tangential 2–3), as the
// fraction lambda of the step: a slip reaching 0 (kind 1), the end of a compression (2), a
// contact's stored energy spent (3); kind 0 and lambda 1 when none comes first.
struct DkCut {
  double lambda = 1.0;
  int kind = 0;
  int contact = -1;
};

GRANULAR_HD inline DkCut first_event(const DkParams& p, const DkInput& in, const bool active[2],
                                     const int mode[2], const double un[2], const double ut[2],
                                     const double du[4], const double dpn[2],
                                     const double energy[2]) {
  DkCut cut;
  const auto take = [&](double l, int kind, int i) {
    if (l < cut.lambda) {
      cut.lambda = l;
      cut.kind = kind;
      cut.contact = i;
    }
  };
  for (int i = 0; i < 2; ++i) {
    if (!in.in_set[i]) continue;
    if (mode[i] != 0 && ut[i] != 0.0 && ut[i] * (ut[i] + du[2 + i]) <= 0.0)
      take(ut[i] / (ut[i] - (ut[i] + du[2 + i])), 1, i);
    if (un[i] < 0.0 && un[i] + du[i] > 0.0) take(-un[i] / du[i], 2, i);
    if (active[i] && un[i] >= 0.0 && dpn[i] > 0.0 && p.e[i] > 0.0) {
      const double e2 = p.e[i] * p.e[i];
      take(first_root(-dpn[i] * du[i] / (2.0 * e2), -dpn[i] * un[i] / e2, energy[i]), 3, i);
    }
  }
  return cut;
}

// The energy each active contact stores after a fraction lambda of the step: its work over the
// step is exact (u_n linear, dP_n constant); an expanding contact releases it divided by e².
GRANULAR_HD inline void store_work(const DkParams& p, const bool active[2], const double un[2],
                                   const double du[4], const double dpn[2], double lambda,
                                   double energy[2], double energy_max[2]) {
  for (int i = 0; i < 2; ++i) {
    if (!active[i]) continue;
    const double u_mid = un[i] + 0.5 * lambda * du[i];
    const double work = lambda * dpn[i] * u_mid;
    if (u_mid < 0.0 || (un[i] < 0.0)) {
      energy[i] -= work;
    } else if (p.e[i] > 0.0) {
      energy[i] -= work / (p.e[i] * p.e[i]);
    } else {
      energy[i] = 0.0;
    }
    if (energy[i] < 0.0) energy[i] = 0.0;
    if (energy[i] > energy_max[i]) energy_max[i] = energy[i];
  }
}

}  // namespace dk_detail

// Integrates one impact. Contacts not in the set get no impulse. Returns the total impulses
// and post-impact velocities; first_primary = -1 when no contact of the set approaches.
GRANULAR_HD inline DkResult darboux_keller_impact(const DkParams& p, const DkInput& in) {
  DkResult r{};
  r.first_primary = -1;
  r.converged = true;
  double un[2], ut[2], energy[2];
  int mode[2];
  for (int i = 0; i < 2; ++i) {
    un[i] = in.u_n[i];
    ut[i] = in.u_t[i];
    energy[i] = 0.0;
    mode[i] = static_cast<int>(dk_detail::sign_of(ut[i]));
    r.slip[i] = DkSlip::none;
  }

  // step of the primary impulse: the estimated impulse of the fastest approach over `steps`
  double approach = 0.0, w_min = 1e300;
  for (int i = 0; i < 2; ++i) {
    if (!in.in_set[i]) continue;
    if (-un[i] > approach) approach = -un[i];
    if (in.w[i][i] < w_min) w_min = in.w[i][i];
  }
  if (!(approach > 0.0)) {
    for (int i = 0; i < 2; ++i) {
      r.u_n[i] = un[i];
      r.u_t[i] = ut[i];
    }
    return r;
  }
  const double h = 2.0 * approach / w_min / p.steps;
  const double kappa = p.kappa;

  for (int k = 0; k < p.max_steps; ++k) {
    // contacts that store energy or approach take part in this step
    bool active[2];
    int j = -1;
    for (int i = 0; i < 2; ++i) {
      active[i] = in.in_set[i] && (energy[i] > 0.0 || un[i] < 0.0);
      if (!active[i]) continue;
      if (j < 0 || energy[i] > energy[j] || (energy[i] == energy[j] && un[i] < un[j])) j = i;
    }
    if (j < 0) break;
    if (r.first_primary < 0) r.first_primary = j;

    // distributing law (2.10)
    double dpn[2];
    dk_detail::distribute_normal(active, j, energy, un, h, kappa, dpn);
    for (int i = 0; i < 2; ++i) {
      if (!active[i]) continue;
      if (ut[i] > 0.0) mode[i] = 1;
      if (ut[i] < 0.0) mode[i] = -1;
    }
    int mode_before[2] = {mode[0], mode[1]};
    double dpt[2];
    dk_detail::tangential(in.w, active, dpn, p.mu_static, p.mu_slip, mode, dpt);
    for (int i = 0; i < 2; ++i) {
      if (!active[i]) continue;
      if (mode_before[i] == 0 && mode[i] != 0) r.slip[i] = DkSlip::reverse;
    }

    // velocity increments over the full step
    const double dp[4] = {dpn[0], dpn[1], dpt[0], dpt[1]};
    double du[4];
    for (int a = 0; a < 4; ++a)
      du[a] = in.w[a][0] * dp[0] + in.w[a][1] * dp[1] + in.w[a][2] * dp[2] + in.w[a][3] * dp[3];

    // cut the step at the first event: slip reaching 0, end of compression, end of expansion
    const dk_detail::DkCut cut =
        dk_detail::first_event(p, in, active, mode, un, ut, du, dpn, energy);
    const double lambda = cut.lambda;
    dk_detail::store_work(p, active, un, du, dpn, lambda, energy, r.energy_max);
    for (int i = 0; i < 2; ++i) {
      un[i] += lambda * du[i];
      ut[i] += lambda * du[2 + i];
      r.p_n[i] += lambda * dpn[i];
      r.p_t[i] += lambda * dpt[i];
      if (active[i] && mode[i] == 0) {
        ut[i] = 0.0;
        r.slip[i] = DkSlip::stick;
      }
    }
    if (cut.kind == 1) {
      ut[cut.contact] = 0.0;
      mode[cut.contact] = 0;
    } else if (cut.kind == 2) {
      un[cut.contact] = 0.0;
      // with e = 0 the expansion releases nothing (2.9): the contact is done at once
      if (!(p.e[cut.contact] > 0.0)) energy[cut.contact] = 0.0;
    } else if (cut.kind == 3) {
      energy[cut.contact] = 0.0;
    }
    r.steps = k + 1;
    if (k + 1 == p.max_steps) r.converged = false;
  }

  // the tangential outcome: slipping at the end unless stuck (or reversed on the way). Stuck
  // is read from the slip at the end, to slip_tol: a contact that is done while the other one
  // still acts keeps moving with it, so where both tangent rows coincide (the flat dimer) its
  // slip ends at the other's stick to rounding, whatever its own mode (a reversal of the
  // first of two slips reaching 0 together included)
  for (int i = 0; i < 2; ++i) {
    r.u_n[i] = un[i];
    r.u_t[i] = ut[i];
    const bool stuck =
        p.slip_tol > 0.0 ? fabs(ut[i]) <= p.slip_tol : (ut[i] == 0.0 && mode[i] == 0);
    if (!in.in_set[i] || !(r.p_n[i] > 0.0)) {
      r.slip[i] = DkSlip::none;
    } else if (stuck) {
      r.slip[i] = DkSlip::stick;
    } else if (r.slip[i] != DkSlip::reverse) {
      r.slip[i] = DkSlip::slip;
    }
  }
  return r;
}

// Name of a tangential outcome for outputs.
GRANULAR_HD inline const char* dk_slip_name(DkSlip s) {
  switch (s) {
    case DkSlip::slip: return "slip";
    case DkSlip::stick: return "stick";
    case DkSlip::reverse: return "reverse";
    default: return "none";
  }
}

}  // namespace granular::impulse
