// How long a packing-ensemble run will take (granular validate; docs/outputs.md, "Estimates"):
// its particle-steps (disks × steps), and the wall time on the chosen backend and threads from a
// short calibration of the case's own packings, which writes nothing: the rate of steady slices
// after a warm-up, and the band of the slices' rates. Everything printed is a function of the
// case and the options, except the measured rates, times and the number of slices.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <fstream>
#include <optional>
#include <utility>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "granular/cases/packing_ensemble.hpp"
#include "granular/md/backend.hpp"

namespace granular::cases {

namespace {

using Clock = std::chrono::steady_clock;

// The calibration's stepping [s of wall time]: a warm-up, not counted (the threads' start, the
// first neighbour lists, cold caches; slices from one step, doubling), then the measured slices
// of about kSliceSeconds each, for kMeasureSeconds in all. A rate from the warm-up's tiny slices
// is the start-up's, not the run's: a run takes slices of half a second.
constexpr double kWarmupSeconds = 0.1;
constexpr double kSliceSeconds = 0.04;
constexpr double kMeasureSeconds = 0.4;

// How the machine is shared (measure_cpu_share): one packing stepped on one thread for
// kShareSeconds of wall time; below kShared of its ready time on a CPU, the machine counts as
// shared.
constexpr double kShareSeconds = 0.3;
constexpr double kShared = 0.8;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// "45 s", "12 min", "3.2 h", "2.5 days": the format and the scale from seconds.
struct DurationText {
  const char* format;
  double scale;
};
DurationText duration_text(double s) {
  if (s < 10.0) return {"%.2g s", 1.0};
  if (s < 120.0) return {"%.0f s", 1.0};
  if (s < 7200.0) return {"%.3g min", 1.0 / 60.0};
  if (s < 172800.0) return {"%.3g h", 1.0 / 3600.0};
  return {"%.3g days", 1.0 / 86400.0};
}

// The most disks of a calibration packing. A bigger packing is calibrated on this many of its
// disks, every (N/this)-th in label order so that every species keeps its share, in the same
// box: the bed is as wide and as dense, only shallower (building all 2·10⁷ disks of a packing
// took validate two minutes). The estimate then assumes the bigger bed's rate per
// particle-step (docs/outputs.md, "Estimates").
constexpr int kMaxCalibrationDisks = 100000;

// Packing p's radii, or kMaxCalibrationDisks of them evenly drawn.
std::vector<double> calibration_radii(const md::EnsembleModel& m, int p) {
  const int first = m.offset[p];
  const int n = m.offset[p + 1] - first;
  if (n <= kMaxCalibrationDisks) return {m.radius.begin() + first, m.radius.begin() + first + n};
  std::vector<double> radii(kMaxCalibrationDisks);
  for (int k = 0; k < kMaxCalibrationDisks; ++k)
    radii[k] =
        m.radius[first + static_cast<int>(static_cast<long long>(k) * n / kMaxCalibrationDisks)];
  return radii;
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
    if (m.packing_size(p) <= kMaxCalibrationDisks) {
      s.model.add_packing_of(m, p, c.areal_density);  // with its bottom layer, if any
    } else {
      // a big bed's sample: its disks renumbered, so without prescribed bodies (a bottom layer
      // is a few disks of its hundred thousand)
      md::PackingParams params = m.packings[p];
      params.body_first = params.body_count = 0;
      s.model.add_packing(params, calibration_radii(m, p), c.areal_density);
    }
    s.gamma_values.push_back(m.packings[p].gamma);
  }
  return s;
}

// What the calibration measured: the build, and the rate of each measured slice
// [particle-steps/s].
struct Calibration {
  double build_s = 0.0;
  std::vector<double> slice_rates;
  double rate = 0.0;  // of all measured slices together
};

Calibration calibrate(const md::EnsembleCase& cal, md::Backend& backend) {
  const md::EnsembleModel& m = cal.model;
  const double disks = static_cast<double>(m.n_disks());
  Calibration c;
  const Clock::time_point start = Clock::now();
  md::EnsembleState s = md::build_ensemble_state(cal, backend);
  c.build_s = seconds_since(start);

  // one slice, timed to its end (the download waits for a device)
  const auto slice = [&](std::int64_t steps) {
    const Clock::time_point t = Clock::now();
    backend.advance_resident(m, s, steps);
    backend.download(s, md::Backend::Download::observed);
    return seconds_since(t);
  };
  std::int64_t steps = 1;
  double took = slice(steps);
  const Clock::time_point warmup = Clock::now();
  while (took < kSliceSeconds && seconds_since(warmup) < kWarmupSeconds) {
    steps *= 2;
    took = slice(steps);
  }
  double all_steps = 0.0, all_seconds = 0.0;
  const Clock::time_point measure = Clock::now();
  while (seconds_since(measure) < kMeasureSeconds) {
    // about kSliceSeconds at the last slice's pace, at most twice its steps
    const double wanted = took > 0.0 ? steps * kSliceSeconds / took : 2.0 * steps;
    steps = static_cast<std::int64_t>(std::clamp(wanted, 1.0, 2.0 * steps));
    took = slice(steps);
    if (took <= 0.0) continue;
    c.slice_rates.push_back(disks * steps / took);
    all_steps += steps;
    all_seconds += took;
  }
  c.rate = all_seconds > 0.0 ? disks * all_steps / all_seconds : 0.0;
  return c;
}

// The processors this process may run on.
int processors() {
#ifdef _OPENMP
  return omp_get_num_procs();
#else
  return 1;
#endif
}

// The time this thread has run on a CPU and the time it has waited, ready, for one [s]
// (Linux's /proc/thread-self/schedstat); nothing where the kernel does not keep them.
std::optional<std::array<double, 2>> thread_ran_and_waited() {
  std::ifstream f("/proc/thread-self/schedstat");
  double ran_ns = 0.0, waited_ns = 0.0;
  if (!(f >> ran_ns >> waited_ns)) return std::nullopt;
  return std::array<double, 2>{ran_ns * 1e-9, waited_ns * 1e-9};
}

// How the machine's other work shares the CPUs with this process: one packing stepped on this
// thread alone (no other thread to wait for), its rate per second on a CPU and the share of
// the time it was ready to run that it ran (a niced process beside busy ones: a tenth).
struct CpuShare {
  double cpu_rate = 0.0;  // particle-steps per second of CPU time
  double share = 1.0;
};

std::optional<CpuShare> measure_cpu_share(const md::EnsembleCase& c) {
  const md::EnsembleCase one = calibration_case(c, 1);
  auto backend = md::make_cpu_backend(1);  // one thread: the calling one
  md::EnsembleState s = md::build_ensemble_state(one, *backend);
  backend->advance_resident(one.model, s, 1);  // the first neighbour lists, cold caches
  const auto before = thread_ran_and_waited();
  if (!before) return std::nullopt;
  std::int64_t steps = 0;
  const Clock::time_point start = Clock::now();
  for (std::int64_t chunk = 1; seconds_since(start) < kShareSeconds; chunk *= 2) {
    backend->advance_resident(one.model, s, chunk);
    steps += chunk;
  }
  const auto after = thread_ran_and_waited();
  const double ran = (*after)[0] - (*before)[0];
  const double waited = (*after)[1] - (*before)[1];
  if (ran <= 0.0 || waited < 0.0) return std::nullopt;
  return CpuShare{static_cast<double>(one.model.n_disks()) * steps / ran, ran / (ran + waited)};
}

}  // namespace

