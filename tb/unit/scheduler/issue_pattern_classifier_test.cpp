// The iPAWS paper's Algorithm 1 with warps-of-interest (section 3.2) and the barrier score
// (section 3.3): iscore_i = inst_i + btime_i; WOI = warps up to the oldest warp with the most
// issue stalls; iscore_thr = W x iscore_max / 2; concave iff iscore_sum < iscore_thr;
// DoC = iscore_sum / iscore_thr. Every expectation below is computed by hand in its comment.
#include <gtest/gtest.h>

#include "scheduler/IssuePatternClassifier.hpp"

namespace issue_pattern_classifier_test {

using namespace gpusim;

namespace {
// Warps with ages 0..n-1 (slot order), the given instruction counts, no barrier wait, no stalls.
std::vector<IssuePatternWarp> warps(const std::vector<uint64_t>& inst, const std::vector<uint64_t>& stalls = {},
                                    const std::vector<uint64_t>& barrier = {}) {
    std::vector<IssuePatternWarp> r;
    for (size_t i = 0; i < inst.size(); ++i)
        r.push_back({i, inst[i], barrier.empty() ? 0 : barrier[i], stalls.empty() ? 0 : stalls[i]});
    return r;
}
} // namespace

TEST(IssuePatternClassifier, ConcaveWhenOldWarpsIssuedMost) {
    // 8 warps, no stalls recorded -> WOI = 8. max 100, thr = 8 x 100 / 2 = 400,
    // sum = 100+90+40+20+10+5 = 265 < 400: concave, DoC = 265 / 400 = 0.6625.
    const IssuePattern r = classifyIssuePattern(warps({100, 90, 40, 20, 10, 5, 0, 0}), {});
    EXPECT_EQ(r.warps, 8u);
    EXPECT_EQ(r.woi, 8u);
    EXPECT_EQ(r.scoreMax, 100u);
    EXPECT_EQ(r.scoreSum, 265u);
    EXPECT_DOUBLE_EQ(r.threshold, 400.0);
    EXPECT_DOUBLE_EQ(r.doc, 0.6625);
    EXPECT_FALSE(r.convex);
}

TEST(IssuePatternClassifier, ConvexWhenIssueIsSpreadAcrossWarps) {
    // sum = 100+95+90+90+85+80+80+75 = 695 >= thr 400: convex, DoC = 695 / 400 = 1.7375.
    const IssuePattern r = classifyIssuePattern(warps({100, 95, 90, 90, 85, 80, 80, 75}), {});
    EXPECT_EQ(r.scoreSum, 695u);
    EXPECT_DOUBLE_EQ(r.doc, 1.7375);
    EXPECT_TRUE(r.convex);
}

TEST(IssuePatternClassifier, SumEqualToThresholdIsConvex) {
    // Algorithm 1: "if iscore_sum < iscore_thr then concave else convex". [4, 0]: thr = 2 x 4 / 2
    // = 4 = sum -> convex, DoC 1.
    const IssuePattern r = classifyIssuePattern(warps({4, 0}), {});
    EXPECT_DOUBLE_EQ(r.doc, 1.0);
    EXPECT_TRUE(r.convex);
}

TEST(IssuePatternClassifier, WarpsOfInterestEndAtTheOldestWarpWithMostStalls) {
    // The paper's BLK case (Fig. 8): over all 8 warps [100, 90, 85, 80, 2, 1, 0, 0] looks concave
    // (sum 358 < thr 400), but the stall counters peak at warp 3 (9 stalls), so WOI = warps 0..3:
    // thr = 4 x 100 / 2 = 200, sum = 355 -> convex, DoC = 355 / 200 = 1.775.
    const auto w = warps({100, 90, 85, 80, 2, 1, 0, 0}, {3, 1, 2, 9, 0, 0, 0, 0});
    IssuePatternParams all;
    all.woiFromStalls = false;
    const IssuePattern naive = classifyIssuePattern(w, all);
    EXPECT_EQ(naive.woi, 8u);
    EXPECT_FALSE(naive.convex);
    const IssuePattern r = classifyIssuePattern(w, {});
    EXPECT_EQ(r.woi, 4u);
    EXPECT_EQ(r.scoreSum, 355u);
    EXPECT_DOUBLE_EQ(r.doc, 1.775);
    EXPECT_TRUE(r.convex);
    // Without the limit warp itself: WOI = 3, thr = 3 x 100 / 2 = 150, sum 275, DoC 1.8333...
    IssuePatternParams strict;
    strict.woiIncludesLimit = false;
    const IssuePattern s = classifyIssuePattern(w, strict);
    EXPECT_EQ(s.woi, 3u);
    EXPECT_DOUBLE_EQ(s.doc, 275.0 / 150.0);
}

TEST(IssuePatternClassifier, TiedStallMaximaPickTheOldestWarpAndInputOrderDoesNotMatter) {
    // Slots given youngest first (ages 3, 2, 1, 0). Stalls by age: age0 5, age1 1, age2 5, age3 0:
    // the oldest warp with the maximum is age 0 -> WOI = 1: W = 1, max = 40 (age 0's count),
    // thr = 20, sum 40 -> convex, DoC 2.
    std::vector<IssuePatternWarp> w = {{3, 1, 0, 0}, {2, 10, 0, 5}, {1, 20, 0, 1}, {0, 40, 0, 5}};
    const IssuePattern r = classifyIssuePattern(w, {});
    EXPECT_EQ(r.woi, 1u);
    EXPECT_EQ(r.scoreMax, 40u);
    EXPECT_DOUBLE_EQ(r.doc, 2.0);
}

TEST(IssuePatternClassifier, BarrierWaitTurnsABarrierFlattenedPatternConcave) {
    // The paper's PFT case (Fig. 9): barriers flatten instruction counts, [60 x 4, 20 x 4]:
    // thr = 8 x 60 / 2 = 240, sum 320 -> convex (DoC 320/240). With the older CTA's barrier wait
    // [500, 500, 400, 400, 0...]: scores [560, 560, 460, 460, 20 x 4], max 560, thr = 8 x 560 / 2
    // = 2240, sum = 2120 -> concave, DoC = 2120 / 2240.
    const auto w = warps({60, 60, 60, 60, 20, 20, 20, 20}, {}, {500, 500, 400, 400, 0, 0, 0, 0});
    IssuePatternParams noBarrier;
    noBarrier.barrierScore = false;
    const IssuePattern flat = classifyIssuePattern(w, noBarrier);
    EXPECT_TRUE(flat.convex);
    EXPECT_DOUBLE_EQ(flat.doc, 320.0 / 240.0);
    const IssuePattern r = classifyIssuePattern(w, {});
    EXPECT_EQ(r.scoreMax, 560u);
    EXPECT_EQ(r.scoreSum, 2120u);
    EXPECT_FALSE(r.convex);
    EXPECT_DOUBLE_EQ(r.doc, 2120.0 / 2240.0);
}

TEST(IssuePatternClassifier, ThresholdFactorAndDegenerateInputs) {
    // factor 0.25: thr = 8 x 100 x 0.25 = 200 < 265 -> the concave case above becomes convex.
    IssuePatternParams q;
    q.thresholdFactor = 0.25;
    EXPECT_TRUE(classifyIssuePattern(warps({100, 90, 40, 20, 10, 5, 0, 0}), q).convex);
    // Nothing issued: threshold 0 -> concave (stay greedy); no warps at all: empty result.
    const IssuePattern zero = classifyIssuePattern(warps({0, 0, 0}), {});
    EXPECT_EQ(zero.woi, 3u);
    EXPECT_FALSE(zero.convex);
    EXPECT_DOUBLE_EQ(zero.doc, 0.0);
    EXPECT_EQ(classifyIssuePattern({}, {}).warps, 0u);
}

} // namespace issue_pattern_classifier_test
