#include "granular/md/reach.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "granular/constants.hpp"
#include "granular/md/contact.hpp"
#include "granular/md/view.hpp"

namespace granular::md {

namespace {

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", x);
  return text;
}

// The most force and torque the contacts of disk i of packing p can exert on it: each of its
// contacts (history slots, box walls, wall bodies) at the deepest overlap on the stiffer spring
// and the fastest approach on the stronger dashpot, its friction at most μ times that, plus its
// weight.
struct ForceReach {
  double force;   // [N]
  double torque;  // [N m]
};

ForceReach force_reach(const EnsembleModel& m, const PackingReach& reach, int p, int i) {
  const PackingParams& pp = m.packings[p];
  const double k_n = std::max(pp.disk_disk.k_n, pp.disk_wall.k_n);
  const double gamma_n = std::max(pp.disk_disk.gamma_n, pp.disk_wall.gamma_n);
  const double mu = std::max(pp.disk_disk.mu, pp.disk_wall.mu);
  const double contacts = m.neighbor.max_contacts + n_walls + m.wall_bodies;
  const double normal = k_n * std::min(reach.overlap, m.radius[i]) + gamma_n * 2.0 * reach.speed;
  return {contacts * (1.0 + mu) * normal + m.mass[i] * pp.gravity,
          contacts * mu * normal * m.radius[i]};
}

// What an open contact's elastic-skin history of disk i may hold: the disks' angles at the
// anchor within the angle bound, a wall anchor on the wall within the box's reach, and a stretch
// ξ at most what the Coulomb cap lets the skin hold, μ F_n / k_t. "" when all is within.
std::string open_contacts_beyond(const EnsembleModel& m, const EnsembleState& s,
                                 const PackingReach& reach, const ForceReach& f, int p, int i) {
  const PackingParams& pp = m.packings[p];
  double r_min = INFINITY;
  for (int j = m.offset[p]; j < m.offset[p + 1]; ++j) r_min = std::min(r_min, m.radius[j]);
  const double elapsed = static_cast<double>(s.step) * m.dt;
  const double angle = 2.0 * pi + reach.speed / r_min * elapsed;
  const double mu = std::max(pp.disk_disk.mu, pp.disk_wall.mu);
  const double k_t = std::min(pp.disk_disk.k_t, pp.disk_wall.k_t);
  const double contacts = m.neighbor.max_contacts + n_walls + m.wall_bodies;
  const double stretch = k_t > 0.0 ? mu * f.force / contacts / k_t + reach.speed * m.dt : INFINITY;
  const double extent = std::max(pp.box_width, reach.height) + 2.0 * m.radius[i];
  const auto check = [&](const char* array, const ContactSlot* slots, int count, bool pair) {
    for (int k = 0; k < count; ++k) {
      const ContactSlot& c = slots[k];
      if (c.partner < 0) continue;  // a free slot's history is not read: it is set on opening
      const SkinHistory& h = c.skin;
      const bool ok = std::fabs(h.theta_a) < angle && (!pair || std::fabs(h.theta_b) < angle) &&
                      (pair || std::fabs(h.anchor_x) < extent) && std::fabs(h.xi_anchor) < stretch;
      if (!ok)
        return std::string("its open contact ") + array + "[" + std::to_string(k) +
               "] holds a history no contact can have (anchor angles, place or stretch)";
    }
    return std::string();
  };
  for (const std::string& why :
       {check("contacts", &s.contacts[static_cast<std::size_t>(i) * m.neighbor.max_contacts],
              m.neighbor.max_contacts, true),
        check("walls", &s.walls[static_cast<std::size_t>(i) * n_walls], n_walls, false)})
    if (!why.empty()) return why;
  return "";
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
  // the softer spring of the two contacts a disk has gives the deeper overlap
  const double k_n = std::min(pp.disk_disk.k_n, pp.disk_wall.k_n);
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
      // after every step a disk's accelerations are its forces' (correct: a = f / m), bit for bit
      if (s.ax[i] != s.fx[i] * m.inv_mass[i] || s.ay[i] != s.fy[i] * m.inv_mass[i] ||
          s.alpha[i] != s.torque[i] * m.inv_inertia[i])
        return where + "its accelerations are not those of its forces";
      if (!reach.drive_and_gravity) continue;
      const ForceReach f = force_reach(m, reach, p, i);
      if (!(std::hypot(s.fx[i], s.fy[i]) < f.force) || !(std::fabs(s.torque[i]) < f.torque))
        return where + "a force of " + number(std::hypot(s.fx[i], s.fy[i])) + " N or a torque of " +
               number(s.torque[i]) + " N m, beyond the " + number(f.force) + " N and " +
               number(f.torque) + " N m its contacts can exert";
      // Gear's higher derivatives: the corrector sets the k-th from changes of the acceleration
      // (at most twice its bound) over dt^(k-2); 20 times that allows for their build-up
      for (int column = 0; !s.gear_high.empty() && column < gear_columns; ++column) {
        const double a = column < 6 ? f.force * m.inv_mass[i] : f.torque * m.inv_inertia[i];
        const double bound = 40.0 * a / std::pow(m.dt, column % 3 + 1);
        const double d = s.gear_high[static_cast<std::size_t>(column) * m.n_disks() + i];
        if (!(std::fabs(d) < bound))
          return where + "a Gear derivative of order " + std::to_string(column % 3 + 3) + " of " +
                 number(d) + ", beyond the " + number(bound) + " its forces can drive";
      }
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
      // the neighbor lists' reference position: a rebuild follows a move of half the skin within
      // the step, and correct moves a disk by less than its speed's worth since
      if (!(std::hypot(s.x[i] - s.x_ref[i], s.y[i] - s.y_ref[i]) <
            0.5 * m.neighbor.skin + reach.speed * m.dt))
        return where + "its neighbor lists' reference position is " +
               number(std::hypot(s.x[i] - s.x_ref[i], s.y[i] - s.y_ref[i])) +
               " m away, more than half the skin";
      const std::string history = open_contacts_beyond(m, s, reach, f, p, i);
      if (!history.empty()) return where + history;
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
      // the angle now, from the latest sample's, at most a chunk's worth of turning away (a
      // sample after the state's time is the schedule's check: md::resume_defect)
      const double since = s.time(m) - r.t_last;
      if (since >= 0.0 && !(std::fabs(s.theta[i] - r.theta_last) <= spin * since * (1.0 + 1e-9)))
        return "packing " + std::to_string(p) + ", disk " + std::to_string(i - m.offset[p]) +
               " (status ok): θ = " + number(s.theta[i]) +
               " rad, more than a disk turning at most " + number(spin) +
               " rad/s can have turned since its latest sample (" + number(r.theta_last) + " rad)";
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
