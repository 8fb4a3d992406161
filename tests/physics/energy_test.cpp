// Energy conservation of the packing MD: a few disks bouncing in the box under gravity with an
// elastic, frictionless contact law (γ_n = 0, μ = 0, so ξ stays 0) and a fixed bottom keep
// their total energy (packing_energy: kinetic + rotational + m g y + ½ k_n δ² + ½ k_t ξ²), up
// to an integration error that falls with dt at (at least) second order.
// The contact force has a kink where a contact opens or closes within a step, and that kink
// dominates the error of both integrators: Gear 5 is no better than velocity Verlet here, the
// two errors nearly coincide, and both fall by ≈ 4 when dt is halved.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "granular/md/backend.hpp"
#include "granular/md/observables.hpp"
#include "granular/md/state.hpp"

namespace granular::md {
namespace {

constexpr double k_n = 1e4;  // [N/m]
constexpr int n_packings = 48;
constexpr int disks_per_packing = 4;

// Shortest contact time of the test: the smallest disks (R = 1.5 cm) colliding, γ_n = 0 [s].
double contact_time() {
  const double m = 3.57 * M_PI * 0.015 * 0.015;
  return M_PI / std::sqrt(k_n / (m / 2.0));
}

// Mean over an ensemble of packings of the largest relative energy error |E(t) − E(0)| / E(0),
// taken at the millisecond samples where a packing has no open contact. The error of one
// collision is O(dt²) times a factor that depends on where the contact begins within a step
// (of either sign), so one trajectory gives a noisy ratio; many random packings average it out.
double mean_energy_error(Integrator integrator, double dt, double duration) {
  EnsembleModel m;
  m.integrator = integrator;
  m.dt = dt;
  m.neighbor.skin = 0.005;
  PackingParams pp{};
  pp.box_width = 0.2;
  pp.gravity = 9.8;
  pp.disk_disk = {k_n, 0.77 * k_n, 0.0, 0.0};
  pp.disk_wall = pp.disk_disk;
  const std::vector<double> radii = {0.02, 0.025, 0.015, 0.018};
  for (int p = 0; p < n_packings; ++p) m.add_packing(pp, radii, 3.57);

  // disks in the four quadrants of a 0.2 m box, jittered, with random velocities and spins
  std::mt19937_64 rng(2024);
  std::uniform_real_distribution<double> jitter(-0.02, 0.02), speed(-1.0, 1.0);
  std::vector<double> x, y;
  for (int p = 0; p < n_packings; ++p) {
    for (int k = 0; k < disks_per_packing; ++k) {
      x.push_back(0.05 + 0.1 * (k % 2) + jitter(rng));
      y.push_back(0.05 + 0.1 * (k / 2) + jitter(rng));
    }
  }
  EnsembleState s = make_state(m, x, y, 0.0);
  for (int i = 0; i < m.n_disks(); ++i) {
    s.vx[i] = speed(rng);
    s.vy[i] = speed(rng);
    s.omega[i] = 10.0 * speed(rng);
  }
  auto backend = make_cpu_backend(2);
  backend->initialize(m, s);

  // largest error per packing at contact-free samples
  std::vector<double> e0(n_packings), worst(n_packings, 0.0);
  for (int p = 0; p < n_packings; ++p) e0[p] = packing_energy(m, s, p).total();
  const auto chunk = static_cast<std::int64_t>(std::llround(1e-3 / dt));
  const auto chunks = static_cast<std::int64_t>(std::llround(duration / 1e-3));
  int contacts_seen = 0;
  for (std::int64_t k = 0; k < chunks; ++k) {
    backend->advance(m, s, chunk);
    for (int p = 0; p < n_packings; ++p) {
      const PackingEnergy e = packing_energy(m, s, p);
      EXPECT_EQ(e.skin, 0.0);
      contacts_seen += e.disk_contacts + e.wall_contacts;
      if (e.disk_contacts + e.wall_contacts > 0) continue;
      worst[p] = std::max(worst[p], std::fabs(e.total() - e0[p]) / e0[p]);
    }
  }
  for (int p = 0; p < n_packings; ++p) EXPECT_EQ(s.status[p], status_ok);
  EXPECT_GT(contacts_seen, 100);  // the disks did collide
  double mean = 0.0;
  for (double w : worst) mean += w / n_packings;
  return mean;
}

// Halving dt must divide the error by at least `min_ratio` twice in a row; dt starts at t_c/160,
// where the per-collision error has reached its asymptotic O(dt²) regime.
void expect_order(Integrator integrator, const char* name, double min_ratio) {
  const double dt = contact_time() / 160.0;
  const double e1 = mean_energy_error(integrator, dt, 0.12);
  const double e2 = mean_energy_error(integrator, dt / 2.0, 0.12);
  const double e4 = mean_energy_error(integrator, dt / 4.0, 0.12);
  std::printf("%s mean max |dE|/E at dt, dt/2, dt/4: %.3e %.3e %.3e\n", name, e1, e2, e4);
  EXPECT_LT(e1, 2e-5);
  EXPECT_GT(e1 / e2, min_ratio);
  EXPECT_GT(e2 / e4, min_ratio);
}

TEST(EnergyConservation, VelocityVerletIsSecondOrder) {
  expect_order(Integrator::velocity_verlet, "velocity_verlet", 3.0);
}

TEST(EnergyConservation, Gear5IsAtLeastSecondOrder) {
  expect_order(Integrator::gear5, "gear5", 3.0);
}

}  // namespace
}  // namespace granular::md
