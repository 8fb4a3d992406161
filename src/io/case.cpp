#include "granular/io/case.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "granular/constants.hpp"
#include "granular/io/run_case.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/state.hpp"

namespace granular::io {

namespace {

const std::vector<std::string> kModels = {"packing_ensemble", "collision"};
// Most disks one run may hold (state ~1 kB per disk: 10^8 disks ~ 100 GB would not fit anyway).
constexpr long long kMaxDisks = 100000000;
// Most neighbor cells over an ensemble's grids (4 bytes each, a few per disk in a dense bed).
constexpr double kMaxCells = 1e8;
// Finest time steps: a collision resolved by more steps than these runs for ever.
constexpr double kMaxEnsembleStepsPerCollision = 1e6;
constexpr double kMaxCollisionStepsPerCollision = 1e5;

// This machine's physical memory [bytes]; 0 when unknown.
double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}
const std::vector<std::string> kSchemes = {"gear5", "velocity_verlet"};
const std::vector<std::string> kKinds = {"disk_wall", "disk_disk"};

// splitmix64 (Steele, Lea, Flood 2014): a bijective mix of 64 bits
std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double disk_mass(double areal_density, double radius) {
  return areal_density * pi * radius * radius;
}

// Rejects disks whose mass ρπr² or moment of inertia m r²/2 is 0 or infinite in a double
// (a density or radius far outside physics): every time scale would be NaN.
void check_disk_inertia(const JsonObject& where, const std::string& key, double areal_density,
                        double radius) {
  const double m = disk_mass(areal_density, radius);
  const double inertia = 0.5 * m * radius * radius;
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
  const std::string s = integrator.choice_or("scheme", kSchemes, "scheme", "gear5");
  return s == "gear5" ? md::Integrator::gear5 : md::Integrator::velocity_verlet;
}

// The time-step rule of an "integrator" object: exactly one of dt and steps_per_collision.
struct StepRule {
  bool given_dt;               // dt given directly
  double dt;                   // [s] when given_dt
  double steps_per_collision;  // when !given_dt
};

StepRule read_step_rule(const JsonObject& integrator, double default_steps) {
  if (integrator.has("dt") && integrator.has("steps_per_collision"))
    integrator.fail("", "give either dt or steps_per_collision, not both");
  if (integrator.has("dt")) return {true, integrator.number("dt", Bound::positive), 0.0};
  return {false, 0.0, integrator.number_or("steps_per_collision", default_steps, Bound::positive)};
}

// Rejects a step above `limit` [s], naming the key that set it.
void check_time_step(const JsonObject& integrator, const StepRule& rule, double dt, double limit) {
  if (dt <= limit) return;
  const std::string why = "too large for the stiffness: at most " + format_at_most(limit, dt) +
                          " s (10 steps per period of the fastest contact mode)";
  if (rule.given_dt) integrator.fail("dt", format_number(dt) + " s is " + why);
  integrator.fail("steps_per_collision",
                  format_number(rule.steps_per_collision) +
                      " steps per collision give dt = " + format_number(dt, 3) + " s, " + why);
}

// "drive/gamma": a number or a non-empty array of numbers, each >= 0.
std::vector<double> read_gammas(const JsonObject& drive) {
  nlohmann::json& g = drive.value("gamma");
  const std::string ptr = drive.pointer_of("gamma");
  std::vector<double> values;
  if (g.is_array()) {
    if (g.empty()) drive.fail("gamma", "must not be empty");
    for (std::size_t i = 0; i < g.size(); ++i)
      values.push_back(
          as_number(g[i], drive.file(), ptr + "/" + std::to_string(i), Bound::non_negative));
  } else if (g.is_number()) {
    values.push_back(as_number(g, drive.file(), ptr, Bound::non_negative));
  } else {
    drive.fail("gamma", "must be a number or an array of numbers");
  }
  return values;
}

struct Species {
  double radius;  // [m]
  int count;
};

std::vector<Species> read_species(const JsonObject& packing) {
  nlohmann::json& list = packing.value("species");
  const std::string ptr = packing.pointer_of("species");
  if (!list.is_array()) packing.fail("species", "must be an array of {\"radius\", \"count\"}");
  if (list.empty()) packing.fail("species", "must not be empty");
  std::vector<Species> species;
  long long total = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    JsonObject s(list[i], packing.file(), ptr + "/" + std::to_string(i));
    s.allow_only({"radius", "count"});
    const double radius = s.number("radius", Bound::positive);
    const long long count = s.integer("count", 1);
    // the sum is checked before any disk is allocated
    total += count;
    if (total > kMaxDisks)
      s.fail("count", "the species hold " + std::to_string(total) + " disks so far, more than " +
                          std::to_string(kMaxDisks));
    species.push_back({radius, static_cast<int>(count)});
  }
  return species;
}

