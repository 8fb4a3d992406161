#include "granular/md/ensemble/run.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "granular/md/packing.hpp"

namespace granular::md {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void check_case(const EnsembleCase& c) {
  check_ensemble_sweep(c, "run_ensemble");
  if (!(c.model.dt > 0.0)) throw std::invalid_argument("run_ensemble: dt must be > 0");
  if (!plan_run(c.schedule, c.model.dt).ok) {
    throw std::invalid_argument("run_ensemble: the run takes more than max_run_steps steps");
  }
}

// A checkpoint fits the case when its arrays have the model's sizes and its position lies on
// the case's schedule: read_checkpoint checks the file, this the struct handed to the run.
template <class PhaseSteps>
std::string resume_defect(const EnsembleCase& c, const ResumePoint& r, std::int64_t total_steps,
                          std::int64_t chunk, PhaseSteps phase_steps) {
  const EnsembleModel& m = c.model;
  const RunPosition& pos = r.position;
  const std::size_t n = static_cast<std::size_t>(m.n_disks());
  if (r.state.x.size() != n || r.rotation.size() != n ||
      r.state.status.size() != static_cast<std::size_t>(m.n_packings())) {
    return "has other array sizes than the case";
  }
  if (pos.phase < 0 || pos.phase > 2 || pos.phase_steps_left < 0 ||
      pos.phase_steps_left > phase_steps(pos.phase)) {
    return "is at a position outside the case's schedule";
  }
  std::int64_t expected = phase_steps(pos.phase) - pos.phase_steps_left;
  for (int k = 0; k < pos.phase; ++k) expected += phase_steps(k);
  if (pos.steps_done != expected || r.state.step != expected || expected >= total_steps ||
      r.state.t0 != -c.schedule.settle_time) {
    return "does not lie on the case's schedule (another dt or run schedule)";
  }
  // the rotation samples so far: one at the measurement's start, one per chunk end since, for
  // every disk of a healthy packing (a failed one stopped sampling)
  const std::int64_t samples =
      pos.phase < 2 ? 0 : 1 + (phase_steps(2) - pos.phase_steps_left) / chunk;
  // taken at the state's times of the measurement's start and of its latest chunk end
  const std::int64_t start = phase_steps(0) + phase_steps(1);
  const auto time_at = [&](std::int64_t step) {
    return r.state.t0 + static_cast<double>(step) * m.dt;
  };
  for (int p = 0; p < m.n_packings(); ++p)
    for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
      const RotationStats& rot = r.rotation[i];
      const bool healthy = r.state.status[p] == status_ok;
      if (healthy ? rot.count != samples : rot.count > samples)
        return "holds " + std::to_string(rot.count) + " rotation samples of disk " +
               std::to_string(i) + " where its run took " + std::to_string(samples);
      if (healthy && samples > 0 &&
          (rot.t_first != time_at(start) || rot.t_last != time_at(start + (samples - 1) * chunk)))
        return "holds rotation samples of disk " + std::to_string(i) +
               " at other times than its run took them";
    }
  return "";
}

// The phases of a run, in the order a checkpoint numbers them (RunPhase).
struct Phase {
  RunPhase phase;
  std::int64_t steps;
};

std::array<Phase, 3> phases_of(const RunSteps& plan) {
  return {{{RunPhase::settle, plan.settle_steps},
           {RunPhase::transient, plan.transient_steps},
           {RunPhase::measure, plan.measure_steps()}}};
}

// Disks of the packings that still advance.
double healthy_disks(const EnsembleModel& m, const EnsembleState& s) {
  double n = 0.0;
  for (int p = 0; p < m.n_packings(); ++p) {
    if (s.status[p] == status_ok) n += m.packing_size(p);
  }
  return n;
}

// Progress: about every 5 % of the steps or every 10 s of wall time.
class ProgressReporter {
 public:
  ProgressReporter(std::function<void(const RunProgress&)> out, std::int64_t total_steps)
      : out_(std::move(out)), total_(std::max<std::int64_t>(total_steps, 1)), last_(Clock::now()) {}

