#include "granular/md/staggered_allocator.hpp"

#include <atomic>
#include <cstdint>
#include <new>

namespace granular::md {
namespace {

constexpr std::size_t line = 64;
constexpr std::size_t page = 4096;
constexpr std::size_t staggered_from = 16384;  // smaller arrays stay in malloc's heap

// the k-th large array starts (k * 23 mod 64) lines into its page: 23 is odd, so 64
// consecutive arrays take every line once, and consecutive ones lie 23 lines apart
std::size_t next_offset() {
  static std::atomic<std::size_t> count{0};
  return (count.fetch_add(1, std::memory_order_relaxed) * 23 % (page / line)) * line;
}

}  // namespace

void* staggered_allocate(std::size_t bytes) {
  if (bytes < staggered_from) return ::operator new (bytes, std::align_val_t{line});
  const std::size_t offset = next_offset();
  char* block = static_cast<char*>(::operator new (bytes + offset, std::align_val_t{page}));
  return block + offset;
}

void staggered_deallocate(void* p, std::size_t bytes) noexcept {
  if (bytes < staggered_from) {
    ::operator delete (p, std::align_val_t{line});
    return;
  }
  // the block starts at the page boundary below p: the offset is less than a page
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  ::operator delete (reinterpret_cast<void*>(address - address % page), std::align_val_t{page});
}

}  // namespace granular::md