// Rejects a time step so fine that a collision takes more than `most` steps: with
// steps_per_collision or dt far below any use, the run would never end.
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

// Rejects an ensemble whose state would not fit this machine's memory, or whose cell grids
// alone would be huge (a box far wider than its disks), before anything is allocated.
void check_memory(const JsonObject& packing, const std::vector<Species>& species, double box_width,
                  const md::NeighborParams& neighbor, double packings) {
  double disks = 0.0, area = 0.0, r_max = 0.0;
  for (const Species& s : species) {
    disks += s.count;
    area += s.count * pi * s.radius * s.radius;
    r_max = std::max(r_max, s.radius);
  }
  const md::GridShape grid = md::packing_grid_shape(box_width, r_max, area, neighbor.skin);
  const double cells = packings * grid.columns * grid.rows;
  if (!(cells <= kMaxCells))
    packing.fail("box_width", format_number(box_width) + " m is " + format_number(grid.columns, 3) +
                                  " neighbor cells wide: the cell grids would hold " +
                                  format_number(cells, 3) + " cells, more than " +
                                  format_number(kMaxCells));
  const double bytes = ensemble_memory_bytes(packings * disks, cells, neighbor);
  const double memory = physical_memory_bytes();
  if (memory > 0.0 && bytes > memory)
    packing.fail("species", "the ensemble of " + format_number(packings * disks, 3) +
                                " disks needs about " + format_number(bytes, 2) +
                                " bytes of memory; this machine has " + format_number(memory, 2));
}

