#include "granular/cases/wedge_schema.hpp"

#include <cmath>

#include "granular/constants.hpp"
#include "granular/io/output.hpp"

namespace granular::cases {

WedgeGeometry read_wedge_geometry(const io::JsonObject& w) {
  w.allow_only({"aperture_deg", "tilt_deg", "tilt_fraction"});
  WedgeGeometry g;
  g.aperture = w.number_or("aperture_deg", 120.0, io::Bound::positive) * degree;
  if (!(g.aperture < pi)) w.fail("aperture_deg", "must be < 180");
  const double theta0 = 0.5 * (pi - g.aperture);  // the critical tilt
  if (w.has("tilt_deg") && w.has("tilt_fraction"))
    w.fail("", "give either tilt_deg or tilt_fraction, not both");
  const bool fraction = w.has("tilt_fraction");
  g.tilt = fraction ? w.number("tilt_fraction") * theta0 : w.number_or("tilt_deg", 0.0) * degree;
  if (!(std::fabs(g.tilt) < theta0))
    w.fail(fraction ? "tilt_fraction" : "tilt_deg",
           fraction ? "must be in (-1, 1)"
                    : "must be below the critical tilt (180 - aperture)/2 = " +
                          io::format_number(theta0 / degree) + " deg: a wall would face down");
  return g;
}

}  // namespace granular::cases
