// Static OAWS: Eq. 1 with Miss_pred = active threads x SMR for DLC-divergent loads and 1 for
// coherent ones. The issue's example: a 32-lane divergent load waits while fewer than 16 MSHRs
// are free and issues once they are.
#include <gtest/gtest.h>

#include "scheduler/OawsStaticPolicy.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace oaws_static_policy_test {

using namespace gpusim;
using gpusim::test::FakeSmView;

namespace {
constexpr uint64_t kDiv = 0x50, kCoh = 0x60;
LoadServicedEvent serviced(unsigned warp, uint64_t pc, unsigned accesses, unsigned sets, bool fc = false) {
    return {warp, pc, 32, accesses, sets, fc};
}
} // namespace

TEST(OawsStaticPolicy, DivergentLoadWaitsForSixteenFreeMshrs) {
    FakeSmView sm(4);
    OawsStaticPolicy p(OawsStaticPolicy::Params{});  // SMR 0.5
    p.attach(sm);
    p.onKernelStart();
    // Not yet in the DLC: predicted coherent, one miss.
    sm.nextLoad(0, kDiv);
    sm.mshrFree_ = 0;
    EXPECT_FALSE(p.canIssue(0, sm));
    sm.mshrFree_ = 1;
    EXPECT_TRUE(p.canIssue(0, sm));
    p.onIssue(0, 0, sm);
    EXPECT_EQ(p.missInflight(), 1u);
    // Serviced with 32 line accesses: divergent, recorded; its prediction leaves Miss_inflight.
    p.onLoadServiced(serviced(0, kDiv, 32, 8));
    EXPECT_EQ(p.missInflight(), 0u);
    EXPECT_TRUE(p.dlc().contains(kDiv));
    // Now 32 lanes x 50% = 16 MSHRs are needed.
    sm.nextLoad(1, kDiv);
    for (unsigned free : {0u, 8u, 15u}) {
        sm.mshrFree_ = free;
        EXPECT_FALSE(p.canIssue(1, sm)) << free << " free";
    }
    sm.mshrFree_ = 16;
    EXPECT_TRUE(p.canIssue(1, sm));
    p.onIssue(0, 1, sm);
    EXPECT_EQ(p.missInflight(), 16u);
    // Until warp 1's load is serviced, its 16 predicted misses are counted: with 16 free entries
    // a second divergent load sees 16 - 16 = 0 available.
    sm.nextLoad(2, kDiv);
    EXPECT_FALSE(p.canIssue(2, sm));
    p.onLoadServiced(serviced(1, kDiv, 32, 8));
    EXPECT_TRUE(p.canIssue(2, sm));
    // Coherent loads and stores.
    sm.mshrFree_ = 1;
    sm.nextLoad(3, kCoh);
    EXPECT_TRUE(p.canIssue(3, sm));
    sm.mshrFree_ = 0;
    EXPECT_FALSE(p.canIssue(3, sm));
    sm.at(3).nextIsLoad = false;
    sm.at(3).nextIsStore = true;
    EXPECT_TRUE(p.canIssue(3, sm));  // stores use no MSHR
}

TEST(OawsStaticPolicy, PredictionScalesWithActiveLanesAndSmr) {
    FakeSmView sm(2);
    OawsStaticPolicy::Params prm;
    OawsStaticPolicy p(prm);
    p.attach(sm);
    p.onLoadServiced(serviced(0, kDiv, 3, 3));  // 3 lines: divergent
    // 17 active lanes x 0.5 = 8.5 -> 9 (rounded up).
    sm.nextLoad(0, kDiv, 17);
    EXPECT_EQ(p.predictMisses(0, sm), 9u);
    sm.mshrFree_ = 8;
    EXPECT_FALSE(p.canIssue(0, sm));
    sm.mshrFree_ = 9;
    EXPECT_TRUE(p.canIssue(0, sm));
    // SMR 100%: one entry per thread; SMR 0: OAWS off for divergent loads.
    prm.smr = 1.0;
    OawsStaticPolicy full(prm);
    full.onLoadServiced(serviced(0, kDiv, 32, 32));
    sm.nextLoad(1, kDiv, 32);
    EXPECT_EQ(full.predictMisses(1, sm), 32u);
    prm.smr = 0.0;
    OawsStaticPolicy off(prm);
    off.onLoadServiced(serviced(0, kDiv, 32, 32));
    EXPECT_EQ(off.predictMisses(1, sm), 0u);
    // The DLC is per kernel.
    p.onKernelStart();
    EXPECT_EQ(p.predictMisses(0, sm), 1u);
}

TEST(OawsStaticPolicy, LoadWithoutActiveLanesIsNeverHeldNorCharged) {
    FakeSmView sm(1);
    OawsStaticPolicy p(OawsStaticPolicy::Params{});
    p.attach(sm);
    sm.nextLoad(0, kCoh, 0);
    sm.mshrFree_ = 0;
    EXPECT_TRUE(p.canIssue(0, sm));
    p.onIssue(0, 0, sm);
    EXPECT_EQ(p.missInflight(), 0u);
}

} // namespace oaws_static_policy_test
