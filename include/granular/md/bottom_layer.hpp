// A randomly vibrated bottom layer (Peraza-Mues 2018, §1.3): instead of the sinusoidal floor,
// the disks of the packing's lowest layer vibrate randomly about their places, a noisy input
// that the packing above rectifies into sustained rotation ("qualitatively similar to ... a
// sinusoidally driven bottom"). The thesis confines each centre to a circle of radius ε and
// gives neither ε nor the drive's spectrum; here x and y of each layer disk follow the random
// vibration of the 3-disk supports (random_vibration.hpp, thesis §5.3.1): each its own
// noise-driven oscillator, √⟨x²⟩ = A_b, frequency ω_b, damping c; θ stays put
// (docs/model.md, "A randomly vibrated bottom layer").
#pragma once

#include "granular/md/model.hpp"

namespace granular::md {

struct RandomBottomLayer {
  double amplitude;  // A_b [m], the RMS deviation of x and of y
  double omega;      // ω_b [rad/s]
  double damping;    // c, 0 < c < 1
};

// Makes the disks of the model's last packing that rest on the floor of its bed (build_bed
// from the packing's seed: centre one radius above the floor) prescribed bodies vibrating as
// `layer` about their places in the bed. The model's dt must be set. Returns how many.
int add_random_bottom_layer(EnsembleModel& m, const RandomBottomLayer& layer);

}  // namespace granular::md