void PackingEnsemble::estimate(const RunContext& ctx, Description& d) const {
  std::ostream& out = d.out;
  if (ed_) {
    out << "estimate: none for the event-driven method (its cost follows the collisions, not a "
           "step count)\n";
    return;
  }
  if (collisions_) {
    out << "estimate: none for a collision record (one step at a time, every pair followed: about "
           "2 s of wall time per 60-disk packing and simulated second measured on one core, "
           "docs/ed.md)\n";
    return;
  }
  const md::EnsembleModel& m = c_.model;
  const std::int64_t steps = md::plan_run(c_.schedule, m.dt).steps.total();
  const double work = static_cast<double>(steps) * m.n_disks();
  d.group("work");
  out << "work: " << d.count("steps", steps) << " steps × " << d.count("disks", m.n_disks())
      << " disks = " << d.large_count("particle_steps", work, "%.4g") << " particle-steps\n";

  // several packings per thread, as a sweep gives them
#ifdef _OPENMP
  const int threads = ctx.request.threads > 0 ? ctx.request.threads : omp_get_max_threads();
#else
  const int threads = 1;
#endif
  const int n =
      ctx.request.backend == "cuda" ? m.n_packings() : std::min(m.n_packings(), 8 * threads);
  auto backend =
      ctx.request.backend == "cuda" ? md::make_cuda_backend() : md::make_cpu_backend(threads);
  const bool cpu = ctx.request.backend != "cuda";
  const std::optional<CpuShare> shared = cpu ? measure_cpu_share(c_) : std::nullopt;
  const md::EnsembleCase calibration = calibration_case(c_, n);
  const Calibration cal = calibrate(calibration, *backend);

  // building scales with the disks, stepping with the particle-steps; the band is the spread
  // of the slices' rates (a machine's other work shows in it)
  const double build = cal.build_s * m.n_disks() / static_cast<double>(calibration.model.n_disks());
  const auto wall = [&](double rate) { return build + (rate > 0.0 ? work / rate : 0.0); };
  auto [slowest, fastest] =
      cal.slice_rates.empty()
          ? std::pair<double, double>{cal.rate, cal.rate}
          : std::pair<double, double>{
                *std::min_element(cal.slice_rates.begin(), cal.slice_rates.end()),
                *std::max_element(cal.slice_rates.begin(), cal.slice_rates.end())};
  // On a shared machine the threads of a short calibration, each run a fraction of the time
  // and rarely together, mostly wait for each other at the step's barriers (a niced demo
  // beside two busy processes: calibrations 3 to 1000 times slower than the run, docs/outputs.md
  // "Estimates"); over a long run the scheduler gives each thread its share. So there the run
  // is estimated at one thread's rate per CPU second × the threads × that share.
  const CpuShare share = shared.value_or(CpuShare{});
  const bool use_share = shared.has_value() && share.share < kShared;
  const double rate =
      use_share ? share.cpu_rate * std::min(threads, processors()) * share.share : cal.rate;
  const double estimate = wall(rate);
  // the band in the estimate's unit: the slices' and the estimate's
  slowest = std::min(slowest, rate);
  fastest = std::max(fastest, rate);
  const DurationText unit = duration_text(estimate);
  const auto duration = [&](const std::string& key, double s) {
    return d.number(key, s, unit.format, "s", unit.scale);
  };
  d.group("estimate");
  out << "estimate: about " << duration("wall_time", estimate) << " of wall time on "
      << d.word("backend", backend->name())
      << (ctx.request.backend == "cuda" ? ""
                                        : " with " + d.count("threads", threads) + " thread(s)")
      << ", " << duration("wall_time_low", wall(fastest)) << " to "
      << duration("wall_time_high", wall(slowest)) << "\n";
  out << "calibration: " << d.count("calibration_packings", n) << " packing(s)";
  if (m.packing_size(0) > kMaxCalibrationDisks)
    out << " of " << d.count("calibration_disks_per_packing", kMaxCalibrationDisks)
        << " disks, drawn evenly from their " << d.count("disks_per_packing", m.packing_size(0))
        << " (the same box, shallower)";
  out << " built in " << d.number("build_time", cal.build_s, "%.2g", "s") << " s, stepped "
      << d.count("slices", static_cast<std::int64_t>(cal.slice_rates.size()))
      << " slice(s) after a warm-up: " << d.number("rate", cal.rate, "%.3g", "particle-steps/s")
      << " particle-steps/s, slices " << d.number("rate_low", slowest, "%.3g", "particle-steps/s")
      << " to " << d.number("rate_high", fastest, "%.3g", "particle-steps/s") << "\n";
  if (!cpu) return;
  out << "cpu share: ";
  if (!shared) {
    out << "unknown (no /proc/thread-self/schedstat); the estimate is the calibration's rate\n";
    return;
  }
  out << "one thread ran " << d.number("cpu_share", 100.0 * share.share, "%.3g", "%")
      << " % of the time it was ready, at "
      << d.number("cpu_rate", share.cpu_rate, "%.3g", "particle-steps/s")
      << " particle-steps/s of CPU time; "
      << (use_share ? "shared: the estimate assumes that share for every thread of the run"
                    : "the estimate is the calibration's rate")
      << "\n";
}

}  // namespace granular::cases
