// The coefficients of restitution of the event-driven (ED) method (Peraza-Mues 2018, §2.3.1 and
// §4.5; docs/ed.md): e_n from the linear dashpot's closed form (eq. 4.56) at the pair's
// effective mass, e_t(|u_t/u_n|) by the chosen rule (impulse/tangential_restitution.hpp) from
// the elastic-skin law's table (md::tangential_restitution_table).
// One Restitution per contact type and effective mass: a packing of three radii has six
// disk–disk pairs and three disk–wall contacts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "granular/contact_law.hpp"
#include "granular/impulse/tangential_restitution.hpp"

namespace granular::md::ed {

// The choice of e_t and the restitution of one contact type at one effective mass: the one
// model of impulse/tangential_restitution.hpp, shared with the wedge's map.
using impulse::TangentialRule;
using Restitution = impulse::TangentialRestitution;

// The restitution of `law` for disk a (radius_a) on disk b (radius_b), or on a fixed wall when
// radius_b is 0, at areal density ρ [kg/m²]. With contact_law the e_t table is the collision
// model's (md::tangential_restitution_table: integrated once per process). Throws
// std::runtime_error when a single collision does not end in the MD engine (a law outside its
// domain).
Restitution make_restitution(const ContactParams& law, double radius_a, double radius_b,
                             double areal_density, TangentialRule rule);

// The same without its e_t table (left empty), for a caller that integrates it when a run first
// needs it (the wedge's case: validating a case does not wait ~0.1 s for it).
Restitution make_untabulated_restitution(const ContactParams& law, double radius_a, double radius_b,
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
