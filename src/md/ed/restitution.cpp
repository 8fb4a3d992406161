#include "granular/md/ed/restitution.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "granular/md/collision.hpp"
#include "granular/md/model.hpp"

namespace granular::md::ed {
namespace {

constexpr int table_size = 121;  // 10⁻³ … 10³ in steps of 0.05 decades

// The k-th single collision of the e_t table of (law, radii, ρ) through the MD engine. The
// linear law's e_t depends on |u_t/u_n| only, under the closed forms' assumption of a constant
// normal (thesis §4.5.1). A disk pair sliding at u_t turns its normal by u_t t_c / (R_a + R_b)
// during the collision, so its u_n is chosen small enough that the largest ratio turns it by
// 10⁻⁴ rad at most; on a flat wall the normal stays put and u_n = 1 m/s.
CollisionCase table_collision(const ContactParams& law, double radius_a, double radius_b,
                              double areal_density, int k) {
  static const Restitution layout;  // the table's ratios
  const double log_min = layout.log_min, log_step = layout.log_step;
  CollisionCase c;
  c.kind = radius_b > 0.0 ? CollisionKind::disk_disk : CollisionKind::disk_wall;
  c.radius_a = radius_a;
  c.radius_b = radius_b > 0.0 ? radius_b : radius_a;
  c.areal_density = areal_density;
  c.contact = law;
  c.u_n = 1.0;
  if (c.kind == CollisionKind::disk_disk) {
    const double m_eff =
        effective_mass(disk_mass(areal_density, radius_a), disk_mass(areal_density, radius_b));
    const double t_c = linear_dashpot_restitution(law.k_n, law.gamma_n, m_eff).t_c;
    const double largest_ratio = std::pow(10.0, log_min + (table_size - 1) * log_step);
    c.u_n = 1e-4 * (radius_a + radius_b) / (largest_ratio * t_c);
  }
  c.u_t = c.u_n * std::pow(10.0, log_min + k * log_step);
  return c;
}

// e_t of that collision; empty with `why` set when it does not end in the engine
std::optional<double> table_e_t(const ContactParams& law, double radius_a, double radius_b,
                                double areal_density, int k, std::string& why) {
  const CollisionCase c = table_collision(law, radius_a, radius_b, areal_density, k);
  const CollisionResult r = run_collision(c);
  if (r.ended && std::isfinite(r.e_t)) return r.e_t;
  static const Restitution layout;
  why = "the single collision at |u_t/u_n| = " +
        std::to_string(std::pow(10.0, layout.log_min + k * layout.log_step)) +
        " does not end in the packing engine: the contact law is outside its domain";
  return std::nullopt;
}

// e_t samples of one (law, radii, ρ)
std::vector<double> integrate_table(const ContactParams& law, double radius_a, double radius_b,
                                    double areal_density) {
  std::vector<double> e_t;
  std::string why;
  for (int k = 0; k < table_size; ++k) {
    const std::optional<double> e = table_e_t(law, radius_a, radius_b, areal_density, k, why);
    if (!e) throw std::runtime_error(why);
    e_t.push_back(*e);
  }
  return e_t;
}

// the tables integrated so far in this process, by (k_n, k_t, γ_n, μ, R_a, R_b, ρ)
const std::vector<double>& cached_table(const ContactParams& law, double radius_a, double radius_b,
                                        double areal_density) {
  using Key = std::array<double, 7>;
  static std::map<Key, std::vector<double>> tables;
  static std::mutex lock;
  const Key key{law.k_n, law.k_t, law.gamma_n, law.mu, radius_a, radius_b, areal_density};
  const std::lock_guard<std::mutex> hold(lock);
  auto known = tables.find(key);
  if (known == tables.end())
    known = tables.emplace(key, integrate_table(law, radius_a, radius_b, areal_density)).first;
  return known->second;
}

}  // namespace

double tangential_restitution(const Restitution& r, double ratio) {
  if (ratio == 0.0) return 1.0;
  double e_t;
  if (r.rule == TangentialRule::large_kappa) {
    e_t = std::max(0.0, full_sliding_e_t(r.e_n, r.mu, ratio));
  } else {
    const double x = (std::log10(ratio) - r.log_min) / r.log_step;
    const std::size_t last = r.e_t.size() - 1;
    if (x <= 0.0) {
      e_t = r.e_t.front();
    } else if (x >= static_cast<double>(last)) {
      e_t = full_sliding_e_t(r.e_n, r.mu, ratio);
    } else {
      const std::size_t k = static_cast<std::size_t>(x);
      const double f = x - static_cast<double>(k);
      e_t = (1.0 - f) * r.e_t[k] + f * r.e_t[k + 1];
    }
  }
  // the integrated collisions stay within [−1, 1] up to their discretisation; the clamp keeps
  // the rule (2.23)–(2.24) from gaining energy on that error
  return std::clamp(e_t, -1.0, 1.0);
}

Restitution make_restitution(const ContactParams& law, double radius_a, double radius_b,
                             double areal_density, TangentialRule rule) {
  Restitution r;
  const double m_a = disk_mass(areal_density, radius_a);
  const double m_b = radius_b > 0.0 ? disk_mass(areal_density, radius_b) : INFINITY;
  r.e_n = linear_dashpot_restitution(law.k_n, law.gamma_n, effective_mass(m_a, m_b)).e_n;
  r.mu = law.mu;
  r.rule = rule;
  if (rule == TangentialRule::contact_law)
    r.e_t = cached_table(law, radius_a, radius_b, areal_density);
  return r;
}

std::string restitution_table_problem(const ContactParams& law, double radius_a, double radius_b,
                                      double areal_density) {
  // kept per (law, radii, ρ) for the process, as the tables are: a scan's points share them
  using Key = std::array<double, 7>;
  static std::map<Key, std::string> known;
  static std::mutex lock;
  const Key key{law.k_n, law.k_t, law.gamma_n, law.mu, radius_a, radius_b, areal_density};
  const std::lock_guard<std::mutex> hold(lock);
  const auto found = known.find(key);
  if (found != known.end()) return found->second;
  std::string why;
  for (const int k : {0, table_size - 1})
    if (!table_e_t(law, radius_a, radius_b, areal_density, k, why)) break;
  return known.emplace(key, why).first->second;
}

RestitutionSet make_restitution_set(const ContactParams& disk_disk, const ContactParams& disk_wall,
                                    const std::vector<double>& radii, double areal_density,
                                    TangentialRule rule) {
  RestitutionSet s;
  for (double r : radii) {
    const auto known = std::find(s.species_radius.begin(), s.species_radius.end(), r);
    s.species.push_back(static_cast<int>(known - s.species_radius.begin()));
    if (known == s.species_radius.end()) s.species_radius.push_back(r);
  }
  const std::size_t n = s.species_radius.size();
  s.pairs.resize(n * n);
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a; b < n; ++b) {
      s.pairs[a * n + b] = make_restitution(disk_disk, s.species_radius[a], s.species_radius[b],
                                            areal_density, rule);
      s.pairs[b * n + a] = s.pairs[a * n + b];
    }
    s.walls.push_back(make_restitution(disk_wall, s.species_radius[a], 0.0, areal_density, rule));
  }
  return s;
}

}  // namespace granular::md::ed
