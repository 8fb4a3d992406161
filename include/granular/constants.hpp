// Mathematical constants shared by every model (constexpr: usable on host and device).
#pragma once

namespace granular {

constexpr double pi = 3.141592653589793238462643383280;
constexpr double degree = pi / 180.0;  // one degree in radians

}  // namespace granular
