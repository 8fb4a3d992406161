// LAMMPS text dumps of packings (include/granular/io/snapshot.hpp).
#include <array>
#include <string>
#include <vector>

#include "granular/io/snapshot.hpp"
#include "granular/io/table.hpp"

namespace granular::io {
namespace {

// The box, "lo hi" for x, y and z: x the side walls, y from the bottom wall to the highest disk
// top, z ±(largest radius), a thin slab around the plane z = 0.
std::array<std::string, 3> box_bounds(const md::PackingFrame& f, const std::vector<double>& radii) {
  const double r_max = radii.empty() ? 0.0 : radii.back();
  return {"0 " + round_trip(f.box_width), round_trip(f.bottom_y) + " " + round_trip(f.top),
          round_trip(-r_max) + " " + round_trip(r_max)};
}

}  // namespace

LammpsDump::LammpsDump(const std::filesystem::path& path, std::optional<std::uint64_t> keep)
    : file_(open_stream(path, keep)) {}

void LammpsDump::frame(const md::PackingFrame& f) {
  const std::size_t n = f.x.size();
  const std::vector<double> radii = distinct_radii(f);
  const std::array<std::string, 3> box = box_bounds(f, radii);
  // TIME before TIMESTEP, where LAMMPS' `dump_modify time yes` writes it and its read_dump
  // looks for it
  std::string text = "ITEM: TIME\n" + round_trip(f.t) + "\nITEM: TIMESTEP\n" +
                     std::to_string(f.step) + "\nITEM: NUMBER OF ATOMS\n" + std::to_string(n) +
                     "\nITEM: BOX BOUNDS ff ff ff\n" + box[0] + "\n" + box[1] + "\n" + box[2] +
                     "\nITEM: ATOMS id type radius x y vx vy omegaz theta\n";
  for (std::size_t i = 0; i < n; ++i) {
    text += std::to_string(i + 1) + ' ' + std::to_string(radius_type(radii, f.radius[i]));
    for (double v : {f.radius[i], f.x[i], f.y[i], f.vx[i], f.vy[i], f.omega[i], f.theta[i]}) {
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
