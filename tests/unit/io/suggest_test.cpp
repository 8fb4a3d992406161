// Tests for io::closest_match, the "did you mean" of unknown keys and options
// (include/granular/io/suggest.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "granular/io/suggest.hpp"

namespace granular::io {
namespace {

TEST(DidYouMean, NamesTheNearestNameWithinTwoEdits) {
  const std::vector<std::string> drive = {"gamma", "frequency", "amplitude"};
  EXPECT_EQ(closest_match("gama", drive), "gamma");          // one deleted
  EXPECT_EQ(closest_match("gammma", drive), "gamma");        // one inserted
  EXPECT_EQ(closest_match("frequnecy", drive), "frequency");  // two neighbours swapped
  EXPECT_EQ(closest_match("frekwency", drive), "frequency");  // two replaced
  EXPECT_EQ(closest_match("--thread", {"--out", "--threads", "--quiet"}), "--threads");
  EXPECT_EQ(did_you_mean("gama", drive), " (did you mean \"gamma\"?)");
}

TEST(DidYouMean, SaysNothingWhenNoNameIsNearEnough) {
  const std::vector<std::string> keys = {"k_n", "k_t", "gamma_n", "mu"};
  EXPECT_EQ(closest_match("zzz", keys), "");
  EXPECT_EQ(closest_match("x", {"y"}), "");       // one edit is the whole word
  EXPECT_EQ(closest_match("", keys), "");
  EXPECT_EQ(closest_match(std::string(100, 'k'), keys), "");
  EXPECT_EQ(did_you_mean("zzz", keys), "");
  // of two names at the same distance, the first listed
  EXPECT_EQ(closest_match("k_m", keys), "k_n");
}

}  // namespace
}  // namespace granular::io
