// A 64-bit checksum of a byte stream, for finding damage in files we wrote (checkpoints): a
// multiply–rotate round per 8-byte word (the round of xxHash64, Collet 2012) and a final
// avalanche with the length. Any change of one word changes the sum (each round is a bijection
// of the running value); other damage goes unseen with probability about 2^-64. Not a
// cryptographic hash: it guards against accidents, not against an adversary.
#pragma once

// Physics knows no files (docs/architecture.md): the physics library is compiled with
// GRANULAR_PHYSICS_ONLY, and this header refuses it.
#if defined(GRANULAR_PHYSICS_ONLY)
#error "a physics source includes an io or cases header"
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace granular::io {

class Checksum {
 public:
  void add(const void* data, std::size_t n) {
    if (n == 0) return;  // data may be null (an empty array's data())
    const auto* p = static_cast<const unsigned char*>(data);
    length_ += n;
    // complete a pending word first
    if (pending_bytes_ > 0) {
      const std::size_t take = n < 8 - pending_bytes_ ? n : 8 - pending_bytes_;
      std::memcpy(pending_ + pending_bytes_, p, take);
      pending_bytes_ += take;
      p += take;
      n -= take;
      if (pending_bytes_ < 8) return;
      round(load(pending_));
      pending_bytes_ = 0;
    }
    for (; n >= 8; n -= 8, p += 8) round(load(p));
    std::memcpy(pending_, p, n);
    pending_bytes_ = n;
  }

  std::uint64_t value() const {
    std::uint64_t h = state_;
    // the tail, zero-padded, and the length (so that trailing zero bytes count)
    unsigned char tail[8] = {};
    std::memcpy(tail, pending_, pending_bytes_);
    h = mix(h, load(tail));
    h ^= length_;
    h ^= h >> 33;
    h *= 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0x165667B19E3779F9ull;
    h ^= h >> 32;
    return h;
  }

 private:
  static std::uint64_t load(const unsigned char* p) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  }
  static std::uint64_t mix(std::uint64_t h, std::uint64_t w) {
    h += w * 0xC2B2AE3D27D4EB4Full;
    h = (h << 31) | (h >> 33);
    return h * 0x9E3779B185EBCA87ull;
  }
  void round(std::uint64_t w) { state_ = mix(state_, w); }

  std::uint64_t state_ = 0x27D4EB2F165667C5ull;
  std::uint64_t length_ = 0;
  unsigned char pending_[8] = {};
  std::size_t pending_bytes_ = 0;
};

}  // namespace granular::io
