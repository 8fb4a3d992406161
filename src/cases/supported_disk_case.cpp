// The MD models of the thesis' supported-disk systems (docs/three_disk.md, docs/wedge.md):
// "three_disk", the upper disk on two support disks under the harmonic torque or with randomly
// vibrated supports (ch. 5), and "wedge_md", a disk in a vertically vibrated wedge (§6.2). Each
// case is one packing of the ensemble engine (md/supported_disk/systems.hpp) run by
// md::run_supported_disk; scans over any key make the thesis' curves (docs/cases.md, "Scans").
#include <cmath>
#include <memory>
#include <string>

#include "granular/cases/md_schema.hpp"
#include "granular/cases/models.hpp"
#include "granular/cases/wedge_schema.hpp"
#include "granular/constants.hpp"
#include "granular/io/output.hpp"
#include "granular/io/table.hpp"
#include "granular/md/ensemble/run.hpp"
#include "granular/md/supported_disk/run.hpp"
#include "granular/md/supported_disk/systems.hpp"
#include "granular/md/supported_disk/three_disk.hpp"
#include "granular/vibration.hpp"

namespace granular::cases {
namespace {

using io::Bound;
using io::CaseError;
using io::format_value;
using io::JsonObject;

// The contacts of the observed disk, in support_contacts' order, as the tables name them.
const char* const three_disk_contacts[] = {"1", "2"};  // left, right support
const char* const wedge_contacts[] = {"left", "right"};

// The columns of the observed disk and its two contacts; with `support_motion`, the left
// support's motion too (the randomly vibrated supports' statistics, thesis §5.3.1).
io::TableSpec timeseries_table(const char* file, const char* const names[2], const char* what,
                               bool support_motion) {
  io::TableSpec t{file,
                  "one row per sample of the measurement window",
                  {{"t", "s", "time (the drive starts at 0)"},
                   {"theta", "rad", "angle of the " + std::string(what) + " (unwrapped, CCW)"},
                   {"omega", "rad/s", "its angular velocity"},
                   {"applied_torque", "N m", "the external torque on it"}}};
  for (int k = 0; k < 2; ++k) {
    const std::string c = names[k];
    t.columns.push_back({"n_" + c, "N", "normal force of contact " + c + " (0: open)"});
    t.columns.push_back(
        {"tau_" + c, "N",
         "tangential force of contact " + c + " (its torque on the disk is R tau)"});
    t.columns.push_back({"sliding_" + c, "", "1 when contact " + c + " is on the Coulomb limit"});
  }
  if (support_motion) {
    t.columns.push_back({"support_x", "m", "the left support's displacement from rest, x"});
    t.columns.push_back({"support_y", "m", "and y"});
    t.columns.push_back({"support_vx", "m/s", "its velocity, x"});
    t.columns.push_back({"support_vy", "m/s", "and y"});
  }
  return t;
}

const io::TableSpec& three_disk_table() {
  static const io::TableSpec t =
      timeseries_table("three_disk.csv", three_disk_contacts, "upper disk", true);
  return t;
}
const io::TableSpec& wedge_md_table() {
  static const io::TableSpec t = timeseries_table("wedge_md.csv", wedge_contacts, "disk", false);
  return t;
}

// The time step of a supported-disk system: given, or t_c / steps_per_collision for its stiffest
// contact (the upper disk on a fixed support: m_eff = m), within the stability limit.
double read_time_step(const JsonObject& root, const ContactParams& c, double mass,
                      md::Integrator& scheme) {
  const JsonObject integrator = root.object_or_empty("integrator");
  integrator.allow_only({"scheme", "dt", "steps_per_collision"});
  scheme = read_scheme(integrator);
  const StepRule rule = read_step_rule(integrator, 100.0);
  const double t_c = linear_dashpot_restitution(c.k_n, c.gamma_n, mass).t_c;
  const double dt = rule.given_dt ? rule.dt : t_c / rule.steps_per_collision;
  check_time_step(integrator, rule, dt, largest_time_step(c, mass));
  return dt;
}

// The model's time step and neighbor list and the run's schedule, for a system whose disks have
// at most `partners` contacts; the loader adds the system.
struct SupportedDiskSetup {
  md::EnsembleModel model;
  md::RunSchedule schedule;
};

SupportedDiskSetup read_setup(const JsonObject& root, const ContactParams& c, double mass,
                              double radius, int partners) {
  SupportedDiskSetup s;
  s.model.dt = read_time_step(root, c, mass, s.model.integrator);
  s.model.neighbor.skin = 0.2 * radius;
  s.model.neighbor.max_neighbors = partners;
  s.model.neighbor.max_contacts = partners;
  s.schedule = read_schedule(root.object("run"));
  checked_run_steps(root.object("run"), s.schedule, s.model.dt);
  return s;
}

// θ_T from "tilt_deg" or "tilt_pi" (θ_T/π, the thesis' ch. 5 axis), at most one; 0 without.
double read_tilt(const JsonObject& o) {
  if (o.has("tilt_deg") && o.has("tilt_pi"))
    o.fail("", "give either tilt_deg or tilt_pi, not both");
  const double tilt =
      o.has("tilt_pi") ? o.number("tilt_pi") * pi : o.number_or("tilt_deg", 0.0) * degree;
  if (!(std::fabs(tilt) < 0.5 * pi))
    o.fail(o.has("tilt_pi") ? "tilt_pi" : "tilt_deg", "must be within a quarter turn");
  return tilt;
}

// One packing of a supported-disk system, run by md::run_supported_disk; the model's summary adds
// its own numbers.
class SupportedDiskCase : public Case {
 public:
  // The system's disks start at (x, y), at t0 = −settle_time.
  SupportedDiskCase(std::string name, SupportedDiskSetup setup, const std::vector<double>& x,
                    const std::vector<double>& y, const io::TableSpec& table, bool support_motion)
      : name_(std::move(name)),
        model_(std::move(setup.model)),
        state_(md::make_state(model_, x, y, -setup.schedule.settle_time)),
        schedule_(setup.schedule),
        table_(table),
        support_motion_(support_motion) {}

