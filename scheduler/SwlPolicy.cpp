#include "scheduler/SwlPolicy.hpp"

#include "common/Stats.hpp"

namespace gpusim {

void SwlPolicy::registerStats(StatRegistry& stats, const std::string& prefix) {
    blocked_ = &stats.counter(prefix + "swl_blocked",
                              "Issue attempts refused by SWL: the warp is not among the oldest N");
}

void SwlPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    gto_.order(sched, warps, sm);
}

bool SwlPolicy::active(unsigned warp) const {
    const unsigned r = perScheduler_ ? ranks_.schedulerRank(warp) : ranks_.smRank(warp);
    return r < limit_;
}

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
