#include "scheduler/TwoLevelPolicy.hpp"

#include <algorithm>

namespace gpusim {

void TwoLevelPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    std::sort(warps.begin(), warps.end(), [&](unsigned a, unsigned b) {
        const uint64_t aa = sm.warp(a).age, ab = sm.warp(b).age;
        return aa != ab ? aa < ab : a < b;
    });
    const int greedy = sched < kSchedulers ? last_[sched] : -1;
    auto it = std::find(warps.begin(), warps.end(), static_cast<unsigned>(greedy));
    if (greedy < 0 || it == warps.end()) return;  // no current group: oldest group first
    const size_t pos = static_cast<size_t>(it - warps.begin());
    const size_t first = pos / group_ * group_;
    const size_t last = std::min(warps.size(), first + group_);
    // [group members][others] keeping age order in both, then the greedy warp to the front.
    std::rotate(warps.begin(), warps.begin() + static_cast<std::ptrdiff_t>(first),
                warps.begin() + static_cast<std::ptrdiff_t>(last));
    it = std::find(warps.begin(), warps.end(), static_cast<unsigned>(greedy));
    std::rotate(warps.begin(), it, it + 1);
}

void TwoLevelPolicy::onIssue(unsigned sched, unsigned warp, const SmView&) {
    if (sched < kSchedulers) last_[sched] = static_cast<int>(warp);
}

void TwoLevelPolicy::onWarpEnd(unsigned warp) {
    for (auto& l : last_)
        if (l == static_cast<int>(warp)) l = -1;
}

} // namespace gpusim
