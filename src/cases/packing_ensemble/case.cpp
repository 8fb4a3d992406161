// The packing_ensemble case: its schema (docs/cases.md), what `granular validate` prints of it,
// and what a run needs besides the case (a checkpoint to resume, a device). Its runs are in
// run_md.cpp and run_ed.cpp, their outputs in results.cpp and streams.cpp.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>

#include "granular/cases/fbrpa_description.hpp"
#include "granular/cases/md_schema.hpp"
#include "granular/cases/models.hpp"
#include "granular/cases/output_folder.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/constants.hpp"
#include "granular/io/checkpoint.hpp"
#include "granular/io/output.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/bottom_layer.hpp"
#include "granular/md/collision/collision.hpp"
#include "granular/md/ed/restitution.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/state.hpp"

namespace granular::cases {

using io::as_number;
using io::Bound;
using io::CaseError;
using io::format_number;
using io::format_value;
using io::JsonObject;

namespace {

// Most disks one run may hold (state ~1 kB per disk: 10^8 disks ~ 100 GB would not fit anyway).
constexpr long long kMaxDisks = 100000000;
// Most neighbor cells over an ensemble's grids (4 bytes each, a few per disk in a dense bed).
constexpr double kMaxCells = 1e8;
// Finest time steps: a collision resolved by more steps than these runs for ever.
constexpr double kMaxEnsembleStepsPerCollision = 1e6;
// Most disks of an event-driven packing: it predicts each collision against every disk (O(N)
// per event, O(N^2) before the first), so its cost per simulated second grows as N^2; 6 000
// disks took 3 minutes for 0.05 s (docs/ed.md), 10 000 would take hours for one second.
constexpr long long kMaxEdDisksPerPacking = 10000;
// Most packings of a case with a random bottom layer: its loader builds every packing's bed to
// find the floor row (about 0.5 ms each), so that `validate` stays within seconds.
constexpr long long kMaxRandomLayerPackings = 10000;

// Most packing-seconds a collision record measures (packings × measure_time): ~30 min on one
// core for 60-disk packings.
constexpr double kMaxCollisionPackingSeconds = 1000.0;

// This machine's physical memory [bytes]; 0 when unknown.
double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
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
  const double bytes = md::ensemble_memory_bytes(packings * disks, cells, neighbor);
  const double memory = physical_memory_bytes();
  if (memory > 0.0 && bytes > memory)
    packing.fail("species", "the ensemble of " + format_number(packings * disks, 3) +
                                " disks needs about " + format_number(bytes, 2) +
                                " bytes of memory; this machine has " + format_number(memory, 2));
}

// The MD method's keys and limits: the time step, the neighbor lists, the steps, output and
// memory of the run.
void check_md_case(const JsonObject& root, md::EnsembleCase& c, const std::vector<Species>& species,
                   double box_width, const ContactParams& disk_disk,
                   const ContactParams& disk_wall) {
  double r_min = species.front().radius, r_max = r_min, disks_per_packing = 0.0;
  for (const Species& s : species) {
    r_min = std::min(r_min, s.radius);
    r_max = std::max(r_max, s.radius);
    disks_per_packing += s.count;
  }
  // time step: the shortest collision over the disks of this case, and the stability limit
  const JsonObject integrator = root.object_or_empty("integrator");
  integrator.allow_only({"scheme", "dt", "steps_per_collision"});
  c.model.integrator = read_scheme(integrator);
  const StepRule rule = read_step_rule(integrator, 50.0);
  const double m_light = md::disk_mass(c.areal_density, r_min);
  const double m_heavy = md::disk_mass(c.areal_density, r_max);
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

  // the work and the memory asked for, before any of it is allocated
  const JsonObject run = root.object("run");
  const md::RunSteps steps = checked_run_steps(run, c.schedule, c.model.dt);
  const double output =
      ensemble_output_bytes(steps, static_cast<int>(c.gamma_values.size()), c.packings_per_gamma,
                            static_cast<int>(disks_per_packing));
  if (output > max_output_bytes)
    run.fail("sample_interval", "the run would write about " + format_number(output, 2) +
                                    " bytes of CSV, more than " + format_number(max_output_bytes) +
                                    ": sample less often");
  check_memory(root.object("packing"), species, box_width, c.model.neighbor,
               static_cast<double>(c.packings_per_gamma) * c.gamma_values.size());
}

// "ed": the event-driven method's options (docs/ed.md).
md::ed::EdOptions read_ed_options(const JsonObject& ed) {
  ed.allow_only({"tangential", "max_event_rate", "start_lift"});
  md::ed::EdOptions o;
  o.tangential = ed.choice_of("tangential", impulse::tangential_rule_names, "tangential law",
                              std::optional(md::ed::TangentialRule::contact_law));
  o.max_event_rate = ed.number_or("max_event_rate", o.max_event_rate, Bound::positive);
  o.start_lift = ed.number_or("start_lift", o.start_lift, Bound::positive);
  return o;
}

// The event-driven method has no time step, neighbor lists or settling (docs/ed.md): those keys
// are ignored, with a note; its output is bounded as MD's.
void check_ed_case(const JsonObject& root, const md::EnsembleCase& c, int disks_per_packing,
                   std::vector<std::string>& notes) {
  for (const char* key : {"integrator", "neighbor"})
    if (root.has(key))
      notes.push_back(std::string("\"") + key +
                      "\" is ignored by the event-driven method (no time step, no neighbor "
                      "lists)");
  if (c.schedule.settle_time > 0.0)
    notes.push_back(
        "run/settle_time is ignored by the event-driven method: its packings start at t = 0 "
        "with the drive on (a bed at rest is an inelastic collapse; docs/ed.md)");
  if (*std::min_element(c.gamma_values.begin(), c.gamma_values.end()) < 2.0)
    notes.push_back(
        "the thesis used the event-driven method for Γ ≥ 2 only (§3.3): below, lasting "
        "contacts carry rotation and dense beds may collapse");
  // one chunk per sample interval: the output of an MD run with dt = sample_interval, unsettled
  md::RunSchedule chunks = c.schedule;
  chunks.settle_time = 0.0;
  const JsonObject run = root.object("run");
  const md::PlannedRun plan = md::plan_run(chunks, c.schedule.sample_interval);
  if (!plan.ok)
    run.fail("", "the run takes " + format_number(plan.total_steps, 3) +
                     " sample intervals per packing, more than " +
                     format_number(md::max_run_steps) +
                     ": a shorter run or a longer sample_interval");
  const double output = ensemble_output_bytes(plan.steps, static_cast<int>(c.gamma_values.size()),
                                              c.packings_per_gamma, disks_per_packing);
  if (output > max_output_bytes)
    run.fail("sample_interval", "the run would write about " + format_number(output, 2) +
                                    " bytes of CSV, more than " + format_number(max_output_bytes) +
                                    ": sample less often");
}

// With the contact law's e_t, the run integrates an e_t table per species pair and per species
// on a wall from single collisions: a law outside the packing engine's domain is refused now,
// naming its key, not after the run has written its first files.
void check_ed_restitution(const JsonObject& contact, const std::vector<Species>& species,
                          const ContactParams& disk_disk, const ContactParams& disk_wall,
                          double areal_density) {
  std::vector<double> radii;
  for (const Species& s : species)
    if (std::find(radii.begin(), radii.end(), s.radius) == radii.end()) radii.push_back(s.radius);
  for (std::size_t a = 0; a < radii.size(); ++a) {
    std::string why = md::restitution_table_problem(disk_wall, radii[a], 0.0, areal_density);
    if (!why.empty())
      contact.fail("disk_wall", "a disk of radius " + format_number(radii[a]) + " m: " + why);
    for (std::size_t b = a; b < radii.size(); ++b) {
      why = md::restitution_table_problem(disk_disk, radii[a], radii[b], areal_density);
      if (!why.empty())
        contact.fail("disk_disk", "disks of radii " + format_number(radii[a]) + " and " +
                                      format_number(radii[b]) + " m: " + why);
    }
  }
}

// A list of indices below `count`, ascending and without repeats, or "all".
std::vector<int> read_indices(const JsonObject& o, const std::string& key, int count,
                              const std::string& of) {
  nlohmann::json& v = o.value(key);
  std::vector<int> out;
  if (v.is_string() && v.get<std::string>() == "all") {
    for (int k = 0; k < count; ++k) out.push_back(k);
    return out;
  }
  if (!v.is_array() || v.empty())
    o.fail(key, "must be \"all\" or a non-empty array of indices of " + of);
  for (std::size_t k = 0; k < v.size(); ++k) {
    const std::string ptr = o.pointer_of(key) + "/" + std::to_string(k);
    const long long index = io::as_integer(v[k], o.file(), ptr, 0);
    if (index >= count)
      throw CaseError(o.file(), ptr,
                      std::to_string(index) + " is not an index of " + of + " (0 to " +
                          std::to_string(count - 1) + ")");
    if (!out.empty() && index <= out.back())
      throw CaseError(o.file(), ptr, "indices must be ascending, without repeats");
    out.push_back(static_cast<int>(index));
  }
  return out;
}

// "snapshots/start" as a number [s]: the first chunk end after start − half a chunk, the one
// nearest `start` (a phase ends at a whole step, up to a step away from its time).
template <class TimeAt>
std::int64_t first_chunk_from(const JsonObject& snap, TimeAt time_at, std::int64_t chunks,
                              double chunk_time, double t0) {
  const double start = snap.number_or("start", t0);
  std::int64_t lo = 0, hi = chunks + 1;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (time_at(mid) >= start - 0.5 * chunk_time) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  if (lo > chunks)
    snap.fail("start", format_number(start) + " s is after the run's end at t = " +
                           format_number(time_at(chunks)) + " s");
  return lo;
}

// "snapshots" (MD): which packings, from when, how often, in which formats; the frames fall on
// chunk ends, so the interval is snapped to a whole number of sample intervals.
SnapshotPlan read_snapshots(const JsonObject& root, const md::EnsembleCase& c,
                            int disks_per_packing, std::vector<std::string>& notes) {
  SnapshotPlan plan;
  if (!root.has("snapshots")) return plan;
  nlohmann::json& json = root.value("snapshots");
  const JsonObject snap(json, root.file(), root.pointer_of("snapshots"));
  snap.allow_only({"gammas", "packings", "interval", "start", "formats"});
  if (!snap.has("gammas")) json["gammas"] = "all";
  if (!snap.has("packings")) json["packings"] = nlohmann::json::array({0});
  if (!snap.has("formats")) json["formats"] = {"lammps", "vtk", "gsd"};
  const int n_gamma = static_cast<int>(c.gamma_values.size());
  const std::vector<int> gammas = read_indices(snap, "gammas", n_gamma, "gamma_values");
  const std::vector<int> packings =
      read_indices(snap, "packings", c.packings_per_gamma, "the packings of a Γ");
  for (int g : gammas)
    for (int r : packings) plan.packings.push_back(g * c.packings_per_gamma + r);

  const nlohmann::json& formats = snap.value("formats");
  if (!formats.is_array() || formats.empty())
    snap.fail("formats", "must be a non-empty array of \"lammps\", \"vtk\", \"gsd\"");
  for (std::size_t k = 0; k < formats.size(); ++k) {
    const std::string ptr = snap.pointer_of("formats") + "/" + std::to_string(k);
    const std::string name = formats[k].is_string() ? formats[k].get<std::string>() : "";
    bool* on = name == "lammps" ? &plan.lammps
               : name == "vtk"  ? &plan.vtk
               : name == "gsd"  ? &plan.gsd
                                : nullptr;
    if (on == nullptr)
      throw CaseError(snap.file(), ptr, "unknown format (expected one of: lammps, vtk, gsd)");
    if (*on) throw CaseError(snap.file(), ptr, "\"" + name + "\" is listed twice");
    *on = true;
  }

  // the interval in whole chunks, and the first chunk end at or after `start`
  const md::RunSteps steps = checked_run_steps(root.object("run"), c.schedule, c.model.dt);
  const double chunk_time = static_cast<double>(steps.sample_steps) * c.model.dt;
  const double interval = snap.number_or("interval", chunk_time, Bound::positive);
  const double chunks = std::max(1.0, std::round(interval / chunk_time));
  if (!(chunks <= static_cast<double>(steps.chunks()) + 1.0))
    snap.fail("interval", format_number(interval) + " s is longer than the run");
  plan.every_chunks = static_cast<std::int64_t>(chunks);
  if (std::fabs(chunks * chunk_time - interval) > 1e-9 * interval)
    notes.push_back("snapshots/interval " + format_number(interval) + " s is taken as " +
                    format_number(chunks * chunk_time) + " s, " + format_number(chunks) +
                    " sample interval(s): frames fall on chunk ends");
  const double t0 = -c.schedule.settle_time;
  const auto time_at = [&](std::int64_t k) {
    return t0 + static_cast<double>(steps.chunk_end_step(k)) * c.model.dt;
  };
  // "end": the final state only, however long the run
  if (snap.has("start") && snap.value("start") == "end") {
    plan.first_chunk = steps.chunks();
  } else {
    plan.first_chunk = first_chunk_from(snap, time_at, steps.chunks(), chunk_time, t0);
  }

  // the snapshots and the CSVs together within the output bound
  const double csv = ensemble_output_bytes(steps, n_gamma, c.packings_per_gamma, disks_per_packing);
  const double bytes = snapshot_bytes(plan, steps.chunks(), disks_per_packing, c.model.neighbor, 0);
  if (csv + bytes > max_output_bytes)
    snap.fail("interval", "the snapshots would write about " + format_number(bytes, 2) +
                              " bytes, with the CSVs more than " + format_number(max_output_bytes) +
                              ": take frames less often");
  return plan;
}

}  // namespace

