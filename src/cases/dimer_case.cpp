// The "dimer" case of the CLI: validation of its keys (docs/dimer.md), the derived quantities
// of `granular validate`, and the outputs of a run (dimer.csv, impacts.csv, phases.csv,
// summary.json) or of a sweep over aspect ratio and frequency (sweep.csv, summary.json).
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "granular/cases/impact_schema.hpp"
#include "granular/cases/models.hpp"
#include "granular/cases/run_limits.hpp"
#include "granular/constants.hpp"
#include "granular/impact/dimer/run.hpp"
#include "granular/impulse/darboux_keller.hpp"
#include "granular/io/output.hpp"
#include "granular/io/table.hpp"
#include "granular/vibration.hpp"

namespace granular::cases {

using namespace dimer;  // the model's physics

namespace {

const io::TableSpec& series_table() {
  static const io::TableSpec t{
      "dimer.csv",
      "one row per output time, and rows just before and after each impact",
      {{"t", "s", "time"},
       {"x_left", "m", "centre of the left sphere"},
       {"y_left", "m", ""},
       {"x_right", "m", "centre of the right sphere"},
       {"y_right", "m", ""},
       {"vx_left", "m/s", "horizontal velocity of the left sphere"},
       {"vx_right", "m/s", "horizontal velocity of the right sphere"},
       {"gap_left", "m", "gap d of the left tip"},
       {"gap_right", "m", "gap d of the right tip"},
       {"gap_rate_left", "m/s", "ḋ of the left tip"},
       {"gap_rate_right", "m/s", "ḋ of the right tip"},
       {"vt_left", "m/s", "slip velocity v_t of the left tip"},
       {"vt_right", "m/s", "slip velocity v_t of the right tip"},
       {"theta", "rad", "tilt θ (> 0 raises the right sphere)"},
       {"theta_dot", "rad/s", "θ̇"},
       {"y_plate", "m", "plate position y_p"},
       {"fn_left", "N", "normal contact force on the left tip"},
       {"fn_right", "N", "normal contact force on the right tip"},
       {"ft_left", "N", "tangential contact force on the left tip"},
       {"ft_right", "N", "tangential contact force on the right tip"},
       {"mode_left", "", "`open`, `stick`, `slip+` or `slip-`"},
       {"mode_right", "", "the same for the right tip"}}};
  return t;
}

const io::TableSpec& impacts_table() {
  static const io::TableSpec t{
      "impacts.csv",
      "one row per impact",
      {{"t", "s", "time"},
       {"kind", "",
        "`double` when both tips are in the impact set (a resting tip included), else "
        "`single`"},
       {"theta", "rad", "θ at the impact"},
       {"primary", "", "the first primary contact (0 left, 1 right)"},
       {"left", "", "1 when the left tip is in the impact set"},
       {"right", "", "1 when the right tip is in the impact set"},
       {"d_dot_before_left", "m/s", "ḋ of the left tip before"},
       {"d_dot_after_left", "m/s", "after"},
       {"vt_before_left", "m/s", "v_t of the left tip before"},
       {"vt_after_left", "m/s", "after"},
       {"p_n_left", "N s", "normal impulse P_n on the left tip"},
       {"p_t_left", "N s", "tangential impulse P_t"},
       {"tangential_left", "",
        "`stick` when v_t ends within `numerics/slip_tol` of 0, else `reverse` when it reversed "
        "in the impact, else `slip`; `none` without normal impulse"},
       {"plastic_left", "",
        "1 when the left tip approached slower than `zeno/min_speed`: e = 0, it stays on the "
        "plate"},
       {"d_dot_before_right", "m/s", "the same for the right tip"},
       {"d_dot_after_right", "m/s", ""},
       {"vt_before_right", "m/s", ""},
       {"vt_after_right", "m/s", ""},
       {"p_n_right", "N s", ""},
       {"p_t_right", "N s", ""},
       {"tangential_right", "", ""},
       {"plastic_right", "", ""},
       {"energy_before", "J", "kinetic energy in the plate frame before"},
       {"energy_after", "J", "after"},
       {"converged", "", "1 when the Darboux–Keller integration converged"}}};
  return t;
}

const io::TableSpec& phases_table() {
  static const io::TableSpec t{"phases.csv",
                               "one row per interval of one tip in one mode",
                               {{"tip", "", "`left` or `right`"},
                                {"mode", "", "`open`, `stick`, `slip+` or `slip-`"},
                                {"t_start", "s", "start"},
                                {"t_end", "s", "end"}}};
  return t;
}

const io::TableSpec& sweep_table() {
  static const io::TableSpec t{
      "sweep.csv",
      "one row per point (aspect ratio, frequency) of a sweep (Fig. 11)",
      {{"frequency", "Hz", "f"},
       {"aspect_ratio", "-", "Ar"},
       {"mean_drift", "m/s", "⟨u⟩ of the left sphere"},
       {"drift_to_bouncing_end", "m/s", "⟨u⟩, positive towards the bouncing sphere"},
       {"scaled_drift", "-", "drift_to_bouncing_end·(f/g)·10²"},
       {"motion", "", "`rest`, `drift`, `jump`, `flutter` or `mixed`"},
       {"impacts_per_period_left", "-", "impacts faster than 10% of Aω per period"},
       {"impacts_per_period_right", "-", ""},
       {"contact_fraction_left", "-", "fraction of the window the tip is closed"},
       {"contact_fraction_right", "-", ""},
       {"status", "", "how the point's run ended (docs/outputs.md)"}}};
  return t;
}

using io::Bound;
using io::format_number;
using io::JsonObject;

// Steel density of spec §1 [kg/m³], for the default sphere mass.
constexpr double kSteelDensity = 7.8e3;
// The glass density the paper states for Fig. 2 (spec §1; real glass is about 2.5e3) [kg/m³].
constexpr double kGlassDensity = 1.0e3;

// One point of a sweep: the aspect ratio and frequency that replace the case's own.
struct SweepPoint {
  double aspect_ratio;
  double frequency;
};

class DimerCase : public WholeRunCase {
 public:
  DimerCase(dimer::Params p, double gamma, double frequency, double h0, double theta0,
            dimer::Options o, std::vector<double> sweep_ar, std::vector<double> sweep_f,
            double rod_line_density)
      : p_(p),
        gamma_(gamma),
        frequency_(frequency),
        h0_(h0),
        theta0_(theta0),
        o_(o),
        sweep_ar_(std::move(sweep_ar)),
        sweep_f_(std::move(sweep_f)),
        rod_line_density_(rod_line_density) {}

