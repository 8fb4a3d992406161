// LAMMPS text dumps of packings (include/granular/io/snapshot.hpp).
#include <algorithm>
#include <string>
#include <vector>

#include "granular/io/snapshot.hpp"
#include "granular/io/table.hpp"

namespace granular::io {

LammpsDump::LammpsDump(const std::filesystem::path& path, std::optional<std::uint64_t> keep)
    : file_(open_stream(path, keep)) {}

void LammpsDump::frame(const md::PackingFrame& f) {
  const std::size_t n = f.x.size();
  std::vector<double> radii = f.radius;
  std::sort(radii.begin(), radii.end());
  radii.erase(std::unique(radii.begin(), radii.end()), radii.end());
  const double r_max = radii.empty() ? 0.0 : radii.back();

  std::string text = "ITEM: TIMESTEP\n" + std::to_string(f.step) + "\nITEM: NUMBER OF ATOMS\n" +
                     std::to_string(n) + "\nITEM: BOX BOUNDS ff ff ff\n0 " +
                     round_trip(f.box_width) + "\n" + round_trip(f.bottom_y) + " " +
                     round_trip(f.top) + "\n" + round_trip(-r_max) + " " + round_trip(r_max) +
                     "\nITEM: ATOMS id type radius x y z vx vy vz omegaz theta\n";
  for (std::size_t i = 0; i < n; ++i) {
    const auto type = std::lower_bound(radii.begin(), radii.end(), f.radius[i]) - radii.begin();
    text += std::to_string(i + 1) + ' ' + std::to_string(type + 1);
    for (double v :
         {f.radius[i], f.x[i], f.y[i], 0.0, f.vx[i], f.vy[i], 0.0, f.omega[i], f.theta[i]}) {
      text += ' ';
      text += round_trip(v);
    }
    text += '\n';
  }
  file_.write(text);
}

std::uint64_t LammpsDump::bytes() {
  file_.flush();
  return file_.size();
}

}  // namespace granular::io
