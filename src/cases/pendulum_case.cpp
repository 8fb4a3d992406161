// The "pendulum" case of the CLI: validation of its keys (docs/pendulum.md), the derived
// quantities of `granular validate`, and the outputs of a run (pendulum.csv, summary.json).
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>

#include "granular/cases/impact_schema.hpp"
#include "granular/cases/models.hpp"
#include "granular/constants.hpp"
#include "granular/impact/pendulum/run.hpp"
#include "granular/impulse/routh.hpp"
#include "granular/io/output.hpp"
#include "granular/io/table.hpp"

namespace granular::cases {

using namespace pendulum;  // the model's physics

namespace {

// rows of the impact table on the terminal: the first ones and the last kTableTail
constexpr std::size_t kTableRows = 50;
constexpr std::size_t kTableTail = 10;

const io::TableSpec& series_table() {
  static const io::TableSpec t{
      "pendulum.csv",
      "one row per output time, and two at each impact time, one before and one after the "
      "impact, so that the jumps in ψ̇ and in the joint forces show",
      {{"t", "s", "time"},
       {"psi1", "rad", "ψ1, not wrapped"},
       {"psi2", "rad", "ψ2, not wrapped"},
       {"omega1", "rad/s", "ψ̇1"},
       {"omega2", "rad/s", "ψ̇2"},
       {"energy", "J", "the mechanical energy E of §2.1 (potential zero at the height of O)"},
       {"gap", "m", "f"},
       {"P", "N", "the vertical joint force at O (§2.7)"},
       {"R", "N", "the horizontal joint force at O"},
       {"V", "N", "the vertical joint force at A"},
       {"H", "N", "the horizontal joint force at A"},
       {"F", "N", "the normal contact force (non-zero only in persistent contact)"},
       {"T", "N", "the tangential contact force"},
       {"mode", "", "`flight`, `sliding` or `rest`"}}};
  return t;
}

using io::Bound;
using io::format_number;
using io::JsonObject;

class PendulumCase : public WholeRunCase {
 public:
  PendulumCase(pendulum::Params p, State y0, pendulum::Options o)
      : p_(p), y0_(std::move(y0)), o_(std::move(o)) {}

  void describe(Description& d) const override {
    const double f0 = pendulum_gap(p_, y0_[0], y0_[1]);
    State rest = State::Zero(4);
    const bool rk4 = o_.driver.ode.scheme == Scheme::rk4;
    std::ostream& out = d.out;
    d.group("double_pendulum");
    out << "double pendulum: L = l2 + r = " << d.number("L", p_.L(), "%.6g", "m")
        << " m, d = L - lc = " << d.number("d", p_.d(), "%.6g", "m")
        << " m, floor at D = " << d.number("D", p_.D, "%.6g", "m") << " m (reachable from "
        << d.number("reach_min", p_.l1, "%.6g", "m") << " to "
        << d.number("reach_max", p_.l1 + p_.l2 + 2.0 * p_.r, "%.6g", "m") << " m)\n";
    d.group("obstacle");
    out << "obstacle: k = " << d.number("k", p_.k, "%.6g")
        << ", mu = " << d.number("mu", p_.mu, "%.6g")
        << ", g = " << d.number("g", p_.g, "%.6g", "m/s²") << " m/s²\n";
    d.group("start");
    out << "start: gap f(0) = " << d.number("gap", f0, "%.6g", "m")
        << " m, E(0) = " << d.number("E", pendulum_energy(p_, y0_), "%.10g", "J")
        << " J; E at psi = 0 (inaccessible) = "
        << d.number("E_rest", pendulum_energy(p_, rest), "%.10g", "J") << " J\n";
    d.group("integrator");
    out << "integrator: " << d.word("scheme", name_of(impact::scheme_names, o_.driver.ode.scheme))
        << (rk4 ? ", step " : ", first step ") << d.number("step", o_.driver.ode.step, "%.4g", "s")
        << " s";
    if (!rk4)
      out << ", max_step " << d.number("max_step", o_.driver.ode.max_step, "%.4g", "s")
          << " s, rtol " << d.number("rtol", o_.driver.ode.rtol, "%.3g") << ", atol "
          << d.number("atol", o_.driver.ode.atol, "%.3g");
    out << ", event time tolerance "
        << d.number("event_time_tol", o_.driver.ode.event_time_tol, "%.3g", "s") << " s\n";
    d.group("run");
    out << "run: t_end = " << d.number("t_end", o_.driver.t_end, "%.6g", "s") << " s, ";
    if (o_.driver.sample_interval > 0.0)
      out << d.large_count("rows", std::ceil(o_.driver.t_end / o_.driver.sample_interval), "%.0f")
          << " output rows";
    else
      out << "no time series";
    out << "\n";
    d.group("zeno");
    out << "zeno guard: approach speed < "
        << d.number("min_speed", o_.driver.zeno.min_speed, "%.4g", "m/s") << " m/s or > "
        << d.count("max_impacts", o_.driver.zeno.max_impacts) << " impacts in "
        << d.number("window", o_.driver.zeno.window, "%.4g", "s")
        << " s -> plastic impact, persistent contact\n";
  }

