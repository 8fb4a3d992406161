// Routh's planar impact law with Poisson's restitution and Coulomb friction, generic over the
// 2×2 Delassus matrix of one contact (docs/pendulum.md §2.4–2.5; Routh 1905, as used by
// Sypniewska-Kamińska, Starosta & Awrejcewicz 2017). Part of contact_law.hpp.
//
// Notation of the spec: s = tangential (slip) velocity, c = normal velocity (c < 0 while
// approaching), T̄ = tangential impulse, F̄ = normal impulse ≥ 0, and (eqs. 34–35)
//   s − s0 = α T̄ + ε F̄,   c − c0 = ε T̄ + γ F̄,
// i.e. Delassus{w_nn = γ, w_nt = ε, w_tt = α}. The path in the (F̄, T̄) half-plane is piecewise
// linear with at most three segments (friction line, sticking line, reversed friction line), so
// the integration over F̄ is exact: no steps, no tolerance.
//
// Poisson's hypothesis (eqs. 28–29): compression ends where c = 0 at F̄ = F̄m; the impact ends at
// F̄_f = (1 + k) F̄m. Coulomb (eq. 30, read as |T| ≤ μF): while s ≠ 0, dT̄/dF̄ = −μ sgn(s); once
// s = 0 the contact sticks if μ ≥ |ε|/α (dT̄/dF̄ = −ε/α keeps s = 0), else it slides on with
// sgn(s) = sgn(ε) (slip reversal).
#pragma once

#include <cmath>

#include "granular/hd.hpp"
#include "granular/impulse/restitution.hpp"