  void update(RunPhase phase, double t, std::int64_t done, double particle_steps,
              double advance_time_s, bool force) {
    if (!out_) return;
    const double fraction = static_cast<double>(done) / static_cast<double>(total_);
    if (!force && fraction < next_ && seconds_since(last_) < 10.0) return;
    while (next_ <= fraction) next_ += 0.05;
    last_ = Clock::now();
    const double rate = advance_time_s > 0.0 ? particle_steps / advance_time_s : 0.0;
    out_({phase, t, fraction, rate});
  }

 private:
  std::function<void(const RunProgress&)> out_;
  std::int64_t total_;
  double next_ = 0.05;
  Clock::time_point last_;
};

// How many steps to advance before the run looks at its stop flag, progress and checkpoint
// clock again: options.control.slice_steps when set, else as many as take about poll_interval_s of
// wall time at the rate of the last slice (starting from one step, at most doubling).
class SliceTimer {
 public:
  explicit SliceTimer(const RunControl& o) : fixed_(o.slice_steps), target_s_(o.poll_interval_s) {}

  std::int64_t steps() const { return fixed_ > 0 ? fixed_ : next_; }

  void took(std::int64_t steps, double seconds) {
    if (fixed_ > 0) return;
    const double wanted = seconds > 0.0 ? static_cast<double>(steps) * target_s_ / seconds
                                        : 2.0 * static_cast<double>(steps);
    const double most = 2.0 * static_cast<double>(std::max(steps, next_));
    next_ = static_cast<std::int64_t>(std::max(1.0, std::min(wanted, most)));
  }

 private:
  std::int64_t fixed_;
  double target_s_;
  std::int64_t next_ = 1;
};

}  // namespace

// Initial positions of every packing (build_bed), concatenated (n_disks each).
void build_layouts(const EnsembleModel& m, std::vector<double>& x, std::vector<double>& y) {
  x.clear();
  y.clear();
  for (int p = 0; p < m.n_packings(); ++p) {
    const std::vector<double> radii(m.radius.begin() + m.offset[p],
                                    m.radius.begin() + m.offset[p + 1]);
    const PackingLayout layout = build_bed(radii, m.packings[p].box_width, m.packings[p].seed);
    x.insert(x.end(), layout.x.begin(), layout.x.end());
    y.insert(y.end(), layout.y.begin(), layout.y.end());
  }
}

void sample_rotation(const EnsembleModel& m, const EnsembleState& s,
                     std::vector<RotationStats>& rotation) {
  const double t = s.time(m);
  for (int p = 0; p < m.n_packings(); ++p) {
    if (s.status[p] != status_ok) continue;
    for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) add_sample(rotation[i], t, s.theta[i]);
  }
}

EnsembleState build_ensemble_state(const EnsembleCase& c, Backend& backend) {
  check_case(c);
  const EnsembleModel& m = c.model;
  std::vector<double> x0, y0;
  build_layouts(m, x0, y0);
  EnsembleState s = make_state(m, x0, y0, -c.schedule.settle_time);
  backend.initialize(m, s);
  return s;
}

void check_ensemble_sweep(const EnsembleCase& c, const std::string& who) {
  const std::size_t expected =
      c.gamma_values.size() * static_cast<std::size_t>(c.packings_per_gamma);
  if (c.packings_per_gamma < 1 || static_cast<std::size_t>(c.model.n_packings()) != expected) {
    throw std::invalid_argument(who + ": the model has " + std::to_string(c.model.n_packings()) +
                                " packings, the case expects gamma_values x packings_per_gamma = " +
                                std::to_string(expected));
  }
  if (!(c.schedule.sample_interval > 0.0))
    throw std::invalid_argument(who + ": sample_interval must be > 0");
}

