// The "wedge" model's case (docs/wedge.md): a disk in a vibrated wedge by the event-driven map
// of thesis §6.3. The map runs in scaled variables; the drive, gravity and the disk's radius
// only turn its result Rω̄/(Aω_b) into ω̄.
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "granular/cases/impact_schema.hpp"
#include "granular/cases/md_schema.hpp"
#include "granular/cases/models.hpp"
#include "granular/cases/wedge_schema.hpp"
#include "granular/constants.hpp"
#include "granular/impact/wedge/run.hpp"
#include "granular/io/output.hpp"
#include "granular/md/collision/collision.hpp"
#include "granular/md/ed/restitution.hpp"
#include "granular/md/model.hpp"
#include "granular/vibration.hpp"

namespace granular::cases {

using namespace wedge;  // the model's physics

namespace {

using io::Bound;
using io::JsonObject;

// A wall's contact law and the disk that meets it.
struct WallContact {
  ContactParams law;
  double radius = 0.0, areal_density = 0.0;

  // e_t of that wall: the collision model's table, integrated when a run first needs it and
  // kept for the process (every point of a scan has the same wall): ~0.1 s, too much for
  // validation.
  const impulse::RestitutionTable& table() const {
    return md::tangential_restitution_table(law, radius, 0.0, areal_density);
  }
};

class WedgeCase : public Case {
 public:
  WedgeCase(wedge::Params p, wedge::Options o, double wall_speed, double gravity, double radius,
            double gamma, double frequency)
      : p_(p),
        o_(o),
        wall_speed_(wall_speed),
        gravity_(gravity),
        radius_(radius),
        gamma_(gamma),
        frequency_(frequency) {}

  void describe(Description& d) const override {
    const double theta0 = 0.5 * (pi - p_.aperture);
    std::ostream& out = d.out;
    d.group("wedge");
    out << "wedge: aperture " << d.number("aperture", p_.aperture / degree, "%.6g", "deg")
        << " deg, tilt " << d.number("tilt", p_.tilt / degree, "%.6g", "deg")
        << " deg (critical tilt " << d.number("critical_tilt", theta0 / degree, "%.6g", "deg")
        << " deg); walls at " << d.number("wall_left", p_.theta_left() / degree, "%.6g", "deg")
        << " and " << d.number("wall_right", p_.theta_right() / degree, "%.6g", "deg") << " deg\n";
    d.group("collisions");
    out << "collisions: e_n = " << d.number("e_n", p_.wall.e_n, "%.4g")
        << ", mu = " << d.number("mu", p_.wall.mu, "%.4g") << ", e_t "
        << impulse::describe_rule(p_.wall.rule) << "; "
        << (p_.motion == WallMotion::fbrpa ? "wall velocity by FBRPA"
            : p_.motion == WallMotion::sawtooth
                ? "sawtooth: the wall rises at A w_b at every collision"
                : "walls at rest")
        << "\n";
    d.group("scales");
    out << "scales: A w_b = " << d.number("wall_speed", wall_speed_, "%.6g", "m/s")
        << " m/s (Gamma " << d.number("gamma", gamma_, "%.4g") << ", f "
        << d.number("f", frequency_, "%.4g", "Hz") << " Hz), length (A w_b)^2/g = "
        << d.number("length", wall_speed_ * wall_speed_ / gravity_, "%.6g", "m")
        << " m, time A w_b/g = " << d.number("time", wall_speed_ / gravity_, "%.6g", "s") << " s\n";
    d.group("run");
    out << "run: " << d.count("collisions", o_.collisions) << " collisions\n";
  }

  void set_wall(const WallContact& wall) { wall_ = wall; }

