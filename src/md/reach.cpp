#include "granular/md/reach.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "granular/constants.hpp"
#include "granular/md/contact.hpp"

namespace granular::md {

namespace {

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

}  // namespace

PackingReach packing_reach(const EnsembleModel& m, int p) {
  const PackingParams& pp = m.packings[p];
  double area = 0.0, mass = 0.0, m_max = 0.0, r_min = INFINITY;
  for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
    area += pi * m.radius[i] * m.radius[i];
    mass += m.mass[i];
    m_max = std::max(m_max, m.mass[i]);
    r_min = std::min(r_min, m.radius[i]);
  }
  PackingReach reach{};
  reach.drive_and_gravity =
      pp.body_count == 0 && pp.torque.disk < 0 && pp.box_walls == all_box_walls && pp.tilt == 0.0;
  if (!reach.drive_and_gravity) {
    reach.speed = 2.0 * r_min / m.dt;
    reach.height = INFINITY;
    reach.overlap = INFINITY;
    return reach;
  }
  const double h_bed = area / pp.box_width;
  const double g = pp.gravity;
  reach.speed = 20.0 * pp.drive_amplitude * pp.drive_omega + 4.0 * std::sqrt(2.0 * g * h_bed);
  reach.height =
      g > 0.0 ? pp.drive_amplitude + 2.0 * h_bed + reach.speed * reach.speed / (2.0 * g) : INFINITY;
  const double k_n = pp.disk_wall.k_n;
  reach.overlap = reach.speed * std::sqrt(m_max / k_n) + mass * g / k_n;
  return reach;
}

std::string state_beyond_reach(const EnsembleModel& m, const EnsembleState& s) {
  for (int p = 0; p < m.n_packings(); ++p) {
    if (s.status[p] != status_ok) continue;
    const PackingReach reach = packing_reach(m, p);
    const PackingParams& pp = m.packings[p];
    const double t = s.time(m);
    const double elapsed = static_cast<double>(s.step) * m.dt;
    for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
      const std::string where = "packing " + std::to_string(p) + ", disk " +
                                std::to_string(i - m.offset[p]) + " (status ok): ";
      const std::string beyond = reach.drive_and_gravity
                                     ? " its drive and gravity can give (docs/outputs.md)"
                                     : " a step resolves (docs/outputs.md)";
      const double r = m.radius[i];
      const double speed = std::hypot(s.vx[i], s.vy[i]);
      if (!(speed < reach.speed))
        return where + "|v| = " + number(speed) + " m/s, beyond the " + number(reach.speed) +
               " m/s" + beyond;
      const double rim = std::fabs(s.omega[i]) * r;
      if (!(rim < reach.speed))
        return where + "ω = " + number(s.omega[i]) + " rad/s, a rim speed of " + number(rim) +
               " m/s beyond the " + number(reach.speed) + " m/s" + beyond;
      if (!(std::fabs(s.theta[i]) < 2.0 * pi + reach.speed / r * elapsed))
        return where + "θ = " + number(s.theta[i]) + " rad, more than it can have turned in " +
               number(elapsed) + " s";
      if (!reach.drive_and_gravity) continue;
      if (!(s.y[i] < reach.height))
        return where + "y = " + number(s.y[i]) + " m, above the " + number(reach.height) +
               " m it can reach";
      const DiskKinematics disk{{s.x[i], s.y[i]}, {s.vx[i], s.vy[i]}, s.theta[i], r};
      for (int w = 0; w < n_walls; ++w) {
        const double overlap = wall_overlap(disk, wall_at(pp, w, t));
        if (!(overlap < std::min(reach.overlap, r)))
          return where + "an overlap of " + number(overlap) + " m with the " +
                 (w == wall_left    ? "left"
                  : w == wall_right ? "right"
                                    : "bottom") +
                 " wall, deeper than the " + number(std::min(reach.overlap, r)) + " m it can have";
      }
    }
  }
  return "";
}

std::string rotation_beyond_reach(const EnsembleModel& m, const EnsembleState& s,
                                  const std::vector<RotationStats>& rotation) {
  for (int p = 0; p < m.n_packings(); ++p) {
    if (s.status[p] != status_ok) continue;
    const double speed = packing_reach(m, p).speed;
    for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
      const RotationStats& r = rotation[i];
      if (r.count <= 0) continue;
      const double spin = speed / m.radius[i];  // the fastest it can turn [rad/s]
      const double n = static_cast<double>(r.count);
      const double tau = r.t_last - r.t_first;  // what the samples span [s]
      const double phi = spin * tau;            // the most it can have turned over them [rad]
      // the Welford sums are >= 0 up to rounding
      const auto within = [](double v, double low, double high) {
        const double slack = 1e-9 * (std::fabs(low) + std::fabs(high));
        return v >= low - slack && v <= high + slack;
      };
      const std::pair<const char*, bool> checks[] = {
          {"theta_first", within(r.theta_first, -(2.0 * pi + spin * (r.t_first - s.t0)),
                                 2.0 * pi + spin * (r.t_first - s.t0))},
          {"theta_last", within(r.theta_last, -(2.0 * pi + spin * (r.t_last - s.t0)),
                                2.0 * pi + spin * (r.t_last - s.t0))},
          {"mean_tau", within(r.mean_tau, 0.0, tau)},
          {"mean_phi", within(r.mean_phi, -phi, phi)},
          {"m2_tau", within(r.m2_tau, 0.0, n * tau * tau)},
          {"m2_phi", within(r.m2_phi, 0.0, n * phi * phi)},
          {"c_tau_phi", within(r.c_tau_phi, -n * tau * phi, n * tau * phi)},
          {"mean_rate", within(r.mean_rate, -spin, spin)},
          {"m2_rate", within(r.m2_rate, 0.0, (n - 1.0) * 4.0 * spin * spin)}};
      for (const auto& [name, ok] : checks)
        if (!ok)
          return "packing " + std::to_string(p) + ", disk " + std::to_string(i - m.offset[p]) +
                 " (status ok): its rotation samples' " + name +
                 " is beyond what a disk turning at most " + number(spin) +
                 " rad/s can have sampled";
    }
  }
  return "";
}

}  // namespace granular::md