  // A fresh run on the CPU or, where there is one, the CUDA device (the same stages).
  void check_run(const RunContext& ctx) const override {
    if (ctx.request.resume)
      throw CaseError("", "--resume", "a supported-disk system's run writes no checkpoint");
    if (ctx.request.packings)
      throw CaseError("", "--packings", "only packing_ensemble runs split into shards");
    check_backend(ctx.request);
  }

  RunEnd run(const RunContext& ctx) const override {
    md::EnsembleState s = state_;
    io::TableText series(table_);
    md::SupportedDiskRunOptions o;
    const std::unique_ptr<md::Backend> backend = ctx.request.backend == "cuda"
                                                     ? md::make_cuda_backend()
                                                     : md::make_cpu_backend(ctx.request.threads);
    o.backend = backend.get();
    o.stop = ctx.request.control.stop;
    o.on_sample = [&](int, const md::SupportedDiskSample& x) {
      series.num(x.t).num(x.theta).num(x.omega).num(x.applied_torque);
      for (const md::SupportContact& c : x.contacts) {
        series.num(c.normal).num(c.tangential).flag(c.sliding);
      }
      if (support_motion_) {  // (x, y, θ, vx, vy, ω) of the first body, the left support
        series.num(x.first_body[0]).num(x.first_body[1]).num(x.first_body[3]).num(x.first_body[4]);
      }
      series.end_row();
    };
    const md::SupportedDiskResult r = md::run_supported_disk(model_, s, schedule_, o);
    if (!r.complete) return RunEnd::interrupted;  // nothing written: a fresh run starts over
    const md::SupportedDiskPackingResult& p = r.packings[0];
    const double omega_bar = md::mean_omega(p.rotation);
    io::write_file_atomic(ctx.out_dir / table_.file, series.str());
    nlohmann::json s_json = run_summary_head(name_, ctx.case_echo);
    // a healthy run whose rotation overflows a double (a torque ramped to 1e248 N m/s) has no
    // result to report
    std::uint32_t status = p.status;
    if (!(std::isfinite(omega_bar) && std::isfinite(md::rho2(p.rotation))))
      status |= md::status_non_finite;
    s_json["status"] = md::status_name(status);
    s_json["omega_bar"] = io::json_number(omega_bar);
    s_json["rho2"] = io::json_number(md::rho2(p.rotation));
    s_json["samples"] = p.samples;
    s_json["sample_interval"] = r.sample_interval;
    s_json["contact_openings"] = p.openings;
    for (std::size_t k = 0; k < p.sliding_samples.size(); ++k) {
      s_json["sliding_fraction_" + std::to_string(k + 1)] =
          static_cast<double>(p.sliding_samples[k]) / static_cast<double>(p.samples);
    }
    add_results(s_json, omega_bar);
    if (ctx.progress) {
      *ctx.progress << name_ << ": status " << md::status_name(status)
                    << ", w_bar = " << format_value("%.6g", omega_bar) << " rad/s over "
                    << format_value("%.6g", schedule_.measure_time) << " s, " << p.openings
                    << " contact openings seen\n";
    }
    io::write_json_atomic(ctx.out_dir / "summary.json", s_json);
    return RunEnd::complete;
  }