  void write_run(const nlohmann::json& case_echo, const std::filesystem::path& out_dir,
                 std::ostream& progress) const override {
    pendulum::Options o = o_;
    report_progress(o.driver, &progress, "pendulum");
    const pendulum::Result r = run_pendulum(p_, y0_, o);

    // a short table of the impacts
    progress << "pendulum: " << r.impacts.size() << " impact(s) in [0, "
             << io::format_value("%.6g", r.t_final) << "] s, status "
             << name_of(run_status_names, r.status)
             << (r.reason.empty() ? "" : " (" + r.reason + ")") << "\n"
             << "    #        t [s]  case           F [N s]        T [N s]   E after [J]\n";
    const auto row = [&](std::size_t i) {
      const PendulumImpact& im = r.impacts[i];
      char line[512];  // room for any double in %f: t is bounded only by t_end
      std::snprintf(line, sizeof line, "  %3zu %12.8f  %-11s %14.8g %14.8g %13.8g%s\n", i + 1, im.t,
                    impulse::routh_case_name(im.routh.routh_case), im.routh.p_n, im.routh.p_t,
                    im.energy_after, im.plastic ? "  (plastic)" : "");
      progress << line;
    };
    // the first and the last impacts only, where there are many (a chattering run can have a
    // million): summary.json lists them all
    const std::size_t n = r.impacts.size();
    if (n <= kTableRows) {
      for (std::size_t i = 0; i < n; ++i) row(i);
    } else {
      for (std::size_t i = 0; i < kTableRows - kTableTail; ++i) row(i);
      progress << "  ... " << n - kTableRows << " more impact(s) (summary.json lists all)\n";
      for (std::size_t i = n - kTableTail; i < n; ++i) row(i);
    }
    if (r.zeno)
      progress << "zeno: impacts accumulate at t = " << io::format_value("%.8g", r.zeno->t)
               << " s; persistent contact, final mode " << name_of(contact_mode_names, r.final_mode)
               << "\n";

    io::write_file_atomic(out_dir / "pendulum.csv", csv(r));

    // the summary last, so that its presence means the run completed
    nlohmann::json summary = run_summary_head("pendulum", case_echo);
    io::put_run_status(summary, name_of(run_status_names, r.status), r.reason, r.detail);
    summary["t_end"] = o_.driver.t_end;
    summary["t_final"] = r.t_final;
    summary["impact_count"] = r.impacts.size();
    nlohmann::json impacts = nlohmann::json::array();
    for (const PendulumImpact& im : r.impacts) impacts.push_back(impact_json(im));
    summary["impacts"] = std::move(impacts);
    summary["energy_initial"] = pendulum_energy(p_, y0_);
    summary["energy_final"] = io::json_number(pendulum_energy(p_, r.y_final));
    summary["final_state"] = {
        {"phi1", io::json_number(r.y_final[0])},
        {"phi2", io::json_number(r.y_final[1])},
        {"omega1", io::json_number(r.y_final[2])},
        {"omega2", io::json_number(r.y_final[3])},
        {"gap", io::json_number(pendulum_gap(p_, r.y_final[0], r.y_final[1]))},
        {"mode", name_of(contact_mode_names, r.final_mode)}};
    if (r.zeno) {
      nlohmann::json transitions = nlohmann::json::array();
      for (const ContactTransition& c : r.transitions)
        transitions.push_back(
            {{"t", c.t}, {"mode", name_of(contact_mode_names, c.mode)}, {"F", c.F}, {"T", c.T}});
      summary["zeno"] = {{"t", r.zeno->t},
                         {"approach_speed", r.zeno->approach_speed},
                         {"impact_index", r.zeno->impact_index},
                         {"impacts_in_window", r.zeno->impacts_in_window},
                         {"transitions", std::move(transitions)}};
    } else {
      summary["zeno"] = nullptr;
    }
    summary["time_series"] = "pendulum.csv";
    summary["samples"] = r.samples.size();
    io::write_json_atomic(out_dir / "summary.json", summary);
  }

