// The names of the CUDA schedules (include/granular/md/cuda_schedule.hpp).
#include "granular/md/cuda_schedule.hpp"

#include <iterator>
#include <stdexcept>
#include <string>

namespace granular::md {
namespace {

std::string expected() {
  std::string tiles;
  const std::size_t n = std::size(tile_contents_names);
  for (std::size_t k = 0; k < n; ++k) {
    tiles += std::string(k == 0 ? ":" : k + 1 < n ? ", :" : " or :") + tile_contents_names[k].name;
  }
  return "expected block or warp:N (N packings to a block, 1 to " +
         std::to_string(max_packings_per_block) + "), optionally followed by " + tiles;
}

}  // namespace

CudaSchedule parse_cuda_schedule(const std::string& name) {
  CudaSchedule schedule;
  std::string rest = name;
  const std::size_t tile_at = rest.find_last_of(':');
  if (tile_at != std::string::npos) {
    const std::string tile = rest.substr(tile_at + 1);
    for (const Named<TileContents>& t : tile_contents_names) {
      if (tile == t.name) {
        schedule.tile = t.value;
        rest = rest.substr(0, tile_at);
      }
    }
  }
  if (rest == "block") return schedule;
  if (rest.rfind("warp:", 0) == 0) {
    const std::string count = rest.substr(5);
    const bool digits = !count.empty() && count.size() == 1 &&
                        count.find_first_not_of("0123456789") == std::string::npos;
    const int n = digits ? std::stoi(count) : 0;
    if (n >= 1 && n <= max_packings_per_block) {
      schedule.packings_per_block = n;
      return schedule;
    }
  }
  throw std::invalid_argument("CUDA schedule '" + name + "': " + expected());
}

std::string cuda_schedule_name(const CudaSchedule& schedule) {
  const std::string layout = schedule.packings_per_block == 0
                                 ? "block"
                                 : "warp:" + std::to_string(schedule.packings_per_block);
  return layout + ":" + name_of(tile_contents_names, schedule.tile);
}

}  // namespace granular::md
