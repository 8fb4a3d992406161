#include "granular/md/ed/ensemble.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace granular::md::ed {
namespace {

bool same_law(const ContactParams& a, const ContactParams& b) {
  return a.k_n == b.k_n && a.k_t == b.k_t && a.gamma_n == b.gamma_n && a.mu == b.mu;
}

std::vector<double> radii_of(const EnsembleModel& m, int p) {
  return {m.radius.begin() + m.offset[p], m.radius.begin() + m.offset[p + 1]};
}

// One end of a chunk: its time and phase, and whether θ is sampled there.
struct ChunkEnd {
  double t;
  RunPhase phase;
  bool sample;
};

// The chunk ends of the run after t = 0 (see ensemble.hpp, "Time axis").
std::vector<ChunkEnd> chunk_ends(const RunSchedule& s) {
  std::vector<ChunkEnd> ends;
  const double interval = s.sample_interval;
  for (double k = 1.0; k * interval < s.transient_time; k += 1.0)
    ends.push_back({k * interval, RunPhase::transient, false});
  if (s.transient_time > 0.0) ends.push_back({s.transient_time, RunPhase::transient, false});
  const double chunks = std::max(1.0, std::round(s.measure_time / interval));
  for (double k = 1.0; k <= chunks; k += 1.0)
    ends.push_back({s.transient_time + k * interval, RunPhase::measure, true});
  return ends;
}

}  // namespace

std::vector<DiskSnapshot> lifted_start(const PackingLayout& layout, double lift) {
  std::vector<DiskSnapshot> start;
  for (std::size_t i = 0; i < layout.x.size(); ++i)
    start.push_back({layout.x[i], layout.y[i] * (1.0 + lift), 0.0, 0.0, 0.0, 0.0});
  return start;
}

EdResult run_ensemble_ed(const EnsembleCase& c, const EdOptions& options, int threads,
                         const EdObserver& observer) {
  const EnsembleModel& m = c.model;
  const RunSchedule& sched = c.schedule;
  check_ensemble_sweep(c, "run_ensemble_ed");
  const auto start_clock = std::chrono::steady_clock::now();
  const int n = m.n_packings();

  // restitutions: one set per distinct (contact laws, radii), built before the threads start
  std::vector<RestitutionSet> sets;
  std::vector<int> set_of(n);
  std::vector<int> first_with(0);
  for (int p = 0; p < n; ++p) {
    int k = 0;
    for (; k < static_cast<int>(sets.size()); ++k) {
      const int q = first_with[k];
      if (same_law(m.packings[p].disk_disk, m.packings[q].disk_disk) &&
          same_law(m.packings[p].disk_wall, m.packings[q].disk_wall) &&
          radii_of(m, p) == radii_of(m, q))
        break;
    }
    if (k == static_cast<int>(sets.size())) {
      sets.push_back(make_restitution_set(m.packings[p].disk_disk, m.packings[p].disk_wall,
                                          radii_of(m, p), c.areal_density, options.tangential));
      first_with.push_back(p);
    }
    set_of[p] = k;
  }

  // the packings at t = 0: the MD run's layouts, lifted
  std::vector<std::unique_ptr<EdPacking>> packings;
  for (int p = 0; p < n; ++p) {
    const std::vector<double> radii = radii_of(m, p);
    const PackingLayout layout = build_bed(radii, m.packings[p].box_width, m.packings[p].seed);
    packings.push_back(std::make_unique<EdPacking>(
        m.packings[p], radii,
        std::vector<double>(m.mass.begin() + m.offset[p], m.mass.begin() + m.offset[p + 1]),
        sets[set_of[p]], lifted_start(layout, options.start_lift), 0.0, options.max_event_rate));
  }

  EdResult r;
  EnsembleResult& e = r.ensemble;
  e.dt = NAN;
  e.sample_steps = 0;
  e.sample_interval = sched.sample_interval;
  e.steps = 0;
  e.particle_steps = 0.0;
  e.backend = "cpu";
  e.rotation.assign(m.n_disks(), RotationStats{});

  std::vector<PackingEnergy> energy(n);
  std::vector<double> theta(m.n_disks());
  const auto observe_energy = [&](RunPhase phase, double t) {
    if (!observer.on_energy) return;
    for (int p = 0; p < n; ++p) energy[p] = packings[p]->energy_at(packings[p]->time());
    observer.on_energy(t, phase, energy);
  };
  const auto sample = [&](double t) {
    for (int p = 0; p < n; ++p) {
      const EdPacking& q = *packings[p];
      for (int i = 0; i < q.size(); ++i) {
        theta[m.offset[p] + i] = q.disk_at(i, q.time()).theta;
        if (q.status() == 0) add_sample(e.rotation[m.offset[p] + i], t, theta[m.offset[p] + i]);
      }
    }
    if (observer.on_sample) observer.on_sample(t, theta);
  };

  const std::vector<ChunkEnd> ends = chunk_ends(sched);
  const double t_end = ends.back().t;
  observe_energy(sched.transient_time > 0.0 ? RunPhase::transient : RunPhase::measure, 0.0);
  if (sched.transient_time == 0.0) sample(0.0);
  double advance_s = 0.0;
  for (std::size_t k = 0; k < ends.size(); ++k) {
    const ChunkEnd& end = ends[k];
    const auto t_advance = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(dynamic, 1) \
    num_threads(threads > 0 ? threads : omp_get_max_threads())
    for (int p = 0; p < n; ++p) packings[p]->advance_to(end.t);
    advance_s +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t_advance).count();
    observe_energy(end.phase, end.t);
    // the measurement's first sample closes the transient
    if (end.phase == RunPhase::transient && k + 1 < ends.size() &&
        ends[k + 1].phase == RunPhase::measure)
      sample(end.t);
    if (end.sample) sample(end.t);
    if (observer.on_progress) {
      double events = 0.0;
      for (const auto& q : packings) events += static_cast<double>(q->counts().total());
      observer.on_progress(end.phase, end.t, end.t / t_end, events);
    }
  }

  for (int p = 0; p < n; ++p) {
    e.packings.push_back(packing_result(c, p, packings[p]->status(), e.rotation));
    r.counts.push_back(packings[p]->counts());
  }
  e.gammas = average_by_gamma(c, e.packings);
  e.advance_time_s = advance_s;
  e.wall_time_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_clock).count();
  e.particle_steps_per_s = 0.0;
  return r;
}

}  // namespace granular::md::ed
