// The 64-bit checksum of a byte stream that every file record holds (summary.json's `files`,
// a checkpoint's streamed files and its own bytes): XXH64 with seed 0 (Collet's xxHash, from
// the xxhash library, inlined: nothing to link), so that a standard tool verifies it:
// `xxhsum -H1 FILE` prints the same 16 hex digits. Not a cryptographic hash: it finds damage,
// not an adversary's edits.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include <cstddef>
#include <cstdint>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace granular::io {

class Checksum {
 public:
  Checksum() { XXH64_reset(&state_, 0); }

  void add(const void* data, std::size_t n) {
    if (n > 0) XXH64_update(&state_, data, n);  // data may be null when n is 0
  }

  std::uint64_t value() const { return XXH64_digest(&state_); }

 private:
  XXH64_state_t state_;
};

}  // namespace granular::io