 protected:
  virtual void add_results(nlohmann::json& summary, double omega_bar) const = 0;
  const md::EnsembleModel& model() const { return model_; }
  const md::RunSchedule& schedule() const { return schedule_; }
  void describe_run(Description& d) const {
    d.group("run");
    d.out << "run: dt " << d.number("dt", model_.dt, "%.4g", "s") << " s; settle "
          << d.number("settle_time", schedule_.settle_time, "%.6g", "s") << " s + transient "
          << d.number("transient_time", schedule_.transient_time, "%.6g", "s") << " s + measure "
          << d.number("measure_time", schedule_.measure_time, "%.6g", "s") << " s, sample every "
          << d.number("sample_interval", schedule_.sample_interval, "%.6g", "s") << " s ("
          << d.large_count("steps", md::plan_run(schedule_, model_.dt).total_steps, "%.4g")
          << " steps)\n";
  }

 private:
  std::string name_;
  md::EnsembleModel model_;
  md::EnsembleState state_;
  md::RunSchedule schedule_;
  const io::TableSpec& table_;
  bool support_motion_;  // the table ends with the left support's motion
};

class ThreeDiskCase : public SupportedDiskCase {
 public:
  ThreeDiskCase(const md::ThreeDiskParams& p, SupportedDiskSetup setup,
                const std::vector<double>& x, const std::vector<double>& y)
      : SupportedDiskCase("three_disk", std::move(setup), x, y, three_disk_table(), true), p_(p) {}

