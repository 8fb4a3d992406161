// The wedge's geometry as both wedge models read it ("wedge" by the event-driven map and
// "wedge_md" by MD; docs/wedge.md): {"aperture_deg", "tilt_deg" or "tilt_fraction"}.
#pragma once

#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include "granular/io/json_reader.hpp"

namespace granular::cases {

struct WedgeGeometry {
  double aperture;  // θ_W [rad], in (0, π)
  double tilt;      // θ_T [rad], |θ_T| below the critical tilt θ0 = (π − θ_W)/2
};

// aperture_deg (120 by default); tilt_deg or tilt_fraction (θ_T/θ0, the thesis' axis for wedges
// of different apertures), at most one, 0 by default.
WedgeGeometry read_wedge_geometry(const io::JsonObject& wedge);

}  // namespace granular::cases