  void describe(Description& d) const override {
    const DimerBCoefficients b = dimer_b_coefficients(p_, 0.0);
    double w0[4][4], wt[4][4];
    dimer_delassus(p_, 0.0, w0);
    dimer_delassus(p_, theta0_, wt);
    const double br = p_.l / p_.r;
    const double disc = 1.0 - 5.6 * p_.mu_i * p_.mu_i;
    std::ostream& out = d.out;
    d.group("dimer");
    out << "dimer: Ar = " << d.number("Ar", p_.aspect_ratio(), "%.4g")
        << ", l = " << d.number("l", p_.l, "%.6g", "m")
        << " m, r = " << d.number("r", p_.r, "%.6g", "m") << " m, rod "
        << d.number("rod", p_.l - 2.0 * p_.r, "%.6g", "m")
        << " m; m_b = " << d.number("m_b", p_.m_b, "%.6g", "kg")
        << " kg, m_r = " << d.number("m_r", p_.m_r, "%.6g", "kg")
        << " kg, m = " << d.number("m", p_.mass(), "%.6g", "kg")
        << " kg, J = " << d.number("J", p_.inertia(), "%.6g", "kg m²") << " kg m²\n";
    d.group("plate");
    out << "plate: f = " << d.number("f", frequency_, "%.6g", "Hz")
        << " Hz, omega = " << d.number("omega", p_.omega, "%.6g", "rad/s")
        << " rad/s, Gamma = " << d.number("gamma", gamma_, "%.4g")
        << ", A = " << d.number("A", p_.amplitude, "%.6g", "m")
        << " m, A omega = " << d.number("A_omega", p_.amplitude * p_.omega, "%.6g", "m/s")
        << " m/s, alpha = " << d.number("alpha", p_.phase, "%.6g", "rad") << " rad\n";
    d.group("restitution");
    out << "restitution e = " << d.number("e", p_.e, "%.4g")
        << ", mu_s = " << d.number("mu_s", p_.mu_s, "%.4g")
        << ", mu_c = " << d.number("mu_c", p_.mu_c, "%.4g")
        << ", mu_i = " << d.number("mu_i", p_.mu_i, "%.4g")
        << ", distributing exponent kappa = " << d.number("kappa", p_.kappa, "%.4g") << "\n";
    d.group("eq_3_2");
    out << "(3.2): beta = " << d.number("beta", b.beta, "%.6g")
        << ", b1 = " << d.number("b1", b.b1, "%.6g") << ", b5(0) = " << d.number("b5", b.b5, "%.6g")
        << ", b6(0) = " << d.number("b6", b.b6, "%.6g") << "\n";
    d.group("eq_3_3");
    out << "(3.3): mu_st(theta = 0) = "
        << d.number("mu_st_0", dimer_mu_stick_single(p_, 0.0), "%.4f") << ", mu_st(theta0) = "
        << d.number("mu_st_theta0", dimer_mu_stick_single(p_, theta0_), "%.4f")
        << " (stick in impacts if <= mu_s)\n";
    d.group("W_0");
    out << "W(theta = 0): W_n0n0 = " << d.number("W_n0n0", w0[0][0], "%.6g", "1/kg")
        << ", W_n0n1 = " << d.number("W_n0n1", w0[0][1], "%.6g", "1/kg")
        << ", W_n0t1 = " << d.number("W_n0t1", w0[0][3], "%.6g", "1/kg") << " 1/kg\n";
    d.group("W_theta0");
    out << "W(theta0): W_n0n0 = " << d.number("W_n0n0", wt[0][0], "%.6g", "1/kg")
        << ", W_n0t0 = " << d.number("W_n0t0", wt[0][2], "%.6g", "1/kg")
        << ", W_t0t0 = " << d.number("W_t0t0", wt[2][2], "%.6g", "1/kg") << " 1/kg\n";
    d.group("eq_4_4");
    out << "(4.4): B_r = l/r = " << d.number("B_r", br, "%.4g");
    if (disc > 0.0)
      out << ", roots B_r1,2 = " << d.item("roots", (1.0 - std::sqrt(disc)) / p_.mu_i, "%.4g")
          << ", " << d.item("roots", (1.0 + std::sqrt(disc)) / p_.mu_i, "%.4g") << " for mu_i";
    out << "\n";
    d.group("start");
    out << "start: h0 = " << d.number("h0", h0_, "%.6g", "m")
        << " m, theta0 = " << d.number("theta0", theta0_ / degree, "%.6g", "deg")
        << " deg, at rest\n";
    d.group("run");
    out << "run: t_end = " << d.number("t_end", o_.driver.t_end, "%.6g", "s") << " s ("
        << d.number("periods", o_.driver.t_end * frequency_, "%.1f")
        << " periods), <u> over t >= " << d.number("average_from", o_.average_from, "%.6g", "s")
        << " s; rk4 step " << d.number("step", o_.driver.ode.step, "%.4g", "s")
        << " s, event tolerance "
        << d.number("event_time_tol", o_.driver.ode.event_time_tol, "%.3g", "s")
        << " s; impact -> contact below "
        << d.number("impact_to_contact", o_.driver.zeno.min_speed, "%.4g", "m/s") << " m/s; "
        << d.count("impulse_steps", o_.impulse_steps) << " impulse steps per impact\n";
    if (!sweep_ar_.empty()) {
      d.group("sweep");
      out << "sweep: " << d.count("aspect_ratios", static_cast<std::int64_t>(sweep_ar_.size()))
          << " aspect ratios x "
          << d.count("frequencies", static_cast<std::int64_t>(sweep_f_.size()))
          << " frequencies (Gamma, the step per period and impact_to_contact / (A omega) "
             "fixed)\n";
    }
  }

