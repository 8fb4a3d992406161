// run_collision_record: the contact episodes of an MD packing ensemble's measurement window set
// beside the event-driven rules' prediction (Peraza-Mues 2018, §2.3.1: the rules "reproduce
// post-collision velocities obtained in MD simulations when ... Γ is larger than 1"; docs/ed.md,
// "Collisions in MD packings"). The packings settle and pass the transient as any MD run, then
// step one step at a time while md::ContactEpisodes follows every contact. collisions.csv holds
// the isolated ones (neither body touched anything else meanwhile: the rules' premise),
// summary.json the counts and errors per Γ. No checkpoint; the run is not resumable.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "granular/cases/packing_ensemble.hpp"
#include "granular/io/file_record.hpp"
#include "granular/io/output.hpp"
#include "granular/io/table.hpp"
#include "granular/md/backend.hpp"
#include "granular/md/contact_episodes.hpp"
#include "granular/md/ed/restitution.hpp"
#include "granular/md/ensemble/run.hpp"
#include "outputs.hpp"

namespace granular::cases {

using io::json_number;

namespace {

// Steps between two looks at the stop request while settling.
constexpr std::int64_t settle_slice = 10000;

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

const io::TableSpec& collisions_table() {
  static const io::TableSpec t{
      "collisions.csv",
      "one row per isolated collision of the measurement window (neither body touched anything "
      "else while they touched); velocities of the contact point of a relative to b, in the "
      "normal of the first touch",
      {{"gamma", "-", "Γ of the packing"},
       {"packing", "-", "packing index"},
       {"a", "-", "disk index within the packing"},
       {"b", "-", "the other disk, or -1, -2, -3: the left, right, bottom wall"},
       {"t", "s", "time of the first overlapping step"},
       {"steps", "-", "steps in contact"},
       {"u_n", "m/s", "normal closing speed before (> 0)"},
       {"u_t", "m/s", "tangential velocity before"},
       {"u_n_after", "m/s", "normal velocity after (< 0: separating)"},
       {"u_t_after", "m/s", "tangential velocity after"},
       {"u_n_rule", "m/s", "the rule's: -e_n u_n"},
       {"u_t_rule", "m/s", "the rule's: e_t(abs(u_t / u_n)) u_t"},
       {"error", "-", "norm of (u_after - u_rule) over the norm of (u_n, u_t)"}}};
  return t;
}

RunEnd run_collision_record(const md::EnsembleCase& c, const CollisionRecord& record,
                            const RunContext& ctx) {
  const OrQuiet progress_or_quiet(ctx.progress);
  std::ostream& progress = *progress_or_quiet;
  const md::EnsembleModel& m = c.model;
  clear_earlier_run(ctx.out_dir);
  // every packing has the same laws and radii: one set of restitutions, before any file
  const md::ed::RestitutionSet rules = md::ed::make_restitution_set(
      m.packings[0].disk_disk, m.packings[0].disk_wall,
      std::vector<double>(m.radius.begin() + m.offset[0], m.radius.begin() + m.offset[1]),
      c.areal_density, record.tangential);

  auto backend = ctx.request.backend == "cuda" ? md::make_cuda_backend()
                                               : md::make_cpu_backend(ctx.request.threads);
  const auto started = std::chrono::steady_clock::now();
  md::EnsembleState s = md::build_ensemble_state(c, *backend);
  const md::RunSteps plan = md::plan_run(c.schedule, m.dt).steps;
  const std::int64_t before = plan.settle_steps + plan.transient_steps;
  const std::int64_t measured = plan.measure_steps();
  const auto stopped = [&]() { return ctx.request.control.stop && ctx.request.control.stop(); };
  for (std::int64_t done = 0; done < before;) {
    const std::int64_t steps = std::min(settle_slice, before - done);
    backend->advance_resident(m, s, steps);
    done += steps;
    if (stopped()) return RunEnd::interrupted;  // nothing written: a fresh run starts over
  }
  backend->download(s, md::Backend::Download::everything);

  // per Γ: every contact that ended, the isolated ones, and how near the rules come to them;
  // each step's ended contacts are taken in at once (a long record holds millions)
  const int n_gamma = static_cast<int>(c.gamma_values.size());
  std::vector<double> ended(n_gamma, 0.0), isolated(n_gamma, 0.0), matched(n_gamma, 0.0);
  std::vector<std::vector<double>> errors(n_gamma), pair_errors(n_gamma), wall_errors(n_gamma);
  io::TableStream csv(ctx.out_dir, collisions_table());
  const auto take = [&](const md::ContactEpisode& e) {
    const int g = e.packing / c.packings_per_gamma;
    ended[g] += 1.0;
    if (!e.isolated) return;
    const int first = m.offset[e.packing];
    const md::ed::Restitution& rule =
        e.b >= 0 ? rules.pair(e.a - first, e.b - first) : rules.wall(e.a - first);
    const double u_n = -rule.e_n * e.u_n;
    const double u_t = rule.e_t(std::fabs(e.u_t / e.u_n)) * e.u_t;
    const double error =
        std::hypot(e.u_n_after - u_n, e.u_t_after - u_t) / std::hypot(e.u_n, e.u_t);
    isolated[g] += 1.0;
    matched[g] += error <= record.tolerance ? 1.0 : 0.0;
    errors[g].push_back(error);
    (e.b >= 0 ? pair_errors : wall_errors)[g].push_back(error);
    csv.num(m.packings[e.packing].gamma).integer(e.packing).integer(e.a - first);
    csv.integer(e.b >= 0 ? e.b - first : e.b).num(e.t_start).integer(e.steps);
    csv.num(e.u_n).num(e.u_t).num(e.u_n_after).num(e.u_t_after).num(u_n).num(u_t).num(error);
    csv.end_row();
  };

  md::ContactEpisodes tracker(m, s);
  std::vector<md::ContactEpisode> closed;
  double contacts_ended = 0.0;
  std::int64_t next_report = 0;
  for (std::int64_t k = 1; k <= measured; ++k) {
    backend->advance_resident(m, s, 1);
    backend->download(s, md::Backend::Download::observed);
    closed.clear();
    tracker.observe(m, s, closed);
    for (const md::ContactEpisode& e : closed) take(e);
    contacts_ended += static_cast<double>(closed.size());
    if (k >= next_report || k == measured) {
      next_report += std::max<std::int64_t>(1, measured / 20);
      const double elapsed =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      const double fraction =
          static_cast<double>(before + k) / static_cast<double>(before + measured);
      if (ctx.on_progress)
        ctx.on_progress({"measure", s.time(m), fraction, NAN, contacts_ended, elapsed,
                         elapsed * (1.0 - fraction) / fraction});
      // a periodic line (RunContext::progress)
      progress << "\r[collisions] t = " << io::format_value("%.4f", s.time(m)) << " s  "
               << io::format_value("%5.1f", 100.0 * fraction) << " %  "
               << io::format_value("%.0f", contacts_ended) << " contacts ended\n"
               << std::flush;
      if (stopped()) return RunEnd::interrupted;
    }
  }
  csv.close();
  backend->download(s, md::Backend::Download::everything);

  nlohmann::json j = io::summary_header("packing_ensemble", ctx.case_echo, {collisions_table()});
  j["method"] = "md";
  j["gamma_values"] = numbers(c.gamma_values);
  j["packings_per_gamma"] = c.packings_per_gamma;
  j["dt"] = json_number(m.dt);
  j["tolerance"] = record.tolerance;
  std::vector<double> isolated_fraction, matched_fraction, median_error, median_pair_error,
      median_wall_error;
  for (int g = 0; g < n_gamma; ++g) {
    isolated_fraction.push_back(ended[g] > 0.0 ? isolated[g] / ended[g] : NAN);
    matched_fraction.push_back(isolated[g] > 0.0 ? matched[g] / isolated[g] : NAN);
    median_error.push_back(median(errors[g]));
    median_pair_error.push_back(median(pair_errors[g]));
    median_wall_error.push_back(median(wall_errors[g]));
  }
  j["contacts_ended"] = numbers(ended);
  j["isolated_collisions"] = numbers(isolated);
  j["isolated_fraction"] = numbers(isolated_fraction);
  j["matched_fraction"] = numbers(matched_fraction);
  j["median_error"] = numbers(median_error);
  j["median_pair_error"] = numbers(median_pair_error);
  j["median_wall_error"] = numbers(median_wall_error);
  nlohmann::json packings = nlohmann::json::array();
  for (int p = 0; p < m.n_packings(); ++p)
    packings.push_back({{"index", p},
                        {"gamma", json_number(m.packings[p].gamma)},
                        {"status", md::status_name(s.status[p])}});
  j["packings"] = std::move(packings);
  j["backend"] = backend->name();
  j["threads"] = threads_used(ctx.request.threads);
  j["files"] = io::record_files(ctx.out_dir, {collisions_table().file});
  io::write_json_atomic(ctx.out_dir / "summary.json", j);
  if (ctx.report) {
    *ctx.report << "     Gamma  contacts  isolated  matched  median error\n";
    for (int g = 0; g < n_gamma; ++g)
      *ctx.report << io::format_value("%10.4g", c.gamma_values[g])
                  << io::format_value("%10.0f", ended[g]) << io::format_value("%10.0f", isolated[g])
                  << io::format_value("%9.3f", matched_fraction[g])
                  << io::format_value("%14.4f", median_error[g]) << "\n";
  }
  return RunEnd::complete;
}

}  // namespace granular::cases