PackingResult packing_result(const EnsembleCase& c, int p, std::uint32_t status,
                             const std::vector<RotationStats>& rotation) {
  const EnsembleModel& m = c.model;
  PackingResult r{
      p, p / c.packings_per_gamma, m.packings[p].gamma, m.packings[p].seed, status, {}, {}, {}};
  for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
    r.omega_bar.push_back(mean_omega(rotation[i]));
    r.rho2.push_back(rho2(rotation[i]));
    r.sigma_a.push_back(sigma_a(rotation[i]));
  }
  return r;
}

std::vector<PackingResult> packing_results(const EnsembleCase& c, const EnsembleState& s,
                                           const std::vector<RotationStats>& rotation) {
  std::vector<PackingResult> out;
  for (int p = 0; p < c.model.n_packings(); ++p)
    out.push_back(packing_result(c, p, s.status[p], rotation));
  return out;
}

PlannedRun plan_run(const RunSchedule& schedule, double dt) {
  // counted in floating point first: a case can ask for more steps than 64 bits hold
  const double sample = std::max(1.0, std::round(schedule.sample_interval / dt));
  const double settle = std::max(0.0, std::round(schedule.settle_time / dt));
  const double transient = std::max(0.0, std::round(schedule.transient_time / dt));
  const double chunks = std::max(1.0, std::round(schedule.measure_time / (sample * dt)));
  PlannedRun plan{};
  plan.total_steps = settle + transient + chunks * sample;
  plan.ok = plan.total_steps <= max_run_steps;  // false for NaN too
  if (plan.ok) {
    plan.steps = {static_cast<std::int64_t>(sample), static_cast<std::int64_t>(settle),
                  static_cast<std::int64_t>(transient), static_cast<std::int64_t>(chunks)};
  }
  return plan;
}

std::string status_name(std::uint32_t status) {
  if (status == status_ok) return "ok";
  std::string name;
  const auto add = [&](std::uint32_t flag, const char* text) {
    if (!(status & flag)) return;
    if (!name.empty()) name += ',';
    name += text;
  };
  add(status_neighbor_overflow, "neighbor_overflow");
  add(status_contact_overflow, "contact_overflow");
  add(status_non_finite, "non_finite");
  add(status_outside_box, "outside_box");
  add(status_too_fast, "too_fast");
  add(status_inelastic_collapse, "inelastic_collapse");
  add(status_no_bounce, "no_bounce");
  return name;
}

std::vector<GammaStats> average_by_gamma(const EnsembleCase& c,
                                         const std::vector<PackingResult>& packings) {
  std::vector<GammaStats> out;
  for (std::size_t g = 0; g < c.gamma_values.size(); ++g) {
    GammaStats st{c.gamma_values[g], 0, 0, 0.0, 0.0, NAN, 0.0, 0.0};
    // sums over disks, and the per-packing means of ω̄² for the standard error
    double sum_sq = 0.0, sum_rho2 = 0.0, sum_sigma_a = 0.0;
    std::vector<double> packing_means;
    for (const PackingResult& r : packings) {
      if (r.gamma_index != static_cast<int>(g) || r.status != status_ok) continue;
      double packing_sq = 0.0;
      int observed = 0;
      for (std::size_t i = 0; i < r.omega_bar.size(); ++i) {
        // a prescribed disk (a bottom layer's) turns as its drive says: not a result
        if (c.model.inv_inertia[c.model.offset[r.index] + static_cast<int>(i)] == 0.0) continue;
        packing_sq += r.omega_bar[i] * r.omega_bar[i];
        sum_rho2 += r.rho2[i];
        sum_sigma_a += r.sigma_a[i];
        ++observed;
      }
      sum_sq += packing_sq;
      st.disks += observed;
      ++st.healthy_packings;
      packing_means.push_back(packing_sq / static_cast<double>(observed));
    }
    if (st.disks == 0) {
      st.mean_sq_omega = st.mean_sq_omega_rpm2 = st.mean_rho2 = st.mean_sigma_a = NAN;
      out.push_back(st);
      continue;
    }
    const double n = static_cast<double>(st.disks);
    st.mean_sq_omega = sum_sq / n;
    st.mean_sq_omega_rpm2 = st.mean_sq_omega * rpm2_per_rad2_s2;
    st.mean_rho2 = sum_rho2 / n;
    st.mean_sigma_a = sum_sigma_a / n;

    // standard error of the mean over packings (sample variance, k − 1)
    const std::size_t k = packing_means.size();
    if (k >= 2) {
      double mean = 0.0;
      for (double v : packing_means) mean += v;
      mean /= static_cast<double>(k);
      double var = 0.0;
      for (double v : packing_means) var += (v - mean) * (v - mean);
      var /= static_cast<double>(k - 1);
      st.mean_sq_omega_stderr = std::sqrt(var / static_cast<double>(k));
    }
    out.push_back(st);
  }
  return out;
}

