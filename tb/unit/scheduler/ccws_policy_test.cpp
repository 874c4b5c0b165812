// CCWS: a VTA hit raises the warp's lost-locality score, the cumulative cutoff clears Can-Issue
// for loads of the warps past it, and scores decay by one per cycle back to the base.
// Setup in every case: 4 warps (ages = slot), base 100, K_THROTTLE 8, so the cutoff is
// 4 x 100 = 400.
#include <gtest/gtest.h>

#include "scheduler/CcwsPolicy.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

using namespace gpusim;
using gpusim::test::FakeSmView;

namespace {
constexpr uint64_t kLineA = 0x1000, kLineB = 0x2000;

L1AccessEvent readMiss(unsigned warp, uint64_t line) { return {warp, 0x50, line, false, false, false}; }

struct Bench {
    FakeSmView sm{4};
    CcwsPolicy p{CcwsPolicy::Params{}};
    Bench() {
        p.attach(sm);
        p.onKernelStart();
        p.onCycle(0, sm);  // cutoff 400
        for (unsigned w = 0; w < 4; ++w) sm.nextLoad(w, 0x50);
    }
};
} // namespace

TEST(CcwsPolicy, VtaHitPushesTheYoungestWarpPastTheCutoffThenDecayRestoresIt) {
    Bench b;
    EXPECT_EQ(b.p.cutoff(), 400u);
    for (unsigned w = 0; w < 4; ++w) EXPECT_TRUE(b.p.canIssue(w, b.sm)) << w;
    // 20 instructions issued, then warp 2 loses line A and misses on it again: one VTA hit.
    for (int i = 0; i < 20; ++i) b.p.onIssue(0, 0, b.sm);
    b.p.onL1Evict(kLineA, 2);
    b.p.onL1Access(readMiss(2, kLineA));
    EXPECT_EQ(b.p.vtaHits(), 1u);
    // dLLS = 8 x (1 hit / 20 instructions) x 400 = 160: score 260.
    EXPECT_EQ(b.p.score(2), 260u);
    // Next cycle: decay to 259. Sorted by score: W2 259, W0 100, W1 100, W3 100 (ties: older first).
    // Prefix sums before each: 0, 259, 359, 459 -> W3 starts past 400: loads refused.
    b.p.onCycle(1, b.sm);
    EXPECT_EQ(b.p.score(2), 259u);
    EXPECT_TRUE(b.p.canIssue(2, b.sm));
    EXPECT_TRUE(b.p.canIssue(0, b.sm));
    EXPECT_TRUE(b.p.canIssue(1, b.sm));
    EXPECT_FALSE(b.p.canIssue(3, b.sm));
    // Only loads are gated: W3's ALU instruction issues.
    b.sm.nextAlu(3);
    EXPECT_TRUE(b.p.canIssue(3, b.sm));
    b.sm.nextLoad(3, 0x50);
    // W3 stays throttled while W2's score + 200 >= 400, i.e. score >= 200: until cycle 60
    // (260 - 60 = 200); at cycle 61 the score is 199 and W3 may load again.
    for (uint64_t c = 2; c <= 60; ++c) b.p.onCycle(c, b.sm);
    EXPECT_EQ(b.p.score(2), 200u);
    EXPECT_FALSE(b.p.canIssue(3, b.sm));
    b.p.onCycle(61, b.sm);
    EXPECT_TRUE(b.p.canIssue(3, b.sm));
    // Back to the base after 160 cycles in all, and no lower.
    for (uint64_t c = 62; c <= 200; ++c) b.p.onCycle(c, b.sm);
    EXPECT_EQ(b.p.score(2), 100u);
}

TEST(CcwsPolicy, OnlyTheOwnersMissesHitItsVictimTags) {
    Bench b;
    for (int i = 0; i < 20; ++i) b.p.onIssue(0, 0, b.sm);
    b.p.onL1Evict(kLineA, 2);
    b.p.onL1Access(readMiss(1, kLineA));  // another warp: no lost intra-warp locality
    b.p.onL1Access({2, 0x50, kLineA, true, false, false});   // a hit does not probe
    b.p.onL1Access({2, 0x50, kLineA, false, false, true});   // nor does a store
    EXPECT_EQ(b.p.vtaHits(), 0u);
    b.p.onL1Access({2, 0x50, kLineA, false, true, false});   // a merged miss does
    EXPECT_EQ(b.p.vtaHits(), 1u);
    b.p.onL1Access(readMiss(2, kLineA));  // the tag left the VTA on its hit
    EXPECT_EQ(b.p.vtaHits(), 1u);
    b.p.onL1Evict(kLineB, -1);  // no owner: ignored
    EXPECT_EQ(b.p.vta().occupancy(2), 0u);
}

TEST(CcwsPolicy, TwoWarpsLosingLocalityThrottleTwo) {
    // The CCWS paper's Figure 8, T1 -> T2: W2 and W0 both get VTA hits and push W3 and W1 past
    // the cutoff. 40 instructions: first hit dLLS = 8 x 1/40 x 400 = 80 (W2: 180); second hit
    // 8 x 2/40 x 400 = 160 (W0: 260). Next cycle 259 and 179; sorted W0, W2, W1, W3 with sums
    // before each of 0, 259, 438, 538 -> W1 and W3 refused.
    Bench b;
    for (int i = 0; i < 40; ++i) b.p.onIssue(0, 0, b.sm);
    b.p.onL1Evict(kLineA, 2);
    b.p.onL1Evict(kLineB, 0);
    b.p.onL1Access(readMiss(2, kLineA));
    b.p.onL1Access(readMiss(0, kLineB));
    EXPECT_EQ(b.p.score(2), 180u);
    EXPECT_EQ(b.p.score(0), 260u);
    b.p.onCycle(1, b.sm);
    EXPECT_TRUE(b.p.canIssue(0, b.sm));
    EXPECT_FALSE(b.p.canIssue(1, b.sm));
    EXPECT_TRUE(b.p.canIssue(2, b.sm));
    EXPECT_FALSE(b.p.canIssue(3, b.sm));
    // A warp whose own score alone reaches the cutoff is the only one left loading: a third hit
    // on W0 adds 8 x 3/40 x 400 = 240 (W0: 499 -> 498 after decay; W2 178).
    b.p.onL1Evict(kLineA, 0);
    b.p.onL1Access(readMiss(0, kLineA));
    EXPECT_EQ(b.p.score(0), 499u);
    b.p.onCycle(2, b.sm);
    EXPECT_TRUE(b.p.canIssue(0, b.sm));
    EXPECT_FALSE(b.p.canIssue(2, b.sm));
    // A new warp in slot 2 starts from the base score with an empty VTA part.
    b.p.onWarpEnd(2);
    b.p.onWarpStart(2);
    EXPECT_EQ(b.p.score(2), 100u);
}
