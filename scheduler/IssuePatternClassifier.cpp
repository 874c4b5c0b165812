#include "scheduler/IssuePatternClassifier.hpp"

#include <algorithm>

namespace gpusim {

IssuePattern classifyIssuePattern(std::vector<IssuePatternWarp> warps, const IssuePatternParams& p) {
    IssuePattern r;
    r.warps = static_cast<unsigned>(warps.size());
    if (warps.empty()) return r;
    std::stable_sort(warps.begin(), warps.end(),
                     [](const IssuePatternWarp& a, const IssuePatternWarp& b) { return a.age < b.age; });
    size_t woi = warps.size();
    if (p.woiFromStalls) {
        size_t limit = 0;
        uint64_t best = 0;
        for (size_t i = 0; i < warps.size(); ++i)
            if (warps[i].issueStalls > best) {  // strict: the oldest of equal maxima
                best = warps[i].issueStalls;
                limit = i;
            }
        if (best > 0) woi = std::max<size_t>(1, p.woiIncludesLimit ? limit + 1 : limit);
    }
    r.woi = static_cast<unsigned>(woi);
    for (size_t i = 0; i < woi; ++i) {
        const uint64_t s = warps[i].instructions + (p.barrierScore ? warps[i].barrierWait : 0);
        r.scoreSum += s;
        r.scoreMax = std::max(r.scoreMax, s);
    }
    r.threshold = double(r.woi) * double(r.scoreMax) * p.thresholdFactor;
    r.doc = r.threshold > 0 ? double(r.scoreSum) / r.threshold : 0.0;
    r.convex = r.threshold > 0 && !(double(r.scoreSum) < r.threshold);
    return r;
}

} // namespace gpusim
