// The tangential restitution of a collision rule (Peraza-Mues 2018, §2.3.1, §4.5, ch. 6): how
// e_t follows from the contact law, chosen once per contact, and e_t(|u_t/u_n|) by that choice.
// The event-driven packings (md/ed, docs/ed.md) and the wedge's map (impact/wedge,
// docs/wedge.md) both collide through it. Host-only (the tables are vectors).
#pragma once

#include "granular/impulse/restitution_table.hpp"
#include "granular/names.hpp"

namespace granular::impulse {

// How e_t follows from the contact law.
enum class TangentialRule {
  contact_law,  // e_t(|u_t/u_n|) of the elastic-skin law, tabulated from single collisions
  large_kappa,  // e_t = max(0, 1 − 3μ(1 + e_n)|u_n/u_t|) (thesis ch. 6)
  none,         // e_t = 1: frictionless
  thesis_rule   // the thesis' ED rule: (4.75) where (4.76) holds, else the contact law's table
};
inline constexpr Named<TangentialRule> tangential_rule_names[] = {
    {TangentialRule::contact_law, "contact_law"},
    {TangentialRule::large_kappa, "large_kappa"},
    {TangentialRule::none, "none"},
    {TangentialRule::thesis_rule, "thesis_rule"}};

// Whether the rule reads the contact law's e_t table (md::tangential_restitution_table).
inline bool uses_table(TangentialRule rule) {
  return rule == TangentialRule::contact_law || rule == TangentialRule::thesis_rule;
}

// What a case's description says of the rule.
inline const char* describe_rule(TangentialRule rule) {
  switch (rule) {
    case TangentialRule::contact_law:
      return "of the contact law (tabulated from single collisions)";
    case TangentialRule::thesis_rule:
      return "by the thesis' ED rule (eq. 4.75 where 4.76 holds, else the contact law's table)";
    case TangentialRule::large_kappa:
      return "by the large-kappa approximation";
    case TangentialRule::none:
      return "= 1 (frictionless)";
  }
  return "";
}

// The restitution of one contact: e_n, and e_t by the rule from μ, κ and the table.
struct TangentialRestitution {
  TangentialRule rule = TangentialRule::large_kappa;
  double e_n = 1.0;        // normal restitution (eq. 2.11; the linear dashpot's, eq. 4.56)
  double mu = 0.0;         // Coulomb coefficient (the full-sliding e_t, eq. 4.75)
  double kappa = 0.0;      // k_t/k_n (thesis_rule's (4.76))
  RestitutionTable table;  // contact_law, thesis_rule: the collision model's e_t(|u_t/u_n|)

  // e_t at the pre-collision ratio |u_t/u_n|, in [−1, 1]; 1 at ratio 0 (no slip to change).
  double e_t(double ratio) const {
    if (rule == TangentialRule::none || ratio == 0.0) return 1.0;
    if (rule == TangentialRule::large_kappa)
      return clamp_restitution(large_kappa_restitution(e_n, mu, ratio));
    if (rule == TangentialRule::thesis_rule)
      return thesis_rule_restitution(table, e_n, mu, kappa, ratio);
    return tabulated_restitution(table, e_n, mu, ratio);
  }
};

}  // namespace granular::impulse