LoadedCase load_ensemble(JsonObject root) {
  root.allow_only({"model", "description", "seed", "packing", "gravity", "contact", "drive",
                   "ensemble", "integrator", "neighbor", "run"});
  LoadedCase out;
  md::EnsembleCase c;
  if (root.has("description")) root.string("description");
  const std::uint64_t seed = root.unsigned_or("seed", 1);

  // packing: box, disks
  const JsonObject packing = root.object("packing");
  packing.allow_only({"box_width", "areal_density", "species"});
  const double box_width = packing.number("box_width", Bound::positive);
  c.areal_density = packing.number("areal_density", Bound::positive);
  const std::vector<Species> species = read_species(packing);
  double r_min = species.front().radius, r_max = r_min;
  for (const Species& s : species) {
    r_min = std::min(r_min, s.radius);
    r_max = std::max(r_max, s.radius);
  }
  check_disk_inertia(packing, "areal_density", c.areal_density, r_min);
  check_disk_inertia(packing, "areal_density", c.areal_density, r_max);
  if (!(box_width > 2.0 * r_max))
    packing.fail("box_width", format_number(box_width) + " m is " +
                                  (box_width < 2.0 * r_max ? "narrower than" : "no wider than") +
                                  " the largest disk (diameter " + format_number(2.0 * r_max) +
                                  " m)");

  // forces
  const double gravity = root.number_or("gravity", 9.8, Bound::non_negative);
  const JsonObject contact = root.object("contact");
  contact.allow_only({"disk_disk", "disk_wall"});
  const ContactParams disk_disk = read_contact(contact.object("disk_disk"));
  const ContactParams disk_wall = read_contact(contact.object("disk_wall"));

  // drive
  const JsonObject drive = root.object("drive");
  drive.allow_only({"gamma", "frequency"});
  c.gamma_values = read_gammas(drive);
  const double omega = 2.0 * pi * drive.number("frequency", Bound::positive);
  if (gravity == 0.0 && *std::max_element(c.gamma_values.begin(), c.gamma_values.end()) > 0.0)
    out.notes.push_back(
        "gravity is 0, so Γ = A ω² / g cannot set the drive: A = 0 for every Γ "
        "(the bottom wall stays at rest)");

  // ensemble size
  const JsonObject ensemble = root.object_or_empty("ensemble");
  ensemble.allow_only({"packings_per_gamma"});
  const long long per_gamma = ensemble.integer_or("packings_per_gamma", 1, 1);
  double disks_per_packing = 0.0;
  for (const Species& s : species) disks_per_packing += s.count;
  const double total_disks = disks_per_packing * static_cast<double>(per_gamma) *
                             static_cast<double>(c.gamma_values.size());
  if (total_disks > kMaxDisks) {
    ensemble.fail("packings_per_gamma", "the run would hold " + format_number(total_disks) +
                                            " disks, more than " + std::to_string(kMaxDisks) +
                                            " (about 1 kB each)");
  }
  c.packings_per_gamma = static_cast<int>(per_gamma);

  // time step: the shortest collision over the disks of this case, and the stability limit
  const JsonObject integrator = root.object_or_empty("integrator");
  integrator.allow_only({"scheme", "dt", "steps_per_collision"});
  c.model.integrator = read_scheme(integrator);
  const StepRule rule = read_step_rule(integrator, 50.0);
  const double m_light = disk_mass(c.areal_density, r_min);
  const double m_heavy = disk_mass(c.areal_density, r_max);
  const double t_c = shortest_collision_time(disk_disk, disk_wall, m_light, m_heavy);
  c.model.dt = rule.given_dt ? rule.dt : t_c / rule.steps_per_collision;
  check_time_step(
      integrator, rule, c.model.dt,
      std::min(largest_time_step(disk_disk, m_light / 2.0), largest_time_step(disk_wall, m_light)));
  check_steps_per_collision(integrator, rule, t_c / c.model.dt, kMaxEnsembleStepsPerCollision);

  // neighbor lists
  const JsonObject neighbor = root.object_or_empty("neighbor");
  neighbor.allow_only({"skin", "max_neighbors", "max_contacts"});
  c.model.neighbor.skin = neighbor.number_or("skin", 0.2 * r_min, Bound::positive);
  c.model.neighbor.max_neighbors = static_cast<int>(neighbor.integer_or("max_neighbors", 24, 1));
  c.model.neighbor.max_contacts = static_cast<int>(neighbor.integer_or("max_contacts", 10, 1));
  if (c.model.neighbor.max_contacts > md::max_contact_slots) {
    neighbor.fail("max_contacts", "must be <= " + std::to_string(md::max_contact_slots));
  }

  // schedule
  const JsonObject run = root.object("run");
  run.allow_only({"settle_time", "transient_time", "measure_time", "sample_interval"});
  c.schedule.settle_time = run.number("settle_time", Bound::non_negative);
  c.schedule.transient_time = run.number("transient_time", Bound::non_negative);
  c.schedule.measure_time = run.number("measure_time", Bound::positive);
  c.schedule.sample_interval = run.number("sample_interval", Bound::positive);
  if (c.schedule.sample_interval > c.schedule.measure_time)
    run.fail("sample_interval", format_number(c.schedule.sample_interval) +
                                    " s is longer than measure_time (" +
                                    format_number(c.schedule.measure_time) + " s)");
  if (c.schedule.sample_interval < c.model.dt)
    run.fail("sample_interval", format_number(c.schedule.sample_interval) +
                                    " s is shorter than the time step (" +
                                    format_number(c.model.dt, 3) + " s)");

  // the work and the memory asked for, before any of it is allocated
  const md::PlannedRun plan = md::plan_run(c.schedule, c.model.dt);
  if (!plan.ok)
    run.fail("", "the run takes " + format_number(plan.total_steps, 3) + " steps per packing (" +
                     format_number(c.schedule.settle_time + c.schedule.transient_time +
                                   c.schedule.measure_time) +
                     " s at dt = " + format_number(c.model.dt, 3) + " s), more than " +
                     format_number(md::max_run_steps) +
                     ": a shorter run, or a longer dt (fewer steps per collision, softer "
                     "contacts)");
  const double output =
      ensemble_output_bytes(plan.steps, static_cast<int>(c.gamma_values.size()),
                            c.packings_per_gamma, static_cast<int>(disks_per_packing));
  if (output > max_output_bytes)
    run.fail("sample_interval", "the run would write about " + format_number(output, 2) +
                                    " bytes of CSV, more than " + format_number(max_output_bytes) +
                                    ": sample less often");
  check_memory(packing, species, box_width, c.model.neighbor,
               static_cast<double>(c.packings_per_gamma) * c.gamma_values.size());
  for (double gamma : c.gamma_values) {
    if (!std::isfinite(drive_amplitude(gamma, gravity, omega)))
      drive.fail("gamma", "Γ = " + format_number(gamma) +
                              " at f = " + format_number(omega / (2.0 * pi)) +
                              " Hz gives a drive amplitude A = Γ g / ω² beyond a double");
  }
  std::vector<double> radii;
  for (const Species& s : species) radii.insert(radii.end(), s.count, s.radius);

  // packings, Γ-major: packing r of every Γ has the same radii and seed
  for (double gamma : c.gamma_values) {
    md::PackingParams p{};
    p.box_width = box_width;
    p.gravity = gravity;
    p.drive_amplitude = drive_amplitude(gamma, gravity, omega);
    p.drive_omega = omega;
    p.gamma = gamma;
    p.disk_disk = disk_disk;
    p.disk_wall = disk_wall;
    for (int r = 0; r < c.packings_per_gamma; ++r) {
      p.seed = packing_seed(seed, static_cast<std::uint64_t>(r));
      c.model.add_packing(p, radii, c.areal_density);
    }
  }

  out.spec = std::move(c);
  return out;
}

