// Tests for io/checksum.hpp: it is XXH64 (the xxHash specification's test values, which
// `xxhsum -H1` prints), the sum of a stream does not depend on how it is split into pieces, and
// it changes with any byte, any length and any order of the words.
#include "granular/io/checksum.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

namespace granular::io {
namespace {

std::uint64_t sum_of(const std::string& bytes) {
  Checksum c;
  c.add(bytes.data(), bytes.size());
  return c.value();
}

std::string sample(std::size_t n) {
  std::string s(n, '\0');
  std::uint64_t x = 12345;
  for (char& ch : s) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    ch = static_cast<char>(x >> 56);
  }
  return s;
}

TEST(Checksum, IsXxh64WithSeedZero) {
  EXPECT_EQ(sum_of(""), 0xef46db3751d8e999ull);
  EXPECT_EQ(sum_of("abc"), 0x44bc2cf5ad770999ull);
  EXPECT_EQ(sum_of("Nobody inspects the spammish repetition"), 0xfbcea83c8a378bf1ull);
}

TEST(Checksum, IndependentOfHowTheStreamIsSplit) {
  const std::string bytes = sample(1000);
  const std::uint64_t whole = sum_of(bytes);
  for (std::size_t piece : {1, 3, 7, 8, 9, 64, 999}) {
    Checksum c;
    for (std::size_t at = 0; at < bytes.size(); at += piece)
      c.add(bytes.data() + at, std::min(piece, bytes.size() - at));
    c.add(nullptr, 0);
    EXPECT_EQ(c.value(), whole) << piece;
  }
}

TEST(Checksum, ChangesWithEveryByteTheLengthAndTheOrder) {
  const std::string bytes = sample(77);
  const std::uint64_t whole = sum_of(bytes);
  std::set<std::uint64_t> seen{whole};
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = bytes;
      flipped[i] = static_cast<char>(flipped[i] ^ (1 << bit));
      EXPECT_TRUE(seen.insert(sum_of(flipped)).second) << i << " " << bit;
    }
  }
  // trailing zeros and a swap of two words count
  EXPECT_NE(sum_of(bytes + std::string(1, '\0')), whole);
  EXPECT_NE(sum_of(std::string(8, '\0')), sum_of(std::string(16, '\0')));
  std::string swapped = bytes;
  std::swap_ranges(swapped.begin(), swapped.begin() + 8, swapped.begin() + 8);
  EXPECT_NE(sum_of(swapped), whole);
}

}  // namespace
}  // namespace granular::io
