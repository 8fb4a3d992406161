#include "granular/md/contact_episodes.hpp"

#include <cmath>
#include <set>

#include "granular/contact_law.hpp"
#include "granular/md/contact.hpp"

namespace granular::md {
namespace {

// Relative contact velocity of disk a on its partner b along the normal (nx, ny) from a to b.
struct Relative {
  double u_n, u_t;
};

// ... from the velocity arrays vx, vy, omega; b a disk, or partner_of_wall(w) of packing p at t.
Relative relative(const EnsembleModel& m, int p, int a, int b, double t, double nx, double ny,
                  const double* vx, const double* vy, const double* omega) {
  double ux = vx[a], uy = vy[a], spin = m.radius[a] * omega[a];
  if (b >= 0) {
    ux -= vx[b];
    uy -= vy[b];
    spin += m.radius[b] * omega[b];
  } else {
    const WallKinematics w = wall_at(m.packings[p], -1 - b, t);
    ux -= w.velocity.x;
    uy -= w.velocity.y;
  }
  // t̂ = perp(e) = (−e_y, e_x), the contact law's tangent
  return {ux * nx + uy * ny, -ux * ny + uy * nx + spin};
}

}  // namespace

ContactEpisodes::ContactEpisodes(const EnsembleModel& m, const EnsembleState& s) {
  remember(m, s);
  std::vector<Key> now;
  for (int p = 0; p < m.n_packings(); ++p) touching(m, s, p, now);
  seen_before_ = now;
}

void ContactEpisodes::remember(const EnsembleModel& m, const EnsembleState& s) {
  previous_.x.assign(s.x.begin(), s.x.end());
  previous_.y.assign(s.y.begin(), s.y.end());
  previous_.vx.assign(s.vx.begin(), s.vx.end());
  previous_.vy.assign(s.vy.begin(), s.vy.end());
  previous_.omega.assign(s.omega.begin(), s.omega.end());
  previous_.t = s.time(m);
}

void ContactEpisodes::touching(const EnsembleModel& m, const EnsembleState& s, int p,
                               std::vector<Key>& out) const {
  const PackingParams& pp = m.packings[p];
  const double t = s.time(m);
  for (int i = m.offset[p]; i < m.offset[p + 1]; ++i) {
    const DiskKinematics a{{s.x[i], s.y[i]}, {s.vx[i], s.vy[i]}, s.theta[i], m.radius[i]};
    for (int j = i + 1; j < m.offset[p + 1]; ++j) {
      const DiskKinematics b{{s.x[j], s.y[j]}, {s.vx[j], s.vy[j]}, s.theta[j], m.radius[j]};
      if (pair_overlap(a, b) > 0.0) out.emplace_back(i, j);
    }
    for (int w = 0; w < 3; ++w) {
      if ((pp.box_walls >> w & 1u) && wall_overlap(a, wall_at(pp, w, t)) > 0.0)
        out.emplace_back(i, partner_of_wall(w));
    }
  }
}

void ContactEpisodes::observe(const EnsembleModel& m, const EnsembleState& s,
                              std::vector<ContactEpisode>& closed) {
  const double t = s.time(m);
  std::vector<Key> now;
  for (int p = 0; p < m.n_packings(); ++p) {
    if (s.status[p] == status_ok) touching(m, s, p, now);
  }
  const std::set<Key> touching_now(now.begin(), now.end());
  std::vector<int> contacts(m.n_disks(), 0);  // per disk
  for (const auto& [a, b] : now) {
    ++contacts[a];
    if (b >= 0) ++contacts[b];
  }
  const auto alone = [&](int a, int b) { return contacts[a] == 1 && (b < 0 || contacts[b] == 1); };
  const auto packing_of = [&](int i) {
    int p = 0;
    while (m.offset[p + 1] <= i) ++p;
    return p;
  };

  // the contacts that ended: their velocities now, in the normal of their first touch
  for (auto it = open_.begin(); it != open_.end();) {
    if (touching_now.count(it->first)) {
      ++it;
      continue;
    }
    Open& o = it->second;
    const Relative after = relative(m, o.e.packing, o.e.a, o.e.b, t, o.nx, o.ny, s.vx.data(),
                                    s.vy.data(), s.omega.data());
    o.e.u_n_after = after.u_n;
    o.e.u_t_after = after.u_t;
    if (s.status[o.e.packing] == status_ok) closed.push_back(o.e);
    it = open_.erase(it);
  }
  // contacts present at the start were not seen to begin: forget them once they end
  std::vector<Key> still;
  for (const Key& k : seen_before_)
    if (touching_now.count(k)) still.push_back(k);
  seen_before_.swap(still);
  const std::set<Key> unseen(seen_before_.begin(), seen_before_.end());

  // the contacts that go on, and the new ones, with their velocities the step before
  for (const Key& k : now) {
    const auto [a, b] = k;
    const auto found = open_.find(k);
    if (found != open_.end()) {
      ++found->second.e.steps;
      found->second.e.isolated = found->second.e.isolated && alone(a, b);
      continue;
    }
    if (unseen.count(k)) continue;
    const int p = packing_of(a);
    Open o;
    double m_eff = m.mass[a];
    if (b >= 0) {
      const double dx = previous_.x[b] - previous_.x[a], dy = previous_.y[b] - previous_.y[a];
      const double d = std::sqrt(dx * dx + dy * dy);
      o.nx = dx / d;
      o.ny = dy / d;
      // a prescribed partner moves whatever the forces: infinitely heavy, as a wall
      m_eff = m.inv_mass[a] == 0.0
                  ? m.mass[b]
                  : effective_mass(m.mass[a], m.inv_mass[b] != 0.0 ? m.mass[b] : INFINITY);
    } else {
      const WallKinematics w = wall_at(m.packings[p], -1 - b, previous_.t);
      o.nx = -w.normal.x;
      o.ny = -w.normal.y;
    }
    const Relative before = relative(m, p, a, b, previous_.t, o.nx, o.ny, previous_.vx.data(),
                                     previous_.vy.data(), previous_.omega.data());
    o.e = {p, a, b, t, 1, alone(a, b), before.u_n, before.u_t, 0.0, 0.0, m_eff};
    open_.emplace(k, o);
  }

  remember(m, s);
}

}  // namespace granular::md
