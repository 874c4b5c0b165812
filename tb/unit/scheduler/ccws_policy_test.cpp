// CCWS: a VTA hit raises the warp's lost-locality score, the cumulative cutoff clears Can-Issue
// for loads of the warps past it, scores decay by one per cycle back to the base, the per-warp
// cap (the authors' release: k_wsc = 8) bounds each score, the hits-per-instruction ratio counts
// the resident warps only, and only new misses probe the VTA, leaving the tag in place.
// Setup in every case: 4 warps (ages = slot), base 100, K_THROTTLE 8, so the cutoff is
// 4 x 100 = 400.
#include <gtest/gtest.h>

#include <vector>

#include "scheduler/CcwsPolicy.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace ccws_policy_test {

using namespace gpusim;
using gpusim::test::FakeSmView;

namespace {
constexpr uint64_t kLineA = 0x1000, kLineB = 0x2000;

L1AccessEvent readMiss(unsigned warp, uint64_t line) { return {warp, 0x50, line, false, false, false}; }
L1AccessEvent mergedMiss(unsigned warp, uint64_t line) { return {warp, 0x50, line, false, true, false}; }

CcwsPolicy::Params uncapped() {
    CcwsPolicy::Params p;
    p.scoreCap = 0;
    return p;
}

struct Bench {
    FakeSmView sm{4};
    CcwsPolicy p;
    explicit Bench(const CcwsPolicy::Params& params = {}) : p(params) {
        p.attach(sm);
        p.onKernelStart();
        p.onCycle(0, sm);  // cutoff 400
        for (unsigned w = 0; w < 4; ++w) sm.nextLoad(w, 0x50);
    }
    void issue(unsigned warp, int n) {
        for (int i = 0; i < n; ++i) p.onIssue(warp % 2, warp, sm);
    }
    // canIssue for warps 0..3 (each about to load): which may load now.
    std::vector<bool> mayLoad() {
        std::vector<bool> out;
        for (unsigned w = 0; w < 4; ++w) out.push_back(p.canIssue(w, sm));
        return out;
    }
    // Warp `w` loses line `line` and misses on it again: one VTA hit.
    void vtaHit(unsigned w, uint64_t line) {
        p.onL1Evict(line, static_cast<int>(w));
        p.onL1Access(readMiss(w, line));
    }
};
} // namespace

