// Dynamic OAWS: locality warps (GTO priority below OCW) predicted 0 misses; thrashing warps
// Div x 50% + GTO priority; OCW learned from fully/partially cached divergent loads.
// Setup: 6 warps, ages = slot, so GTO priority (age rank) = slot. OCW starts at 2.
#include <gtest/gtest.h>

#include "common/Stats.hpp"
#include "scheduler/OawsDynPolicy.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace oaws_dyn_policy_test {

using namespace gpusim;
using gpusim::test::FakeSmView;

namespace {
constexpr uint64_t kDiv = 0x50, kCoh = 0x60, kAssoc = 0x70;
// 32 accesses over 32 sets: divergent and not associativity-sensitive (32 > 48 is false).
LoadServicedEvent divLoad(bool fullyCached, unsigned warp = 0) { return {warp, kDiv, 32, 32, 32, fullyCached}; }

struct Bench {
    FakeSmView sm{6};
    OawsDynPolicy p{OawsDynPolicy::Params{}};
    Bench() {
        p.attach(sm);
        p.onKernelStart();
        p.onCycle(0, sm);
    }
    void feed(unsigned n, bool fc) {
        for (unsigned i = 0; i < n; ++i) p.onLoadServiced(divLoad(fc));
    }
};
} // namespace

TEST(OawsDynPolicy, LocalityWarpsPredictZeroThrashingWarpsDivHalfPlusPriority) {
    Bench b;
    b.feed(1, false);  // teaches the DLC; CNT 128 -> 127
    EXPECT_EQ(b.p.ocw().ocw(), 2u);
    for (unsigned w = 0; w < 6; ++w) b.sm.nextLoad(w, kDiv);
    // Warps 0 and 1: locality warps, 0 misses: they issue even with no MSHR free.
    b.sm.mshrFree_ = 0;
    EXPECT_EQ(b.p.predictMisses(0, b.sm), 0u);
    EXPECT_TRUE(b.p.canIssue(0, b.sm));
    EXPECT_TRUE(b.p.canIssue(1, b.sm));
    // Thrashing warps: 32 x 50% + priority: warp 2 -> 18, warp 5 -> 21.
    EXPECT_EQ(b.p.predictMisses(2, b.sm), 18u);
    EXPECT_EQ(b.p.predictMisses(5, b.sm), 21u);
    b.sm.mshrFree_ = 17;
    EXPECT_FALSE(b.p.canIssue(2, b.sm));
    b.sm.mshrFree_ = 18;
    EXPECT_TRUE(b.p.canIssue(2, b.sm));
    EXPECT_FALSE(b.p.canIssue(5, b.sm));
    // A branch-divergent thrashing warp with 4 active lanes needs only 2 + 5 = 7.
    b.sm.nextLoad(5, kDiv, 4);
    b.sm.mshrFree_ = 7;
    EXPECT_TRUE(b.p.canIssue(5, b.sm));
    // Coherent load of a thrashing warp: 1.
    b.sm.nextLoad(4, kCoh);
    EXPECT_EQ(b.p.predictMisses(4, b.sm), 1u);
    // When warp 0 ends, everyone moves up one priority: warp 2 becomes a locality warp.
    b.sm.at(0).valid = false;
    b.p.onWarpEnd(0);
    b.p.onCycle(1, b.sm);
    EXPECT_EQ(b.p.predictMisses(2, b.sm), 0u);
    EXPECT_EQ(b.p.predictMisses(3, b.sm), 16u + 2u);
}

TEST(OawsDynPolicy, OcwRisesAfterFullyCachedLoadsAndFallsOnPartialOnes) {
    Bench b;
    b.feed(1, false);    // CNT 127
    b.feed(127, true);   // CNT 254
    EXPECT_EQ(b.p.ocw().ocw(), 2u);
    b.feed(1, true);     // CNT 255 = Cmax: OCW 3, CNT 0
    EXPECT_EQ(b.p.ocw().ocw(), 3u);
    b.sm.nextLoad(2, kDiv);
    EXPECT_EQ(b.p.predictMisses(2, b.sm), 0u);  // warp 2 is now a locality warp
    b.feed(254, true);
    EXPECT_EQ(b.p.ocw().ocw(), 3u);
    b.feed(1, true);     // the 255th fully cached load since the last step: OCW 4
    EXPECT_EQ(b.p.ocw().ocw(), 4u);
    // Partially cached, delta 1: CNT is 0 right after the step, so the first one lowers OCW to 3
    // (CNT = 255); 255 more bring CNT to 0 and OCW to 2.
    b.feed(1, false);
    EXPECT_EQ(b.p.ocw().ocw(), 3u);
    b.feed(254, false);
    EXPECT_EQ(b.p.ocw().ocw(), 3u);
    b.feed(1, false);
    EXPECT_EQ(b.p.ocw().ocw(), 2u);
    EXPECT_EQ(b.p.predictMisses(2, b.sm), 18u);
    // Coherent loads never move OCW.
    for (int i = 0; i < 1000; ++i) b.p.onLoadServiced({0, kCoh, 32, 1, 1, true});
    EXPECT_EQ(b.p.ocw().ocw(), 2u);
    EXPECT_EQ(b.p.ocw().cnt(), 255u);
}

