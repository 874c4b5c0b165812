#pragma once
// Did-you-mean for a mistyped name (an option, a platform, a parameter key, a statistic): the
// names nearest to it by edit distance, when they are near enough to be a slip of the keyboard.
// The distance is the optimal string alignment one (Levenshtein's insertions, deletions and
// substitutions plus the swap of two neighbouring characters, each costing 1), on lower-cased
// text. Nothing here knows what the names are; callers put the suggestion into their message.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpusim {

// Edits to turn `a` into `b` (case ignored): "platfrom" -> "platform" is 1 (one swap).
size_t editDistance(std::string_view a, std::string_view b);

// The candidates at the smallest distance from `word` (at most 3, in the candidates' order),
// when that distance is at most a third of the word's length (at least 1) and less than the
// length itself, so that a one-letter word or a word unlike every name gets no suggestion. An
// exact match is not a suggestion (the caller looked it up already).
std::vector<std::string> nearestNames(std::string_view word, const std::vector<std::string>& candidates);

// "; did you mean 'X'?" (or "'X' or 'Y'?"), with `quotePrefix` before each name ("--" for
// options), or "" when nothing is near.
std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates,
                       std::string_view quotePrefix = "");

} // namespace gpusim
