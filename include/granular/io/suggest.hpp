// "Did you mean": the name nearest to a mistyped one, for the messages that refuse an unknown
// key of a case or an unknown option of a command (docs/cases.md).
#pragma once

#include <string>
#include <vector>

namespace granular::io {

// The candidate nearest to `word` by edit distance (a character inserted, deleted, replaced,
// or two neighbours swapped), when it is near enough to be a typo of it: at most 2 edits and
// fewer than half of the word's characters; the first such candidate of the smallest distance.
// Empty when none is.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean \"NAME\"?)" for closest_match, or empty.
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace granular::io
