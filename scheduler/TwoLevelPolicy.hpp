#pragma once
// Two-level scheduling as the CCWS paper's 2LVL-GTO (after Narasiman et al., MICRO 2011): each
// scheduler's warps are split into fetch groups of `group` warps, and the scheduler issues from
// one group until every warp in it stalls, then moves to another; arbitration inside a group and
// across groups is GTO. Realised as an order: the last issuer (greedy warp), then the other warps
// of its group oldest first, then every other warp oldest first (which visits the remaining
// groups oldest group first, each oldest warp first). A warp issuing from another group makes
// that group the current one.
// Choices where the papers are silent: groups are formed per scheduler from its resident warps
// in age order (the oldest `group` warps are group 0, ...), so a group is refilled by the next
// younger warps when a warp ends; default group size 8 warps (Narasiman et al.'s fetch group).
#include <array>

#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

class TwoLevelPolicy : public SchedulerPolicy {
public:
    explicit TwoLevelPolicy(unsigned group) : group_(group ? group : 1) {}
    std::string name() const override { return "two-level"; }
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void onWarpEnd(unsigned warp) override;

private:
    static constexpr unsigned kSchedulers = 2;
    unsigned group_;
    std::array<int, kSchedulers> last_{-1, -1};
};

} // namespace gpusim
