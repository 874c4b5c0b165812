#pragma once
// The issue stage's arbitration: for each scheduler (warps split by slot modulo the scheduler
// count, i.e. even/odd with two), ask the policy for an order over its valid warps and issue the
// first one that the SM's qualification accepts. At most one instruction per scheduler per
// cycle. Qualification itself (buffer, scoreboard, unit, barrier, policy gate) is the caller's,
// passed in as `tryIssue`, so this unit can be tested with any readiness pattern.
#include <typeinfo>
#include <vector>

#include "scheduler/GtoPolicy.hpp"
#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

class IssueStage {
public:
    IssueStage(unsigned schedulers, SchedulerPolicy& policy)
        : schedulers_(schedulers), policy_(policy),
          gto_(typeid(policy) == typeid(GtoPolicy) ? static_cast<GtoPolicy*>(&policy) : nullptr) {}

    // tryIssue(warp) -> bool: issues the warp's next instruction if it qualifies.
    template <class TryIssue>
    unsigned cycle(const SmView& sm, TryIssue&& tryIssue) {
        return cycle(
            sm,
            [&](unsigned s) -> const std::vector<unsigned>& {
                valid_.clear();
                for (unsigned w = s; w < sm.warpSlots(); w += schedulers_)
                    if (sm.warp(w).valid) valid_.push_back(w);
                return valid_;
            },
            [](unsigned) { return false; }, tryIssue);
    }

    // The same with the caller's bookkeeping: members(s) gives scheduler s's valid warps in slot
    // order; idle(s) true lets a scheduler none of whose warps can issue be passed over without
    // asking the policy (only for policies whose order() has no side effects, see
    // SchedulerPolicy::idleWhileStalled).
    template <class Members, class Idle, class TryIssue>
    unsigned cycle(const SmView& sm, Members&& members, Idle&& idle, TryIssue&& tryIssue) {
        unsigned issued = 0;
        for (unsigned s = 0; s < schedulers_; ++s) {
            if (idle(s)) continue;
            const std::vector<unsigned>& m = members(s);
            if (m.empty()) continue;
            // Issues warp w if it qualifies: at most one per scheduler per cycle.
            const auto issue = [&](unsigned w) {
                if (!tryIssue(w)) return false;
                policy_.onIssue(s, w, sm);
                ++issued;
                return true;
            };
            if (gto_) {
                // The same sequence as order(): `first`, then the list without it.
                int first = -1;
                const std::vector<unsigned>& rest = gto_->orderView(s, m, sm, first);
                if (first >= 0 && issue(static_cast<unsigned>(first))) continue;
                for (unsigned w : rest)
                    if (static_cast<int>(w) != first && issue(w)) break;
                continue;
            }
            order_.assign(m.begin(), m.end());
            policy_.order(s, order_, sm);
            for (unsigned w : order_)
                if (issue(w)) break;
        }
        return issued;
    }

private:
    unsigned schedulers_;
    SchedulerPolicy& policy_;
    std::vector<unsigned> order_, valid_;
    // GTO's order is one warp, then a list the policy keeps: walked in place rather than copied
    // and rewritten every cycle. The exact type only (a class derived from GtoPolicy may order
    // differently), and through the class rather than a new SchedulerPolicy virtual, which would
    // change the plugin ABI.
    GtoPolicy* gto_;
};

} // namespace gpusim
