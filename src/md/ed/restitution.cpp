#include "granular/md/ed/restitution.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "granular/md/collision/collision.hpp"
#include "granular/md/model.hpp"

namespace granular::md::ed {

Restitution make_untabulated_restitution(const ContactParams& law, double radius_a, double radius_b,
                                         double areal_density, TangentialRule rule) {
  Restitution r;
  const double m_a = disk_mass(areal_density, radius_a);
  const double m_b = radius_b > 0.0 ? disk_mass(areal_density, radius_b) : INFINITY;
  r.e_n = linear_dashpot_restitution(law.k_n, law.gamma_n, effective_mass(m_a, m_b)).e_n;
  r.mu = law.mu;
  r.rule = rule;
  r.kappa = law.k_t / law.k_n;
  return r;
}

Restitution make_restitution(const ContactParams& law, double radius_a, double radius_b,
                             double areal_density, TangentialRule rule) {
  Restitution r = make_untabulated_restitution(law, radius_a, radius_b, areal_density, rule);
  if (uses_table(rule))
    r.table = tangential_restitution_table(law, radius_a, radius_b, areal_density);
  return r;
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