  RunEnd run(const RunContext& ctx) const override {
    wedge::Params p = p_;
    wedge::Options o = o_;
    report_progress(o.driver, ctx.progress, "wedge");
    wedge::Result r;
    try {
      if (wall_) p.wall.table = wall_->table();
      r = run_wedge(p, o);
    } catch (const std::runtime_error& e) {
      // validation ran the table's extreme ratios; one between them did not end
      r.status = RunStatus::model_stop;
      r.reason = "contact_law_domain";
      r.detail = e.what();
      r.mean_rotation = r.flight_time = NAN;
    }
    const double omega_bar = r.mean_rotation * wall_speed_ / radius_;
    const double flight_time = r.flight_time * wall_speed_ / gravity_;
    // a result beyond a double's range (the scaled map's numbers are finite) is no result
    if (r.status == RunStatus::completed &&
        !(std::isfinite(omega_bar) && std::isfinite(flight_time))) {
      r.status = RunStatus::non_finite;
      r.reason = "";
      r.detail = "the rotation or the flight time in seconds is not a finite number";
    }
    if (ctx.progress)
      *ctx.progress << "wedge: " << r.collisions << " collisions (" << r.rejections
                    << " FBRPA draws rejected), status " << name_of(run_status_names, r.status)
                    << (r.reason.empty() ? "" : " (" + r.reason + ")")
                    << "\n  R w_bar/(A w_b) = " << io::format_value("%.6g", r.mean_rotation)
                    << ", w_bar = " << io::format_value("%.6g", omega_bar) << " rad/s\n";
    nlohmann::json s = run_summary_head("wedge", ctx.case_echo);
    io::put_run_status(s, name_of(run_status_names, r.status), r.reason, r.detail);
    s["collisions"] = r.collisions;
    s["rejections"] = r.rejections;
    s["wall_changes"] = r.wall_changes;
    s["scaled_rotation"] = io::json_number(r.mean_rotation);
    s["omega_bar"] = io::json_number(omega_bar);
    s["flight_time"] = io::json_number(flight_time);
    s["wall_speed"] = wall_speed_;
    io::write_json_atomic(ctx.out_dir / "summary.json", s);
    return RunEnd::complete;
  }

