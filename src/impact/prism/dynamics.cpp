// The prism's contact phase (include/granular/impact/prism/dynamics.hpp).
#include "granular/impact/prism/dynamics.hpp"

#include <cmath>

namespace granular::prism {

// the corrected reaction at A (§2.1): F = m a_C + m g y in the ramp frame, ψ = α − λ
EdgeReaction edge_reaction(const Params& p, double lambda, double theta_dot) {
  const PrismGeometry& g = p.geometry;
  const double psi = g.alpha - lambda;
  const double phi1 = psi + p.slope;
  const double k = 6.0 / (std::cos(2.0 * g.alpha) + 8.0);
  const double centripetal = g.circumradius * theta_dot * theta_dot / p.gravity;
  const double mg = p.mass * p.gravity;
  return {
      mg * (std::cos(p.slope) - k * std::sin(phi1) * std::sin(psi) - centripetal * std::cos(psi)),
      mg * (-std::sin(p.slope) + k * std::sin(phi1) * std::cos(psi) - centripetal * std::sin(psi))};
}

}  // namespace granular::prism
