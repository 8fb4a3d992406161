// The "billiard" case: validation of the case file (docs/billiard.md), describe() and run(),
// which writes collisions.csv, return_map.csv, contact_phases.csv, trajectory.csv (optional)
// and summary.json.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "granular/cases/impact_schema.hpp"
#include "granular/cases/models.hpp"
#include "granular/constants.hpp"
#include "granular/impact/billiard/run.hpp"
#include "granular/io/output.hpp"
#include "granular/io/table.hpp"

namespace granular::cases {

using namespace billiard;  // the model's physics

namespace {

using io::Bound;
using io::JsonObject;

std::string fmt(const char* f, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, x);
  return buf;
}

// the boundary of spec §1 (Feldt & Olafsen's values as defaults, in SI)
BilliardBoundary read_boundary(const JsonObject& o) {
  o.allow_only({"shape", "a", "slope", "c", "alpha", "beta", "delta", "ceiling_height"});
  BilliardBoundary b;
  const std::string shape =
      name_of(boundary_shape_names, o.choice_of("shape", boundary_shape_names, "boundary shape"));
  const auto only = [&](const char* key, bool allowed) {
    if (!allowed) o.forbid(key, "not a parameter of the " + shape);
  };
  only("a", shape == "parabola");
  only("slope", shape == "wedge");
  only("c", shape != "hyperbola");
  only("alpha", shape == "hyperbola");
  only("beta", shape == "hyperbola");
  only("delta", shape == "hyperbola");
  if (shape == "parabola") {
    b.shape = BoundaryShape::parabola;
    b.a = o.number_or("a", 26.0, Bound::positive);
  } else if (shape == "wedge") {
    b.shape = BoundaryShape::wedge;
    b.slope = o.number_or("slope", 1.85, Bound::positive);
  } else if (shape == "hyperbola") {
    b.shape = BoundaryShape::hyperbola;
    b.alpha = o.number_or("alpha", 4.03e-3, Bound::positive);
    b.beta = o.number_or("beta", 800.0, Bound::positive);
    b.delta = o.number_or("delta", 0.0445, Bound::any);
  } else {
    b.shape = BoundaryShape::flat;
  }
  if (shape != "hyperbola") b.c = o.number_or("c", 0.0063, Bound::any);
  return b;
}

struct BilliardCase final : WholeRunCase {
  billiard::Params model;
  billiard::Options options;
  BilliardInitial initial;
  double frequency = 0.0;  // [Hz]

