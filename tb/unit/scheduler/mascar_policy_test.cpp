// MASCAR's scheduling side: memory instructions first while the memory system has room; at
// saturation (at most 1 free MSHR or 1 free miss-queue slot) only the owner warp issues memory
// instructions. The re-execution queue is the SM's (see the scheduler_sm_mechanisms test).
#include <gtest/gtest.h>

#include <vector>

#include "scheduler/MascarPolicy.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace mascar_policy_test {

using namespace gpusim;
using gpusim::test::FakeSmView;
using V = std::vector<unsigned>;

namespace {
V ordered(SchedulerPolicy& p, unsigned sched, V warps, const SmView& sm) {
    p.order(sched, warps, sm);
    return warps;
}
} // namespace

TEST(MascarPolicy, MemoryFirstThenOwnerModeAtSaturation) {
    FakeSmView sm(4);  // ages = slot; 32 MSHRs free, 8 miss-queue slots free
    MascarPolicy p(MascarPolicy::Params{});
    p.attach(sm);
    EXPECT_EQ(p.reexecutionQueueEntries(), 32u);
    sm.nextAlu(0);
    sm.nextLoad(1, 0x50);
    sm.nextAlu(2);
    sm.at(3).nextIsStore = true;
    p.onCycle(0, sm);
    EXPECT_FALSE(p.saturated());
    // Memory-priority mode: the memory warps 1 and 3 first (oldest first), then 0 and 2.
    EXPECT_EQ(ordered(p, 0, {0, 1, 2, 3}, sm), (V{1, 3, 0, 2}));
    EXPECT_TRUE(p.canIssue(1, sm));
    p.onIssue(0, 1, sm);  // warp 1 issued a load: the last memory issuer

    // One MSHR left: saturated; the owner is warp 1, the last warp that issued memory.
    sm.mshrFree_ = 1;
    p.onCycle(1, sm);
    EXPECT_TRUE(p.saturated());
    EXPECT_EQ(p.owner(), 1);
    EXPECT_TRUE(p.canIssue(1, sm));   // the owner's next load
    EXPECT_FALSE(p.canIssue(3, sm));  // another warp's store waits
    EXPECT_TRUE(p.canIssue(0, sm));   // compute still issues
    // Order: the owner first, then GTO (greedy warp 1 is the owner anyway): 1, 0, 2, 3.
    EXPECT_EQ(ordered(p, 0, {0, 1, 2, 3}, sm), (V{1, 0, 2, 3}));

    // The owner's next instruction is compute and its load is in flight: ownership passes to the
    // oldest warp with a memory instruction, warp 3.
    sm.nextAlu(1);
    sm.at(1).pendingLoads = 1;
    p.onCycle(2, sm);
    EXPECT_EQ(p.owner(), 3);
    EXPECT_TRUE(p.canIssue(3, sm));
    EXPECT_EQ(ordered(p, 0, {0, 1, 2, 3}, sm), (V{3, 1, 0, 2}));

    // A full miss queue alone (1 slot free) is saturation too; room again ends owner mode.
    sm.mshrFree_ = 32;
    sm.missQueueFree_ = 1;
    p.onCycle(3, sm);
    EXPECT_TRUE(p.saturated());
    sm.missQueueFree_ = 2;
    p.onCycle(4, sm);
    EXPECT_FALSE(p.saturated());
    EXPECT_EQ(p.owner(), -1);
    sm.nextLoad(2, 0x60);
    EXPECT_TRUE(p.canIssue(2, sm));
}

TEST(MascarPolicy, OwnerThatEndsIsReplaced) {
    FakeSmView sm(3);
    MascarPolicy p(MascarPolicy::Params{});
    p.attach(sm);
    sm.nextLoad(0, 0x50);
    sm.nextLoad(2, 0x50);
    EXPECT_TRUE(p.canIssue(0, sm));
    p.onIssue(0, 0, sm);
    sm.mshrFree_ = 0;
    p.onCycle(0, sm);
    EXPECT_EQ(p.owner(), 0);
    sm.at(0).valid = false;
    p.onWarpEnd(0);
    p.onCycle(1, sm);
    EXPECT_EQ(p.owner(), 2);
    EXPECT_TRUE(p.canIssue(2, sm));
}

TEST(MascarPolicy, SendGateLetsEveryWarpIssueAndHoldsOnlyNonOwnersBelowTheL1d) {
    // send_gate 1 (the OAWS paper's MASCAR): at saturation no memory instruction waits at issue;
    // the LD/ST unit asks maySendBelowL1, which refuses every warp but the owner, and only while
    // saturated.
    FakeSmView sm(3);
    MascarPolicy::Params prm;
    prm.sendGate = true;
    MascarPolicy p(prm);
    p.attach(sm);
    EXPECT_TRUE(p.gatesSendBelowL1());
    sm.nextLoad(0, 0x50);
    sm.nextLoad(1, 0x50);
    p.onCycle(0, sm);
    EXPECT_TRUE(p.maySendBelowL1(1));  // not saturated: anyone
    EXPECT_TRUE(p.canIssue(0, sm));
    p.onIssue(0, 0, sm);
    sm.mshrFree_ = 1;
    p.onCycle(1, sm);
    ASSERT_TRUE(p.saturated());
    EXPECT_EQ(p.owner(), 0);
    EXPECT_TRUE(p.canIssue(1, sm));  // issue is not gated
    EXPECT_TRUE(p.maySendBelowL1(0));
    EXPECT_FALSE(p.maySendBelowL1(1));
    EXPECT_FALSE(p.maySendBelowL1(2));
    // Saturation is read when the LD/ST unit asks: it ends with a freed MSHR before the next
    // onCycle (which no longer comes once every warp has exited, while stores may be parked).
    sm.mshrFree_ = 2;
    EXPECT_TRUE(p.maySendBelowL1(1));

    MascarPolicy issueGate(MascarPolicy::Params{});  // the default gates at issue, not below
    EXPECT_FALSE(issueGate.gatesSendBelowL1());
}

} // namespace mascar_policy_test
