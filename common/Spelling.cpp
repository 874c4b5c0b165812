#include "common/Spelling.hpp"

#include <algorithm>
#include <cctype>

namespace gpusim {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

} // namespace

size_t editDistance(std::string_view a, std::string_view b) {
    // Three rows of the dynamic-programming table: the one before last is needed for a swap.
    std::vector<size_t> before(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) last[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + cost});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
                row[j] = std::min(row[j], before[j - 2] + 1);
        }
        std::swap(before, last);
        std::swap(last, row);
    }
    return last[b.size()];
}

std::vector<std::string> nearestNames(std::string_view word, const std::vector<std::string>& candidates) {
    constexpr size_t kMaxSuggestions = 3;
    const size_t limit = std::min(std::max<size_t>(1, word.size() / 3), word.size() - std::min<size_t>(word.size(), 1));
    std::vector<std::string> best;
    size_t bestDistance = limit + 1;
    for (const auto& c : candidates) {
        const size_t d = editDistance(word, c);
        if (d > limit || c == word) continue;
        if (d < bestDistance) {
            bestDistance = d;
            best.clear();
        }
        if (d == bestDistance && best.size() < kMaxSuggestions && std::find(best.begin(), best.end(), c) == best.end())
            best.push_back(c);
    }
    return best;
}

std::string didYouMean(std::string_view word, const std::vector<std::string>& candidates, std::string_view quotePrefix) {
    const std::vector<std::string> near = nearestNames(word, candidates);
    if (near.empty()) return "";
    std::string s = "; did you mean ";
    for (size_t i = 0; i < near.size(); ++i) {
        if (i) s += i + 1 == near.size() ? " or " : ", ";
        s += "'" + std::string(quotePrefix) + near[i] + "'";
    }
    return s + "?";
}

} // namespace gpusim