  void describe(Description& d) const override;
  void write_run(const nlohmann::json& case_echo, const std::filesystem::path& out_dir,
                 std::ostream& progress) const override;
};

void BilliardCase::describe(Description& d) const {
  const billiard::Params& m = model;
  const double k_ratio = 1.0 + m.ball.mass * m.ball.radius * m.ball.radius / m.ball.inertia;
  std::ostream& out = d.out;
  d.group("billiard");
  out << "billiard: " << d.word("shape", name_of(boundary_shape_names, m.boundary.shape))
      << ", ball m = " << d.number("m", m.ball.mass, "%.6g", "kg")
      << " kg, b = " << d.number("b", m.ball.radius, "%.6g", "m")
      << " m, J = " << d.number("J", m.ball.inertia, "%.6g", "kg m^2")
      << " kg m^2 (m k = 1 + m b^2/J = " << d.number("k_ratio", k_ratio, "%.6g") << ")\n";
  // geometry (spec §1 [D])
  switch (m.boundary.shape) {
    case BoundaryShape::parabola:
      d.group("boundary");
      out << "boundary: vertex radius of curvature 1/(2a) = "
          << d.number("vertex_radius", 0.5 / m.boundary.a, "%.6g", "m") << " m\n";
      break;
    case BoundaryShape::wedge:
      d.group("boundary");
      out << "boundary: half-angle from vertical atan(1/slope) = "
          << d.number("half_angle", std::atan(1.0 / m.boundary.slope) / degree, "%.6g", "deg")
          << " deg\n";
      break;
    case BoundaryShape::hyperbola:
      d.group("boundary");
      out << "boundary: vertex height sqrt(alpha) - delta = "
          << d.number("vertex_height", std::sqrt(m.boundary.alpha) - m.boundary.delta, "%.6g", "m")
          << " m, asymptotic slope sqrt(alpha beta) = "
          << d.number("asymptotic_slope", std::sqrt(m.boundary.alpha * m.boundary.beta), "%.6g")
          << "\n";
      break;
    default:
      break;
  }
  d.group("resting");
  out << "resting centre height at q1 = 0: "
      << d.number("height", resting_height(m, 0.0), "%.6g", "m") << " m";
  if (m.boundary.has_ceiling)
    out << "; ceiling at " << d.number("ceiling", m.boundary.ceiling, "%.6g", "m") << " m";
  out << "\n";
  const double aw = m.drive.amplitude * m.drive.omega;
  d.group("drive");
  out << "drive: f = " << d.number("f", frequency, "%.6g", "Hz")
      << " Hz, A = " << d.number("A", m.drive.amplitude, "%.6g", "m")
      << " m, peak wall speed A w = " << d.number("peak_wall_speed", aw, "%.4g", "m/s")
      << " m/s, A w^2 / g = " << d.number("A_w2_g", aw * m.drive.omega / m.gravity, "%.4g")
      << ", half period " << d.number("half_period", 0.5 / frequency, "%.6g", "s") << " s\n";
  d.group("impact");
  out << "impact: " << d.word("law", name_of(impact_law_names, m.law.law))
      << ", e = " << d.number("e", m.law.e, "%.4g")
      << ", mu = " << d.number("mu", m.law.mu_static, "%.4g")
      << ", mu' = " << d.number("mu_kinetic", m.law.mu_kinetic, "%.4g")
      << "; spinless ball on a static wall sticks iff |u4/u5| < (1 + m b^2/J) mu (1 + e) = "
      << d.number("stick_ratio", k_ratio * m.law.mu_static * (1.0 + m.law.e), "%.6g")
      << "; e = 1 below " << d.number("low_velocity_speed", m.law.low_velocity_speed, "%.4g", "m/s")
      << " m/s\n";
  d.group("drag");
  out << "drag: C1 = " << d.number("C1", m.drag.c1, "%.4g", "N s/m")
      << " N s/m, C2 = " << d.number("C2", m.drag.c2, "%.4g", "kg/m")
      << " kg/m; at 1 m/s the drag is "
      << d.number("at_1_m_s", (m.drag.c1 + m.drag.c2) / (m.ball.mass * m.gravity), "%.3g", "g")
      << " g\n";
  const bool rk4 = options.driver.ode.scheme == Scheme::rk4;
  d.group("integrator");
  out << "integrator: "
      << d.word("scheme", name_of(impact::scheme_names, options.driver.ode.scheme))
      << (rk4 ? ", step " : ", first step ")
      << d.number("step", options.driver.ode.step, "%.4g", "s") << " s, event tolerance "
      << d.number("event_time_tol", options.driver.ode.event_time_tol, "%.3g", "s")
      << " s; Zeno: approach < "
      << d.number("zeno_min_speed", options.driver.zeno.min_speed, "%.3g", "m/s") << " m/s or > "
      << d.count("zeno_max_impacts", options.driver.zeno.max_impacts) << " impacts in "
      << d.number("zeno_window", options.driver.zeno.window, "%.3g", "s")
      << " s, then a plastic impact and persistent contact (roll if |F_t| <= mu F_n, else slide "
         "with mu')\n";
  d.group("run");
  out << "run: " << d.count("collisions", options.max_collisions) << " collisions (at most "
      << d.number("t_end", options.driver.t_end, "%.6g", "s") << " s) from (q1, q2) = ("
      << d.number("q1", initial.q1, "%.6g", "m") << ", " << d.number("q2", initial.q2, "%.6g", "m")
      << ") m\n";
}

const io::TableSpec& collisions_table() {
  static const io::TableSpec t{
      "collisions.csv",
      "one row per impact",
      {{"n", "", "the impact's number, from 0"},
       {"t", "s", "time"},
       {"surface", "", "`floor`, `left` or `right` (the wedge's walls), or `ceiling`"},
       {"q1", "m", "horizontal position of the centre"},
       {"height", "m", "height q2 of the centre"},
       {"flight_time", "s",
        "t_n − t_{n−1} (the first from t = 0; after a contact phase, from its lift-off)"},
       {"u_n_before", "m/s", "relative normal velocity before (< 0)"},
       {"u_t_after", "m/s", "u4 after"},
       {"spin_after", "rad/s", "u3 after"},
       {"u5_after", "m/s", "u5 after"},
       {"sticking", "", "1 when the impact stuck"},
       {"e_used", "-",
        "restitution used (0 for the plastic impact that starts persistent contact)"},
       {"energy", "J", "½mv² + ½Ju3² + mgq2"},
       {"norm_height", "-",
        "h over E/(mg), h = q2 − q2,rest (the centre resting in the vertex), E = ½mv² + mgh "
        "after the impact (Fig. 7)"},
       {"norm_u_t", "-", "u4 over √(2E/m) (Fig. 7)"}}};
  return t;
}

const io::TableSpec& return_map_table() {
  static const io::TableSpec t{"return_map.csv",
                               "one row per pair of successive impacts (Figs. 4–6)",
                               {{"n", "", "the first impact's number"},
                                {"height_n", "m", "q2 at impact n"},
                                {"height_n1", "m", "q2 at impact n + 1"},
                                {"flight_n", "s", "flight time before impact n"},
                                {"flight_n1", "s", "flight time before impact n + 1"}}};
  return t;
}

const io::TableSpec& contact_table() {
  static const io::TableSpec t{
      "contact_phases.csv",
      "one row per phase of persistent contact (the Zeno policy)",
      {{"n", "", "the phase's number, from 0"},
       {"episode", "", "which accumulation led to it, from 0"},
       {"surface", "", "the surface the ball is on"},
       {"mode", "", "`roll` or `slide`"},
       {"t_start", "s", "start"},
       {"t_end", "s", "end"},
       {"end", "",
        "why it ended: `slip`, `stick`, `reverse`, `liftoff`, `corner`, `impact`, `run_end` or "
        "`undetermined`"},
       {"q1_start", "m", "centre at the start"},
       {"q2_start", "m", ""},
       {"q1_end", "m", "centre at the end"},
       {"q2_end", "m", ""},
       {"f_n_end", "N", "normal force at the end (≈ 0 at a lift-off)"}}};
  return t;
}

const io::TableSpec& trajectory_table() {
  static const io::TableSpec t{
      "trajectory.csv",
      "one row every `run/sample_interval` (written only when it is > 0; also sampled in "
      "contact)",
      {{"t", "s", "time"},
       {"q1", "m", "centre"},
       {"q2", "m", ""},
       {"v1", "m/s", "velocity"},
       {"v2", "m/s", ""},
       {"spin", "rad/s", "u3"},
       {"wall_offset", "m", "Δq1 = A sin(ωt), the boundary's displacement"}}};
  return t;
}

std::string collisions_csv(const billiard::Result& r) {
  io::TableText out(collisions_table());
  for (std::size_t n = 0; n < r.collisions.size(); ++n) {
    const BilliardCollision& c = r.collisions[n];
    out.integer(static_cast<long long>(n))
        .num(c.t)
        .text(name_of(surface_names, c.surface))
        .num(c.q1);
    out.num(c.height).num(c.flight_time).num(c.u_n_before).num(c.u_t_after).num(c.spin_after);
    out.num(c.u5_after).flag(c.sticking).num(c.e_used).num(c.energy).num(c.norm_height);
    out.num(c.norm_u_t).end_row();
  }
  return out.str();
}

// the phases of persistent contact (the Zeno policy, docs/billiard.md)
std::string contact_csv(const billiard::Result& r) {
  io::TableText out(contact_table());
  for (std::size_t n = 0; n < r.contact_phases.size(); ++n) {
    const BilliardContactPhase& p = r.contact_phases[n];
    out.integer(static_cast<long long>(n))
        .integer(p.episode)
        .text(name_of(surface_names, p.surface));
    out.text(name_of(contact_mode_names, p.mode)).num(p.t_start).num(p.t_end);
    out.text(name_of(contact_end_names, p.end)).num(p.q1_start).num(p.q2_start).num(p.q1_end);
    out.num(p.q2_end).num(p.f_n_end).end_row();
  }
  return out.str();
}

// the contact block of summary.json: counts, times per mode, ends, and every phase
nlohmann::json contact_summary(const billiard::Result& r) {
  double roll = 0.0, slide = 0.0;
  nlohmann::json ends = nlohmann::json::object();
  for (const BilliardContactPhase& p : r.contact_phases) {
    (p.mode == BilliardContactMode::roll ? roll : slide) += p.t_end - p.t_start;
    const char* end = name_of(contact_end_names, p.end);
    ends[end] = ends.value(end, 0) + 1;
  }
  const long long episodes = r.contact_phases.empty() ? 0 : r.contact_phases.back().episode + 1;
  return {{"episodes", episodes}, {"phases", r.contact_phases.size()},
          {"roll_time", roll},    {"slide_time", slide},
          {"ends", ends},         {"file", "contact_phases.csv"}};
}

// q2,n+1 vs q2,n and t_n+1 vs t_n (Figs. 4–6)
std::string return_map_csv(const billiard::Result& r) {
  io::TableText out(return_map_table());
  for (std::size_t n = 0; n + 1 < r.collisions.size(); ++n) {
    const BilliardCollision& a = r.collisions[n];
    const BilliardCollision& b = r.collisions[n + 1];
    out.integer(static_cast<long long>(n)).num(a.height).num(b.height).num(a.flight_time);
    out.num(b.flight_time).end_row();
  }
  return out.str();
}

std::string trajectory_csv(const billiard::Result& r) {
  io::TableText out(trajectory_table());
  for (const BilliardSample& s : r.trajectory) {
    out.num(s.t).num(s.q1).num(s.q2).num(s.v1).num(s.v2).num(s.spin).num(s.wall_offset);
    out.end_row();
  }
  return out.str();
}

// mean and standard deviation of a column over the last n collisions
nlohmann::json tail_stats(const billiard::Result& r, std::size_t n, double BilliardCollision::*f,
                          bool absolute) {
  const std::size_t count = std::min(n, r.collisions.size());
  if (count == 0) return nullptr;
  double sum = 0.0, sum2 = 0.0;
  for (std::size_t i = r.collisions.size() - count; i < r.collisions.size(); ++i) {
    const double x = absolute ? std::fabs(r.collisions[i].*f) : r.collisions[i].*f;
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / count;
  return {{"mean", mean}, {"std", std::sqrt(std::max(sum2 / count - mean * mean, 0.0))}};
}

void BilliardCase::write_run(const nlohmann::json& case_echo, const std::filesystem::path& out_dir,
                            std::ostream& progress) const {
  billiard::Options o = options;
  report_progress(o.driver, &progress, "billiard");
  const billiard::Result r = run_billiard(model, o, initial);
  progress << "billiard: " << r.collisions.size() << " collisions in " << fmt("%.6g", r.t_end)
           << " s, status " << name_of(run_status_names, r.status)
           << (r.reason.empty() ? "" : " (" + r.reason + ")") << " (" << r.ceiling_hits
           << " ceiling hits, " << r.sticking << " sticking, " << r.low_velocity
           << " under the e = 1 rule, " << r.grazing << " grazing)\n";
  if (r.zeno_switches > 0 || !r.contact_phases.empty())
    progress << "  accumulating impacts " << r.zeno_switches
             << " times (first at t = " << fmt("%.8g", r.zeno_time)
             << " s): " << r.contact_phases.size() << " contact phases, " << r.liftoff_at_once
             << " plastic impacts left the surface at once\n";
  if (r.status == RunStatus::zeno)
    progress << "  persistent contact could not go on at t = " << fmt("%.8g", r.t_end) << " s ("
             << r.fallback << "): the run ended cleanly there\n";

  io::write_file_atomic(out_dir / "collisions.csv", collisions_csv(r));
  io::write_file_atomic(out_dir / "return_map.csv", return_map_csv(r));
  if (!r.trajectory.empty()) io::write_file_atomic(out_dir / "trajectory.csv", trajectory_csv(r));
  io::write_file_atomic(out_dir / "contact_phases.csv", contact_csv(r));

  // the summary last, so that its presence means the run completed
  nlohmann::json summary = run_summary_head("billiard", case_echo);
  io::put_run_status(summary, name_of(run_status_names, r.status), r.reason, r.detail);
  summary["t_end"] = r.t_end;
  summary["counts"] = {{"collisions", r.collisions.size()},
                       {"ceiling_hits", r.ceiling_hits},
                       {"sticking", r.sticking},
                       {"low_velocity_rule", r.low_velocity},
                       {"grazing", r.grazing},
                       {"zeno_switches", r.zeno_switches},
                       {"plastic_switches", r.plastic_switches},
                       {"contact_phases", r.contact_phases.size()},
                       {"liftoff_at_once", r.liftoff_at_once}};
  const bool detected = r.zeno_switches > 0;
  summary["zeno"] = {{"detected", detected},
                     {"policy",
                      "plastic impact, then persistent contact (roll or slide) until "
                      "lift-off"},
                     {"switches", r.zeno_switches},
                     {"t", detected ? nlohmann::json(r.zeno_time) : nlohmann::json(nullptr)},
                     {"q1", detected ? nlohmann::json(r.zeno_q1) : nlohmann::json(nullptr)},
                     {"q2", detected ? nlohmann::json(r.zeno_q2) : nlohmann::json(nullptr)},
                     {"fallback", r.status == RunStatus::zeno ? nlohmann::json(r.fallback)
                                                              : nlohmann::json(nullptr)}};
  summary["contact"] = contact_summary(r);
  summary["tail_100"] = {
      {"height", tail_stats(r, 100, &BilliardCollision::height, false)},
      {"flight_time", tail_stats(r, 100, &BilliardCollision::flight_time, false)},
      {"abs_u_t_after", tail_stats(r, 100, &BilliardCollision::u_t_after, true)},
      {"norm_height", tail_stats(r, 100, &BilliardCollision::norm_height, false)},
      {"abs_norm_u_t", tail_stats(r, 100, &BilliardCollision::norm_u_t, true)}};
  summary["collisions_file"] = "collisions.csv";  // every impact, not repeated here
  io::write_json_atomic(out_dir / "summary.json", summary);
}

}  // namespace

std::vector<io::TableSpec> billiard_tables() {
  return {collisions_table(), return_map_table(), contact_table(), trajectory_table()};
}

std::unique_ptr<Case> load_billiard(const JsonObject& root, std::vector<std::string>&) {
  root.allow_only({"model", "description", "gravity", "ball", "boundary", "drive", "drag", "impact",
                   "initial", "integrator", "zeno", "run"});
  auto c = std::make_unique<BilliardCase>();
  billiard::Params& m = c->model;
  if (root.has("description")) root.string("description");
  m.gravity = root.number_or("gravity", 9.81, Bound::non_negative);

  // the ball (spec §1: J of a solid sphere [D])
  const JsonObject ball = root.object_or_empty("ball");
  ball.allow_only({"radius", "mass", "inertia"});
  m.ball.radius = ball.number_or("radius", 1.55e-3, Bound::positive);
  m.ball.mass = ball.number_or("mass", 1.3028e-4, Bound::positive);
  m.ball.inertia =
      ball.number_or("inertia", 0.4 * m.ball.mass * m.ball.radius * m.ball.radius, Bound::positive);

  // the boundary and its ceiling (null: none)
  const JsonObject boundary = root.object("boundary");
  m.boundary = read_boundary(boundary);
  if (!boundary.has("ceiling_height")) {
    boundary.number_or("ceiling_height", 0.0);
    boundary.value("ceiling_height") = nullptr;
  } else if (!boundary.value("ceiling_height").is_null()) {
    m.boundary.has_ceiling = true;
    m.boundary.ceiling = boundary.number("ceiling_height", Bound::any);
  }

  // the drive Δq1 = A sin(2π f t) (Eq. 10)
  const JsonObject drive = root.object("drive");
  drive.allow_only({"amplitude", "frequency"});
  m.drive.amplitude = drive.number("amplitude", Bound::non_negative);
  c->frequency = drive.number("frequency", Bound::positive);
  m.drive.omega = 2.0 * pi * c->frequency;

  // drag (Eq. 4 with D = 2b as the defaults)
  const JsonObject drag = root.object_or_empty("drag");
  drag.allow_only({"c1", "c2"});
  const double diameter = 2.0 * m.ball.radius;
  m.drag.c1 = drag.number_or("c1", 1.55e-4 * diameter, Bound::non_negative);
  m.drag.c2 = drag.number_or("c2", 0.22 * diameter * diameter, Bound::non_negative);

  // the impact law (spec §4)
  const JsonObject impact = root.object_or_empty("impact");
  impact.allow_only({"law", "e", "mu_static", "mu_kinetic", "low_velocity_speed", "r"});
  m.law.law = impact.choice_of("law", impact_law_names, "impact law",
                               std::optional(ImpactLaw::kane_levinson));
  m.law.e = impact.number_or("e", 0.393, Bound::non_negative);
  if (m.law.e > 1.0) impact.fail("e", "must be <= 1");
  m.law.mu_static = impact.number_or("mu_static", 0.61, Bound::non_negative);
  m.law.mu_kinetic = impact.number_or("mu_kinetic", 0.47, Bound::non_negative);
  if (m.law.mu_kinetic > m.law.mu_static)
    impact.fail("mu_kinetic", "must be <= mu_static (" + io::format_number(m.law.mu_static) +
                                  "): a larger kinetic coefficient could reverse the slip and "
                                  "gain energy");
  m.law.low_velocity_speed = impact.number_or("low_velocity_speed", 0.05, Bound::non_negative);
  m.law.r = impact.number_or("r", 0.43, Bound::non_negative);
  if (m.law.r > 1.0) impact.fail("r", "must be <= 1");

  // the shared groups (impact_schema.hpp): flights by fixed-step RK4; a Zeno threshold of
  // 4 g h lets through only flights of several steps
  DriverSchema d;
  billiard::Options& o = c->options;
  d.base = o.driver;
  d.base.zeno.min_speed = 0.0;
  d.run.model_keys = {"collisions"};
  d.integrator = IntegratorGroup{};
  d.zeno = ZenoGroup{m.gravity, 4.0};
  o.driver = parse_driver_options(root, d);
  if (o.driver.ode.step > 1e-2)
    root.object_or_empty("integrator")
        .fail("step", io::format_number(o.driver.ode.step) + " s is too large: at most 0.01 s");
  o.max_collisions = root.object_or_empty("run").integer_or("collisions", 25000, 1);

  // the start (spec §5: at rest; here a small drop onto the floor at q1)
  const JsonObject initial = root.object_or_empty("initial");
  initial.allow_only({"q1", "q2", "drop_height", "v1", "v2", "spin"});
  if (initial.has("q2") && initial.has("drop_height"))
    initial.fail("", "give either q2 or drop_height, not both");
  c->initial.q1 = initial.number_or("q1", 0.0);
  double rest = 0.0;
  try {
    rest = resting_height(m, c->initial.q1);
    resting_height(m, 0.0);  // the Fig. 7 normalisation's zero (the run takes it)
  } catch (const std::domain_error& e) {
    boundary.fail("", e.what());
  }
  // the run's positions must resolve the ball: a double near the resting height carries
  // steps far below the radius
  if (!(std::fabs(rest) < m.ball.radius * 1e9))
    boundary.fail("", "puts the ball's resting height at " + io::format_number(rest) +
                          " m, more than 1e9 ball radii from the origin: positions there are "
                          "too coarse to resolve a ball of radius " +
                          io::format_number(m.ball.radius) + " m");
  if (initial.has("q2")) {
    c->initial.q2 = initial.number("q2");
    if (!(c->initial.q2 > rest))
      initial.fail("q2", io::format_number(c->initial.q2) +
                             " m is not above the floor: the ball touches it at q2 = " +
                             io::format_number(rest) + " m");
  } else {
    c->initial.q2 = rest + initial.number_or("drop_height", 1e-3, Bound::positive);
  }
  if (m.boundary.has_ceiling && !(c->initial.q2 < m.boundary.ceiling - m.ball.radius))
    boundary.fail("ceiling_height", "leaves no room for the ball above its start (q2 = " +
                                        io::format_number(c->initial.q2) + " m)");
  c->initial.v1 = initial.number_or("v1", 0.0);
  c->initial.v2 = initial.number_or("v2", 0.0);
  c->initial.spin = initial.number_or("spin", 0.0);

  return c;
}

}  // namespace granular::cases
