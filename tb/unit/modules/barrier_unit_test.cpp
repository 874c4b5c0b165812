// BarrierUnit: a CTA barrier opens when the last live warp arrives; exits count too.
#include <gtest/gtest.h>

#include "modules/BarrierUnit.hpp"

namespace barrier_unit_test {

using namespace gpusim;

TEST(BarrierUnit, OpensOnLastArrival) {
    BarrierUnit b(4);
    b.ctaStart(2, 3);
    EXPECT_FALSE(b.arrive(2));
    EXPECT_FALSE(b.arrive(2));
    EXPECT_EQ(b.waiting(2), 2u);
    EXPECT_TRUE(b.arrive(2));   // third of three
    EXPECT_EQ(b.waiting(2), 0u);
    // Reusable: the next barrier of the same CTA needs all three again.
    EXPECT_FALSE(b.arrive(2));
    EXPECT_FALSE(b.arrive(2));
    EXPECT_TRUE(b.arrive(2));
}

TEST(BarrierUnit, ExitReleasesWaitingWarps) {
    BarrierUnit b(2);
    b.ctaStart(0, 3);
    EXPECT_FALSE(b.arrive(0));
    EXPECT_FALSE(b.arrive(0));
    EXPECT_TRUE(b.warpExit(0));  // the straggler exits instead: 2 arrived of 2 live
    EXPECT_EQ(b.live(0), 2u);
    EXPECT_EQ(b.waiting(0), 0u);
    // Later barriers count only the two live warps.
    EXPECT_FALSE(b.arrive(0));
    EXPECT_TRUE(b.arrive(0));
}

TEST(BarrierUnit, ExitWithNobodyWaitingOpensNothing) {
    BarrierUnit b(2);
    b.ctaStart(1, 3);
    EXPECT_FALSE(b.warpExit(1));  // live 2, nobody waiting
    EXPECT_FALSE(b.arrive(1));
    EXPECT_TRUE(b.arrive(1));     // 2 of 2
    EXPECT_FALSE(b.warpExit(1));
    EXPECT_FALSE(b.warpExit(1));
    EXPECT_EQ(b.live(1), 0u);
}

TEST(BarrierUnit, CtasAreIndependent) {
    BarrierUnit b(2);
    b.ctaStart(0, 2);
    b.ctaStart(1, 1);
    EXPECT_FALSE(b.arrive(0));
    EXPECT_TRUE(b.arrive(1));   // single-warp CTA opens at once
    EXPECT_EQ(b.waiting(0), 1u);
    EXPECT_TRUE(b.arrive(0));
    // ctaStart resets a slot for a new CTA.
    b.ctaStart(0, 2);
    EXPECT_EQ(b.waiting(0), 0u);
    EXPECT_EQ(b.live(0), 2u);
}

} // namespace barrier_unit_test
