// The coefficients of restitution of the event-driven (ED) method (Peraza-Mues 2018, §2.3.1 and
// §4.5; docs/ed.md): e_n from the linear dashpot's closed form (eq. 4.56) at the pair's
// effective mass, e_t(|u_t/u_n|) of the elastic-skin law tabulated by the collision model
// (md::tangential_restitution_table), or the large-κ approximation of ch. 6
// (impulse/restitution_table.hpp).
// One Restitution per contact type and effective mass: a packing of three radii has six
// disk–disk pairs and three disk–wall contacts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "granular/contact_law.hpp"
#include "granular/impulse/restitution_table.hpp"
#include "granular/names.hpp"

namespace granular::md::ed {

// How e_t follows from the contact law.
enum class TangentialRule {
  contact_law,  // e_t(|u_t/u_n|) of the elastic-skin law, from single collisions
  large_kappa,  // e_t = max(0, 1 − 3μ(1 + e_n)|u_n/u_t|) (thesis ch. 6)
  thesis_rule   // the thesis' ED rule: (4.75) where (4.76) holds, else the contact law's
};
inline constexpr Named<TangentialRule> tangential_rule_names[] = {
    {TangentialRule::contact_law, "contact_law"},
    {TangentialRule::large_kappa, "large_kappa"},
    {TangentialRule::thesis_rule, "thesis_rule"}};

// Whether the rule needs the collision model's e_t table.
inline bool uses_table(TangentialRule rule) { return rule != TangentialRule::large_kappa; }

// Restitution of one contact type at one effective mass.
struct Restitution {
  double e_n = 1.0;  // eq. 4.56 [-]
  double mu = 0.0;   // Coulomb coefficient (the full-sliding e_t, eq. 4.75)
  TangentialRule rule = TangentialRule::large_kappa;
  // contact_law, thesis_rule: e_t(|u_t/u_n|), the collision model's
  // (md::tangential_restitution_table)
  impulse::RestitutionTable table;
  double kappa = 0.0;  // k_t/k_n (thesis_rule's (4.76))
};

// e_t at the pre-collision ratio |u_t/u_n|, in [−1, 1]; 1 at ratio 0 (no slip to change):
// impulse::tabulated_restitution or impulse::large_kappa_restitution.
double tangential_restitution(const Restitution& r, double ratio);

// The restitution of `law` for disk a (radius_a) on disk b (radius_b), or on a fixed wall when
// radius_b is 0, at areal density ρ [kg/m²]. With contact_law the e_t table is the collision
// model's (md::tangential_restitution_table: integrated once per process). Throws
// std::runtime_error when a single collision does not end in the MD engine (a law outside its
// domain).
Restitution make_restitution(const ContactParams& law, double radius_a, double radius_b,
                             double areal_density, TangentialRule rule);

// The restitutions of one packing: its distinct radii ("species"), each disk's species, and a
// Restitution per disk–disk species pair and per species on a wall.
struct RestitutionSet {
  std::vector<double> species_radius;  // distinct radii, in order of first appearance [m]
  std::vector<int> species;            // species of each disk (packing_size)
  std::vector<Restitution> pairs;      // [a · n_species + b], symmetric
  std::vector<Restitution> walls;      // [a]

  const Restitution& pair(int i, int j) const {
    return pairs[species[i] * species_radius.size() + species[j]];
  }
  const Restitution& wall(int i) const { return walls[species[i]]; }
};

RestitutionSet make_restitution_set(const ContactParams& disk_disk, const ContactParams& disk_wall,
                                    const std::vector<double>& radii, double areal_density,
                                    TangentialRule rule);

}  // namespace granular::md::ed
