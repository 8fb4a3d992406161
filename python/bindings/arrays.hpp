// numpy arrays that own a copy of the engine's numbers (the state moves on; a copy stays).
#pragma once

#include <nanobind/ndarray.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace granular::python {

template <class T>
using NumpyArray = nanobind::ndarray<nanobind::numpy, T>;

// A new array of shape {rows} (columns == 0) or {rows, columns} holding `values` (row-major).
template <class T>
NumpyArray<T> numpy_copy(const std::vector<T>& values, std::size_t rows, std::size_t columns = 0) {
  T* data = new T[values.size() > 0 ? values.size() : 1];
  std::copy(values.begin(), values.end(), data);
  nanobind::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
  if (columns == 0) return NumpyArray<T>(data, {rows}, owner);
  return NumpyArray<T>(data, {rows, columns}, owner);
}

}  // namespace granular::python
