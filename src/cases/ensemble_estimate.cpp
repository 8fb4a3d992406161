// How long a packing-ensemble run will take (granular validate; docs/outputs.md, "Estimates"):
// its particle-steps (disks × steps), and the wall time on the chosen backend and threads from a
// short calibration run of the case's own packings, which writes nothing. Everything printed is
// a function of the case and the options, except the measured rates and times.
#include <algorithm>
#include <chrono>
#include <cmath>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "granular/cases/ensemble.hpp"
#include "granular/md/backend.hpp"

namespace granular::cases {

namespace {

using Clock = std::chrono::steady_clock;

// Wall time the calibration steps for, after building its packings [s].
constexpr double kCalibrationSeconds = 0.4;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// "45 s", "12 min", "3.2 h", "2.5 days": the format and the scale from seconds.
struct DurationText {
  const char* format;
  double scale;
};
DurationText duration_text(double s) {
  if (s < 120.0) return {"%.2g s", 1.0};
  if (s < 7200.0) return {"%.3g min", 1.0 / 60.0};
  if (s < 172800.0) return {"%.3g h", 1.0 / 3600.0};
  return {"%.3g days", 1.0 / 86400.0};
}

// The first n packings of c taken Γ by Γ in turn (packing r of every Γ before packing r + 1),
// so that the calibration sees the drives of the sweep; one "Γ" each, as run_ensemble counts.
md::EnsembleCase calibration_case(const md::EnsembleCase& c, int n) {
  md::EnsembleCase s;
  s.schedule = c.schedule;
  s.areal_density = c.areal_density;
  s.packings_per_gamma = 1;
  const md::EnsembleModel& m = c.model;
  s.model.integrator = m.integrator;
  s.model.dt = m.dt;
  s.model.neighbor = m.neighbor;
  const int n_gamma = static_cast<int>(c.gamma_values.size());
  for (int j = 0; j < n; ++j) {
    const int p = j % n_gamma * c.packings_per_gamma + j / n_gamma;
    const std::vector<double> radii(m.radius.begin() + m.offset[p],
                                    m.radius.begin() + m.offset[p + 1]);
    s.model.add_packing(m.packings[p], radii, c.areal_density);
    s.gamma_values.push_back(m.packings[p].gamma);
  }
  return s;
}

}  // namespace

void PackingEnsemble::estimate(const RunContext& ctx, Description& d) const {
  std::ostream& out = d.out;
  if (ed_) {
    out << "estimate: none for the event-driven method (its cost follows the collisions, not a "
           "step count)\n";
    return;
  }
  const md::EnsembleModel& m = c_.model;
  const double steps = static_cast<double>(md::plan_run(c_.schedule, m.dt).steps.total());
  const double work = steps * m.n_disks();
  d.group("work");
  out << "work: " << d.number("steps", steps, "%.6g") << " steps × "
      << d.count("disks", m.n_disks()) << " disks = " << d.number("particle_steps", work, "%.4g")
      << " particle-steps\n";

  // several packings per thread, as a sweep gives them
#ifdef _OPENMP
  const int threads = ctx.threads > 0 ? ctx.threads : omp_get_max_threads();
#else
  const int threads = 1;
#endif
  const int n = ctx.backend == "cuda" ? m.n_packings() : std::min(m.n_packings(), 8 * threads);
  const md::EnsembleCase cal = calibration_case(c_, n);
  auto backend = ctx.backend == "cuda" ? md::make_cuda_backend() : md::make_cpu_backend(threads);

  // the packings are built before the first slice: the clock of the steps starts there
  const Clock::time_point start = Clock::now();
  double build_s = -1.0;
  md::EnsembleObserver observer;
  observer.on_energy = [](double, md::RunPhase, const std::vector<md::PackingEnergy>&) {};
  md::EnsembleRunOptions options;
  options.checkpoint_interval = 0.0;
  options.poll_interval_s = 0.05;
  options.stop = [&] {
    if (build_s < 0.0) build_s = seconds_since(start);
    return seconds_since(start) - build_s > kCalibrationSeconds;
  };
  const md::EnsembleResult r = md::run_ensemble(cal, *backend, observer, options);
  const double step_s = r.wall_time_s - std::max(build_s, 0.0);
  const double rate = step_s > 0.0 ? r.particle_steps / step_s : 0.0;
  // building scales with the packings, stepping with the particle-steps
  const double seconds =
      std::max(build_s, 0.0) * m.n_packings() / n + (rate > 0.0 ? work / rate : 0.0);
  const DurationText wall = duration_text(seconds);
  d.group("estimate");
  out << "estimate: about " << d.number("wall_time", seconds, wall.format, "s", wall.scale)
      << " of wall time on " << d.word("backend", backend->name())
      << (ctx.backend == "cuda" ? "" : " with " + d.count("threads", threads) + " thread(s)")
      << " (calibration on " << d.count("calibration_packings", n)
      << " packing(s): " << d.number("rate", rate, "%.3g", "particle-steps/s")
      << " particle-steps/s, " << d.number("build_time", std::max(build_s, 0.0), "%.2g", "s")
      << " s to build them)\n";
}

}  // namespace granular::cases
