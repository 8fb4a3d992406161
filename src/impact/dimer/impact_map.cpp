// The dimer's impact map (include/granular/impact/dimer/impact_map.hpp).
#include "granular/impact/dimer/impact_map.hpp"

#include <cmath>

namespace granular::dimer {

namespace {

// Kinetic energy relative to the plate, the frame in which an impact cannot gain energy.
double relative_energy(const Params& p, double t, const State& y) {
  State rel = y;
  rel[4] -= plate_motion(p, t).v;
  return dimer_kinetic_energy(p, rel);
}

}  // namespace

DimerImpact dimer_impact(const Params& p, const Options& o, double t, State& y, TipMode mode[2]) {
  DimerImpact im{};
  im.t = t;
  im.theta = y[2];
  impulse::DkParams dk{};
  impulse::DkInput in{};
  dimer_delassus(p, y[2], in.w);
  dk.mu_static = p.mu_s;
  dk.mu_slip = p.mu_i;
  dk.kappa = p.kappa;
  dk.steps = o.impulse_steps;
  dk.max_steps = 50 * o.impulse_steps;
  dk.slip_tol = o.slip_tol;  // the tips' outcome label: stuck as the contact phase reads it
  for (int i = 0; i < 2; ++i) {
    const TipKinematics k = dimer_tip(p, t, y, i);
    im.tips[i] = closed(mode[i]) || (k.d <= kGapTol && k.d_dot < 0.0);
    im.plastic[i] = im.tips[i] && k.d_dot < 0.0 && -k.d_dot < o.driver.zeno.min_speed;
    in.in_set[i] = im.tips[i];
    in.u_n[i] = k.d_dot;
    in.u_t[i] = k.v_t;
    dk.e[i] = im.plastic[i] ? 0.0 : p.e;
    im.d_dot_before[i] = k.d_dot;
    im.vt_before[i] = k.v_t;
  }
  im.energy_before = relative_energy(p, t, y);
  const impulse::DkResult r = impulse::darboux_keller_impact(dk, in);
  dimer_apply_impulse(p, y, r.p_n, r.p_t);
  im.primary = r.first_primary;
  im.converged = r.converged;
  for (int i = 0; i < 2; ++i) {
    const TipKinematics k = dimer_tip(p, t, y, i);
    im.d_dot_after[i] = k.d_dot;
    im.vt_after[i] = k.v_t;
    im.p_n[i] = r.p_n[i];
    im.p_t[i] = r.p_t[i];
    im.slip[i] = r.slip[i];
  }
  // a tip that leaves without separating speed stays on the plate; after a plastic impact a
  // tip of the set leaving slower than impact_to_contact does too (ḋ set to 0, spec §3), so
  // that a flat dimer rocking on alternate tips settles instead of chattering
  const bool any_plastic = im.plastic[0] || im.plastic[1];
  for (int i = 0; i < 2; ++i) {
    if (!im.tips[i]) continue;
    const double leave = im.d_dot_after[i];
    const bool stays = leave <= 1e-12 || (any_plastic && leave < o.driver.zeno.min_speed);
    mode[i] = stays ? TipMode::stick : TipMode::open;
  }
  im.energy_after = relative_energy(p, t, y);
  return im;
}

}  // namespace granular::dimer
