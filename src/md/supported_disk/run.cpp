#include "granular/md/supported_disk/run.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "granular/md/bodies.hpp"
#include "granular/md/contact.hpp"
#include "granular/md/step.hpp"

namespace granular::md {
namespace {

DiskKinematics kinematics(const EnsembleModel& m, const EnsembleState& s, int i) {
  return {{s.x[i], s.y[i]}, {s.vx[i], s.vy[i]}, s.theta[i], m.radius[i]};
}

// A contact's report from the contact law's result.
SupportContact report(const ContactParams& law, const ContactResult& c) {
  const double tau = -law.k_t * c.xi;  // the engine's torque on a is −R k_t ξ
  return {c.normal > 0.0, c.normal, tau, c.normal > 0.0 && std::fabs(tau) >= law.mu * c.normal};
}

}  // namespace

std::vector<SupportContact> support_contacts(const EnsembleModel& m, const EnsembleState& s,
                                             int p) {
  const PackingParams& pp = m.packings[p];
  const int observed = m.offset[p];
  const DiskKinematics a = kinematics(m, s, observed);
  std::vector<SupportContact> out;
  for (int j = observed + 1; j < m.offset[p + 1]; ++j) {
    const DiskKinematics b = kinematics(m, s, j);
    if (pair_overlap(a, b) <= 0.0) {
      out.push_back({false, 0.0, 0.0, false});
      continue;
    }
    const ContactSlot* slot = nullptr;
    for (int k = 0; k < m.neighbor.max_contacts; ++k) {
      const ContactSlot& c =
          s.contacts[static_cast<std::size_t>(observed) * m.neighbor.max_contacts + k];
      if (c.partner == j) slot = &c;
    }
    SkinHistory h = slot ? slot->skin : SkinHistory{};
    // canonical order: the observed disk has the lowest index of its packing
    out.push_back(report(pp.disk_disk, disk_disk_contact(pp.disk_disk, a, b, !slot, h)));
  }
  for (int b = pp.body_first; b < pp.body_first + pp.body_count; ++b) {
    const Body& body = m.bodies[b];
    if (body.shape != BodyShape::wall) continue;
    WallKinematics wall;
    if (!touches_wall_body(body, s.body_motion.data() + body_motion_size * b, a, wall)) {
      out.push_back({false, 0.0, 0.0, false});
      continue;
    }
    const ContactSlot& slot =
        s.body_walls[static_cast<std::size_t>(observed) * m.wall_bodies + body.wall_slot];
    SkinHistory h = slot.skin;
    out.push_back(
        report(pp.disk_wall, disk_wall_contact(pp.disk_wall, a, wall, slot.partner < 0, h)));
  }
  return out;
}

SupportedDiskResult run_supported_disk(const EnsembleModel& m, EnsembleState& s,
                                       const RunSchedule& schedule,
                                       const SupportedDiskRunOptions& options) {
  const PlannedRun plan = plan_run(schedule, m.dt);
  if (!plan.ok) throw std::invalid_argument("run_supported_disk: more than max_run_steps steps");
  const RunSteps steps = plan.steps;
  std::unique_ptr<Backend> cpu;
  Backend* backend = options.backend;
  if (!backend) {
    cpu = make_cpu_backend(options.threads);
    backend = cpu.get();
  }
  backend->initialize(m, s);

  SupportedDiskResult result;
  result.sample_interval = static_cast<double>(steps.sample_steps) * m.dt;
  result.packings.resize(m.n_packings());
  std::vector<std::vector<SupportContact>> previous(m.n_packings());
  const double total = static_cast<double>(steps.total());
  std::int64_t done = 0;

  const auto sample = [&]() {
    const double t = s.time(m);
    for (int p = 0; p < m.n_packings(); ++p) {
      SupportedDiskPackingResult& r = result.packings[p];
      const int i = m.offset[p];
      add_sample(r.rotation, t, s.theta[i]);
      SupportedDiskSample one{
          t, s.theta[i], s.omega[i],
          m.packings[p].torque.disk == i ? applied_torque(m.packings[p].torque, t) : 0.0,
          support_contacts(m, s, p)};
      if (m.packings[p].body_count > 0) {
        const double* motion = s.body_motion.data() + body_motion_size * m.packings[p].body_first;
        std::copy(motion, motion + body_motion_size, one.first_body.begin());
      }
      r.sliding_samples.resize(one.contacts.size(), 0);
      for (std::size_t k = 0; k < one.contacts.size(); ++k) {
        r.sliding_samples[k] += one.contacts[k].sliding;
        if (r.samples > 0 && previous[p][k].closed && !one.contacts[k].closed) ++r.openings;
      }
      ++r.samples;
      previous[p] = one.contacts;
      if (options.on_sample) options.on_sample(p, one);
    }
  };
  // advances `n` steps in chunks of sample_steps; samples after each chunk when measuring
  const auto advance = [&](std::int64_t n, bool measuring) {
    while (n > 0) {
      const std::int64_t k = std::min(n, steps.sample_steps);
      backend->advance(m, s, k);
      n -= k;
      done += k;
      if (measuring) sample();
      if (options.on_progress) options.on_progress(static_cast<double>(done) / total);
      if (options.stop && options.stop()) return false;
    }
    return true;
  };
  if (!advance(steps.settle_steps, false) || !advance(steps.transient_steps, false)) {
    result.complete = false;
  } else {
    sample();
    result.complete = advance(steps.measure_steps(), true);
  }
  for (int p = 0; p < m.n_packings(); ++p) result.packings[p].status = s.status[p];
  return result;
}

}  // namespace granular::md
