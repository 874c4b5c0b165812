#include <gtest/gtest.h>

#include "memory/L2TagArray.hpp"

namespace l2_tag_array_test {

using namespace gpusim;

namespace {
constexpr uint64_t kLine = 128;
uint64_t line(unsigned n) { return n * kLine; }
} // namespace

TEST(L2TagArray, MissUntilInstalledThenHit) {
    L2TagArray t(4, 2);
    EXPECT_FALSE(t.find(1, line(5)));
    const auto out = t.install(1, line(5), false);
    EXPECT_FALSE(out.valid);  // an empty way was used
    ASSERT_TRUE(t.find(1, line(5)));
    EXPECT_FALSE(t.find(0, line(5)));  // sets are independent
    EXPECT_FALSE(t.dirty(1, *t.find(1, line(5))));
}

TEST(L2TagArray, EmptyWaysFillLowestFirst) {
    L2TagArray t(1, 4);
    t.install(0, line(1), false);
    t.install(0, line(2), false);
    EXPECT_EQ(*t.find(0, line(1)), 0u);
    EXPECT_EQ(*t.find(0, line(2)), 1u);
    EXPECT_FALSE(t.victim(0).valid);
}

TEST(L2TagArray, EveryWayIsFoundAtEachAssociativity) {
    // 8 and 16 ways take find()'s unrolled scans, 2 and 24 its general loop.
    for (unsigned ways : {2u, 8u, 16u, 24u}) {
        L2TagArray t(2, ways);
        EXPECT_FALSE(t.find(0, line(0))) << ways;  // an empty way's line is 0, but not valid
        for (unsigned n = 1; n <= ways; ++n) t.install(0, line(n), false);  // way n - 1
        for (unsigned n = 1; n <= ways; ++n) {
            ASSERT_TRUE(t.find(0, line(n))) << ways << " ways, line " << n;
            EXPECT_EQ(*t.find(0, line(n)), n - 1) << ways;
        }
        EXPECT_FALSE(t.find(0, line(ways + 1))) << ways;
        EXPECT_FALSE(t.find(1, line(ways))) << ways;  // the other set
    }
}

TEST(L2TagArray, VictimIsTheLeastRecentlyUsedAtEachAssociativity) {
    // 8 and 16 ways take victimWay()'s unrolled scans, 4 and 24 its general loop. Every way but
    // one is touched after the fill, so the victim is that one, wherever it sits; then the
    // lowest empty way of a set with a hole wins over any used way.
    for (unsigned ways : {4u, 8u, 16u, 24u}) {
        for (unsigned spared : {0u, ways / 2, ways - 1}) {
            L2TagArray t(1, ways);
            for (unsigned n = 1; n <= ways; ++n) t.install(0, line(n), false);  // way n - 1
            for (unsigned w = 0; w < ways; ++w)
                if (w != spared) t.touch(0, w);
            const auto v = t.victim(0);
            EXPECT_TRUE(v.valid) << ways;
            EXPECT_EQ(v.line, line(spared + 1)) << ways << " ways, spared way " << spared;
        }
        L2TagArray t(1, ways);
        for (unsigned n = 1; n <= ways / 2; ++n) t.install(0, line(n), false);
        EXPECT_FALSE(t.victim(0).valid) << ways;
        const auto out = t.install(0, line(100), false);
        EXPECT_FALSE(out.valid) << ways;
        EXPECT_EQ(*t.find(0, line(100)), ways / 2) << ways;
    }
}

TEST(L2TagArray, LruEvictionOrderInOneSet) {
    L2TagArray t(2, 4);
    for (unsigned n : {1, 2, 3, 4}) t.install(0, line(n), false);
    EXPECT_EQ(t.lruOrder(0), (std::vector<uint64_t>{line(1), line(2), line(3), line(4)}));
    // Touching 1 and then 3 leaves 2 the least recently used, then 4.
    t.touch(0, *t.find(0, line(1)));
    t.touch(0, *t.find(0, line(3)));
    EXPECT_EQ(t.victim(0).line, line(2));
    auto out = t.install(0, line(5), false);
    EXPECT_TRUE(out.valid);
    EXPECT_EQ(out.line, line(2));
    out = t.install(0, line(6), false);
    EXPECT_EQ(out.line, line(4));
    EXPECT_EQ(t.lruOrder(0), (std::vector<uint64_t>{line(1), line(3), line(5), line(6)}));
    // The other set was never touched.
    EXPECT_TRUE(t.lruOrder(1).empty());
}

TEST(L2TagArray, DirtyVictimIsReported) {
    L2TagArray t(1, 2);
    t.install(0, line(1), true);
    t.install(0, line(2), false);
    t.addSectors(0, *t.find(0, line(2)), 0, t.fullMask());  // a store to the whole line
    auto v = t.victim(0);
    EXPECT_TRUE(v.valid && v.dirty);
    EXPECT_EQ(v.line, line(1));
    auto out = t.install(0, line(3), false);
    EXPECT_TRUE(out.dirty);
    EXPECT_EQ(out.line, line(1));
    EXPECT_FALSE(t.dirty(0, *t.find(0, line(3))));
    out = t.install(0, line(4), false);
    EXPECT_TRUE(out.dirty);  // line 2 was marked dirty after its install
    EXPECT_EQ(out.line, line(2));
}

TEST(L2TagArray, InstallingAResidentLineIsABug) {
    L2TagArray t(1, 2);
    t.install(0, line(1), false);
    EXPECT_THROW(t.install(0, line(1), false), std::logic_error);
}

// Four sectors per line: a line may hold some sectors; adding a dirty one makes it valid too;
// the victim reports exactly the dirty sectors (a write-back carries only those).
TEST(L2TagArray, SectorsAreValidAndDirtyApart) {
    L2TagArray t(1, 1, 4);
    EXPECT_EQ(t.fullMask(), 0xfu);
    t.install(0, line(1), 0x1, 0x0);  // sector 0 filled clean
    const unsigned w = *t.find(0, line(1));
    EXPECT_EQ(t.validSectors(0, w), 0x1u);
    EXPECT_FALSE(t.dirty(0, w));
    t.addSectors(0, w, 0x0, 0x4);     // a store to sector 2
    EXPECT_EQ(t.validSectors(0, w), 0x5u);
    EXPECT_TRUE(t.dirty(0, w));
    const auto out = t.install(0, line(2), 0xf, 0x0);
    EXPECT_TRUE(out.valid);
    EXPECT_TRUE(out.dirty);
    EXPECT_EQ(out.line, line(1));
    EXPECT_EQ(out.dirtySectors, 0x4u);
    // Unsectored, install(dirty) makes the one sector valid and dirty, as before sectors.
    L2TagArray u(1, 1);
    u.install(0, line(3), true);
    EXPECT_EQ(u.validSectors(0, 0), 0x1u);
    EXPECT_EQ(u.install(0, line(4), false).dirtySectors, 0x1u);
}

} // namespace l2_tag_array_test
