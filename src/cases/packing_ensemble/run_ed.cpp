// run_packing_ensemble_ed: the packing ensemble by the event-driven method (md::ed, docs/ed.md)
// on CPU threads, into the outputs an MD run writes (docs/outputs.md), without checkpoints.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/output.hpp"
#include "granular/io/table.hpp"
#include "granular/md/ed/ensemble.hpp"
#include "granular/md/ed/restitution.hpp"
#include "outputs.hpp"

namespace granular::cases {

using io::json_count;
using io::json_number;

RunEnd run_packing_ensemble_ed(const md::EnsembleCase& c, const md::ed::EdOptions& ed,
                               const RunContext& ctx) {
  const OrQuiet progress_or_quiet(ctx.progress);
  std::ostream& progress = *progress_or_quiet;
  const md::EnsembleModel& m = c.model;
  // what an earlier run left (an MD checkpoint, a summary) must not sit next to new CSVs
  clear_earlier_run(ctx.out_dir);

  // the e_t tables before any file (every packing has the same laws and radii; the run finds
  // them in the process's cache): a law that the validation's probes could not fault fails
  // here, with nothing written
  if (impulse::uses_table(ed.tangential) && m.n_packings() > 0)
    md::ed::make_restitution_set(
        m.packings[0].disk_disk, m.packings[0].disk_wall,
        std::vector<double>(m.radius.begin() + m.offset[0], m.radius.begin() + m.offset[1]),
        c.areal_density, ed.tangential);

  // the same streams as an MD run: every packing's energy at every chunk end, θ of the first
  // packing of every Γ at every sample
  io::TableStream energy_csv(ctx.out_dir, energy_table(), std::nullopt);
  io::TableStream angles_csv(ctx.out_dir, angles_table(), std::nullopt);
  md::ed::EdObserver observer;
  const PackingIndex same = [](int p) { return p; };
  observer.on_energy = [&](double t, md::RunPhase, const std::vector<md::PackingEnergy>& e) {
    write_energy_rows(energy_csv, t, m, e, same);
  };
  observer.on_sample = [&](double t, const std::vector<double>& theta) {
    write_angle_rows(angles_csv, t, m, c.packings_per_gamma, theta.data(), same);
  };
  // a line about every 5 % of the simulated time
  double next_report = 0.0;
  const auto started = std::chrono::steady_clock::now();
  observer.on_progress = [&](md::RunPhase phase, double t, double fraction, double events) {
    if (fraction < next_report && fraction < 1.0) return;
    while (next_report <= fraction) next_report += 0.05;
    if (ctx.on_progress) {
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      ctx.on_progress({name_of(md::run_phase_names, phase), t, fraction, NAN, events, elapsed,
                       fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : NAN});
    }
    char line[160];
    std::snprintf(line, sizeof line, "[%-9s] t = %10.4f s  %5.1f %%  %.4g events\n",
                  name_of(md::run_phase_names, phase), t, 100.0 * fraction, events);
    progress << '\r' << line << std::flush;  // a periodic line (RunContext::progress)
  };

  const md::ed::EdResult r = md::ed::run_ensemble_ed(c, ed, ctx.request.threads, observer);
  energy_csv.close();
  angles_csv.close();

  // the event counts, per packing and in all
  std::vector<nlohmann::json> counts;
  double events = 0.0;
  for (const md::ed::EventCounts& k : r.counts) {
    counts.push_back({{"events", k.total()},
                      {"disk_disk", k.disk_disk},
                      {"side_wall", k.side_wall},
                      {"bottom", k.bottom},
                      {"fbrpa_rejections", k.rejections}});
    events += static_cast<double>(k.total());
  }
  const md::EnsembleResult& e = r.ensemble;
  nlohmann::json keys;
  keys["method"] = "ed";
  keys["tangential"] = name_of(impulse::tangential_rule_names, ed.tangential);
  keys["dt"] = nullptr;  // no time step: steps and particle steps do not apply
  keys["sample_interval"] = json_number(e.sample_interval);
  keys["steps"] = nullptr;
  keys["particle_steps"] = nullptr;
  keys["particle_steps_per_s"] = nullptr;
  keys["events"] = json_count(events);
  keys["events_per_s"] = json_number(e.advance_time_s > 0.0 ? events / e.advance_time_s : 0.0);
  keys["wall_time_s"] = json_number(e.wall_time_s);
  keys["advance_time_s"] = json_number(e.advance_time_s);
  keys["threads"] = threads_used(ctx.request.threads);
  keys["backend"] = e.backend;
  write_ensemble_results(c, e, ctx, keys, counts);
  return RunEnd::complete;
}

}  // namespace granular::cases