  void write_run(const nlohmann::json& case_echo, const std::filesystem::path& out_dir,
                 std::ostream& progress) const override {
    if (!sweep_ar_.empty()) {
      run_sweep(case_echo, out_dir, progress);
      return;
    }
    dimer::Options o = o_;
    report_progress(o.driver, &progress, "dimer");
    const dimer::Result r = run_dimer(p_, dimer_initial_state(p_, h0_, theta0_), o);
    report(r, progress);
    io::write_file_atomic(out_dir / "dimer.csv", series_csv(r));
    io::write_file_atomic(out_dir / "impacts.csv", impacts_csv(r));
    io::write_file_atomic(out_dir / "phases.csv", phases_csv(r));

    // the summary last, so that its presence means the run completed
    nlohmann::json summary = run_summary_head("dimer", case_echo);
    add_results(summary, r, frequency_, p_.g);
    summary["impact_count"] = r.impacts.size();
    summary["double_impact_count"] = double_impacts(r);
    summary["phase_count"] = r.phases.size();
    summary["time_series"] = "dimer.csv";
    summary["impacts_file"] = "impacts.csv";
    summary["phases_file"] = "phases.csv";
    summary["samples"] = r.samples.size();
    io::write_json_atomic(out_dir / "summary.json", summary);
  }

