// granular validate's FBRPA line (include/granular/cases/fbrpa_description.hpp).
#include "granular/cases/fbrpa_description.hpp"

#include <cmath>

#include "granular/vibration.hpp"

namespace granular::cases {

void describe_fbrpa(Description& d, double theta, std::uint64_t seed) {
  d.group("fbrpa");
  d.out << "fbrpa: wall velocity V in units of A w_b, " << d.count("draws", fbrpa_described_draws)
        << " draws at each approach speed, wall at "
        << d.number("wall_angle", theta * 180.0 / pi, "%.4g", "deg") << " deg:\n";
  for (double approach : fbrpa_described_approaches) {
    const FbrpaMoments m = fbrpa_moments(-approach, theta, fbrpa_described_draws, seed);
    d.out << "  |v_n|/(A w_b) = " << d.item("approach", approach, "%-5g")
          << "  <V> = " << d.item("mean", m.mean, "%.5f") << " +- "
          << d.item("mean_se", m.mean_se, "%.1e")
          << "  <V^2> = " << d.item("mean_square", m.mean_square, "%.5f") << " +- "
          << d.item("mean_square_se", m.mean_square_se, "%.1e") << "\n";
  }
}

}  // namespace granular::cases
