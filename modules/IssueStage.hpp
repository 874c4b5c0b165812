#pragma once
// The issue stage's arbitration: for each scheduler (warps split by slot modulo the scheduler
// count, i.e. even/odd with two), ask the policy for an order over its valid warps and issue the
// first one that the SM's qualification accepts. At most one instruction per scheduler per
// cycle. Qualification itself (buffer, scoreboard, unit, barrier, policy gate) is the caller's,
// passed in as `tryIssue`, so this unit can be tested with any readiness pattern.
#include <vector>

#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

class IssueStage {
public:
    IssueStage(unsigned schedulers, SchedulerPolicy& policy) : schedulers_(schedulers), policy_(policy) {}

    // tryIssue(warp) -> bool: issues the warp's next instruction if it qualifies.
    template <class TryIssue>
    unsigned cycle(const SmView& sm, TryIssue&& tryIssue) {
        unsigned issued = 0;
        for (unsigned s = 0; s < schedulers_; ++s) {
            order_.clear();
            for (unsigned w = s; w < sm.warpSlots(); w += schedulers_)
                if (sm.warp(w).valid) order_.push_back(w);
            if (order_.empty()) continue;
            policy_.order(s, order_, sm);
            for (unsigned w : order_) {
                if (tryIssue(w)) {
                    policy_.onIssue(s, w, sm);
                    ++issued;
                    break;
                }
            }
        }
        return issued;
    }

private:
    unsigned schedulers_;
    SchedulerPolicy& policy_;
    std::vector<unsigned> order_;
};

} // namespace gpusim
