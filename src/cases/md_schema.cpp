#include "granular/cases/md_schema.hpp"

#include <cmath>

#include "granular/io/output.hpp"

namespace granular::cases {

using io::Bound;
using io::format_at_most;
using io::format_number;
using io::JsonObject;

void check_disk_inertia(const JsonObject& where, const std::string& key, double areal_density,
                        double radius) {
  const double m = md::disk_mass(areal_density, radius);
  const double inertia = md::disk_inertia(m, radius);
  if (m > 0.0 && std::isfinite(m) && inertia > 0.0 && std::isfinite(inertia) &&
      std::isfinite(1.0 / inertia))
    return;
  where.fail(key, "a disk of radius " + format_number(radius) + " m at areal density " +
                      format_number(areal_density) + " kg/m² has mass " + format_number(m) +
                      " kg and moment of inertia " + format_number(inertia) +
                      " kg m²: outside the range of a double");
}

ContactParams read_contact(const JsonObject& o) {
  o.allow_only({"k_n", "k_t", "gamma_n", "mu"});
  ContactParams p;
  p.k_n = o.number("k_n", Bound::positive);
  p.k_t = o.number("k_t", Bound::non_negative);
  p.gamma_n = o.number("gamma_n", Bound::non_negative);
  p.mu = o.number("mu", Bound::non_negative);
  return p;
}

md::Integrator read_scheme(const JsonObject& integrator) {
  return integrator.choice_of("scheme", md::integrator_names, "scheme",
                              std::optional(md::Integrator::gear5));
}

StepRule read_step_rule(const JsonObject& integrator, double default_steps) {
  if (integrator.has("dt") && integrator.has("steps_per_collision"))
    integrator.fail("", "give either dt or steps_per_collision, not both");
  if (integrator.has("dt")) return {true, integrator.number("dt", Bound::positive), 0.0};
  return {false, 0.0, integrator.number_or("steps_per_collision", default_steps, Bound::positive)};
}

void check_time_step(const JsonObject& integrator, const StepRule& rule, double dt, double limit) {
  if (dt <= limit) return;
  const std::string why = "too large for the stiffness: at most " + format_at_most(limit, dt) +
                          " s (10 steps per period of the fastest contact mode)";
  if (rule.given_dt) integrator.fail("dt", format_number(dt) + " s is " + why);
  integrator.fail("steps_per_collision",
                  format_number(rule.steps_per_collision) +
                      " steps per collision give dt = " + format_number(dt, 3) + " s, " + why);
}

void check_steps_per_collision(const JsonObject& integrator, const StepRule& rule,
                               double steps_per_collision, double most) {
  if (steps_per_collision <= most) return;
  const std::string why = "more than " + format_number(most) + " steps per collision";
  if (rule.given_dt)
    integrator.fail("dt", format_number(rule.dt) + " s is " +
                              format_number(steps_per_collision, 3) + " steps per shortest " +
                              "collision, " + why);
  integrator.fail("steps_per_collision", "must be at most " + format_number(most));
}

void describe_contact(Description& d, const char* label, const ContactParams& p, double m_eff) {
  const auto r = linear_dashpot_restitution(p.k_n, p.gamma_n, m_eff);
  d.out << "  " << label << "  m_eff = " << d.number("m_eff", m_eff, "%.4g", "kg")
        << " kg  c = " << d.number("c", damping_ratio(p.k_n, p.gamma_n, m_eff), "%.4g")
        << "  e_n = " << d.number("e_n", r.e_n, "%.6g")
        << "  t_c = " << d.number("t_c", r.t_c, "%.4g", "s") << " s\n";
}

md::RunSchedule read_schedule(const JsonObject& run) {
  run.allow_only({"settle_time", "transient_time", "measure_time", "sample_interval"});
  md::RunSchedule s;
  s.settle_time = run.number("settle_time", Bound::non_negative);
  s.transient_time = run.number("transient_time", Bound::non_negative);
  s.measure_time = run.number("measure_time", Bound::positive);
  s.sample_interval = run.number("sample_interval", Bound::positive);
  if (s.sample_interval > s.measure_time)
    run.fail("sample_interval", format_number(s.sample_interval) +
                                    " s is longer than measure_time (" +
                                    format_number(s.measure_time) + " s)");
  return s;
}

md::RunSteps checked_run_steps(const JsonObject& run, const md::RunSchedule& s, double dt) {
  if (s.sample_interval < dt)
    run.fail("sample_interval", format_number(s.sample_interval) +
                                    " s is shorter than the time step (" + format_number(dt, 3) +
                                    " s)");
  const md::PlannedRun plan = md::plan_run(s, dt);
  if (!plan.ok)
    run.fail("", "the run takes " + format_number(plan.total_steps, 3) + " steps per packing (" +
                     format_number(s.settle_time + s.transient_time + s.measure_time) +
                     " s at dt = " + format_number(dt, 3) + " s), more than " +
                     format_number(md::max_run_steps) +
                     ": a shorter run, or a longer dt (fewer steps per collision, softer "
                     "contacts)");
  return plan.steps;
}

}  // namespace granular::cases
