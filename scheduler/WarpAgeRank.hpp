#pragma once
// Rank of every resident warp by age (0 = oldest), across the SM and within its issue scheduler.
// The ages of resident warps never change, so ranks are rebuilt only after a warp started or
// ended (markDirty(), from onWarpStart/onWarpEnd), not every cycle: policies read them in O(1)
// from canIssue(). Used where a policy needs "the N oldest warps" (SWL) or a warp's GTO priority
// (dynamic OAWS). Ties in age fall back to the slot number.
#include <vector>

#include "scheduler/SmView.hpp"

namespace gpusim {

class WarpAgeRank {
public:
    static constexpr unsigned kNone = ~0u;

    void markDirty() { dirty_ = true; }
    // Rebuilds the ranks if a warp started or ended since the last call.
    void refresh(const SmView& sm);
    unsigned smRank(unsigned warp) const { return warp < sm_.size() ? sm_[warp] : kNone; }
    unsigned schedulerRank(unsigned warp) const { return warp < sched_.size() ? sched_[warp] : kNone; }
    unsigned resident() const { return static_cast<unsigned>(order_.size()); }
    // The resident slots, oldest first.
    const std::vector<unsigned>& oldestFirst() const { return order_; }

private:
    bool dirty_ = true;
    std::vector<unsigned> order_;       // resident slots, oldest first
    std::vector<unsigned> sm_, sched_;  // per slot; kNone when empty
    std::vector<unsigned> perSched_;    // scratch: warps ranked so far per scheduler
};

} // namespace gpusim
