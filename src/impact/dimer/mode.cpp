// Motion mode of a dimer run from its impact pattern (docs/dimer.md §5; Dorbolo et al.'s
// modes). The paper classifies by eye; the rules below are ours (named in docs/dimer.md):
//   rest    no impact faster than the threshold and both tips closed ≥ 99% of the window;
//   drift   one tip resting (on the plate ≥ 30% of the time, or chattering near it: two or more
//           impacts a period, flights too short to leave the plate's neighbourhood), the
//           other hitting about once per period;
//   jump    both tips hitting about once per period, both mostly in flight;
//   flutter both tips hitting about every other period, out of phase, mostly in flight;
//   mixed   anything else (period 2, jump + flutter, chaotic).
// "An impact" counts only when the approach speed exceeds 10% of the plate's speed amplitude
// Aω, so that the small impacts of the resting tip (spec §5, Figs 3–5) do not count.
#include <algorithm>
#include <cmath>

#include "granular/constants.hpp"
#include "granular/impact/dimer/run.hpp"

namespace granular::dimer {
namespace {

bool near(double x, double target, double tol) { return std::fabs(x - target) <= tol; }

}  // namespace

DimerMotion classify_dimer_motion(const Params& p, const Result& run, const Options& o,
                                  double impacts_per_period[2], double contact_fraction[2]) {
  const double t0 = std::max(0.0, o.average_from);
  const double window = run.t_final - t0;
  impacts_per_period[0] = impacts_per_period[1] = 0.0;
  contact_fraction[0] = contact_fraction[1] = 0.0;
  if (!(window > 0.0)) return DimerMotion::mixed;
  const double period = p.omega > 0.0 ? 2.0 * pi / p.omega : window;
  const double threshold = std::max(0.1 * p.amplitude * p.omega, o.driver.zeno.min_speed);

  // major impacts per tip, and whether the two tips alternate: a double impact, both tips hitting
  // at once, is no alternation, and the next single impact starts the count again
  int count[2] = {0, 0};
  int alternations = 0, last_tip = -1;
  for (const DimerImpact& im : run.impacts) {
    if (im.t < t0) continue;
    bool major[2];
    for (int i = 0; i < 2; ++i) {
      major[i] = im.tips[i] && -im.d_dot_before[i] > threshold;
      if (major[i]) ++count[i];
    }
    if (major[0] && major[1]) {
      last_tip = -1;
    } else if (major[0] || major[1]) {
      const int tip = major[0] ? 0 : 1;
      if (last_tip >= 0 && last_tip != tip) ++alternations;
      last_tip = tip;
    }
  }
  for (int i = 0; i < 2; ++i) impacts_per_period[i] = count[i] * period / window;

  // time each tip spends closed in the window
  for (const DimerPhase& ph : run.phases) {
    if (ph.mode == TipMode::open) continue;
    const double a = std::max(ph.t_start, t0), b = std::min(ph.t_end, run.t_final);
    if (b > a) contact_fraction[ph.tip] += (b - a) / window;
  }

  const int total = count[0] + count[1];
  if (total == 0 && contact_fraction[0] >= 0.99 && contact_fraction[1] >= 0.99)
    return DimerMotion::rest;
  const bool lying[2] = {contact_fraction[0] >= 0.3, contact_fraction[1] >= 0.3};
  // a tip hitting twice a period or more flies at most half a period between impacts: its
  // apex g(T/2)²/8 stays within a few A of the plate at Γ ≈ 1, a quarter of a once-a-period
  // bounce's; it rests as a chattering tip
  const bool resting[2] = {lying[0] || impacts_per_period[0] >= 2.0,
                           lying[1] || impacts_per_period[1] >= 2.0};
  for (int i = 0; i < 2; ++i)
    if (resting[i] && !lying[1 - i] && near(impacts_per_period[1 - i], 1.0, 0.25))
      return DimerMotion::drift;
  if (!lying[0] && !lying[1]) {
    if (near(impacts_per_period[0], 1.0, 0.25) && near(impacts_per_period[1], 1.0, 0.25))
      return DimerMotion::jump;
    if (near(impacts_per_period[0], 0.5, 0.15) && near(impacts_per_period[1], 0.5, 0.15) &&
        alternations >= total - 2)
      return DimerMotion::flutter;
  }
  return DimerMotion::mixed;
}

}  // namespace granular::dimer
