#include "scheduler/WarpAgeRank.hpp"

#include <algorithm>

namespace gpusim {

void WarpAgeRank::refresh(const SmView& sm) {
    if (!dirty_) return;
    dirty_ = false;
    const unsigned n = sm.warpSlots();
    const unsigned scheds = std::max(1u, sm.schedulers());
    sm_.assign(n, kNone);
    sched_.assign(n, kNone);
    perSched_.assign(scheds, 0);
    order_.clear();
    for (unsigned w = 0; w < n; ++w)
        if (sm.warp(w).valid) order_.push_back(w);
    std::sort(order_.begin(), order_.end(), [&](unsigned a, unsigned b) {
        const uint64_t aa = sm.warp(a).age, ab = sm.warp(b).age;
        return aa != ab ? aa < ab : a < b;
    });
    for (unsigned r = 0; r < order_.size(); ++r) {
        const unsigned w = order_[r];
        sm_[w] = r;
        sched_[w] = perSched_[w % scheds]++;
    }
}

} // namespace gpusim