 private:
  static nlohmann::json impact_json(const PendulumImpact& im) {
    return {{"t", im.t},
            {"phi1", im.psi1},
            {"phi2", im.psi2},
            {"gap", im.gap},
            {"omega1_before", im.omega_before[0]},
            {"omega2_before", im.omega_before[1]},
            {"omega1_after", im.omega_after[0]},
            {"omega2_after", im.omega_after[1]},
            {"s_before", im.s_before},
            {"c_before", im.c_before},
            {"s_after", im.routh.u_t},
            {"c_after", im.routh.u_n},
            {"alpha", im.w.w_tt},
            {"epsilon", im.w.w_nt},
            {"gamma", im.w.w_nn},
            {"p_n", im.routh.p_n},
            {"p_n_compression", im.routh.p_n_compression},
            {"p_n_stick", io::json_number(im.routh.p_n_stick)},
            {"p_t", im.routh.p_t},
            {"routh_case", impulse::routh_case_name(im.routh.routh_case)},
            {"plastic", im.plastic},
            {"energy_before", im.energy_before},
            {"energy_after", im.energy_after},
            {"joint_impulse",
             {{"H", im.joint.H}, {"V", im.joint.V}, {"R", im.joint.R}, {"P", im.joint.P}}}};
  }

  // the time series: one row per output time, plus rows just before and after each impact
  static std::string csv(const pendulum::Result& r) {
    io::TableText out(series_table());
    for (const PendulumSample& s : r.samples) {
      out.num(s.t).num(s.y[0]).num(s.y[1]).num(s.y[2]).num(s.y[3]).num(s.energy).num(s.gap);
      out.num(s.joint.P).num(s.joint.R).num(s.joint.V).num(s.joint.H).num(s.F).num(s.T);
      out.text(name_of(contact_mode_names, s.mode)).end_row();
    }
    return out.str();
  }