 private:
  static int double_impacts(const dimer::Result& r) {
    int n = 0;
    for (const DimerImpact& im : r.impacts) n += im.tips[0] && im.tips[1];
    return n;
  }

  // the mean drift and the mode, shared by a run and a sweep point
  static void add_results(nlohmann::json& j, const dimer::Result& r, double frequency, double g) {
    io::put_run_status(j, name_of(run_status_names, r.status), r.reason, r.detail);
    j["t_final"] = r.t_final;
    j["mean_drift"] = io::json_number(r.mean_drift);
    j["mean_drift_mm_per_s"] = io::json_number(1e3 * r.mean_drift);
    j["mean_drift_right"] = io::json_number(r.mean_drift_right);
    j["drift_to_bouncing_end"] = io::json_number(r.drift_to_bouncing_end);
    j["resting_tip"] = r.resting_tip == 0 ? "left" : (r.resting_tip == 1 ? "right" : "none");
    j["scaled_drift"] = io::json_number(r.drift_to_bouncing_end * frequency / g * 1e2);
    j["motion"] = name_of(motion_names, r.motion);
    j["impacts_per_period"] = {r.impacts_per_period[0], r.impacts_per_period[1]};
    j["contact_fraction"] = {r.contact_fraction[0], r.contact_fraction[1]};
  }

  void report(const dimer::Result& r, std::ostream& progress) const {
    progress << "dimer Ar = " << io::format_value("%.3g", p_.aspect_ratio())
             << ", f = " << io::format_value("%.4g", frequency_)
             << " Hz, Gamma = " << io::format_value("%.3g", gamma_) << ": " << r.impacts.size()
             << " impacts (" << double_impacts(r) << " double), " << r.phases.size()
             << " phase intervals in [0, " << io::format_value("%.6g", r.t_final) << "] s, status "
             << name_of(run_status_names, r.status)
             << (r.reason.empty() ? "" : " (" + r.reason + ")") << "\n"
             << "  <u> = " << io::format_value("%+.4g", 1e3 * r.mean_drift)
             << " mm/s (right sphere " << io::format_value("%+.4g", 1e3 * r.mean_drift_right)
             << " mm/s); towards the bouncing end "
             << io::format_value("%+.4g", 1e3 * r.drift_to_bouncing_end) << " mm/s, (f/g)*100 = "
             << io::format_value("%+.4g", r.drift_to_bouncing_end * frequency_ / p_.g * 1e2) << "\n"
             << "  motion: " << name_of(motion_names, r.motion) << " (impacts per period "
             << io::format_value("%.3g", r.impacts_per_period[0]) << " / "
             << io::format_value("%.3g", r.impacts_per_period[1]) << ", contact fraction "
             << io::format_value("%.3g", r.contact_fraction[0]) << " / "
             << io::format_value("%.3g", r.contact_fraction[1]) << ", left / right)\n";
  }

