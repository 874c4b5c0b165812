// Two-level (2LVL-GTO): fetch groups of `group` warps per scheduler in age order; the group of
// the last issuer goes first (greedy warp, then its group mates oldest first), then the rest
// oldest first.
#include <gtest/gtest.h>

#include <vector>

#include "scheduler/GtoPolicy.hpp"
#include "scheduler/TwoLevelPolicy.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace two_level_policy_test {

using namespace gpusim;
using gpusim::test::FakeSmView;
using V = std::vector<unsigned>;

namespace {
V ordered(SchedulerPolicy& p, unsigned sched, V warps, const SmView& sm) {
    p.order(sched, warps, sm);
    return warps;
}
} // namespace

TEST(TwoLevelPolicy, GroupOfTheGreedyWarpGoesFirst) {
    // Scheduler 0 owns even slots 0..10, ages = slot: groups of 2 are {0,2}, {4,6}, {8,10}.
    FakeSmView sm(12);
    TwoLevelPolicy p(2);
    const V mine{10, 8, 6, 4, 2, 0};
    // No issue yet: oldest first.
    EXPECT_EQ(ordered(p, 0, mine, sm), (V{0, 2, 4, 6, 8, 10}));
    // Warp 6 issued: 6 first, then its group mate 4, then the others oldest first.
    p.onIssue(0, 6, sm);
    EXPECT_EQ(ordered(p, 0, mine, sm), (V{6, 4, 0, 2, 8, 10}));
    // GTO would go to the oldest warp 0 as soon as 6 stalls; two-level stays in the group.
    GtoPolicy gto;
    gto.onIssue(0, 6, sm);
    EXPECT_EQ(ordered(gto, 0, mine, sm), (V{6, 0, 2, 4, 8, 10}));
    // 4 issues (6 stalled): same group, 4 leads.
    p.onIssue(0, 4, sm);
    EXPECT_EQ(ordered(p, 0, mine, sm), (V{4, 6, 0, 2, 8, 10}));
    // The whole group stalled and 10 issued: group {8, 10} is current.
    p.onIssue(0, 10, sm);
    EXPECT_EQ(ordered(p, 0, mine, sm), (V{10, 8, 0, 2, 4, 6}));
}

TEST(TwoLevelPolicy, GroupsFollowAgeNotSlot) {
    // Ages: slot 0 -> 9, 2 -> 1, 4 -> 5, 6 -> 3. Age order 2, 6, 4, 0; groups {2,6}, {4,0}.
    FakeSmView sm(8, {9, 0, 1, 0, 5, 0, 3, 0});
    TwoLevelPolicy p(2);
    p.onIssue(0, 0, sm);
    EXPECT_EQ(ordered(p, 0, {0, 2, 4, 6}, sm), (V{0, 4, 2, 6}));
    // The greedy warp ended: no current group, oldest first.
    p.onWarpEnd(0);
    EXPECT_EQ(ordered(p, 0, {2, 4, 6}, sm), (V{2, 6, 4}));
    // Schedulers keep separate greedy warps.
    p.onIssue(1, 3, sm);
    EXPECT_EQ(ordered(p, 0, {2, 4, 6}, sm), (V{2, 6, 4}));
}

} // namespace two_level_policy_test
