// The "prism" case of the CLI: reading and checking the JSON, describing the derived
// quantities, running and writing summary.json, impacts.csv and rolling.csv (docs/prism.md).
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <string>

#include "granular/cases/impact_schema.hpp"
#include "granular/cases/models.hpp"
#include "granular/constants.hpp"
#include "granular/impact/prism/run.hpp"
#include "granular/io/output.hpp"
#include "granular/io/table.hpp"

namespace granular::cases {

using namespace prism;  // the model's physics

namespace {

struct Gauges {
  bool given = false;
  double h1 = 0.0, h2 = 0.0;  // beam heights above the ramp [m]
};

// The per-impact ratio of the chosen model, from one impact at θ̇⁻ = −1 rad/s (in stick it is
// the same for every speed, §2.4).
double model_kappa(const prism::Params& p, const LineImpactOptions& line) {
  if (p.impact == PrismImpactModel::point) return point_impact(p, -1.0).kappa;
  const LineImpactResult r = line_impact(p, -1.0, line);
  return r.outcome == LineImpactOutcome::pivot_b ? r.kappa
                                                 : std::numeric_limits<double>::quiet_NaN();
}

// The closed forms of §2.1 and §5 used by describe() and the summary.
struct Derived {
  double omega_sq;     // Ω² = m g a0/J_A [1/s²]
  double gain;         // G = 4Ω² sinα sinβ, gain of θ̇² per contact phase [1/s²]
  double omega_first;  // |θ̇⁻| at the first impact (energy integral) [rad/s]
  double over_top;  // |θ̇⁺| needed to get over the next top, √(2Ω²(1 − cos(α−β))) [rad/s]
  double kappa;          // the model's κ
  double kappa_classic;  // κ_c
  double steady_minus;   // ω⁻* = √(G/(1 − κ²)) [rad/s]
  double lambda0_min;    // smallest λ0 that clears the second edge [rad] (NaN: none)
};

Derived derive(const prism::Params& p, const prism::Options& o) {
  const PrismGeometry& g = p.geometry;
  const double a = g.alpha, be = p.slope;
  Derived d;
  d.omega_sq = p.gravity / g.j_edge * g.circumradius;
  d.gain = 4.0 * d.omega_sq * std::sin(a) * std::sin(be);
  d.omega_first = std::sqrt(o.omega0 * o.omega0 +
                            2.0 * d.omega_sq * (std::cos(a + be - o.lambda0) - std::cos(a + be)));
  d.over_top = std::sqrt(2.0 * d.omega_sq * (1.0 - std::cos(a - be)));
  d.kappa = model_kappa(p, o.line);
  d.kappa_classic = classic_kappa(g.n_sides);
  d.steady_minus = std::sqrt(d.gain / (1.0 - d.kappa * d.kappa));
  // κ²ω⁻₁² > 2Ω²(1 − cos(α−β)) with ω⁻₁² = 2Ω²[cos(α+β−λ0) − cos(α+β)] (from rest)
  const double c = std::cos(a + be) + (1.0 - std::cos(a - be)) / (d.kappa * d.kappa);
  d.lambda0_min = c <= 1.0 ? a + be - std::acos(c) : std::numeric_limits<double>::quiet_NaN();
  return d;
}

const io::TableSpec& impacts_table() {
  static const io::TableSpec t{
      "impacts.csv",
      "one row per face impact",
      {{"index", "", "the impact's number, from 1"},
       {"t", "s", "time of the impact"},
       {"omega_before", "rad/s", "θ̇⁻"},
       {"omega_after", "rad/s", "θ̇⁺"},
       {"kappa", "-", "κ = θ̇⁺/θ̇⁻"},
       {"mode", "", "line impact: its stress modes (e.g. `DS-I`); point impact: `point`"},
       {"sticking", "", "1 when the impact stuck"},
       {"friction_demand", "-", "the largest |F_τ/F_n| that sticking needs during the impact"},
       {"energy_lost", "J", "½J_A(θ̇⁻² − θ̇⁺²)"},
       {"lp", "-", "L_p at the impact (4.2)"}}};
  return t;
}

const io::TableSpec& rolling_table() {
  static const io::TableSpec t{
      "rolling.csv",
      "one row every `run/sample_interval`, plus rows just before and just after each impact and "
      "at the end",
      {{"t", "s", "time"},
       {"impacts", "", "impacts so far"},
       {"lambda", "rad", "λ, the angle between the next face and the ramp"},
       {"theta_dot", "rad/s", "θ̇"},
       {"lp", "-", "L_p = Nθ/(2π) (4.2), from the release: λ0/(2α) + k − 1 at the k-th impact"},
       {"distance", "m", "b·L_p"},
       {"energy", "J", "½J_Aθ̇² + mg(y_C − y_C,release): constant in contact phases"},
       {"v_p1", "m/s", "−θ̇ h1, the gauge at h1 (4.3; only with gauges)"},
       {"v_p2", "m/s", "−θ̇ h2 (only with gauges)"}}};
  return t;
}

std::string impacts_csv(const prism::Result& r) {
  io::TableText out(impacts_table());
  for (const PrismImpactRecord& i : r.impacts) {
    out.integer(i.index).num(i.t).num(i.omega_before).num(i.omega_after).num(i.kappa);
    out.text(i.mode).flag(i.sticking).num(i.friction_demand).num(i.energy_lost).num(i.lp);
    out.end_row();
  }
  return out.str();
}

// L_p(t) (4.2) and the rolled distance b·L_p; the gauge readings v_p = −θ̇ h (4.3) when given
std::string rolling_csv(const prism::Result& r, double b, const Gauges& gauges) {
  io::TableText out(gauges.given ? rolling_table() : rolling_table().without({"v_p1", "v_p2"}));
  for (const RollingSample& s : r.rolling) {
    out.num(s.t).integer(s.impacts).num(s.lambda).num(s.theta_dot).num(s.lp).num(s.lp * b);
    out.num(s.energy);
    if (gauges.given) out.num(-s.theta_dot * gauges.h1).num(-s.theta_dot * gauges.h2);
    out.end_row();
  }
  return out.str();
}

class PrismCase : public WholeRunCase {
 public:
  PrismCase(prism::Params p, prism::Options o, Gauges gauges) : p_(p), o_(o), gauges_(gauges) {}

