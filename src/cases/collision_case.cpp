// The collision case: its schema (docs/cases.md) and what `granular validate` prints of it. Its
// outputs are in collision_outputs.cpp.
#include <ostream>

#include "granular/cases/collision.hpp"
#include "granular/cases/md_schema.hpp"
#include "granular/cases/models.hpp"
#include "granular/io/output.hpp"

namespace granular::cases {

using io::Bound;
using io::JsonObject;

namespace {

// The collision keeps every step of up to 100 collision durations in memory.
constexpr double kMaxCollisionStepsPerCollision = 1e5;

}  // namespace

std::unique_ptr<Case> load_collision(const JsonObject& root, std::vector<std::string>&) {
  root.allow_only({"model", "description", "kind", "disks", "contact", "impact", "integrator"});
  md::CollisionCase c;
  if (root.has("description")) root.string("description");
  const bool pair =
      root.choice("kind", {"disk_wall", "disk_disk"}, "collision kind") == "disk_disk";
  c.kind = pair ? md::CollisionKind::disk_disk : md::CollisionKind::disk_wall;
  const std::string pair_only = "only for \"kind\": \"disk_disk\"";

  // disks
  const JsonObject disks = root.object("disks");
  disks.allow_only({"radius_a", "radius_b", "areal_density"});
  c.radius_a = disks.number("radius_a", Bound::positive);
  if (pair)
    c.radius_b = disks.number_or("radius_b", c.radius_a, Bound::positive);
  else
    disks.forbid("radius_b", pair_only);
  c.areal_density = disks.number("areal_density", Bound::positive);
  check_disk_inertia(disks, "radius_a", c.areal_density, c.radius_a);
  if (pair) check_disk_inertia(disks, "radius_b", c.areal_density, c.radius_b);

  c.contact = read_contact(root.object("contact"));

  // initial relative motion
  const JsonObject impact = root.object("impact");
  impact.allow_only({"u_n", "u_t", "omega_a", "omega_b"});
  c.u_n = impact.number("u_n", Bound::positive);
  c.u_t = impact.number_or("u_t", 0.0);
  c.omega_a = impact.number_or("omega_a", 0.0);
  if (pair)
    c.omega_b = impact.number_or("omega_b", 0.0);
  else
    impact.forbid("omega_b", pair_only);

  // time step: dt = 0 tells md::run_collision to use t_c / steps_per_collision
  const JsonObject integrator = root.object_or_empty("integrator");
  integrator.allow_only({"scheme", "dt", "steps_per_collision"});
  c.integrator = read_scheme(integrator);
  const StepRule rule = read_step_rule(integrator, 2000.0);
  const double m_a = md::disk_mass(c.areal_density, c.radius_a);
  const double m_eff = pair ? effective_mass(m_a, md::disk_mass(c.areal_density, c.radius_b)) : m_a;
  const double t_c = linear_dashpot_restitution(c.contact.k_n, c.contact.gamma_n, m_eff).t_c;
  c.dt = rule.given_dt ? rule.dt : 0.0;
  c.steps_per_collision = rule.given_dt ? t_c / rule.dt : rule.steps_per_collision;
  check_time_step(integrator, rule, rule.given_dt ? rule.dt : t_c / rule.steps_per_collision,
                  largest_time_step(c.contact, m_eff));
  // the run keeps every step of up to 100 collision durations in memory
  check_steps_per_collision(integrator, rule, c.steps_per_collision,
                            kMaxCollisionStepsPerCollision);

  return std::make_unique<Collision>(c);
}

void Collision::describe(Description& d) const {
  const md::CollisionCase& c = c_;
  const bool pair = c.kind == md::CollisionKind::disk_disk;
  const double m_a = md::disk_mass(c.areal_density, c.radius_a);
  const double m_eff = pair ? effective_mass(m_a, md::disk_mass(c.areal_density, c.radius_b)) : m_a;
  const auto r = linear_dashpot_restitution(c.contact.k_n, c.contact.gamma_n, m_eff);
  const double dt = c.dt > 0.0 ? c.dt : r.t_c / c.steps_per_collision;
  const char* kind = pair ? "disk-disk" : "disk-wall";
  d.group("collision");
  d.out << "collision: " << d.word("kind", kind) << ", m_a = " << d.number("m_a", m_a, "%.4g", "kg")
        << " kg\n";
  d.group("contact");
  describe_contact(d, kind, c.contact, m_eff);
  d.group("predicted");
  d.out << "predicted: e_n = " << d.number("e_n", r.e_n, "%.6g")
        << ", t_c = " << d.number("t_c", r.t_c, "%.6g", "s") << " s\n";
  d.group("time_step");
  d.out << "time step: dt = " << d.number("dt", dt, "%.4g", "s") << " s ("
        << d.word("scheme", name_of(md::integrator_names, c.integrator)) << "), "
        << d.number("steps_per_t_c", r.t_c / dt, "%.6g") << " steps per t_c; largest accepted dt "
        << d.number("dt_max", largest_time_step(c.contact, m_eff), "%.3g", "s") << " s\n";
}

}  // namespace granular::cases