LoadedCase load_collision(JsonObject root) {
  root.allow_only({"model", "description", "kind", "disks", "contact", "impact", "integrator"});
  LoadedCase out;
  md::CollisionCase c;
  if (root.has("description")) root.string("description");
  const bool pair = root.choice("kind", kKinds, "collision kind") == "disk_disk";
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

  // time step: dt = 0 tells run_collision to use t_c / steps_per_collision
  const JsonObject integrator = root.object_or_empty("integrator");
  integrator.allow_only({"scheme", "dt", "steps_per_collision"});
  c.integrator = read_scheme(integrator);
  const StepRule rule = read_step_rule(integrator, 2000.0);
  const double m_a = disk_mass(c.areal_density, c.radius_a);
  const double m_eff = pair ? effective_mass(m_a, disk_mass(c.areal_density, c.radius_b)) : m_a;
  const double t_c = linear_dashpot_restitution(c.contact.k_n, c.contact.gamma_n, m_eff).t_c;
  c.dt = rule.given_dt ? rule.dt : 0.0;
  c.steps_per_collision = rule.given_dt ? t_c / rule.dt : rule.steps_per_collision;
  check_time_step(integrator, rule, rule.given_dt ? rule.dt : t_c / rule.steps_per_collision,
                  largest_time_step(c.contact, m_eff));
  // the run keeps every step of up to 100 collision durations in memory
  check_steps_per_collision(integrator, rule, c.steps_per_collision,
                            kMaxCollisionStepsPerCollision);

  out.spec = c;
  return out;
}

// Splits an override "/a/b=value" into its pointer tokens and value.
struct ParsedOverride {
  std::string pointer;
  std::vector<std::string> tokens;
  nlohmann::json value;
};

ParsedOverride parse_override(const std::string& text) {
  const std::string where = "--set " + excerpt(text);
  // a file's strings are checked by the JSON parser; a command line's are not
  if (!is_valid_utf8(text)) throw CaseError("", where, "not valid UTF-8");
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) throw CaseError("", where, "expected /json/pointer=value");
  ParsedOverride o;
  o.pointer = text.substr(0, eq);
  if (o.pointer.size() < 2 || o.pointer[0] != '/')
    throw CaseError("", where, "the pointer must start with \"/\" and name a key");
  // tokens, with RFC 6901 escapes
  std::size_t start = 1;
  while (true) {
    const std::size_t slash = o.pointer.find('/', start);
    const std::string raw = o.pointer.substr(start, slash - start);
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '~') {
        token += raw[i];
      } else if (i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
        token += raw[++i] == '0' ? '~' : '/';
      } else {
        throw CaseError("", where, "bad escape in the pointer (use ~0 for ~ and ~1 for /)");
      }
    }
    if (token.empty()) throw CaseError("", where, "empty key in the pointer");
    o.tokens.push_back(token);
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  // the value: JSON if it parses, else a string
  const std::string value = text.substr(eq + 1);
  try {
    o.value = nlohmann::json::parse(value);
  } catch (const nlohmann::json::out_of_range&) {
    throw CaseError("", where, "the number is out of the range of a double");
  } catch (const nlohmann::json::exception&) {
    o.value = value;
  }
  return o;
}

// Index of an array element addressed by a pointer token; npos when not a plain index.
std::size_t array_index(const std::string& token) {
  if (token.empty() || token.size() > 9 ||
      !std::all_of(token.begin(), token.end(),
                   [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }) ||
      (token.size() > 1 && token[0] == '0'))
    return std::string::npos;
  return static_cast<std::size_t>(std::stoul(token));
}

// True when the pointers name the same value or one lies inside the other.
bool related(const std::string& a, const std::string& b) {
  const auto inside = [](const std::string& outer, const std::string& inner) {
    return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 &&
           inner[outer.size()] == '/';
  };
  return a == b || inside(a, b) || inside(b, a);
}

}  // namespace

double ensemble_memory_bytes(double disks, double cells, const md::NeighborParams& neighbor) {
  // the state, the model's five arrays and the rotation accumulators per disk, and the cells
  const double per_disk = static_cast<double>(md::state_bytes_per_disk(neighbor)) +
                          5.0 * sizeof(double) + sizeof(md::RotationStats);
  return disks * per_disk + cells * sizeof(int);
}

