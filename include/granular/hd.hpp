// GRANULAR_HD marks functions that run on host and device: __host__ __device__ under nvcc,
// nothing under a host compiler. Every per-disk and per-contact physics function carries it.
#pragma once

#if defined(__CUDACC__)
#define GRANULAR_HD __host__ __device__
#else
#define GRANULAR_HD
#endif

// Before a GRANULAR_HD template over a scheduling policy (a Block or Grid): its device
// instantiation calls the policy's __device__ members, its host one the host policy's; nvcc
// otherwise warns that the __host__ side of the instantiation calls __device__ code.
#if defined(__CUDACC__)
#define GRANULAR_HD_POLICY_TEMPLATE _Pragma("nv_exec_check_disable")
#else
#define GRANULAR_HD_POLICY_TEMPLATE
#endif

// Before a GRANULAR_HD loop over a packing's disks that the host compiler should vectorize:
// inlined into the CPU backend's loop nest (packings, steps, disks), GCC 12 leaves such loops
// scalar ("no vectype for stmt"); out of line they vectorize. A call per packing and step costs
// nothing next to the loop. Device code is unaffected.
#if defined(__CUDA_ARCH__)
#define GRANULAR_HOST_OUT_OF_LINE
#else
#define GRANULAR_HOST_OUT_OF_LINE __attribute__((noinline))
#endif

#if !defined(NDEBUG) && !defined(__CUDA_ARCH__)
#include <cassert>
#define GRANULAR_ASSERT(cond) assert(cond)
#else
#define GRANULAR_ASSERT(cond) ((void)0)
#endif

// Host-only headers (JSON, files, std::string) refuse to compile under nvcc, so that device
// code cannot pull them in by accident.
#if defined(__CUDACC__)
#define GRANULAR_HOST_ONLY 0
#else
#define GRANULAR_HOST_ONLY 1
#endif