  void describe(Description& d) const override {
    const PrismGeometry& g = p_.geometry;
    const Derived v = derive(p_, o_);
    const double a0_sq = g.circumradius * g.circumradius;
    std::ostream& out = d.out;
    d.group("prism");
    out << "prism: N = " << d.count("N", g.n_sides)
        << ", alpha = " << d.number("alpha", g.alpha / degree, "%.6g", "deg")
        << " deg, b = " << d.number("b", g.face_width, "%.6g", "m")
        << " m, h = " << d.number("h", g.apothem, "%.6g", "m")
        << " m, m = " << d.number("m", p_.mass, "%.6g", "kg") << " kg\n";
    d.group("inertia");
    out << "inertia: J/(m a0^2) = " << d.number("J", g.j_c / a0_sq, "%.8g")
        << ", J_A/(m a0^2) = " << d.number("J_A", g.j_edge / a0_sq, "%.8g") << "\n";
    d.group("impact_model");
    out << "impact model: "
        << d.word("name", p_.impact == PrismImpactModel::line ? "line (Winkler)" : "point")
        << ", kappa = " << d.number("kappa", v.kappa, "%.8g")
        << " (1 - kappa^2 = " << d.number("one_minus_kappa_sq", 1.0 - v.kappa * v.kappa, "%.6g")
        << "); classic kappa_c = " << d.number("kappa_classic", v.kappa_classic, "%.8g") << "\n";
    d.group("contact_phase");
    out << "contact phase: Omega = " << d.number("Omega", std::sqrt(v.omega_sq), "%.6g", "1/s")
        << " 1/s, gain per phase G = " << d.number("G", v.gain, "%.6g", "1/s^2") << " 1/s^2\n";
    d.group("first_impact");
    out << "first impact: |theta_dot-| = "
        << d.number("omega_minus", v.omega_first, "%.6g", "rad/s")
        << " rad/s; to clear the next top |theta_dot+| > "
        << d.number("over_top", v.over_top, "%.6g", "rad/s") << " rad/s ("
        << d.word("next_top", v.kappa * v.omega_first > v.over_top ? "cleared" : "NOT cleared")
        << ")\n";
    d.group("release");
    out << "smallest lambda0 from rest that clears the second edge: "
        << (std::isfinite(v.lambda0_min)
                ? d.number("lambda0_min", v.lambda0_min / degree, "%.6g", "deg") + " deg"
                : d.absent("lambda0_min", "none"))
        << "\n";
    d.group("steady_state");
    out << "steady state: |theta_dot-*| = "
        << d.number("omega_minus", v.steady_minus, "%.6g", "rad/s") << " rad/s, |theta_dot+*| = "
        << d.number("omega_plus", v.kappa * v.steady_minus, "%.6g", "rad/s") << " rad/s\n";
    d.group("ramp");
    out << "ramp: " << d.number("length", o_.ramp_length, "%.6g", "m") << " m = about "
        << d.large_count("impacts", std::floor(o_.ramp_length / g.face_width), "%.0f")
        << " impacts\n";
  }

