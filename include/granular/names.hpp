// The names of an enum's values as data: one table beside each enum, which printing (name_of)
// and the case loaders' choices (io::JsonObject::choice_of) both read, so that each name is
// written once and a loader accepts exactly the names a run prints.
#pragma once

#include <cstddef>

namespace granular {

template <class E>
struct Named {
  E value;
  const char* name;
};

// The name of `value` in `table`; `fallback` for a value the table lacks.
template <class E, std::size_t N>
constexpr const char* name_of(const Named<E> (&table)[N], E value,
                              const char* fallback = "unknown") {
  for (const Named<E>& entry : table)
    if (entry.value == value) return entry.name;
  return fallback;
}

}  // namespace granular
