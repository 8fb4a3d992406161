// Device memory as a plain RAII array, and the check every CUDA call goes through.
//
// Why not thrust::device_vector: its destructor frees through a call that throws when the
// context holds a sticky error (after a kernel fault), so unwinding from the fault's exception
// ended in std::terminate with "device free failed" instead of the fault. DeviceArray's
// destructor never throws: after a fault every CUDA call fails, and the fault itself is the
// error to report.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace granular::md {

// Throws std::runtime_error "CUDA: <what>: <the error> (<its name>)" when e is an error.
inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    throw std::runtime_error(std::string("CUDA: ") + what + ": " + cudaGetErrorString(e) + " (" +
                             cudaGetErrorName(e) + ")");
  }
}

// A launch's errors: its configuration at once, then what happened while it ran.
inline void check_launch(const char* kernel) {
  check(cudaGetLastError(), kernel);
  check(cudaDeviceSynchronize(), kernel);
}

// Page-locked host memory through which every transfer goes (pageable memory is copied by the
// driver through its own staging at a fraction of the bus's rate). One buffer per backend;
// arrays larger than it go in pieces.
class PinnedStaging {
 public:
  static constexpr std::size_t bytes = 16u << 20;
  PinnedStaging() = default;
  PinnedStaging(const PinnedStaging&) = delete;
  PinnedStaging& operator=(const PinnedStaging&) = delete;
  ~PinnedStaging() {
    if (data_ != nullptr) static_cast<void>(cudaFreeHost(data_));
  }
  unsigned char* data() {
    if (data_ == nullptr) {
      check(cudaMallocHost(reinterpret_cast<void**>(&data_), bytes), "allocation of pinned memory");
    }
    return data_;
  }

  // host → device, through the buffer
  void upload(void* device, const void* host, std::size_t n, const char* what) {
    for (std::size_t done = 0; done < n; done += bytes) {
      const std::size_t piece = n - done < bytes ? n - done : bytes;
      std::memcpy(data(), static_cast<const unsigned char*>(host) + done, piece);
      check(cudaMemcpy(static_cast<unsigned char*>(device) + done, data(), piece,
                       cudaMemcpyHostToDevice),
            what);
    }
  }
  // device → host, through the buffer
  void download(void* host, const void* device, std::size_t n, const char* what) {
    for (std::size_t done = 0; done < n; done += bytes) {
      const std::size_t piece = n - done < bytes ? n - done : bytes;
      check(cudaMemcpy(data(), static_cast<const unsigned char*>(device) + done, piece,
                       cudaMemcpyDeviceToHost),
            what);
      std::memcpy(static_cast<unsigned char*>(host) + done, data(), piece);
    }
  }

 private:
  unsigned char* data_ = nullptr;
};

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& other) noexcept : data_(other.data_), size_(other.size_) {
    other.data_ = nullptr;
    other.size_ = 0;
  }
  DeviceArray& operator=(DeviceArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = other.data_;
      size_ = other.size_;
      other.data_ = nullptr;
      other.size_ = 0;
    }
    return *this;
  }
  ~DeviceArray() { release(); }

  // Room for n elements; an allocation of the same size is kept (contents undefined otherwise).
  void resize(std::size_t n, const char* what) {
    if (n == size_) return;
    release();
    if (n > 0) check(cudaMalloc(reinterpret_cast<void**>(&data_), n * sizeof(T)), what);
    size_ = n;
  }
  template <class Allocator>
  void upload(const std::vector<T, Allocator>& host, PinnedStaging& staging, const char* what) {
    resize(host.size(), what);
    if (size_ > 0) staging.upload(data_, host.data(), size_ * sizeof(T), what);
  }
  // Into a host array of the same size.
  template <class Allocator>
  void download(std::vector<T, Allocator>& host, PinnedStaging& staging,
                const char* what) const {
    if (host.size() != size_) {
      throw std::logic_error(std::string("CUDA: ") + what + ": host and device sizes differ");
    }
    if (size_ > 0) staging.download(host.data(), data_, size_ * sizeof(T), what);
  }
  void zero(const char* what) {
    if (size_ > 0) check(cudaMemset(data_, 0, size_ * sizeof(T)), what);
  }

  T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  void release() noexcept {
    if (data_ != nullptr) static_cast<void>(cudaFree(data_));  // errors are the fault's echo
    data_ = nullptr;
    size_ = 0;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace granular::md