std::string resume_defect(const EnsembleCase& c, const ResumePoint& r) {
  const RunSteps plan = plan_run(c.schedule, c.model.dt).steps;
  const std::array<Phase, 3> phases = phases_of(plan);
  return resume_defect(c, r, plan.total(), plan.sample_steps,
                       [&](int k) { return phases[k].steps; });
}

EnsembleResult run_ensemble(const EnsembleCase& c, Backend& backend,
                            const EnsembleObserver& observer, const EnsembleRunOptions& options) {
  check_case(c);
  const EnsembleModel& m = c.model;
  const RunSchedule& sched = c.schedule;
  const Clock::time_point start = Clock::now();
  const ResumePoint* resume = options.resume;

  EnsembleResult result{};
  const RunSteps plan = plan_run(sched, m.dt).steps;
  result.dt = m.dt;
  result.backend = backend.name();
  result.sample_steps = plan.sample_steps;
  result.sample_interval = static_cast<double>(result.sample_steps) * m.dt;
  result.rotation.assign(m.n_disks(), RotationStats{});

  // phases[k] is RunPhase k, the index a checkpoint records
  const std::int64_t chunk = plan.sample_steps;
  const std::array<Phase, 3> phases = phases_of(plan);
  const std::int64_t total_steps = plan.total();

  // a fresh run builds the packings and primes the accelerations; a resumed one takes the
  // checkpoint's state as it is (priming again would change the Gear derivatives)
  EnsembleState s;
  std::int64_t done = 0;
  double wall_before = 0.0;  // wall time of the run before the checkpoint [s]
  if (resume) {
    const std::string defect =
        resume_defect(c, *resume, total_steps, chunk, [&](int k) { return phases[k].steps; });
    if (!defect.empty())
      throw std::invalid_argument("run_ensemble: the checkpoint to resume " + defect);
    s = resume->state;
    result.rotation = resume->rotation;
    const RunPosition& pos = resume->position;
    done = pos.steps_done;
    result.particle_steps = pos.particle_steps;
    result.advance_time_s = pos.advance_time_s;
    wall_before = pos.wall_time_s;
  } else {
    s = build_ensemble_state(c, backend);
  }

  // energy time series of every packing
  std::vector<PackingEnergy> energy(m.n_packings());
  const auto observe_energy = [&](RunPhase phase) {
    if (!observer.on_energy) return;
    for (int p = 0; p < m.n_packings(); ++p) energy[p] = packing_energy(m, s, p);
    observer.on_energy(s.time(m), phase, energy);
  };
  const auto observe_sample = [&]() {
    sample_rotation(m, s, result.rotation);
    if (observer.on_sample) observer.on_sample(s.time(m), m, s);
  };
  // chunk ends reached so far (a phase's last chunk may be shorter); a checkpoint inside a
  // chunk has not reached its end
  std::int64_t chunks_done = 0;
  if (resume) {
    const RunPosition& pos = resume->position;
    const auto up = [&](std::int64_t n) { return (n + chunk - 1) / chunk; };
    for (int k = 0; k < pos.phase; ++k) chunks_done += up(phases[k].steps);
    const std::int64_t taken = phases[pos.phase].steps - pos.phase_steps_left;
    chunks_done += pos.phase_steps_left == 0 ? up(taken) : taken / chunk;
  }
  const auto observe_chunk = [&]() {
    if (observer.on_chunk) observer.on_chunk(chunks_done, m, s);
  };
  // a resumed run made these calls before its checkpoint
  if (!resume) {
    observe_energy(RunPhase::settle);
    observe_chunk();
  }

  // advance chunk by chunk through the phases, from the checkpoint's position when resuming.
  // A chunk is taken in slices of about options.control.poll_interval_s of wall time, so that a
  // stop request is answered (with a checkpoint) within a slice, not a chunk: chunks of a large
  // case take minutes. Slicing changes no result: a packing's steps are the same in any split.
  ProgressReporter reporter(options.on_progress, total_steps);
  SliceTimer slicer(options.control);
  const int first_phase = resume ? resume->position.phase : 0;
  reporter.update(phases[first_phase].phase, s.time(m), done, result.particle_steps,
                  result.advance_time_s, true);
  Clock::time_point last_checkpoint = Clock::now();
  // the disks of the packings healthy at the start of the current chunk (for particle_steps)
  double disks = healthy_disks(m, s);
  for (int k = first_phase; k < 3; ++k) {
    const auto& ph = phases[k];
    const bool resumed_phase = resume && k == first_phase;
    // the measurement's first sample; a checkpoint inside the measurement comes after it
    if (ph.phase == RunPhase::measure && !resumed_phase) observe_sample();
    std::int64_t left = resumed_phase ? resume->position.phase_steps_left : ph.steps;
    while (left > 0) {
      // chunks are counted from the start of the phase (its last one may be shorter)
      const std::int64_t taken = ph.steps - left;
      const std::int64_t to_chunk_end = std::min(ph.steps, (taken / chunk + 1) * chunk) - taken;
      const std::int64_t steps = std::min(to_chunk_end, slicer.steps());
      const Clock::time_point t_advance = Clock::now();
      backend.advance_resident(m, s, steps);
      const bool chunk_ends = steps == to_chunk_end;
      if (chunk_ends) backend.download(s, Backend::Download::observed);  // for the observers
      const double elapsed = seconds_since(t_advance);
      slicer.took(steps, elapsed);
      result.advance_time_s += elapsed;
      result.particle_steps += disks * static_cast<double>(steps);
      if (chunk_ends) disks = healthy_disks(m, s);
      left -= steps;
      done += steps;
      if (chunk_ends) {
        ++chunks_done;
        observe_energy(ph.phase);
        observe_chunk();
        if (ph.phase == RunPhase::measure) observe_sample();
      }
      reporter.update(ph.phase, s.time(m), done, result.particle_steps, result.advance_time_s,
                      done == total_steps);
      if (done == total_steps) break;

      // checkpoint when due or when stopping; a stopped run returns what it has
      const bool stop = options.control.stop && options.control.stop();
      const bool due = options.control.checkpoint_interval > 0.0 &&
                       seconds_since(last_checkpoint) >= options.control.checkpoint_interval;
      if (stop || due) backend.download(s, Backend::Download::everything);
      if (options.on_checkpoint && (stop || due)) {
        const RunPosition pos{k,
                              left,
                              done,
                              result.particle_steps,
                              result.advance_time_s,
                              wall_before + seconds_since(start)};
        options.on_checkpoint(pos, s, result.rotation);
        last_checkpoint = Clock::now();
      }
      if (stop) {
        result.steps = done;
        result.complete = false;
        result.wall_time_s = wall_before + seconds_since(start);
        return result;
      }
    }
  }
  result.steps = done;
  backend.download(s, Backend::Download::everything);  // the final state, whole

  // observables per packing, then per Γ
  result.packings = packing_results(c, s, result.rotation);
  result.gammas = average_by_gamma(c, result.packings);

  result.wall_time_s = wall_before + seconds_since(start);
  result.particle_steps_per_s =
      result.advance_time_s > 0.0 ? result.particle_steps / result.advance_time_s : 0.0;
  return result;
}

}  // namespace granular::md
