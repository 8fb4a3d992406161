// e_t tables measured by the collision model (include/granular/md/collision/collision.hpp): the
// restitution the thesis' collision rules use (impulse/restitution_table.hpp), for the
// event-driven packings and the wedge's map alike.
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "granular/md/collision/collision.hpp"

namespace granular::md {
namespace {

constexpr int table_size = static_cast<int>(impulse::restitution_table_size);

// The k-th single collision of the e_t table of (law, radii, ρ) through the MD engine. A disk
// pair sliding at u_t turns its normal by u_t t_c / (R_a + R_b) during the collision, so its u_n
// is chosen small enough that the largest ratio turns it by 10⁻⁴ rad at most; on a flat wall
// the normal stays put and u_n = 1 m/s.
CollisionCase table_collision(const ContactParams& law, double radius_a, double radius_b,
                              double areal_density, int k) {
  static const impulse::RestitutionTable layout;  // the table's ratios
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
    c.u_n = 1e-4 * (radius_a + radius_b) / (layout.ratio(table_size - 1) * t_c);
  }
  c.u_t = c.u_n * layout.ratio(k);
  return c;
}

// e_t of that collision; empty with `why` set when it does not end in the engine
std::optional<double> table_e_t(const ContactParams& law, double radius_a, double radius_b,
                                double areal_density, int k, std::string& why) {
  const CollisionResult r =
      run_collision(table_collision(law, radius_a, radius_b, areal_density, k));
  if (r.ended && std::isfinite(r.e_t)) return r.e_t;
  static const impulse::RestitutionTable layout;
  why = "the single collision at |u_t/u_n| = " + std::to_string(layout.ratio(k)) +
        " does not end in the packing engine: the contact law is outside its domain";
  return std::nullopt;
}

impulse::RestitutionTable integrate_table(const ContactParams& law, double radius_a,
                                          double radius_b, double areal_density) {
  impulse::RestitutionTable t;
  std::string why;
  for (int k = 0; k < table_size; ++k) {
    const std::optional<double> e = table_e_t(law, radius_a, radius_b, areal_density, k, why);
    if (!e) throw std::runtime_error(why);
    t.e_t.push_back(*e);
  }
  return t;
}

// (k_n, k_t, γ_n, μ, R_a, R_b, ρ): what a table depends on
using TableKey = std::array<double, 7>;

TableKey table_key(const ContactParams& law, double radius_a, double radius_b,
                   double areal_density) {
  return {law.k_n, law.k_t, law.gamma_n, law.mu, radius_a, radius_b, areal_density};
}

}  // namespace

const impulse::RestitutionTable& tangential_restitution_table(const ContactParams& law,
                                                              double radius_a, double radius_b,
                                                              double areal_density) {
  static std::map<TableKey, impulse::RestitutionTable> tables;  // nodes never move
  static std::mutex lock;
  const TableKey key = table_key(law, radius_a, radius_b, areal_density);
  const std::lock_guard<std::mutex> hold(lock);
  auto known = tables.find(key);
  if (known == tables.end())
    known = tables.emplace(key, integrate_table(law, radius_a, radius_b, areal_density)).first;
  return known->second;
}

std::string restitution_table_problem(const ContactParams& law, double radius_a, double radius_b,
                                      double areal_density) {
  // kept per (law, radii, ρ) for the process, as the tables are: a scan's points share them
  static std::map<TableKey, std::string> known;
  static std::mutex lock;
  const TableKey key = table_key(law, radius_a, radius_b, areal_density);
  const std::lock_guard<std::mutex> hold(lock);
  const auto found = known.find(key);
  if (found != known.end()) return found->second;
  std::string why;
  for (const int k : {0, table_size - 1})
    if (!table_e_t(law, radius_a, radius_b, areal_density, k, why)) break;
  return known.emplace(key, why).first->second;
}

}  // namespace granular::md