  pendulum::Params p_;
  State y0_;
  pendulum::Options o_;
};

}  // namespace

std::vector<io::TableSpec> pendulum_tables() { return {series_table()}; }

std::unique_ptr<Case> load_pendulum(const JsonObject& root, std::vector<std::string>&) {
  root.allow_only({"model", "description", "pendulum", "obstacle", "damping", "excitation",
                   "gravity", "initial", "run", "integrator", "zeno"});
  if (root.has("description")) root.string("description");
  pendulum::Params p;

  // the two bodies (spec §1, §4): required, no paper values are assumed silently
  const JsonObject body = root.object("pendulum");
  body.allow_only({"m1", "m2", "l1", "l2", "r", "lc", "I1", "I2"});
  p.m1 = body.number("m1", Bound::positive);
  p.m2 = body.number("m2", Bound::positive);
  p.l1 = body.number("l1", Bound::positive);
  p.l2 = body.number("l2", Bound::positive);
  p.r = body.number("r", Bound::positive);
  p.lc = body.number("lc", Bound::positive);
  p.I1 = body.number("I1", Bound::positive);
  p.I2 = body.number("I2", Bound::positive);

  // the floor: depth within reach of the disk only (eq. 1), Poisson's k, Coulomb's μ
  const JsonObject floor = root.object("obstacle");
  floor.allow_only({"D", "k", "mu", "baumgarte_rate"});
  p.D = floor.number("D", Bound::positive);
  if (!(p.D > p.l1 && p.D < p.l1 + p.l2 + 2.0 * p.r))
    floor.fail("D", format_number(p.D) + " m must satisfy l1 < D < l1 + l2 + 2r (eq. 1), i.e. " +
                        format_number(p.l1) + " < D < " + format_number(p.l1 + p.l2 + 2.0 * p.r));
  p.k = floor.number("k", Bound::non_negative);
  if (p.k > 1.0) floor.fail("k", "must be <= 1");
  p.mu = floor.number_or("mu", 0.0, Bound::non_negative);

  const JsonObject damping = root.object_or_empty("damping");
  damping.allow_only({"c1", "c2"});
  p.c1 = damping.number_or("c1", 0.0, Bound::non_negative);
  p.c2 = damping.number_or("c2", 0.0, Bound::non_negative);

  const JsonObject torque = root.object_or_empty("excitation");
  torque.allow_only({"M01", "Omega1", "M02", "Omega2"});
  p.M01 = torque.number_or("M01", 0.0);
  p.Omega1 = torque.number_or("Omega1", 0.0);
  p.M02 = torque.number_or("M02", 0.0);
  p.Omega2 = torque.number_or("Omega2", 0.0);

  // g is not stated by the paper; 9.81 reproduces its equilibrium energy (spec §1)
  p.g = root.number_or("gravity", 9.81, Bound::non_negative);

  // initial state, eq. (4): angles in degrees as the paper gives them
  const JsonObject initial = root.object("initial");
  initial.allow_only({"psi1_deg", "psi2_deg", "omega1", "omega2"});
  // each value read before the vector is filled: a missing key must throw its CaseError, not
  // leave Eigen's comma initializer incomplete (which aborts in a debug build)
  const double psi1 = initial.number("psi1_deg") * degree;
  const double psi2 = initial.number("psi2_deg") * degree;
  const double omega1 = initial.number("omega1");
  const double omega2 = initial.number("omega2");
  State y0(4);
  y0 << psi1, psi2, omega1, omega2;
  const double f0 = pendulum_gap(p, y0[0], y0[1]);
  if (!(f0 > 0.0))
    initial.fail("", "the disk starts at or below the floor: gap f = " + format_number(f0) +
                         " m, must be > 0 (eq. 7)");

  // the bodies' scales must fit a double: with lc = 1e180 the mass matrix overflowed, nothing
  // moved, and the run reported "completed" with an energy of null
  const double e0 = pendulum_energy(p, y0);
  if (!pendulum_mass_matrix(p, y0[0], y0[1]).allFinite() || !std::isfinite(e0))
    body.fail("",
              "the mass matrix or the energy at the start is not a finite double: masses, "
              "lengths or inertias beyond its range (E(0) = " +
                  format_number(e0) + " J)");

  // the shared groups (impact_schema.hpp): the paper's fixed-step RK4 by default (its step
  // is not stated; 1e-4 s is our choice)
  DriverSchema d;
  d.base = pendulum::Options{}.driver;
  d.run.t_end_required = true;
  d.integrator = IntegratorGroup{};
  d.zeno = ZenoGroup{p.g, 2.0};
  reject_renamed(root.object_or_empty("zeno"), {{"baumgarte_rate", "/obstacle/baumgarte_rate"}});
  pendulum::Options o;
  o.driver = parse_driver_options(root, d);
  // the drift correction of persistent contact (our assumption: the paper has none)
  o.baumgarte_rate = floor.number_or("baumgarte_rate", 50.0, Bound::non_negative);

  return std::make_unique<PendulumCase>(p, y0, o);
}

}  // namespace granular::cases
