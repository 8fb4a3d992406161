// A figure of the report drawn as SVG (report.html embeds it, report.md links figures/<id>.svg):
// round ticks, error bars, the engine's fit and the paper's line, band or value, a legend and a
// caption, every text inside the drawing and none over another.
#pragma once

#include <string>

#include "granular/reproduce/measure.hpp"

namespace granular::reproduce {

std::string svg_plot(const Figure& f);

}  // namespace granular::reproduce
