// The names of the CUDA schedules (include/granular/md/cuda_schedule.hpp).
#include "granular/md/cuda_schedule.hpp"

#include <stdexcept>
#include <string>

namespace granular::md {
namespace {

constexpr const char* tile_names[] = {"reads", "state", "history"};

std::string expected() {
  return "expected block or warp:N (N packings to a block, 1 to 8), optionally followed by "
         ":reads, :state or :history";
}

}  // namespace

CudaSchedule parse_cuda_schedule(const std::string& name) {
  CudaSchedule schedule;
  std::string rest = name;
  const std::size_t tile_at = rest.find_last_of(':');
  if (tile_at != std::string::npos) {
    const std::string tile = rest.substr(tile_at + 1);
    for (int k = 0; k < 3; ++k) {
      if (tile == tile_names[k]) {
        schedule.tile = static_cast<TileContents>(k);
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
    if (n >= 1 && n <= 8) {
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
  return layout + ":" + tile_names[static_cast<int>(schedule.tile)];
}

}  // namespace granular::md
