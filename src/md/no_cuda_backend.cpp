// Stand-ins for the CUDA backend in a build without CUDA (GRANULAR_CUDA=OFF or no nvcc).
#include <stdexcept>
#include <string>

#include "granular/md/backend.hpp"
#include "granular/md/cuda_schedule.hpp"

#ifndef GRANULAR_HAVE_CUDA
namespace granular::md {

bool cuda_backend_built() { return false; }

bool cuda_device_available() { return false; }

std::string cuda_unavailable_reason() {
  return "this build of granular has no CUDA backend (configure with GRANULAR_CUDA=ON)";
}

std::unique_ptr<Backend> make_cuda_backend(int large_packing) {
  return make_cuda_backend(large_packing, CudaSchedule{});
}

std::unique_ptr<Backend> make_cuda_backend(int, const CudaSchedule&) {
  throw std::runtime_error(
      "this build of granular has no CUDA backend (configure with GRANULAR_CUDA=ON)");
}

}  // namespace granular::md
#endif