 private:
  wedge::Params p_;
  std::optional<WallContact> wall_;  // contact_law, thesis_rule: the wall whose e_t it tabulates
  wedge::Options o_;
  double wall_speed_, gravity_, radius_, gamma_, frequency_;
};

}  // namespace

std::vector<io::TableSpec> wedge_tables() { return {}; }

std::unique_ptr<Case> load_wedge(const JsonObject& root, std::vector<std::string>&) {
  root.allow_only(
      {"model", "description", "seed", "gravity", "wedge", "contact", "drive", "disk", "run"});
  if (root.has("description")) root.string("description");
  wedge::Params p;
  p.seed = root.unsigned_or("seed", 1);
  const double g = root.number_or("gravity", 9.81, Bound::positive);

  const WedgeGeometry geometry = read_wedge_geometry(root.object("wedge"));
  p.aperture = geometry.aperture;
  p.tilt = geometry.tilt;

  const JsonObject disk = root.object_or_empty("disk");
  disk.allow_only({"radius", "areal_density"});
  const double radius = disk.number_or("radius", 0.02, Bound::positive);
  const double density = disk.number_or("areal_density", 3.57, Bound::positive);
  check_disk_inertia(disk, "areal_density", density, radius);

  const JsonObject c = root.object_or_empty("contact");
  c.allow_only({"tangential", "e_n", "mu", "k_n", "k_t", "gamma_n"});
  const impulse::TangentialRule rule =
      c.choice_of("tangential", impulse::tangential_rule_names, "tangential law",
                  std::optional(impulse::TangentialRule::large_kappa));
  p.wall.rule = rule;
  std::optional<WallContact> wall_contact;
  if (impulse::uses_table(rule)) {
    // e_n and e_t of the wall's elastic-skin law (thesis §4.5): e_n by eq. 4.56, e_t(|u_t/u_n|)
    // tabulated from single collisions through the packing engine
    c.forbid("e_n", std::string("follows from k_n, gamma_n and the disk's mass (eq. 4.56) with "
                                "tangential ") +
                        name_of(impulse::tangential_rule_names, rule));
    ContactParams wall;
    wall.k_n = c.number("k_n", Bound::positive);
    wall.k_t = c.number("k_t", Bound::non_negative);
    wall.gamma_n = c.number("gamma_n", Bound::non_negative);
    wall.mu = c.number("mu", Bound::non_negative);
    p.wall = md::ed::make_untabulated_restitution(wall, radius, 0.0, density, rule);
    wall_contact = WallContact{wall, radius, density};
    // the engine must be able to run this wall's collisions (the run tabulates 121 of them)
    const std::string why = md::restitution_table_problem(wall, radius, 0.0, density);
    if (!why.empty()) {
      const std::string with = "with a disk of radius " + io::format_number(radius) +
                               " m at areal density " + io::format_number(density) +
                               " kg/m² (mass " + io::format_number(md::disk_mass(density, radius)) +
                               " kg), " + why;
      // the disk's key whose default value would let the same wall collide it: that is off
      const bool density_off = md::restitution_table_problem(wall, radius, 0.0, 3.57).empty();
      const bool radius_off = md::restitution_table_problem(wall, 0.02, 0.0, density).empty();
      if (density_off || radius_off) disk.fail(density_off ? "areal_density" : "radius", with);
      c.fail("", with);
    }
  } else {
    for (const char* key : {"k_n", "k_t", "gamma_n"})
      c.forbid(key, "is read only with tangential contact_law or thesis_rule");
    p.wall.e_n = c.number_or("e_n", 0.9, Bound::non_negative);
    if (p.wall.e_n > 1.0) c.fail("e_n", "must be <= 1");
    p.wall.mu = c.number_or("mu", 0.1, Bound::non_negative);
  }

  const JsonObject d = root.object("drive");
  d.allow_only({"gamma", "frequency", "wall_motion"});
  const double gamma = d.number("gamma", Bound::positive);
  const double frequency = d.number("frequency", Bound::positive);
  p.motion = d.choice_of("wall_motion", wall_motion_names, "wall motion",
                         std::optional(WallMotion::fbrpa));
  if (p.motion == WallMotion::fixed && p.wall.e_n != 1.0)
    d.fail("wall_motion",
           "\"fixed\" needs e_n = 1: an inelastic disk between walls at rest collapses into the "
           "vertex in a finite time, through ever shorter flights");
  const double omega = 2.0 * pi * frequency;
  const double wall_speed = drive_amplitude(gamma, g, omega) * omega;  // A ω_b
  // the map's scales turn its results into seconds and rad/s: each within a double's range
  const double length = wall_speed * wall_speed / g, time = wall_speed / g;
  for (const double scale : {wall_speed, length, time, wall_speed / radius})
    if (!(std::isfinite(scale) && scale > 0.0))
      d.fail("gamma",
             "Γ = " + io::format_number(gamma) + " at f = " + io::format_number(frequency) +
                 " Hz and g = " + io::format_number(g) + " m/s² gives the scales A ω_b = " +
                 io::format_number(wall_speed) + " m/s, (A ω_b)²/g = " + io::format_number(length) +
                 " m, A ω_b/g = " + io::format_number(time) + " s: outside a double's range");

  // the shared run keys; no ODE, no Zeno guard (the map's flights are exact)
  wedge::Options o;
  DriverSchema schema;  // no "integrator", no "zeno"
  schema.base = o.driver;
  schema.base.t_end = 1e300;
  schema.run.rows = false;
  schema.run.model_keys = {"collisions"};
  o.driver = parse_driver_options(root, schema);
  o.driver.t_end *= g / wall_speed;  // seconds to the map's time unit A ω_b / g
  o.collisions = root.object_or_empty("run").integer_or("collisions", 100000, 1);
  auto wedge_case = std::make_unique<WedgeCase>(p, o, wall_speed, g, radius, gamma, frequency);
  if (wall_contact) wedge_case->set_wall(*wall_contact);
  return wedge_case;
}

}  // namespace granular::cases