std::unique_ptr<Case> load_packing_ensemble(const JsonObject& root,
                                            std::vector<std::string>& notes) {
  root.allow_only({"model", "description", "seed", "method", "ed", "packing", "gravity", "contact",
                   "drive", "ensemble", "integrator", "neighbor", "run", "snapshots",
                   "collisions"});
  md::EnsembleCase c;
  if (root.has("description")) root.string("description");
  const std::uint64_t seed = root.unsigned_or("seed", 1);
  const bool event_driven = root.choice_or("method", {"md", "ed"}, "method", "md") == "ed";
  std::optional<md::ed::EdOptions> ed;
  if (event_driven) {
    ed = read_ed_options(root.object_or_empty("ed"));
  } else {
    root.forbid("ed", "is read only with \"method\": \"ed\"");
  }

  // packing: box, disks
  const JsonObject packing = root.object("packing");
  packing.allow_only({"box_width", "areal_density", "species"});
  const double box_width = packing.number("box_width", Bound::positive);
  c.areal_density = packing.number("areal_density", Bound::positive);
  const std::vector<Species> species = read_species(packing);
  if (event_driven) {
    long long disks = 0;
    for (const Species& s : species) disks += s.count;
    if (disks > kMaxEdDisksPerPacking)
      packing.fail("species", "the packing holds " + std::to_string(disks) +
                                  " disks; the event-driven method predicts every collision "
                                  "against all disks and takes at most " +
                                  std::to_string(kMaxEdDisksPerPacking) +
                                  " per packing (docs/ed.md): use \"method\": \"md\"");
  }
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
  if (ed && impulse::uses_table(ed->tangential))
    check_ed_restitution(contact, species, disk_disk, disk_wall, c.areal_density);

  // drive
  const JsonObject drive = root.object("drive");
  drive.allow_only({"gamma", "frequency", "bottom", "damping"});
  c.gamma_values = read_gammas(drive);
  const double omega = 2.0 * pi * drive.number("frequency", Bound::positive);
  // the floor vibrates, or a layer of disks on the (resting) floor vibrates randomly
  const bool random_layer =
      drive.choice_or("bottom", {"wall", "random_layer"}, "bottom", "wall") == "random_layer";
  double layer_damping = 0.5;
  if (random_layer) {
    if (event_driven) drive.fail("bottom", "\"random_layer\" is a drive of the MD method only");
    layer_damping = drive.number_or("damping", 0.5, Bound::positive);
    if (!(layer_damping < 1.0)) drive.fail("damping", "must be < 1 (underdamped)");
  } else {
    drive.forbid("damping", "is read only with \"bottom\": \"random_layer\"");
  }
  if (gravity == 0.0 && *std::max_element(c.gamma_values.begin(), c.gamma_values.end()) > 0.0)
    notes.push_back(
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
  const long long packings = per_gamma * static_cast<long long>(c.gamma_values.size());
  if (random_layer && packings > kMaxRandomLayerPackings)
    drive.fail("bottom",
               "a random layer is found in each packing's bed when the case is read "
               "(about 0.5 ms a packing): at most " +
                   std::to_string(kMaxRandomLayerPackings) + " packings, and this case has " +
                   std::to_string(packings));

  // schedule
  c.schedule = read_schedule(root.object("run"));
  for (double gamma : c.gamma_values) {
    if (!std::isfinite(md::drive_amplitude(gamma, gravity, omega)))
      drive.fail("gamma", "Γ = " + format_number(gamma) +
                              " at f = " + format_number(omega / (2.0 * pi)) +
                              " Hz gives a drive amplitude A = Γ g / ω² beyond a double");
  }

  // a collision record: the contacts of the measurement window beside the event-driven rules
  std::optional<CollisionRecord> collisions;
  if (root.has("collisions")) {
    if (event_driven) root.fail("collisions", "is a record of the MD method's contacts");
    // the rules' restitutions are those of two free disks or a disk on a wall
    if (random_layer)
      root.fail("collisions", "is not recorded over a random bottom layer (its disks are driven)");
    const JsonObject record = root.object("collisions");
    record.allow_only({"tangential", "tolerance"});
    collisions = CollisionRecord{};
    collisions->tangential =
        record.choice_of("tangential", impulse::tangential_rule_names, "tangential law",
                         std::optional(md::ed::TangentialRule::contact_law));
    collisions->tolerance = record.number_or("tolerance", 0.05, Bound::positive);
    if (impulse::uses_table(collisions->tangential))
      check_ed_restitution(contact, species, disk_disk, disk_wall, c.areal_density);
    root.forbid("snapshots", "is not written by a collision record (\"collisions\")");
    const double packing_seconds = c.schedule.measure_time * static_cast<double>(per_gamma) *
                                   static_cast<double>(c.gamma_values.size());
    if (packing_seconds > kMaxCollisionPackingSeconds)
      root.fail("collisions",
                "a collision record follows every pair one step at a time (about 2 s of wall time "
                "and 0.3 MB of collisions.csv per packing-second of a 60-disk packing on one "
                "core): at most " +
                    format_number(kMaxCollisionPackingSeconds) +
                    " packing-seconds of measurement, and this case asks " +
                    format_number(packing_seconds));
  }

  SnapshotPlan snapshots;
  if (event_driven) {
    root.forbid("snapshots", "is written by the MD method only");
    check_ed_case(root, c, static_cast<int>(disks_per_packing), notes);
  } else {
    check_md_case(root, c, species, box_width, disk_disk, disk_wall);
    snapshots = read_snapshots(root, c, static_cast<int>(disks_per_packing), notes);
  }

  std::vector<double> radii;
  for (const Species& s : species) radii.insert(radii.end(), s.count, s.radius);

  // packings, Γ-major: packing r of every Γ has the same radii and seed
  for (double gamma : c.gamma_values) {
    md::PackingParams p{};
    p.box_width = box_width;
    p.gravity = gravity;
    // a random layer's disks take the floor's amplitude A = Γ g / ω² as their RMS deviation
    const double amplitude = md::drive_amplitude(gamma, gravity, omega);
    p.drive_amplitude = random_layer ? 0.0 : amplitude;
    p.drive_omega = omega;
    p.gamma = gamma;
    p.disk_disk = disk_disk;
    p.disk_wall = disk_wall;
    for (int r = 0; r < c.packings_per_gamma; ++r) {
      p.seed = md::packing_seed(seed, static_cast<std::uint64_t>(r));
      c.model.add_packing(p, radii, c.areal_density);
      if (random_layer && md::add_random_bottom_layer(c.model, {amplitude, omega, layer_damping}) ==
                              static_cast<int>(radii.size()))
        drive.fail("bottom",
                   "every disk of the packing rests on the floor: no disk is left "
                   "above the random layer");
    }
  }

  return std::make_unique<PackingEnsemble>(std::move(c), ed, std::move(snapshots), collisions);
}

void PackingEnsemble::describe(Description& d) const {
  const md::EnsembleCase& c = c_;
  const auto& m = c.model;
  const auto& p = m.packings.front();
  const int disks = m.packing_size(0);
  double m_light = m.mass[0], m_heavy = m.mass[0];
  for (int i = 0; i < disks; ++i) {
    m_light = std::min(m_light, m.mass[i]);
    m_heavy = std::max(m_heavy, m.mass[i]);
  }
  std::ostream& out = d.out;
  d.group("packings");
  out << "packings: " << d.count("gamma_values", static_cast<std::int64_t>(c.gamma_values.size()))
      << " Γ value(s) × " << d.count("packings_per_gamma", c.packings_per_gamma) << " = "
      << d.count("packings", m.n_packings()) << " packings of "
      << d.count("disks_per_packing", disks) << " disks (" << d.count("disks", m.n_disks())
      << " disks), box width " << d.number("box_width", p.box_width, "%.4g", "m")
      << " m, g = " << d.number("g", p.gravity, "%.4g", "m/s²") << " m/s²\n";

  // contact time scales
  out << "contacts (c = γ_n / (2 √(k_n m_eff)); e_n, t_c from eqs. 4.55–4.56):\n";
  const struct {
    const char* key;
    const char* label;
    const ContactParams& contact;
    double m_eff;
  } contacts[] = {
      {"disk_disk_smallest_pair", "disk-disk, smallest pair", p.disk_disk, m_light / 2.0},
      {"disk_disk_largest_pair", "disk-disk, largest pair ", p.disk_disk, m_heavy / 2.0},
      {"disk_wall_smallest_disk", "disk-wall, smallest disk", p.disk_wall, m_light},
      {"disk_wall_largest_disk", "disk-wall, largest disk ", p.disk_wall, m_heavy}};
  for (const auto& k : contacts) {
    d.group("contacts", k.key);
    describe_contact(d, k.label, k.contact, k.m_eff);
  }
  if (ed_) {
    d.group("method");
    out << "method: " << d.word("name", "event-driven")
        << " (docs/ed.md): instantaneous collisions with these e_n, e_t "
        << impulse::describe_rule(ed_->tangential)
        << "; fixed bottom with FBRPA wall velocities; start from the layouts lifted by "
        << d.number("start_lift", ed_->start_lift, "%.3g") << "; collapse cap "
        << d.number("max_event_rate", ed_->max_event_rate, "%.3g", "events per disk per second")
        << " events per disk per second\n";
    describe_fbrpa(d, 0.0, p.seed);
  } else {
    const double t_c = shortest_collision_time(p.disk_disk, p.disk_wall, m_light, m_heavy);
    const double dt_max = std::min(largest_time_step(p.disk_disk, m_light / 2.0),
                                   largest_time_step(p.disk_wall, m_light));
    d.group("time_step");
    out << "time step: dt = " << d.number("dt", m.dt, "%.4g", "s") << " s ("
        << d.word("scheme", name_of(md::integrator_names, m.integrator)) << "), "
        << d.number("steps_per_t_c", t_c / m.dt, "%.4g") << " steps per shortest t_c ("
        << d.number("t_c", t_c, "%.4g", "s") << " s); largest accepted dt "
        << d.number("dt_max", dt_max, "%.3g", "s") << " s\n";
  }

  if (collisions_) {
    d.group("collisions");
    out << "collisions: a record of every contact of the measurement window, stepping one step "
           "at a time (no rotation measured); the isolated ones beside the event-driven rules, "
           "e_t "
        << impulse::describe_rule(collisions_->tangential) << ", matched within "
        << d.number("tolerance", collisions_->tolerance, "%.3g") << " of |(u_n, u_t)|\n";
  }

  // drive per Γ
  d.group("drive");
  out << "drive: f = " << d.number("f", p.drive_omega / (2.0 * pi), "%.6g", "Hz") << " Hz\n";
  if (p.body_count > 0) {
    const md::AxisMotion& a = m.bodies[p.body_first].axis[0];
    out << "  bottom: " << d.word("bottom", "random_layer") << ", the "
        << d.count("layer_disks", p.body_count)
        << " disks resting on the floor (packing 0) vibrate randomly about their places, x and "
           "y each with RMS A_b = A below, w_b = 2 pi f, damping "
        << d.number("damping", a.damping, "%.3g")
        << "; the floor rests; they are left out of the averages\n";
  }
  for (int k = 0; k < static_cast<int>(c.gamma_values.size()); ++k) {
    const auto& pk = m.packings[k * c.packings_per_gamma];
    if (pk.body_count > 0) {
      const md::AxisMotion& a = m.bodies[pk.body_first].axis[0];
      out << "  Γ = " << d.item("gamma", pk.gamma, "%-6.4g")
          << "  A_b = " << d.item("A", a.amplitude, "%.4g", "m") << " m  RMS layer speed A_b ω_b = "
          << d.item("rms_layer_speed", a.amplitude * a.omega, "%.4g", "m/s") << " m/s\n";
      continue;
    }
    out << "  Γ = " << d.item("gamma", pk.gamma, "%-6.4g")
        << "  A = " << d.item("A", pk.drive_amplitude, "%.4g", "m") << " m  peak wall speed A ω = "
        << d.item("peak_wall_speed", pk.drive_amplitude * pk.drive_omega, "%.4g", "m/s")
        << " m/s\n";
  }

  // run length
  const auto& s = c.schedule;
  d.group("run");
  if (ed_) {
    const double chunks = std::max(1.0, std::round(s.measure_time / s.sample_interval));
    out << "run: transient " << d.number("transient_time", s.transient_time, "%.6g", "s")
        << " s + measure " << d.number("measure_time", s.measure_time, "%.6g", "s")
        << " s from t = 0 (settle_time unused), " << d.large_count("samples", chunks + 1.0, "%.6g")
        << " samples every " << d.number("sample_interval", s.sample_interval, "%.6g", "s")
        << " s\n";
    return;
  }
  const double total = s.settle_time + s.transient_time + s.measure_time;
  // the steps the run takes: each phase rounded to whole steps, the measurement to whole samples
  const md::RunSteps plan = md::plan_run(s, m.dt).steps;
  const std::int64_t steps = plan.total();
  out << "run: settle " << d.number("settle_time", s.settle_time, "%.6g", "s") << " s + transient "
      << d.number("transient_time", s.transient_time, "%.6g", "s") << " s + measure "
      << d.number("measure_time", s.measure_time, "%.6g", "s")
      << " s = " << d.number("total_time", total, "%.6g", "s") << " s, sample every "
      << d.number("sample_interval", s.sample_interval, "%.6g", "s") << " s\n";
  d.group("total");
  out << "total: " << d.count("steps_per_packing", steps) << " steps per packing, "
      << d.large_count("disk_steps", static_cast<double>(steps) * m.n_disks(), "%.4g")
      << " disk-steps over the ensemble\n";
  const double csv = ensemble_output_bytes(plan, static_cast<int>(c.gamma_values.size()),
                                           c.packings_per_gamma, disks);
  // without the cell grids, a few ints per disk
  const double memory = md::ensemble_memory_bytes(m.n_disks(), 0.0, m.neighbor);
  d.group("size");
  out << "size: about " << d.number("memory", memory / 1e6, "%.3g", "MB")
      << " MB of memory, at most " << d.number("csv", csv / 1e6, "%.3g", "MB") << " MB of CSV\n";
  if (!snapshots_.packings.empty()) {
    const std::int64_t frames = snapshots_.frames(plan.chunks());
    const double first =
        -s.settle_time + static_cast<double>(plan.chunk_end_step(snapshots_.first_chunk)) * m.dt;
    const double every = static_cast<double>(snapshots_.every_chunks * plan.sample_steps) * m.dt;
    const double bytes =
        snapshot_bytes(snapshots_, plan.chunks(), disks, m.neighbor, m.wall_bodies);
    d.group("snapshots");
    out << "snapshots: "
        << d.count("packings", static_cast<std::int64_t>(snapshots_.packings.size()))
        << " packing(s), " << d.count("frames", frames)
        << " frame(s) each from t = " << d.number("first", first, "%.6g", "s") << " s every "
        << d.number("every", every, "%.6g", "s") << " s, at most "
        << d.number("size", bytes / 1e6, "%.3g", "MB") << " MB\n";
  }
}

void PackingEnsemble::check_run(const RunContext& ctx) const {
  if (collisions_) {
    const char* why = "a collision record (\"collisions\") runs whole and keeps no checkpoint";
    if (ctx.request.packings) throw CaseError("", "--packings", why);
    if (ctx.request.resume) throw CaseError("", "--resume", why);
    if (ctx.request.control.checkpoint_interval != md::default_checkpoint_interval)
      throw CaseError("", "--checkpoint-interval", why);
    check_backend(ctx.request);
    return;
  }
  if (ctx.request.packings) {
    if (ed_)
      throw CaseError("", "--packings",
                      "the event-driven method (\"method\": \"ed\") runs whole ensembles");
    const PackingRange& r = *ctx.request.packings;
    if (!(0 <= r.first && r.first < r.last && r.last <= c_.packings_per_gamma))
      throw CaseError("", "--packings " + std::to_string(r.first) + ":" + std::to_string(r.last),
                      "expected FIRST:LAST with 0 <= FIRST < LAST <= " +
                          std::to_string(c_.packings_per_gamma) + " (packings_per_gamma)");
  }
  if (ed_) {
    if (ctx.request.backend != "cpu")
      throw CaseError("", "--backend " + ctx.request.backend,
                      "the event-driven method (\"method\": \"ed\") runs on the CPU");
    if (ctx.request.resume)
      throw CaseError("", "--resume",
                      "the event-driven method (\"method\": \"ed\") writes no checkpoint");
    // a run without the option has the default interval; any other was asked for
    if (ctx.request.control.checkpoint_interval != md::default_checkpoint_interval)
      throw CaseError("", "--checkpoint-interval",
                      "the event-driven method (\"method\": \"ed\") writes no checkpoint");
    return;
  }
  check_backend(ctx.request);
  if (!ctx.request.resume) return;
  // a checkpoint of this case (made on any backend) in the output folder
  const std::filesystem::path path = checkpoint_path(ctx.out_dir);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    // a run stopped under MPI keeps its ranks' checkpoints in .rank-K/ folders (docs/mpi.md)
    for (const auto& e : std::filesystem::directory_iterator(ctx.out_dir, ec))
      if (is_rank_folder(e.path().filename().string()))
        throw CaseError(path.string(), "",
                        "no checkpoint here: the run was stopped under MPI (its ranks' "
                        "checkpoints are in " +
                            e.path().filename().string() +
                            "/ and beside it): continue it with mpirun -np K granular run ... "
                            "--resume, on any number of ranks K");
    throw CaseError(path.string(), "",
                    "no checkpoint to resume from: run without --resume (with --force if the "
                    "folder holds the outputs of an unfinished run)");
  }
  io::CheckpointHeader h;
  try {
    h = io::read_checkpoint_header(path);
  } catch (const std::runtime_error& e) {
    throw CaseError("", "", e.what());
  }
  if (h.fingerprint != case_fingerprint(ctx.case_echo, ctx.request.packings))
    throw CaseError(path.string(), "",
                    "made by a different case or shard (its case echo or --packings differs; "
                    "run with --force instead of --resume to start afresh)");
}

}  // namespace granular::cases