std::uint64_t packing_seed(std::uint64_t case_seed, std::uint64_t r) {
  return splitmix64(splitmix64(case_seed) ^ r);
}

double drive_amplitude(double gamma, double gravity, double omega) {
  return gamma * gravity / (omega * omega);
}

double shortest_collision_time(const ContactParams& disk_disk, const ContactParams& disk_wall,
                               double m_light, double m_heavy) {
  // t_c is monotonic in m_eff within a regime; both ends cover either direction
  double t = linear_dashpot_restitution(disk_disk.k_n, disk_disk.gamma_n, m_light / 2.0).t_c;
  t = std::min(t, linear_dashpot_restitution(disk_disk.k_n, disk_disk.gamma_n, m_heavy / 2.0).t_c);
  t = std::min(t, linear_dashpot_restitution(disk_wall.k_n, disk_wall.gamma_n, m_light).t_c);
  t = std::min(t, linear_dashpot_restitution(disk_wall.k_n, disk_wall.gamma_n, m_heavy).t_c);
  return t;
}

double largest_time_step(const ContactParams& p, double m_eff) {
  return 2.0 * pi / (10.0 * fastest_contact_rate(p, m_eff));
}

void apply_override(nlohmann::json& doc, const std::string& override_text,
                    const std::string& file) {
  const ParsedOverride o = parse_override(override_text);
  const std::string note = " (--set " + excerpt(override_text) + ")";
  // walk to the parent, creating missing objects (validation rejects keys the schema lacks)
  nlohmann::json* at = &doc;
  std::string walked;
  for (std::size_t i = 0; i + 1 < o.tokens.size(); ++i) {
    const std::string& t = o.tokens[i];
    if (at->is_object()) {
      if (!at->contains(t)) (*at)[t] = nlohmann::json::object();
      at = &(*at)[t];
    } else if (at->is_array()) {
      const std::size_t k = array_index(t);
      if (k == std::string::npos || k >= at->size())
        throw CaseError(file, walked + "/" + pointer_token(t), "no such array element" + note);
      at = &(*at)[k];
    } else {
      throw CaseError(file, walked.empty() ? "/" : walked,
                      "is not an object or array, cannot hold \"" + t + "\"" + note);
    }
    walked += "/" + pointer_token(t);
  }
  // set (or remove, for null) the last key
  const std::string& last = o.tokens.back();
  if (at->is_object()) {
    if (o.value.is_null())
      at->erase(last);
    else
      (*at)[last] = o.value;
  } else if (at->is_array()) {
    const std::size_t k = array_index(last);
    if (k == std::string::npos || k > at->size())
      throw CaseError(file, o.pointer, "no such array element" + note);
    if (o.value.is_null()) {
      if (k < at->size()) at->erase(k);
    } else if (k == at->size()) {
      at->push_back(o.value);
    } else {
      (*at)[k] = o.value;
    }
  } else {
    throw CaseError(file, walked, "is not an object or array, cannot hold \"" + last + "\"" + note);
  }
}

LoadedCase load_case_json(nlohmann::json doc, const std::string& file,
                          const std::vector<std::string>& overrides) {
  for (const std::string& o : overrides) apply_override(doc, o, file);
  try {
    const JsonObject root(doc, file, "");
    std::vector<std::string> models = kModels;
    for (const impact::ImpactModel& m : impact::impact_models()) models.push_back(m.name);
    const std::string model = root.choice("model", models, "model");
    LoadedCase out;
    if (model == "collision") {
      out = load_collision(root);
    } else if (model == "packing_ensemble") {
      out = load_ensemble(root);
    } else {
      for (const impact::ImpactModel& m : impact::impact_models()) {
        if (model == m.name) out.spec = std::shared_ptr<impact::ImpactCase>(m.load(root));
      }
    }
    out.path = file;
    out.model = model;
    out.echo = std::move(doc);
    return out;
  } catch (const CaseError& e) {
    // an error at a value an override touched says so
    for (auto it = overrides.rbegin(); it != overrides.rend(); ++it) {
      const std::string pointer = it->substr(0, it->find('='));
      if (!e.pointer().empty() && related(e.pointer(), pointer))
        throw CaseError(e.file(), e.pointer(), e.detail() + " (--set " + excerpt(*it) + ")");
    }
    throw;
  }
}

LoadedCase load_case(const std::string& path, const std::vector<std::string>& overrides) {
  return load_case_json(read_json_file(path), path, overrides);
}

}  // namespace granular::io
