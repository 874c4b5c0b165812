#include "scheduler/SwlPolicy.hpp"

#include <algorithm>

#include "common/Stats.hpp"

namespace gpusim {

void SwlPolicy::registerStats(StatRegistry& stats, const std::string& prefix) {
    blocked_ = &stats.counter(prefix + "swl_blocked",
                              "Issue attempts refused by SWL: the warp is not among the oldest N");
}

void SwlPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    gto_.order(sched, warps, sm);
}

void SwlPolicy::onCycle(uint64_t, const SmView& sm) {
    ranks_.refresh(sm);
    // Barrier arrivals and exits change the set between warp starts and ends, so it is rebuilt
    // every cycle: one walk over the resident warps, oldest first.
    active_.assign(sm.warpSlots(), 0);
    const unsigned scheds = perScheduler_ ? std::max(1u, sm.schedulers()) : 1;
    taken_.assign(scheds, 0);
    for (unsigned w : ranks_.oldestFirst()) {
        const WarpView& v = sm.warp(w);
        if (v.atBarrier || v.exited) continue;
        unsigned& taken = taken_[perScheduler_ ? w % scheds : 0];
        if (taken < limit_) {
            active_[w] = 1;
            ++taken;
        }
    }
}

bool SwlPolicy::active(unsigned warp) const { return warp < active_.size() && active_[warp]; }

bool SwlPolicy::canIssue(unsigned warp, const SmView& sm) {
    if (active(warp)) return true;
    if (blocked_) blocked_->inc();
    return false;
}

void SwlPolicy::onWarpEnd(unsigned warp) {
    ranks_.markDirty();
    gto_.onWarpEnd(warp);
}

} // namespace gpusim