  void describe(Description& d) const override {
    const three_disk::ThreeDiskParams c = closed_form_params();
    std::ostream& out = d.out;
    d.group("three_disk");
    out << "three_disk: R " << d.number("R", p_.radius, "%.6g");
    if (p_.support_radius != p_.radius)
      out << ", supports' R_s " << d.number("R_s", p_.support_radius, "%.6g");
    out << ", m " << d.number("m", p_.mass, "%.6g") << ", half-angle "
        << d.number("half_angle", p_.half_angle / degree, "%.6g", "deg") << " deg, tilt "
        << d.number("tilt", p_.tilt / pi, "%.6g", "pi") << " pi; supports ";
    if (p_.supports.drive == md::SupportDrive::random) {
      out << d.word("supports", "randomly vibrated") << " (A_b "
          << d.number("A_b", p_.supports.amplitude, "%.6g") << ", w_b "
          << d.number("w_b", p_.supports.omega, "%.6g") << ")";
    } else if (p_.supports.drive == md::SupportDrive::sine) {
      const double a = p_.supports.amplitude, w = p_.supports.omega;
      out << d.word("supports", "vibrated vertically together") << " (A "
          << d.number("A", a, "%.6g") << " m, w_b " << d.number("w_b", w, "%.6g")
          << " rad/s, Gamma " << d.number("gamma", a * w * w / p_.gravity, "%.4g") << ")";
    } else {
      out << d.word("supports", "fixed");
    }
    out << "\n";
    if (p_.upper_centre == md::UpperCentre::held) {
      out << "upper centre " << d.word("upper_centre", "held")
          << ": its normal forces stay at their static values, so both slides need |T_e| = "
             "mu R (n1 + n2) = "
          << d.number("A_held", held_threshold(), "%.6g")
          << " (the closed forms below are the free disk's)\n";
    }
    d.group("closed_forms");
    out << "closed forms (thesis eqs. 5.3-5.5): A0 = "
        << d.number("A0", three_disk::threshold_scale(c), "%.6g")
        << ", A_S2 (CCW) = " << d.number("A_S2", three_disk::ccw_threshold(c), "%.6g")
        << ", A_S1 (CW) = " << d.number("A_S1", three_disk::cw_threshold(c), "%.6g")
        << ", detachment tilt = "
        << d.number("detachment_tilt", three_disk::detachment_tilt(c) / pi, "%.6g", "pi")
        << " pi\n";
    if (p_.tilt != 0.0 && std::fabs(p_.tilt) < three_disk::detachment_tilt(c)) {
      // both means are proportional to sin θ_T: divided by it, they hold for any slight tilt
      const three_disk::SlidingPointTorques at = three_disk::sliding_point_torques(c);
      const double sin_tilt = std::sin(c.tilt);
      out << "mean torque / sin(tilt), equal times at S1, S2, T1, T2 (thesis eq. 5.21) = "
          << d.number("mean_torque_equal_times", three_disk::equal_time_mean_torque(c) / sin_tilt,
                      "%.6g")
          << ", at S1 and S2 only = "
          << d.number("mean_torque_s1_s2", 0.5 * (at.s1 + at.s2) / sin_tilt, "%.6g") << "\n";
    }
    if (std::fabs(p_.tilt) >= three_disk::detachment_tilt(c))
      out << "note: the tilt is at or beyond the detachment tilt (thesis eq. 4.51): contact 2 can "
             "open and the upper disk leave its supports\n";
    d.group("torque");
    out << "torque: " << d.number("amplitude", p_.torque.amplitude, "%.6g") << " sin("
        << d.number("omega", p_.torque.omega, "%.6g") << " t) + "
        << d.number("rate", p_.torque.rate, "%.6g") << " t\n";
    d.group("contact");
    describe_contact(d, "contacts", p_.contact, p_.mass);
    describe_run(d);
  }

 private:
  three_disk::ThreeDiskParams closed_form_params() const { return md::closed_form_params(p_); }

  // The torque that slides the held disk either way: both skins on their limits μ n_i, with
  // the static normal forces (4.29)–(4.30) at τ = 0.
  double held_threshold() const {
    const three_disk::ThreeDiskParams c = closed_form_params();
    const three_disk::NormalForces n = three_disk::normal_forces(c, 0.0, 0.0);
    return c.mu * c.radius * (n.n01 + n.n02);
  }

  void add_results(nlohmann::json& s, double omega_bar) const override {
    const three_disk::ThreeDiskParams c = closed_form_params();
    s["A0"] = three_disk::threshold_scale(c);
    s["A_S1"] = three_disk::cw_threshold(c);
    s["A_S2"] = three_disk::ccw_threshold(c);
    s["detachment_tilt"] = three_disk::detachment_tilt(c);
    const double a = p_.torque.amplitude, w = p_.torque.omega;
    if (p_.upper_centre == md::UpperCentre::held) s["A_held"] = held_threshold();
    if (a > 0.0 && w > 0.0) {
      s["omega_bar_omega_e"] = io::json_number(omega_bar * w);
      if (p_.upper_centre == md::UpperCentre::held) return;  // the rotor is the free disk's
      const three_disk::SlidingRegime regime = three_disk::sliding_regime(c, a);
      static const char* names[] = {"none", "unidirectional", "bidirectional", "detached"};
      s["regime"] = names[static_cast<int>(regime)];
      if (regime != three_disk::SlidingRegime::detached) {
        // the rotor's ω̄·ω_e (eq. 5.9 where valid): the MD's closed-form reference
        s["omega_bar_omega_e_rotor"] = regime == three_disk::SlidingRegime::none
                                           ? 0.0
                                           : three_disk::mean_rotation_times_frequency(c, a);
      }
    }
  }

