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
  void upload(const std::vector<T>& host, const char* what) {
    resize(host.size(), what);
    if (size_ > 0) {
      check(cudaMemcpy(data_, host.data(), size_ * sizeof(T), cudaMemcpyHostToDevice), what);
    }
  }
  // Into a host array of the same size.
  void download(std::vector<T>& host, const char* what) const {
    if (host.size() != size_) {
      throw std::logic_error(std::string("CUDA: ") + what + ": host and device sizes differ");
    }
    if (size_ > 0) {
      check(cudaMemcpy(host.data(), data_, size_ * sizeof(T), cudaMemcpyDeviceToHost), what);
    }
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
