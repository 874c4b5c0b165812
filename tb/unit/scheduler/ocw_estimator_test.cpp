// OCW estimation, the OAWS paper's Figure 7, with its numbers: CNT starts at 128, Cmax 255, OCW
// starts at 2 and never goes below 2, Wmax = warps per SM (48 here).
#include <gtest/gtest.h>

#include "scheduler/OcwEstimator.hpp"

namespace ocw_estimator_test {

using namespace gpusim;

namespace {
int feed(OcwEstimator& e, unsigned n, bool fullyCached, bool assoc = false) {
    int changes = 0;
    for (unsigned i = 0; i < n; ++i) changes += e.update(fullyCached, assoc);
    return changes;
}
} // namespace

TEST(OcwEstimator, RisesAfter255FullyCachedLoads) {
    OcwEstimator e;
    EXPECT_EQ(e.ocw(), 2u);
    EXPECT_EQ(e.cnt(), 128u);
    // 128 + 126 = 254: not yet saturated.
    EXPECT_EQ(feed(e, 126, true), 0);
    EXPECT_EQ(e.cnt(), 254u);
    // The 127th reaches Cmax = 255: OCW 3, CNT 0 (B).
    EXPECT_EQ(e.update(true, false), +1);
    EXPECT_EQ(e.ocw(), 3u);
    EXPECT_EQ(e.cnt(), 0u);
    // From 0 it takes 255 fully cached loads for the next step.
    EXPECT_EQ(feed(e, 254, true), 0);
    EXPECT_EQ(e.ocw(), 3u);
    EXPECT_EQ(e.update(true, false), +1);
    EXPECT_EQ(e.ocw(), 4u);
}

TEST(OcwEstimator, FallsOnPartiallyCachedLoadsByOne) {
    OcwEstimator e;
    feed(e, 127, true);  // OCW 3, CNT 0
    feed(e, 10, true);   // CNT 10
    EXPECT_EQ(feed(e, 9, false), 0);  // delta 1: CNT 1
    EXPECT_EQ(e.cnt(), 1u);
    EXPECT_EQ(e.update(false, false), -1);  // CNT 0: OCW 2, CNT = Cmax (E)
    EXPECT_EQ(e.ocw(), 2u);
    EXPECT_EQ(e.cnt(), 255u);
}

TEST(OcwEstimator, AssociativitySensitiveLoadsHalveTheCounter) {
    OcwEstimator e;
    feed(e, 127, true);  // OCW 3, CNT 0
    feed(e, 200, true);  // CNT 200
    // delta = ceil(CNT / 2): 200 -> 100 -> 50 -> 25 -> 12 -> 6 -> 3 -> 1 -> 0 (8 loads; 200 with delta 1).
    EXPECT_EQ(feed(e, 7, false, true), 0);
    EXPECT_EQ(e.cnt(), 1u);
    EXPECT_EQ(e.update(false, true), -1);
    EXPECT_EQ(e.ocw(), 2u);
}

TEST(OcwEstimator, RightAfterARiseOnePartialLoadUndoesIt) {
    // Figure 7 read literally: after (B) CNT is 0, so the next partially cached load reaches 0
    // at once and (E) lowers OCW again.
    OcwEstimator e;
    feed(e, 127, true);
    EXPECT_EQ(e.ocw(), 3u);
    EXPECT_EQ(e.update(false, false), -1);
    EXPECT_EQ(e.ocw(), 2u);
    EXPECT_EQ(e.cnt(), 255u);
}

TEST(OcwEstimator, CornerCasesHoldTheCounter) {
    OcwEstimator::Params p;
    p.wmax = 3;
    OcwEstimator e(p);
    // At OCW 2 = minimum, CNT stops at 0 (D).
    EXPECT_EQ(feed(e, 300, false), 0);
    EXPECT_EQ(e.ocw(), 2u);
    EXPECT_EQ(e.cnt(), 0u);
    // 255 fully cached: OCW 3 = Wmax, CNT 0; 255 more: CNT stops at 255 (D), OCW stays 3.
    EXPECT_EQ(feed(e, 255, true), 1);
    EXPECT_EQ(feed(e, 400, true), 0);
    EXPECT_EQ(e.ocw(), 3u);
    EXPECT_EQ(e.cnt(), 255u);
    e.reset();
    EXPECT_EQ(e.ocw(), 2u);
    EXPECT_EQ(e.cnt(), 128u);
}

} // namespace ocw_estimator_test