  md::ThreeDiskParams p_;
};

class WedgeMdCase : public SupportedDiskCase {
 public:
  WedgeMdCase(const md::WedgeDiskParams& p, double gamma, SupportedDiskSetup setup,
              const std::vector<double>& x, const std::vector<double>& y)
      : SupportedDiskCase("wedge_md", std::move(setup), x, y, wedge_md_table(), false),
        p_(p),
        gamma_(gamma) {}

  void describe(Description& d) const override {
    d.group("wedge_md");
    d.out << "wedge_md: aperture " << d.number("aperture", p_.aperture / degree, "%.6g", "deg")
          << " deg, tilt " << d.number("tilt", p_.tilt / degree, "%.6g", "deg")
          << " deg; drive Gamma " << d.number("gamma", gamma_, "%.4g") << ", f "
          << d.number("f", p_.omega / (2 * pi), "%.4g", "Hz")
          << " Hz: A = " << d.number("A", p_.amplitude, "%.6g", "m")
          << " m, A w_b = " << d.number("wall_speed", p_.amplitude * p_.omega, "%.6g", "m/s")
          << " m/s\n";
    d.group("contact");
    describe_contact(d, "disk-wall", p_.contact, p_.mass);
    describe_run(d);
  }

 private:
  void add_results(nlohmann::json& s, double omega_bar) const override {
    const double wall_speed = p_.amplitude * p_.omega;
    s["wall_speed"] = wall_speed;
    // R ω̄ / (A ω_b), the map's invariant (thesis §6.3.2), to compare with the "wedge" model
    s["scaled_rotation"] = io::json_number(p_.radius * omega_bar / wall_speed);
  }

