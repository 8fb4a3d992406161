// The tangential restitution e_t(|u_t/u_n|) of the elastic-skin contact law as the thesis'
// collision rules use it (Peraza-Mues 2018, §4.5; docs/ed.md, docs/wedge.md): a table measured
// by integrating single collisions through the MD engine (md::tangential_restitution_table, the
// collision model), and the large-κ approximation of ch. 6. The event-driven packings and the
// wedge's map look e_t up through these functions. Host-only (the tables are vectors).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "granular/contact_law.hpp"
#include "granular/hd.hpp"
#if !GRANULAR_HOST_ONLY
#error "granular/impulse/restitution_table.hpp is host-only"
#endif

namespace granular::impulse {

// e_t of a contact law at |u_t/u_n| = 10^(log_min + k·log_step), k = 0 … size − 1.
struct RestitutionTable {
  double log_min = -3.0;
  double log_step = 0.05;
  std::vector<double> e_t;

  std::size_t size() const { return e_t.size(); }
  double ratio(std::size_t k) const {
    return std::pow(10.0, log_min + static_cast<double>(k) * log_step);
  }
};

// The ratios of every table: 10⁻³ … 10³ in steps of 0.05 decades.
constexpr std::size_t restitution_table_size = 121;

// The clamp of every e_t the rules use: the integrated collisions stay within [−1, 1] up to
// their discretisation, and the rules (2.23)–(2.24) must not gain energy on that error.
inline double clamp_restitution(double e_t) { return std::clamp(e_t, -1.0, 1.0); }

// e_t at ratio = |u_t/u_n| > 0 from the table (contact restitution e_n, friction μ),
// interpolated linearly in log ratio; below its range its first value (the sticking limit
// cos(ω_t t_c), eq. 4.79), above it the full-sliding e_t (4.75), which holds there.
inline double tabulated_restitution(const RestitutionTable& t, double e_n, double mu,
                                    double ratio) {
  const double x = (std::log10(ratio) - t.log_min) / t.log_step;
  if (x <= 0.0) return clamp_restitution(t.e_t.front());
  const std::size_t last = t.e_t.size() - 1;
  if (x >= static_cast<double>(last)) return clamp_restitution(full_sliding_e_t(e_n, mu, ratio));
  const std::size_t k = static_cast<std::size_t>(x);
  const double f = x - static_cast<double>(k);
  return clamp_restitution((1.0 - f) * t.e_t[k] + f * t.e_t[k + 1]);
}

// e_t as the thesis' event-driven rule applied it (§4.5, "ED rule"), to reproduce its printed
// figures, not the physics: the full-sliding e_t (4.75) wherever the collision starts sliding,
// ratio > μ/κ (4.76, κ = k_t/k_n), else the integrated law (the table). (4.76) alone does not
// make a collision slide throughout (erratum: that needs ratio > max(μ/κ, 6μ − μ/κ)), and (4.75)
// falls below −1 for ratio < 3μ(1 + e_n)/2; clamped to [−1, 1] as every e_t the rules use.
inline double thesis_rule_restitution(const RestitutionTable& t, double e_n, double mu,
                                      double kappa, double ratio) {
  if (ratio * kappa > mu) return clamp_restitution(full_sliding_e_t(e_n, mu, ratio));
  return tabulated_restitution(t, e_n, mu, ratio);
}

// The large-κ e_t of ch. 6 at ratio > 0: the full-sliding e_t (4.75), never below 0.
inline double large_kappa_restitution(double e_n, double mu, double ratio) {
  return std::max(0.0, full_sliding_e_t(e_n, mu, ratio));
}

}  // namespace granular::impulse