  void write_run(const nlohmann::json& case_echo, const std::filesystem::path& out_dir,
                 std::ostream& progress) const override {
    prism::Options o = o_;
    report_progress(o.driver, &progress, "prism");
    const prism::Result r = run_prism(p_, o);
    const Derived d = derive(p_, o_);
    const double b = p_.geometry.face_width;

    // a short report
    double kappa_sum = 0.0, demand_max = 0.0;
    for (const PrismImpactRecord& i : r.impacts) {
      kappa_sum += i.kappa;
      demand_max = std::max(demand_max, i.friction_demand);
    }
    const double mean_kappa =
        r.impacts.empty() ? std::numeric_limits<double>::quiet_NaN() : kappa_sum / r.impacts.size();
    progress << "prism N = " << p_.geometry.n_sides << ": " << r.impacts.size()
             << " impacts, mean kappa = " << io::format_value("%.8g", mean_kappa)
             << " (kappa_c = " << io::format_value("%.8g", d.kappa_classic) << ")\n"
             << "ended: " << name_of(run_status_names, r.status)
             << (r.reason.empty() ? "" : " (" + r.reason + ")")
             << " at t = " << io::format_value("%.6g", r.t_final)
             << " s, L_p = " << io::format_value("%.6g", r.lp_final) << ": " << r.detail << "\n";
    if (r.slip_violations > 0 || r.detach_violations > 0)
      progress << "admissibility (2.2): " << r.slip_violations << " slip and "
               << r.detach_violations
               << " detachment violations recorded (mu_s = " << io::format_value("%.6g", p_.mu_s)
               << "; largest contact-phase demand "
               << io::format_value("%.6g", r.max_contact_demand) << ")\n";

    io::write_file_atomic(out_dir / "impacts.csv", impacts_csv(r));
    io::write_file_atomic(out_dir / "rolling.csv", rolling_csv(r, b, gauges_));

    // the summary last, so that its presence means the run completed
    nlohmann::json s = run_summary_head("prism", case_echo);
    const PrismGeometry& g = p_.geometry;
    s["geometry"] = {{"alpha", g.alpha},
                     {"face_width", b},
                     {"apothem", g.apothem},
                     {"mass", p_.mass},
                     {"j_c", g.j_c * p_.mass},
                     {"j_edge", g.j_edge * p_.mass},
                     {"j_face", g.j_face * p_.mass}};
    s["impacts_file"] = "impacts.csv";  // every impact, not repeated here
    s["impact_count"] = r.impacts.size();
    s["mean_kappa"] = io::json_number(mean_kappa);
    s["kappa_model"] = io::json_number(d.kappa);
    s["kappa_classic"] = d.kappa_classic;
    io::put_run_status(s, name_of(run_status_names, r.status), r.reason, r.detail);
    s["termination"] = {{"t", r.t_final}, {"lp", r.lp_final}, {"distance", r.lp_final * b}};
    s["admissibility"] = {{"mu_s", p_.mu_s},
                          {"max_contact_friction_demand", r.max_contact_demand},
                          {"min_normal_force_ratio", r.min_normal_ratio},
                          {"max_impact_friction_demand", demand_max},
                          {"slip_violations", r.slip_violations},
                          {"detach_violations", r.detach_violations}};
    s["steady_state"] = {{"omega_minus", io::json_number(d.steady_minus)},
                         {"omega_plus", io::json_number(d.kappa * d.steady_minus)}};
    io::write_json_atomic(out_dir / "summary.json", s);
  }