  md::WedgeDiskParams p_;
  double gamma_;
};

}  // namespace

std::vector<io::TableSpec> three_disk_tables() { return {three_disk_table()}; }
std::vector<io::TableSpec> wedge_md_tables() { return {wedge_md_table()}; }

std::unique_ptr<Case> load_three_disk(const JsonObject& root, std::vector<std::string>&) {
  root.allow_only({"model", "description", "seed", "gravity", "disks", "contact", "tilt_deg",
                   "tilt_pi", "torque", "supports", "integrator", "run"});
  if (root.has("description")) root.string("description");
  md::ThreeDiskParams p;
  p.seed = root.unsigned_or("seed", 1);
  p.gravity = root.number_or("gravity", 10.0, Bound::positive);
  p.tilt = read_tilt(root);

  const JsonObject disks = root.object_or_empty("disks");
  disks.allow_only({"radius", "support_radius", "mass", "half_angle_deg", "upper_centre"});
  p.radius = disks.number_or("radius", 1.0, Bound::positive);
  // no fallback in the key's record: its default is another key's value
  p.support_radius =
      disks.has("support_radius") ? disks.number("support_radius", Bound::positive) : p.radius;
  p.mass = disks.number_or("mass", 0.1, Bound::positive);
  check_disk_inertia(disks, "mass", md::disk_areal_density(p.mass, p.radius), p.radius);
  p.half_angle = disks.number_or("half_angle_deg", 30.0, Bound::positive) * degree;
  if (!(p.half_angle < 0.5 * pi)) disks.fail("half_angle_deg", "must be < 90");
  p.upper_centre = disks.choice_of("upper_centre", md::upper_centre_names, "upper centre",
                                   std::optional(md::UpperCentre::free));
  // beyond the detachment tilt a contact can open: allowed (the closed forms then do not apply)
  p.contact = read_contact(root.object("contact"));

  const JsonObject torque = root.object_or_empty("torque");
  torque.allow_only({"amplitude", "omega", "rate"});
  p.torque.amplitude = torque.number_or("amplitude", 0.0, Bound::non_negative);
  p.torque.omega = torque.number_or("omega", 0.0, Bound::non_negative);
  p.torque.rate = torque.number_or("rate", 0.0);
  if (p.torque.amplitude > 0.0 && p.torque.omega == 0.0)
    torque.fail("omega", "must be > 0 with an amplitude");

  const JsonObject supports = root.object_or_empty("supports");
  supports.allow_only({"drive", "amplitude", "omega_b", "damping"});
  p.supports.drive = supports.choice_of("drive", md::support_drive_names, "support drive",
                                        std::optional(md::SupportDrive::fixed));
  if (p.supports.drive == md::SupportDrive::fixed) {
    for (const char* key : {"amplitude", "omega_b", "damping"})
      supports.forbid(key, "is read only with drive random or sine");
  } else {
    if (p.upper_centre == md::UpperCentre::held)
      disks.fail("upper_centre",
                 "\"held\" needs fixed supports (moving ones would change the normal forces)");
    p.supports.amplitude = supports.number("amplitude", Bound::non_negative);
    p.supports.omega = supports.number("omega_b", Bound::positive);
    const double w = p.supports.omega, a = p.supports.amplitude;
    const std::string amplitude_name = p.supports.drive == md::SupportDrive::random ? "A_b" : "A";
    if (p.supports.drive == md::SupportDrive::random) {
      p.supports.damping = supports.number_or("damping", 0.5, Bound::positive);
      if (!(p.supports.damping < 1.0)) supports.fail("damping", "must be < 1 (underdamped)");
    } else {
      supports.forbid("damping", "is read only with drive random");
    }
    // the supports' RMS (or peak) speed ω_b A and acceleration ω_b² A, and the noise
    // 4 c ω_b³ A_b² that drives the random vibration
    if (!std::isfinite(4.0 * p.supports.damping * w * w * w * a * a) ||
        !std::isfinite(w * w * a * a))
      supports.fail("omega_b", "ω_b = " + io::format_number(w) + " rad/s with " + amplitude_name +
                                   " = " + io::format_number(a) +
                                   " m gives a support speed or noise beyond a double");
  }

  SupportedDiskSetup setup = read_setup(root, p.contact, p.mass, p.radius, 2);
  std::vector<double> x, y;
  md::add_three_disk(setup.model, p, x, y);
  return std::make_unique<ThreeDiskCase>(p, std::move(setup), x, y);
}

std::unique_ptr<Case> load_wedge_md(const JsonObject& root, std::vector<std::string>&) {
  root.allow_only({"model", "description", "seed", "gravity", "wedge", "disk", "contact", "drive",
                   "integrator", "run"});
  if (root.has("description")) root.string("description");
  md::WedgeDiskParams p;
  p.seed = root.unsigned_or("seed", 1);
  p.gravity = root.number_or("gravity", 9.81, Bound::positive);

  const WedgeGeometry geometry = read_wedge_geometry(root.object("wedge"));
  p.aperture = geometry.aperture;
  p.tilt = geometry.tilt;

  const JsonObject disk = root.object_or_empty("disk");
  disk.allow_only({"radius", "areal_density"});
  p.radius = disk.number_or("radius", 0.02, Bound::positive);
  const double density = disk.number_or("areal_density", 3.57, Bound::positive);
  check_disk_inertia(disk, "areal_density", density, p.radius);
  p.mass = md::disk_mass(density, p.radius);
  p.contact = read_contact(root.object("contact"));

  const JsonObject d = root.object("drive");
  d.allow_only({"gamma", "frequency"});
  const double gamma = d.number("gamma", Bound::non_negative);
  const double frequency = d.number("frequency", Bound::positive);
  p.omega = 2.0 * pi * frequency;
  p.amplitude = drive_amplitude(gamma, p.gravity, p.omega);
  if (!std::isfinite(p.amplitude * p.omega))
    d.fail("gamma", "Γ = " + io::format_number(gamma) + " at f = " + io::format_number(frequency) +
                        " Hz gives a drive amplitude A = Γ g / ω² or a wall speed A ω beyond a "
                        "double");

  SupportedDiskSetup setup = read_setup(root, p.contact, p.mass, p.radius, 1);
  std::vector<double> x, y;
  md::add_wedge_disk(setup.model, p, x, y);
  return std::make_unique<WedgeMdCase>(p, gamma, std::move(setup), x, y);
}

}  // namespace granular::cases
