// What `granular validate` says of a case's FBRPA wall (vibration.hpp): the moments of the wall
// velocity it draws at approach speeds from 0.001 to 100 Aω_b, for the wedge map and the
// event-driven packings.
#pragma once

#include "granular/cases/description.hpp"

namespace granular::cases {

// Approach speeds |v_n|/(Aω_b) the description samples, and the draws at each.
inline constexpr double fbrpa_described_approaches[] = {0.001, 0.01, 0.1, 0.3, 1.0, 10.0, 100.0};
inline constexpr std::int64_t fbrpa_described_draws = 20000;

// The line "fbrpa: ..." and the group "fbrpa" (approach, mean, mean_se, mean_square,
// mean_square_se, one item per approach speed) for a wall at angle θ [rad], drawn from `seed`.
void describe_fbrpa(Description& d, double theta, std::uint64_t seed);

}  // namespace granular::cases