  void run_sweep(const nlohmann::json& case_echo, const std::filesystem::path& out_dir,
                 std::ostream& progress) const {
    std::vector<SweepPoint> points;
    for (double f : sweep_f_)
      for (double ar : sweep_ar_) points.push_back({ar, f});
    std::vector<dimer::Result> runs(points.size());

    // independent runs, one per point; the step keeps its share of the period
    const long n = static_cast<long>(points.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (long k = 0; k < n; ++k) {
      dimer::Params p = p_;
      dimer::Options o = o_;
      p.l = 2.0 * (points[k].aspect_ratio - 1.0) * p.r;
      // a rod given by its diameter keeps its cross-section: its mass follows its length
      if (rod_line_density_ > 0.0) p.m_r = rod_line_density_ * (p.l - 2.0 * p.r);
      p.omega = 2.0 * pi * points[k].frequency;
      p.amplitude = drive_amplitude(gamma_, p.g, p.omega);
      const double scale = frequency_ / points[k].frequency;
      o.driver.ode.step *= scale;
      o.driver.zeno.min_speed *= scale;
      o.driver.t_end *= scale;
      o.average_from *= scale;
      o.driver.sample_interval = 0.0;  // no time series
      runs[k] = run_dimer(p, dimer_initial_state(p, h0_, theta0_), o);
    }

    io::TableText csv(sweep_table());
    nlohmann::json rows = nlohmann::json::array();
    progress << "sweep at Gamma = " << io::format_value("%.3g", gamma_) << ":\n"
             << "   f [Hz]     Ar   <u> [mm/s]  to bouncing end  (f/g)*100  motion\n";
    for (std::size_t k = 0; k < points.size(); ++k) {
      const dimer::Result& r = runs[k];
      const double scaled = r.drift_to_bouncing_end * points[k].frequency / p_.g * 1e2;
      csv.num(points[k].frequency).num(points[k].aspect_ratio).num(r.mean_drift);
      csv.num(r.drift_to_bouncing_end).num(scaled).text(name_of(motion_names, r.motion));
      csv.num(r.impacts_per_period[0]).num(r.impacts_per_period[1]).num(r.contact_fraction[0]);
      csv.num(r.contact_fraction[1]).text(name_of(run_status_names, r.status)).end_row();
      nlohmann::json row = {{"frequency", points[k].frequency},
                            {"aspect_ratio", points[k].aspect_ratio}};
      add_results(row, r, points[k].frequency, p_.g);
      rows.push_back(std::move(row));
      char line[160];
      std::snprintf(line, sizeof line, "  %7.4g %6.3g %12.4g %16.4g %10.4g  %s\n",
                    points[k].frequency, points[k].aspect_ratio, 1e3 * r.mean_drift,
                    1e3 * r.drift_to_bouncing_end, scaled, name_of(motion_names, r.motion));
      progress << line;
    }
    io::write_file_atomic(out_dir / "sweep.csv", csv.str());
    nlohmann::json summary = run_summary_head("dimer", case_echo);
    summary["sweep"] = std::move(rows);
    summary["sweep_file"] = "sweep.csv";
    io::write_json_atomic(out_dir / "summary.json", summary);
  }

  // the time series: positions and velocities of both spheres and tips, one row per output
  // time plus rows just before and after each impact
  static std::string series_csv(const dimer::Result& r) {
    io::TableText out(series_table());
    for (const DimerSample& s : r.samples) {
      out.num(s.t).num(s.x[0]).num(s.y[0]).num(s.x[1]).num(s.y[1]).num(s.vx[0]).num(s.vx[1]);
      out.num(s.d[0]).num(s.d[1]).num(s.d_dot[0]).num(s.d_dot[1]).num(s.v_t[0]).num(s.v_t[1]);
      out.num(s.theta).num(s.theta_dot).num(s.y_plate).num(s.f_n[0]).num(s.f_n[1]);
      out.num(s.f_t[0]).num(s.f_t[1]).text(name_of(tip_mode_names, s.mode[0]));
      out.text(name_of(tip_mode_names, s.mode[1])).end_row();
    }
    return out.str();
  }

  static std::string impacts_csv(const dimer::Result& r) {
    io::TableText out(impacts_table());
    for (const DimerImpact& im : r.impacts) {
      out.num(im.t).text(im.tips[0] && im.tips[1] ? "double" : "single").num(im.theta);
      out.integer(im.primary).flag(im.tips[0]).flag(im.tips[1]);
      for (int i = 0; i < 2; ++i) {
        out.num(im.d_dot_before[i]).num(im.d_dot_after[i]).num(im.vt_before[i]);
        out.num(im.vt_after[i]).num(im.p_n[i]).num(im.p_t[i]);
        out.text(im.tips[i] ? impulse::dk_slip_name(im.slip[i]) : "none").flag(im.plastic[i]);
      }
      out.num(im.energy_before).num(im.energy_after).flag(im.converged).end_row();
    }
    return out.str();
  }

  static std::string phases_csv(const dimer::Result& r) {
    io::TableText out(phases_table());
    for (const DimerPhase& ph : r.phases) {
      out.text(ph.tip == 0 ? "left" : "right")
          .text(name_of(tip_mode_names, ph.mode))
          .num(ph.t_start);
      out.num(ph.t_end).end_row();
    }
    return out.str();
  }

  dimer::Params p_;
  double gamma_;
  double frequency_;
  double h0_;
  double theta0_;
  dimer::Options o_;
  std::vector<double> sweep_ar_;
  std::vector<double> sweep_f_;
  double rod_line_density_;  // ρ π d²/4 of a rod given by its diameter, else 0 [kg/m]
};

// A non-empty list of numbers each > lower (aspect ratios > 1, frequencies > 0).
std::vector<double> number_list(const JsonObject& obj, const std::string& key, double lower) {
  const nlohmann::json& v = obj.value(key);
  if (!v.is_array() || v.empty()) obj.fail(key, "must be a non-empty array of numbers");
  std::vector<double> out;
  for (std::size_t k = 0; k < v.size(); ++k) {
    const std::string where = obj.pointer_of(key) + "/" + std::to_string(k);
    const double x = io::as_number(v[k], obj.file(), where, Bound::any);
    if (!(x > lower)) throw io::CaseError(obj.file(), where, "must be > " + format_number(lower));
    out.push_back(x);
  }
  return out;
}

}  // namespace

std::vector<io::TableSpec> dimer_tables() {
  return {series_table(), impacts_table(), phases_table(), sweep_table()};
}

std::unique_ptr<Case> load_dimer(const JsonObject& root, std::vector<std::string>&) {
  root.allow_only({"model", "description", "dimer", "plate", "contact", "gravity", "initial", "run",
                   "integrator", "zeno", "numerics", "sweep"});
  if (root.has("description")) root.string("description");
  dimer::Params p;
  p.g = root.number_or("gravity", 9.81, Bound::positive);

  // the body (spec §1): r = 4.75 mm is inferred [D], m_b from steel density, rod mass unknown
  const JsonObject body = root.object("dimer");
  body.allow_only(
      {"aspect_ratio", "l", "radius", "sphere_mass", "rod_mass", "rod_diameter", "rod_density"});
  p.r = body.number_or("radius", 4.75e-3, Bound::positive);
  p.m_b = body.number_or("sphere_mass", kSteelDensity * 4.0 / 3.0 * pi * p.r * p.r * p.r,
                         Bound::positive);
  if (body.has("rod_mass") && body.has("rod_diameter"))
    body.fail("rod_diameter", "give either rod_mass or rod_diameter, not both");
  p.m_r = body.number_or("rod_mass", 0.0, Bound::non_negative);
  if (body.has("aspect_ratio") && body.has("l"))
    body.fail("l", "give either aspect_ratio or l, not both");
  if (body.has("l")) {
    p.l = body.number("l", Bound::positive);
    if (!(p.l > 2.0 * p.r))
      body.fail("l", format_number(p.l) + " m must be > 2 radius = " + format_number(2.0 * p.r) +
                         " m (the spheres may not overlap)");
  } else {
    const double ar = body.number("aspect_ratio", Bound::positive);
    if (!(ar > 2.0)) body.fail("aspect_ratio", "must be > 2 (Ar = 1 + l/(2r), l > 2r)");
    p.l = 2.0 * (ar - 1.0) * p.r;
  }
  // or the rod by its cross-section: m_r = ρ π d²/4 (l − 2r); the paper names a glass rod of
  // ρ = 1.0e3 kg/m³ (sic) but not its diameter (docs/dimer.md, "rod")
  double rod_line_density = 0.0;
  if (body.has("rod_density") && !body.has("rod_diameter"))
    body.fail("rod_density", "needs rod_diameter");
  if (body.has("rod_diameter")) {
    const double d = body.number("rod_diameter", Bound::non_negative);
    const double rho = body.number_or("rod_density", kGlassDensity, Bound::positive);
    if (!(d < 2.0 * p.r)) body.fail("rod_diameter", "must be < the sphere diameter");
    rod_line_density = rho * pi * d * d / 4.0;
    p.m_r = rod_line_density * (p.l - 2.0 * p.r);
  }

  // the plate (spec §1): ω = 2πf (erratum 1), A = Γ g/ω², α = π/2 gives y_p = −A sin ωt
  const JsonObject plate = root.object("plate");
  plate.allow_only({"frequency", "gamma", "amplitude", "phase"});
  const double frequency = plate.number("frequency", Bound::positive);
  p.omega = 2.0 * pi * frequency;
  if (plate.has("gamma") && plate.has("amplitude"))
    plate.fail("amplitude", "give either gamma or amplitude, not both");
  double gamma;
  if (plate.has("amplitude")) {
    p.amplitude = plate.number("amplitude", Bound::non_negative);
    gamma = p.amplitude * p.omega * p.omega / p.g;
  } else {
    gamma = plate.number("gamma", Bound::non_negative);
    p.amplitude = drive_amplitude(gamma, p.g, p.omega);
  }
  p.phase = plate.number_or("phase", 0.5 * pi);

  // restitution and friction (spec §4); the distributing exponent of erratum 2
  const JsonObject contact = root.object_or_empty("contact");
  contact.allow_only({"e", "mu_s", "mu_c", "mu_i", "kappa"});
  p.e = contact.number_or("e", 0.65, Bound::non_negative);
  if (p.e > 1.0) contact.fail("e", "must be <= 1");
  p.mu_s = contact.number_or("mu_s", 0.24, Bound::non_negative);
  p.mu_c = contact.number_or("mu_c", 0.12, Bound::non_negative);
  p.mu_i = contact.number_or("mu_i", p.mu_c, Bound::non_negative);
  if (p.mu_c > p.mu_s) contact.fail("mu_c", "must be <= mu_s (spec §2.4: μ_s > μ)");
  p.kappa = contact.number_or("kappa", 0.6, Bound::positive);
  if (!(p.kappa < 1.0))
    contact.fail("kappa",
                 "must be < 1 (the Hertz exponent is 3/5; the printed 5/3 is an "
                 "erratum, spec §2.5)");

  // initial condition (spec §1): the lower tip h₀ above y = 0, tilt θ₀, at rest
  const JsonObject initial = root.object("initial");
  initial.allow_only({"h0", "theta0_deg"});
  const double h0 = initial.number("h0");
  const double theta0 = initial.number("theta0_deg") * degree;
  if (!(std::fabs(theta0) < 0.5 * pi)) initial.fail("theta0_deg", "must be within (-90, 90)");
  const double plate_start = p.amplitude * std::cos(p.phase);
  if (!(h0 > plate_start))
    initial.fail("h0", format_number(h0) + " m must be > y_p(0) = A cos(alpha) = " +
                           format_number(plate_start) + " m (start clear of the plate)");

  // the shared groups (impact_schema.hpp): fixed-step RK4 (the paper gives no integrator,
  // spec §3 [A]) at 1/2000 of a period; zeno/min_speed is the approach speed below which an
  // impact is plastic and the tip joins the contact phase (spec §3)
  reject_renamed(root.object_or_empty("numerics"),
                 {{"max_events", "/run/max_events"}, {"impact_to_contact", "/zeno/min_speed"}});
  dimer::Options o;
  DriverSchema d;
  d.base = o.driver;
  d.base.ode.step = 1.0 / (2000.0 * frequency);
  d.run.t_end_required = true;
  d.run.model_keys = {"average_from"};
  d.integrator = IntegratorGroup{};
  d.zeno = ZenoGroup{p.g, 2.0, false};  // no impact count: the dimer's contacts persist
  o.driver = parse_driver_options(root, d);
  const JsonObject run = root.object("run");
  o.average_from = run.number_or("average_from", 0.5 * o.driver.t_end, Bound::non_negative);
  if (!(o.average_from < o.driver.t_end)) run.fail("average_from", "must be < t_end");

  // the switches of spec §3 that the paper leaves open
  const JsonObject numerics = root.object_or_empty("numerics");
  numerics.allow_only({"slip_tol", "impulse_steps"});
  o.slip_tol = numerics.number_or("slip_tol", 1e-7, Bound::positive);
  o.impulse_steps = static_cast<int>(numerics.integer_or("impulse_steps", 2000, 10));

  // optional sweep (Fig. 11): every aspect ratio at every frequency, Γ fixed
  std::vector<double> sweep_ar, sweep_f;
  if (root.has("sweep")) {
    const JsonObject sweep = root.object("sweep");
    sweep.allow_only({"aspect_ratios", "frequencies"});
    sweep_ar = number_list(sweep, "aspect_ratios", 2.0);
    sweep_f = number_list(sweep, "frequencies", 0.0);
    // every point starts clear of its plate, as a single run must: at Γ fixed a low frequency
    // has a large amplitude (2.5e-107 Hz put the plate 1e196 m above h0, and the run hung)
    for (std::size_t k = 0; k < sweep_f.size(); ++k) {
      const double y_p = drive_amplitude(gamma, p.g, 2.0 * pi * sweep_f[k]) * std::cos(p.phase);
      if (!(h0 > y_p))
        throw io::CaseError(
            sweep.file(), sweep.pointer_of("frequencies") + "/" + std::to_string(k),
            format_number(sweep_f[k]) + " Hz puts the plate at y_p(0) = " + format_number(y_p) +
                " m, above /initial/h0 = " + format_number(h0) + " m (start clear of the plate)");
    }
  }
  // a sweep's runs keep the steps of one run (the step scales with the period)
  const double runs =
      root.has("sweep") ? static_cast<double>(sweep_ar.size()) * static_cast<double>(sweep_f.size())
                        : 1.0;
  if (runs > 1.0) {
    const bool fixed = o.driver.ode.scheme == Scheme::rk4;
    check_integration_steps(root.object_or_empty("integrator"), fixed ? "step" : "max_step",
                            o.driver.t_end, fixed ? o.driver.ode.step : o.driver.ode.max_step,
                            runs);
  }
  return std::make_unique<DimerCase>(p, gamma, frequency, h0, theta0, o, std::move(sweep_ar),
                                     std::move(sweep_f), rod_line_density);
}

}  // namespace granular::cases
