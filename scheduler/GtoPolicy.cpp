#include "scheduler/GtoPolicy.hpp"

#include <algorithm>

namespace gpusim {

void GtoPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    const int greedy = last_.at(sched);
    std::sort(warps.begin(), warps.end(), [&](unsigned a, unsigned b) {
        const bool ga = static_cast<int>(a) == greedy, gb = static_cast<int>(b) == greedy;
        if (ga != gb) return ga;
        const uint64_t aa = sm.warp(a).age, ab = sm.warp(b).age;
        if (aa != ab) return aa < ab;
        return a < b;
    });
}

void GtoPolicy::onIssue(unsigned sched, unsigned warp, const SmView&) {
    last_.at(sched) = static_cast<int>(warp);
}

void GtoPolicy::onWarpEnd(unsigned warp) {
    // A new warp may reuse the slot; it must not inherit the greedy position.
    for (auto& l : last_)
        if (l == static_cast<int>(warp)) l = -1;
}

} // namespace gpusim