TEST(OawsDynPolicy, AssociativitySensitiveLoadsLowerOcwFaster) {
    Bench b;
    b.feed(1, false);
    b.feed(128, true);   // OCW 3, CNT 0
    b.feed(200, true);   // CNT 200
    // 32 accesses in 4 sets: 32 > 1.5 x 4: sensitive, delta = ceil(CNT/2):
    // 200 -> 100 -> 50 -> 25 -> 12 -> 6 -> 3 -> 1 -> 0: the 8th partial load lowers OCW.
    for (int i = 0; i < 7; ++i) b.p.onLoadServiced({0, kAssoc, 32, 32, 4, false});
    EXPECT_EQ(b.p.ocw().ocw(), 3u);
    EXPECT_EQ(b.p.ocw().cnt(), 1u);
    b.p.onLoadServiced({0, kAssoc, 32, 32, 4, false});
    EXPECT_EQ(b.p.ocw().ocw(), 2u);
}

TEST(OawsDynPolicy, KernelLaunchRestartsTheEstimate) {
    Bench b;
    b.feed(1, false);
    b.feed(128, true);
    EXPECT_EQ(b.p.ocw().ocw(), 3u);
    b.p.onKernelStart();
    EXPECT_EQ(b.p.ocw().ocw(), 2u);
    EXPECT_EQ(b.p.ocw().cnt(), 128u);
    EXPECT_FALSE(b.p.dlc().contains(kDiv));
    OawsDynPolicy::Params keep;
    keep.resetPerKernel = false;
    OawsDynPolicy k(keep);
    k.attach(b.sm);
    for (int i = 0; i < 128; ++i) k.onLoadServiced(divLoad(true));
    EXPECT_EQ(k.ocw().ocw(), 3u);
    k.onKernelStart();
    EXPECT_EQ(k.ocw().ocw(), 3u);
}

// The statistics that show what OCW estimation sees and what Eq. 1 lets the thrashing warps do
// (validation/notes/oaws-mshr.md): serviced divergent loads split by the class of their warp
// (GTO priority below OCW: locality) and by fully/partially cached, the associativity-sensitive
// updates (delta = CNT/2) and the sets touched (the Sets register).
TEST(OawsDynPolicy, StatisticsSplitDivergentLoadsByWarpClass) {
    Bench b;
    StatRegistry stats;
    b.p.registerStats(stats, "sm0.sched.");
    b.p.onLoadServiced(divLoad(false, 0));                  // locality, partial; 32 sets: not sensitive
    b.p.onLoadServiced(divLoad(true, 1));                   // locality, fully cached
    b.p.onLoadServiced(divLoad(true, 2));                   // thrashing, fully cached
    b.p.onLoadServiced(divLoad(false, 5));                  // thrashing, partial
    b.p.onLoadServiced({3, kAssoc, 32, 32, 8, false});     // thrashing, 8 sets: sensitive (32 > 12)
    b.p.onLoadServiced({4, kCoh, 32, 1, 1, true});          // coherent: not counted
    EXPECT_EQ(stats.get("sm0.sched.oaws_locality_divergent_loads"), 2);
    EXPECT_EQ(stats.get("sm0.sched.oaws_locality_divergent_fully_cached"), 1);
    EXPECT_EQ(stats.get("sm0.sched.oaws_thrashing_divergent_loads"), 3);
    EXPECT_EQ(stats.get("sm0.sched.oaws_thrashing_divergent_fully_cached"), 1);
    EXPECT_EQ(stats.get("sm0.sched.oaws_assoc_sensitive_updates"), 1);
    EXPECT_DOUBLE_EQ(stats.get("sm0.sched.oaws_divergent_sets"), (4 * 32 + 8) / 5.0);
    // A warp's class follows OCW: after OCW rises to 3, warp 2's loads count as locality loads.
    b.feed(300, true);
    EXPECT_EQ(b.p.ocw().ocw(), 3u);
    const double loc = stats.get("sm0.sched.oaws_locality_divergent_loads");
    b.p.onLoadServiced(divLoad(true, 2));
    EXPECT_EQ(stats.get("sm0.sched.oaws_locality_divergent_loads"), loc + 1);
    EXPECT_EQ(stats.get("sm0.sched.oaws_thrashing_divergent_loads"), 3);
}

} // namespace oaws_dyn_policy_test
