#include "scheduler/LrrPolicy.hpp"

#include <algorithm>

namespace gpusim {

void LrrPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView&) {
    std::sort(warps.begin(), warps.end());
    // Rotate so the first warp is the one after the last issuer (wrapping around).
    const int last = last_.at(sched);
    auto first = std::upper_bound(warps.begin(), warps.end(), last,
                                  [](int l, unsigned w) { return l < static_cast<int>(w); });
    std::rotate(warps.begin(), first, warps.end());
}

void LrrPolicy::onIssue(unsigned sched, unsigned warp, const SmView&) {
    last_.at(sched) = static_cast<int>(warp);
}

} // namespace gpusim
