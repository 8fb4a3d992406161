// Prints the reference numbers of docs/three_disk.md for the thesis' ch. 5 parameters, from
// include/granular/md/supported_disk/three_disk.hpp: build/three_disk_table.
#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "granular/md/supported_disk/three_disk.hpp"

using namespace granular;
using namespace granular::three_disk;

int main() {
  const ThreeDiskParams p = chapter5_params(0.0);
  const double detach = detachment_tilt(p), peak = std::atan(p.mu);
  std::printf("| quantity | value |\n|---|---|\n");
  std::printf("| A0 (5.4) | %.10f |\n", threshold_scale(p));
  std::printf("| θ_T^D = θ0 − arctan μ | %.10f rad = %.6fπ |\n", detach, detach / pi);
  std::printf("| A_S2(θ_T^D) = mgRμ/√(1+μ²) | %.10f |\n", ccw_threshold_at_detachment(p));
  std::printf("| A_S1(θ_T^D) | %.10f |\n", cw_threshold(chapter5_params(detach)));
  std::printf("| A_S1^max = A0√(1+μ²), at θ_T = arctan μ = %.10f | %.10f |\n", peak,
              max_cw_threshold(p));
  std::printf("| n01 = n02 at θ_T = 0, τ = 0 | %.10f |\n", normal_forces(p, 0.0, 0.0).n01);
  // both means are proportional to sin θ_T
  const double small_tilt = 0.01;
  const ThreeDiskParams tilted = chapter5_params(small_tilt);
  const SlidingPointTorques torques = sliding_point_torques(tilted);
  std::printf("| 𝒯̄* (5.21) / sin θ_T | %.10f |\n",
              equal_time_mean_torque(tilted) / std::sin(small_tilt));
  std::printf("| (𝒯^S1 + 𝒯^S2)/2 / sin θ_T | %.10f |\n\n",
              0.5 * (torques.s1 + torques.s2) / std::sin(small_tilt));

  std::printf("| A_e | θ_S2 | bidirectional above |\n|---|---|---|\n");
  for (const double amplitude : {0.100, 0.105, 0.110, 0.113, 0.115}) {
    if (amplitude > max_cw_threshold(p)) {
      std::printf("| %.3f | none: slides both ways at every tilt | — |\n", amplitude);
      continue;
    }
    const double onset = onset_tilt(p, amplitude);
    const double upper = cw_blocked_tilts(p, amplitude).upper;
    std::printf("| %.3f | %.6f rad = %.6fπ | ", amplitude, onset, onset / pi);
    if (upper < detach) {
      std::printf("%.6f rad = %.6fπ |\n", upper, upper / pi);
    } else {
      std::printf("— (above θ_T^D) |\n");
    }
  }

  std::printf("\nω̄·ω_e by (5.9) / by the rotor (* where (5.9) is invalid):\n\n| A_e |");
  const double tilts[] = {0.03, 0.06, 0.09, 0.12};
  for (const double t : tilts) std::printf(" θ_T = %.2fπ |", t);
  std::printf("\n|---|---|---|---|---|\n");
  for (const double amplitude : {0.105, 0.110, 0.1125, 0.113, 0.115, 0.12, 0.13, 0.15, 0.2}) {
    std::printf("| %.4g |", amplitude);
    for (const double t : tilts) {
      const ThreeDiskParams q = chapter5_params(t * pi);
      const HarmonicTorque torque{amplitude, 1.0};
      const Eq59Rotation exact = mean_rotation_eq59(q, torque);
      const RotorRotation rotor = mean_rotation_rotor(q, torque);
      std::printf(" %.6e / %.6e%s |", exact.mean_omega, rotor.mean_omega, exact.valid ? "" : " *");
    }
    std::printf("\n");
  }
  return 0;
}
