// "Did you mean" (include/granular/io/suggest.hpp).
#include "granular/io/suggest.hpp"

#include <algorithm>
#include <cstddef>

namespace granular::io {

namespace {

// Edit distance with adjacent swaps (optimal string alignment): "gama" → "gamma" is 1,
// "thraeds" → "threads" is 1.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

}  // namespace

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  // a name from data may be long: a typo of a short name is all that is looked for
  if (word.empty() || word.size() > 64) return {};
  std::string best;
  std::size_t best_distance = 3;  // at most 2 edits
  for (const std::string& c : candidates) {
    if (c == word || c.size() > 64) continue;
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance && 2 * d < word.size()) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string c = closest_match(word, candidates);
  return c.empty() ? std::string() : " (did you mean \"" + c + "\"?)";
}

}  // namespace granular::io