TEST(CcwsPolicy, VtaHitPushesTheYoungestWarpPastTheCutoffThenDecayRestoresIt) {
    Bench b(uncapped());  // the scoring and cutoff alone; the cap has its own tests below
    EXPECT_EQ(b.p.cutoff(), 400u);
    EXPECT_EQ(b.mayLoad(), (std::vector<bool>{true, true, true, true}));
    // 20 instructions issued, then warp 2 loses line A and misses on it again: one VTA hit.
    b.issue(0, 20);
    b.vtaHit(2, kLineA);
    EXPECT_EQ(b.p.vtaHits(), 1u);
    // dLLS = 8 x (1 hit / 20 instructions) x 400 = 160: score 260.
    EXPECT_EQ(b.p.score(2), 260u);
    // Next cycle: decay to 259. Sorted by score: W2 259, W0 100, W1 100, W3 100 (ties: older first).
    // Prefix sums before each: 0, 259, 359, 459 -> W3 starts past 400: loads refused.
    b.p.onCycle(1, b.sm);
    EXPECT_EQ(b.p.score(2), 259u);
    EXPECT_EQ(b.mayLoad(), (std::vector<bool>{true, true, true, false}));
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

TEST(CcwsPolicy, OnlyTheOwnersNewMissesHitItsVictimTagsAndTheTagStays) {
    Bench b;
    b.issue(0, 20);
    b.p.onL1Evict(kLineA, 2);
    b.p.onL1Access(readMiss(1, kLineA));  // another warp: no lost intra-warp locality
    b.p.onL1Access({2, 0x50, kLineA, true, false, false});  // a hit does not probe
    b.p.onL1Access(mergedMiss(2, kLineA));  // nor does a miss merged into an MSHR entry
    EXPECT_EQ(b.p.vtaHits(), 0u);
    b.p.onL1Access(readMiss(2, kLineA));  // a new miss does
    EXPECT_EQ(b.p.vtaHits(), 1u);
    // The probe is a lookup (the release's tag_array::probe): the tag stays, and the warp's
    // next new miss on the line is a VTA hit again.
    EXPECT_TRUE(b.p.vta().contains(2, kLineA));
    b.p.onL1Access(readMiss(2, kLineA));
    EXPECT_EQ(b.p.vtaHits(), 2u);
    // A store to the line takes its tag out of every warp's part.
    b.p.onL1Evict(kLineA, 0);
    b.p.onL1Access({3, 0x60, kLineA, false, false, true});
    EXPECT_FALSE(b.p.vta().contains(2, kLineA));
    EXPECT_FALSE(b.p.vta().contains(0, kLineA));
    b.p.onL1Access(readMiss(2, kLineA));
    EXPECT_EQ(b.p.vtaHits(), 2u);
    b.p.onL1Evict(kLineB, -1);  // no owner: ignored
    EXPECT_EQ(b.p.vta().occupancy(2), 0u);
}

TEST(CcwsPolicy, ProbeParametersRestoreTheEarlierReading) {
    CcwsPolicy::Params p;
    p.probeMerged = true;
    p.probeRemoves = true;
    Bench b(p);
    b.issue(0, 20);
    b.p.onL1Evict(kLineA, 2);
    b.p.onL1Access(mergedMiss(2, kLineA));  // probe_merged=1: a merged miss probes
    EXPECT_EQ(b.p.vtaHits(), 1u);
    EXPECT_FALSE(b.p.vta().contains(2, kLineA));  // probe_removes=1: the hit took the tag
    b.p.onL1Access(readMiss(2, kLineA));
    EXPECT_EQ(b.p.vtaHits(), 1u);
}

TEST(CcwsPolicy, TwoWarpsLosingLocalityThrottleTwo) {
    // The CCWS paper's Figure 8, T1 -> T2: W2 and W0 both get VTA hits and push W3 and W1 past
    // the cutoff. Uncapped, 40 instructions: first hit dLLS = 8 x 1/40 x 400 = 80 (W2: 180);
    // second hit 8 x 2/40 x 400 = 160 (W0: 260). Next cycle 259 and 179; sorted W0, W2, W1, W3
    // with sums before each of 0, 259, 438, 538 -> W1 and W3 refused.
    Bench b(uncapped());
    b.issue(0, 40);
    b.vtaHit(2, kLineA);
    b.vtaHit(0, kLineB);
    EXPECT_EQ(b.p.score(2), 180u);
    EXPECT_EQ(b.p.score(0), 260u);
    b.p.onCycle(1, b.sm);
    EXPECT_EQ(b.mayLoad(), (std::vector<bool>{true, false, true, false}));
    // Without the cap, a warp whose own score alone reaches the cutoff is the only one left
    // loading: a third hit on W0 adds 8 x 3/40 x 400 = 240 (W0: 499 -> 498 after decay).
    b.vtaHit(0, kLineA);
    EXPECT_EQ(b.p.score(0), 499u);
    b.p.onCycle(2, b.sm);
    EXPECT_TRUE(b.p.canIssue(0, b.sm));
    EXPECT_FALSE(b.p.canIssue(2, b.sm));
    // A new warp in slot 2 starts from the base score with an empty VTA part.
    b.p.onWarpEnd(2);
    b.p.onWarpStart(2);
    EXPECT_EQ(b.p.score(2), 100u);
}

TEST(CcwsPolicy, CapKeepsOneWarpFromHoldingTheWholeCutoff) {
    // The same three hits as above with the release's cap (k_wsc = 8): the cap is
    // hits/instructions x 8 x 400, equal to dLLS, so a hit sets the score to dLLS instead of
    // adding it: W2 100 + 80 = 180, cut to 80; W0 100 + 160, cut to 160; W0 160 + 240, cut to 240.
    Bench b;
    b.issue(0, 40);
    b.vtaHit(2, kLineA);
    EXPECT_EQ(b.p.scoreCap(), 80u);
    EXPECT_EQ(b.p.score(2), 80u);  // below the base: the cap wins over the base, as in the release
    b.vtaHit(0, kLineB);
    EXPECT_EQ(b.p.score(0), 160u);
    b.vtaHit(0, kLineA);
    EXPECT_EQ(b.p.scoreCap(), 240u);
    EXPECT_EQ(b.p.score(0), 240u);  // uncapped: 499, the whole cutoff
    // Next cycle W0 decays to 239; sorted W0 239, W1 100, W3 100, W2 80: sums before each 0, 239,
    // 339, 439 -> only W2 (the lowest score) is past the cutoff; uncapped only W0 could load.
    b.p.onCycle(1, b.sm);
    EXPECT_EQ(b.p.score(0), 239u);
    EXPECT_EQ(b.mayLoad(), (std::vector<bool>{true, true, false, true}));
    // A score below the base does not decay; it stays until the next hit.
    for (uint64_t c = 2; c <= 10; ++c) b.p.onCycle(c, b.sm);
    EXPECT_EQ(b.p.score(2), 80u);
}

TEST(CcwsPolicy, CapFallsWithTheRatioAndPullsADecayingScoreDown) {
    // 20 instructions, one hit on W1: dLLS = cap = 160, score 160. Then 20 more instructions
    // halve the ratio: the cap is 80, and the next decay step (159 > 80) cuts the score to 80.
    Bench b;
    b.issue(0, 20);
    b.vtaHit(1, kLineA);
    EXPECT_EQ(b.p.score(1), 160u);
    b.issue(0, 20);
    EXPECT_EQ(b.p.scoreCap(), 80u);
    b.p.onCycle(1, b.sm);
    EXPECT_EQ(b.p.score(1), 80u);
}

TEST(CcwsPolicy, RatioCountsOnlyResidentWarps) {
    // W3 issues 380 instructions and has one VTA hit, then ends. The ratio then counts the other
    // warps' 20 instructions and no hit; W0's hit makes it 1/20 (since the kernel started it would
    // be 2/400). Uncapped, with 3 warps left the cutoff is 300: dLLS = 8 x 1/20 x 300 = 120.
    Bench b(uncapped());
    b.issue(3, 380);
    b.vtaHit(3, kLineB);
    EXPECT_EQ(b.p.residentVtaHits(), 1u);
    EXPECT_EQ(b.p.residentInstructions(), 380u);
    b.p.onWarpEnd(3);
    b.sm.at(3).valid = false;
    EXPECT_EQ(b.p.residentVtaHits(), 0u);
    EXPECT_EQ(b.p.residentInstructions(), 0u);
    EXPECT_EQ(b.p.vtaHits(), 1u);  // the running count stays
    b.p.onCycle(1, b.sm);
    EXPECT_EQ(b.p.cutoff(), 300u);
    b.issue(0, 10);
    b.issue(1, 10);
    b.vtaHit(0, kLineA);
    EXPECT_EQ(b.p.score(0), 220u);
}

// priority=1, the OAWS paper's CCWS ("the warp that has the largest locality loss is exclusively
// prioritized"): the warp with the VTA hit goes before the greedy warp; with the default (GTO,
// the CCWS paper) the greedy warp keeps its place.
TEST(CcwsPolicy, ScoreFirstPriorityPutsTheLargestLocalityLossAheadOfTheGreedyWarp) {
    for (bool scoreFirst : {false, true}) {
        CcwsPolicy::Params params = uncapped();
        params.scoreFirst = scoreFirst;
        Bench b(params);
        b.issue(0, 20);       // warp 0 issued last: GTO's greedy warp on scheduler 0
        b.vtaHit(2, kLineA);  // warp 2: score 260 (first test), the others 100
        std::vector<unsigned> order{0, 2};
        b.p.order(0, order, b.sm);
        EXPECT_EQ(order, scoreFirst ? (std::vector<unsigned>{2, 0}) : (std::vector<unsigned>{0, 2}))
            << "scoreFirst " << scoreFirst;
        // Equal scores keep GTO's order: warps 0 and 1 (both 100) stay oldest first behind 2.
        std::vector<unsigned> four{3, 1, 2, 0};
        b.p.order(0, four, b.sm);
        EXPECT_EQ(four.front(), scoreFirst ? 2u : 0u);
        if (scoreFirst) {
            EXPECT_EQ(four, (std::vector<unsigned>{2, 0, 1, 3}));
        }
    }
}

} // namespace ccws_policy_test