 private:
  prism::Params p_;
  prism::Options o_;
  Gauges gauges_;
};

}  // namespace

std::vector<io::TableSpec> prism_tables() { return {impacts_table(), rolling_table()}; }

std::unique_ptr<Case> load_prism(const io::JsonObject& root, std::vector<std::string>&) {
  using io::Bound;
  root.allow_only({"model", "description", "gravity", "prism", "ramp", "release", "impact",
                   "gauges", "integrator", "zeno", "run"});
  if (root.has("description")) root.string("description");
  prism::Params p;
  prism::Options o;
  p.gravity = root.number_or("gravity", 9.81, Bound::positive);

  // the prism: regular N-gon, mass from the density unless given (§4: densities not in paper)
  const io::JsonObject prism = root.object("prism");
  prism.allow_only({"n_sides", "circumradius", "length", "density", "mass"});
  const int n = static_cast<int>(prism.integer("n_sides", 3));
  if (n > 100000) prism.fail("n_sides", "must be <= 100000");
  p.geometry = prism_geometry(n, prism.number("circumradius", Bound::positive),
                              prism.number("length", Bound::positive));
  if (prism.has("mass") && prism.has("density"))
    prism.fail("", "give either mass or density, not both");
  if (prism.has("mass")) {
    p.mass = prism.number("mass", Bound::positive);
  } else {
    p.mass =
        prism.number_or("density", 7850.0, Bound::positive) * p.geometry.area * p.geometry.length;
  }

  // the ramp
  const io::JsonObject ramp = root.object("ramp");
  ramp.allow_only({"slope_deg", "length", "mu_s", "mu"});
  const double slope_deg = ramp.number("slope_deg", Bound::non_negative);
  if (slope_deg >= 45.0) ramp.fail("slope_deg", "must be < 45 (the model is for small slopes)");
  p.slope = slope_deg * degree;
  o.ramp_length = ramp.number_or("length", 0.65, Bound::positive);
  p.mu_s = ramp.number_or("mu_s", 0.12, Bound::non_negative);
  p.mu_slip = ramp.number_or("mu", p.mu_s, Bound::non_negative);
  if (p.mu_slip > p.mu_s) ramp.fail("mu", "the slip coefficient must not exceed mu_s");

  // the release
  const io::JsonObject release = root.object("release");
  release.allow_only({"lambda0_deg", "omega0"});
  const double lambda0_deg = release.number("lambda0_deg", Bound::positive);
  const double two_alpha_deg = 360.0 / n;
  if (lambda0_deg > two_alpha_deg)
    release.fail("lambda0_deg",
                 io::format_value("%.6g", lambda0_deg) + " deg is more than 2 alpha = " +
                     io::format_value("%.6g", two_alpha_deg) + " deg for N = " + std::to_string(n));
  o.lambda0 = lambda0_deg * degree;
  o.omega0 = release.number_or("omega0", 0.0, Bound::non_negative);

  // the impact model
  const io::JsonObject impact = root.object_or_empty("impact");
  impact.allow_only({"model", "start", "rtol"});
  p.impact = impact.choice_of("model", impact_model_names, "impact model",
                              std::optional(PrismImpactModel::line));
  o.line.start = impact.number_or("start", 1e-12, Bound::positive);
  if (o.line.start > 1e-6) impact.fail("start", "must be <= 1e-6 (units of m|omega|/l)");
  o.line.rtol = impact.number_or("rtol", 1e-12, Bound::positive);

  // the vibrometer beams (4.3), optional
  Gauges gauges;
  if (root.has("gauges")) {
    const io::JsonObject gj = root.object("gauges");
    gj.allow_only({"h1", "h2"});
    gauges.given = true;
    gauges.h1 = gj.number("h1", Bound::positive);
    gauges.h2 = gj.number("h2", Bound::positive);
  }

  // the shared groups (impact_schema.hpp): the contact phases by adaptive Dormand–Prince
  DriverSchema d;
  d.base = prism::Options{}.driver;
  d.run.model_keys = {"on_violation"};
  d.integrator = IntegratorGroup{};
  d.zeno = ZenoGroup{};  // no flights: no floor under min_speed
  o.driver = parse_driver_options(root, d);
  const io::JsonObject run = root.object_or_empty("run");
  o.stop_on_violation =
      run.choice_or("on_violation", {"stop", "report"}, "violation policy", "stop") == "stop";

  return std::make_unique<PrismCase>(p, o, gauges);
}

}  // namespace granular::cases
