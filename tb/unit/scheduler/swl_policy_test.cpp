// SWL (static warp limiting): only the N oldest resident warps issue, GTO among them. Checked on
// canIssue with a fake view, and through the real IssueStage arbitration with every warp ready.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "modules/IssueStage.hpp"
#include "scheduler/SwlPolicy.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace swl_policy_test {

using namespace gpusim;
using gpusim::test::FakeSmView;

TEST(SwlPolicy, OnlyTheTwoOldestWarpsIssue) {
    // Ages by slot: 0->5, 1->0, 2->4, 3->1, 4->3, 5->2. Oldest two: slot 1 (age 0), slot 3 (age 1).
    FakeSmView sm(6, {5, 0, 4, 1, 3, 2});
    SwlPolicy p(2, false);
    p.attach(sm);
    p.onCycle(0, sm);
    std::vector<bool> can;
    for (unsigned w = 0; w < 6; ++w) can.push_back(p.canIssue(w, sm));
    EXPECT_EQ(can, (std::vector<bool>{false, true, false, true, false, false}));

    // Slot 1 ends: the next oldest, slot 5 (age 2), joins.
    sm.at(1).valid = false;
    p.onWarpEnd(1);
    p.onCycle(1, sm);
    can.clear();
    for (unsigned w = 0; w < 6; ++w) can.push_back(p.canIssue(w, sm));
    EXPECT_EQ(can, (std::vector<bool>{false, false, false, true, false, true}));
}

namespace {

// 50 cycles of the real IssueStage over 8 always-ready warps (ages = slot, two schedulers):
// which warps issued and how many instructions. `stalls(warp, cycle)` marks a warp not ready.
template <class Stalls>
std::pair<std::set<unsigned>, unsigned> issueFor50Cycles(SwlPolicy& p, Stalls&& stalls) {
    FakeSmView sm(8);
    p.attach(sm);
    IssueStage stage(2, p);
    std::set<unsigned> issuers;
    unsigned issued = 0;
    for (uint64_t c = 0; c < 50; ++c) {
        sm.cycle_ = c;
        p.onCycle(c, sm);
        issued += stage.cycle(sm, [&](unsigned w) {
            if (stalls(w, c) || !p.canIssue(w, sm)) return false;
            issuers.insert(w);
            return true;
        });
    }
    return {issuers, issued};
}

} // namespace

TEST(SwlPolicy, AtMostTwoWarpsIssueThroughTheIssueStage) {
    // Warps 0 and 1 are the two oldest; over 50 cycles nothing else may issue, and both issue
    // every cycle (one per scheduler), GTO keeping each scheduler on its greedy warp.
    SwlPolicy p(2, false);
    const auto [issuers, issued] = issueFor50Cycles(p, [](unsigned, uint64_t) { return false; });
    EXPECT_EQ(issuers, (std::set<unsigned>{0, 1}));
    EXPECT_EQ(issued, 100u);
}

TEST(SwlPolicy, PerSchedulerLimit) {
    // Even slots 0 (age 5), 2 (4), 4 (3): oldest two are 4 and 2. Odd slots 1 (0), 3 (1), 5 (2):
    // 1 and 3.
    FakeSmView sm(6, {5, 0, 4, 1, 3, 2});
    SwlPolicy p(2, true);
    p.attach(sm);
    p.onCycle(0, sm);
    std::vector<bool> can;
    for (unsigned w = 0; w < 6; ++w) can.push_back(p.canIssue(w, sm));
    EXPECT_EQ(can, (std::vector<bool>{false, true, true, true, true, false}));
}

TEST(SwlPolicy, TwoPerSchedulerLetFourWarpsIssueThroughTheIssueStage) {
    // The papers' meaning of SWL-Best's "2" (GPGPU-Sim's swl limits each scheduler unit): with
    // per_scheduler=1 the two oldest even warps (0, 2) and the two oldest odd ones (1, 3) may issue,
    // 4 per SM. Every warp is always ready, so GTO would keep each scheduler on its oldest warp;
    // making warps 0 and 1 stall every other cycle lets 2 and 3 in, and never 4..7.
    SwlPolicy p(2, true);
    const auto [issuers, issued] =
        issueFor50Cycles(p, [](unsigned w, uint64_t c) { return (w == 0 || w == 1) && c % 2 == 1; });
    EXPECT_EQ(issuers, (std::set<unsigned>{0, 1, 2, 3}));
    EXPECT_EQ(issued, 100u);  // each scheduler still issues every cycle
}

TEST(SwlPolicy, WarpsAtABarrierOrPastExitDoNotHoldAPlace) {
    // Ages = slots, SM-wide limit 2. GPGPU-Sim's swl scheduler orders waiting warps (at a
    // barrier, finished) last, so they give their places to the next oldest: otherwise the
    // warps of a CTA larger than the limit that have not reached the barrier could never issue,
    // and the CTA would wait at it for ever (pathfinder under swl:1..3 did, before).
    FakeSmView sm(6);
    SwlPolicy p(2, false);
    p.attach(sm);
    auto allowed = [&](uint64_t cycle) {
        p.onCycle(cycle, sm);
        std::vector<bool> can;
        for (unsigned w = 0; w < 6; ++w) can.push_back(p.canIssue(w, sm));
        return can;
    };
    EXPECT_EQ(allowed(0), (std::vector<bool>{true, true, false, false, false, false}));
    sm.at(0).atBarrier = true;
    sm.at(1).exited = true;
    EXPECT_EQ(allowed(1), (std::vector<bool>{false, false, true, true, false, false}));
    // Released from the barrier, slot 0 is among the two oldest that may issue again.
    sm.at(0).atBarrier = false;
    EXPECT_EQ(allowed(2), (std::vector<bool>{true, false, true, false, false, false}));
}

} // namespace swl_policy_test