namespace granular::impulse {

// The cases of Fig. 4 of the paper (spec §2.5 table; d = stick, e = reversal, as inferred) and
// the ones the paper does not cover.
enum class RouthCase : int {
  not_an_impact = 0,  // c0 ≥ 0 (or a non-finite input): no impulse
  smooth = 1,         // μ = 0 (or ε = 0 and s0 = 0): T̄ = 0
  a = 2,              // s never reaches 0
  b = 3,              // s = 0 during compression, sticking persists
  c = 4,              // s = 0 during compression, slip reversal
  d = 5,              // s = 0 during restitution, sticking persists
  e = 6,              // s = 0 during restitution, slip reversal
  start_stick = 7,    // s0 = 0 and μ ≥ |ε|/α: sticks throughout
  start_slide = 8,    // s0 = 0 and μ < |ε|/α: slides with sgn(s) = sgn(ε) throughout
  failed = 9          // the segment logic did not terminate (not expected: W not SPD)
};

// Short label of a case ("a".."e", "smooth", ...), for outputs.
GRANULAR_HD inline const char* routh_case_name(RouthCase c) {
  switch (c) {
    case RouthCase::smooth: return "smooth";
    case RouthCase::a: return "a";
    case RouthCase::b: return "b";
    case RouthCase::c: return "c";
    case RouthCase::d: return "d";
    case RouthCase::e: return "e";
    case RouthCase::start_stick: return "start_stick";
    case RouthCase::start_slide: return "start_slide";
    case RouthCase::failed: return "failed";
    default: return "not_an_impact";
  }
}

struct RouthImpact {
  double p_n;              // F̄_f, total normal impulse [N s] (≥ 0)
  double p_t;              // T̄_f, total tangential impulse [N s]
  double p_n_compression;  // F̄m, normal impulse at the end of compression [N s]
  double p_n_stick;        // F̄ where s first reached 0 (NaN if it never did) [N s]
  double u_n;              // c_f, normal velocity after the impact [m/s] (≥ 0)
  double u_t;              // s_f, slip velocity after the impact [m/s]
  double work;             // work of the contact impulses along the path [J] = ΔKE ≤ 0
  int segments;            // linear segments of the path (1 to 3, plus one per c = 0 split)
  RouthCase routh_case;
};

// Integrates one impact in impulse space (spec §2.5, the algorithm there). u_n = c0 < 0,
// u_t = s0, k = Poisson's coefficient in [0, 1], mu = Coulomb's coefficient ≥ 0.
GRANULAR_HD inline RouthImpact routh_poisson_impact(const Delassus& w, double u_n, double u_t,
                                                    double k, double mu) {
  const double alpha = w.w_tt, eps = w.w_nt, gamma = w.w_nn;
  RouthImpact r{0.0, 0.0, 0.0, NAN, u_n, u_t, 0.0, 0, RouthCase::not_an_impact};
  if (!(u_n < 0.0) || !(fabs(u_t) < INFINITY)) return r;

  // the slope λ = dT̄/dF̄ of the next segment (spec §2.5 select(s)); μ = 0 ignores s entirely
  // (fact 5), so the smooth impact is a single straight line
  const bool frictional = mu > 0.0;
  bool sticking = false;
  const auto select = [&](double s) {
    sticking = false;
    if (!frictional) return 0.0;
    if (s != 0.0) return s > 0.0 ? -mu : mu;
    if (fabs(eps) <= mu * alpha) {
      sticking = true;
      return -eps / alpha;
    }
    return eps > 0.0 ? -mu : mu;
  };

  double F = 0.0, T = 0.0, s = u_t, c = u_n, work = 0.0;
  double f_end = INFINITY;
  bool compression = true;
  bool stuck_once = false, stuck_in_compression = false, reversed = false;
  double lambda = select(s);
  const bool start_at_zero = frictional && s == 0.0;
  const bool start_sticking = sticking;

  // at most: compression split, stick (or reversal), end — a few segments; more means W is
  // not positive definite
  for (int seg = 0; seg < 8; ++seg) {
    const double ds = alpha * lambda + eps;
    const double dc = eps * lambda + gamma;
    // the nearest event along the segment
    double step = f_end - F;
    int which = 2;  // 0: c → 0, 1: s → 0, 2: end of impact
    if (compression && dc > 0.0) {
      const double to_max_compression = -c / dc;
      if (to_max_compression <= step) {
        step = to_max_compression;
        which = 0;
      }
    }
    if (frictional && !sticking && s != 0.0 && s * ds < 0.0) {
      const double to_stick = -s / ds;
      if (to_stick < step) {
        step = to_stick;
        which = 1;
      }
    }
    if (!(step < INFINITY)) break;  // no event ahead: W is not SPD
    // exact work of the segment: velocities are linear in F̄ along it
    const double s_next = s + ds * step;
    const double c_next = c + dc * step;
    work += 0.5 * (s + s_next) * lambda * step + 0.5 * (c + c_next) * step;
    T += lambda * step;
    F += step;
    s = s_next;
    c = c_next;
    ++r.segments;
    if (which == 0) {
      // end of compression: Poisson's F̄_f = (1 + k) F̄m (eq. 29)
      c = 0.0;
      r.p_n_compression = F;
      f_end = (1.0 + k) * F;
      compression = false;
      if (k == 0.0) which = 2;
    } else if (which == 1) {
      // s = 0: stick, or slide on in the reversed sense (spec §2.5 facts 2–3)
      s = 0.0;
      if (!stuck_once) r.p_n_stick = F;
      stuck_once = true;
      stuck_in_compression = compression;
      lambda = select(0.0);
      reversed = !sticking;
    }
    if (which == 2) {
      r.p_n = F;
      r.p_t = T;
      r.u_n = c;
      r.u_t = sticking ? 0.0 : s;
      r.work = work;
      if (!frictional) r.routh_case = RouthCase::smooth;
      else if (start_at_zero) r.routh_case = start_sticking ? RouthCase::start_stick
                                                            : RouthCase::start_slide;
      else if (!stuck_once) r.routh_case = RouthCase::a;
      else if (stuck_in_compression) r.routh_case = reversed ? RouthCase::c : RouthCase::b;
      else r.routh_case = reversed ? RouthCase::e : RouthCase::d;
      return r;
    }
  }
  r.routh_case = RouthCase::failed;
  return r;
}

}  // namespace granular::impulse
