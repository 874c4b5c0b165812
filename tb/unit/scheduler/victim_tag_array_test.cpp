// VictimTagArray: per-warp, set-associative tags of evicted lines (CCWS's VTA), FIFO as in the
// authors' release. Geometry in every case: 16 entries per warp, 8 ways -> 2 sets per warp;
// 128-byte lines, so line k (address k * 128) falls in set k % 2.
#include <gtest/gtest.h>

#include <stdexcept>

#include "scheduler/VictimTagArray.hpp"

namespace victim_tag_array_test {

using namespace gpusim;

namespace {
constexpr uint64_t line(uint64_t k) { return k * 128; }
} // namespace

TEST(VictimTagArray, EightWaysPerSetThenFirstInIsReplaced) {
    VictimTagArray vta(2, 16, 8, 128);
    EXPECT_EQ(vta.setsPerWarp(), 2u);
    // Even lines 0, 2, ..., 14 fill set 0 of warp 0 (8 ways).
    for (uint64_t k = 0; k < 16; k += 2) vta.insert(0, line(k));
    EXPECT_EQ(vta.occupancy(0), 8u);
    for (uint64_t k = 0; k < 16; k += 2) EXPECT_TRUE(vta.contains(0, line(k))) << k;
    // A ninth even line replaces the first one inserted, line 0.
    vta.insert(0, line(16));
    EXPECT_FALSE(vta.contains(0, line(0)));
    EXPECT_TRUE(vta.contains(0, line(16)));
    EXPECT_TRUE(vta.contains(0, line(2)));
    EXPECT_EQ(vta.occupancy(0), 8u);
    // Odd lines use set 1 and leave set 0 alone.
    vta.insert(0, line(1));
    EXPECT_EQ(vta.occupancy(0), 9u);
    EXPECT_TRUE(vta.contains(0, line(2)));
}

TEST(VictimTagArray, ReinsertNeitherDuplicatesNorRefreshes) {
    VictimTagArray vta(1, 16, 8, 128);
    for (uint64_t k = 0; k < 16; k += 2) vta.insert(0, line(k));
    vta.insert(0, line(0));  // already held: FIFO keeps it first in line
    EXPECT_EQ(vta.occupancy(0), 8u);
    vta.insert(0, line(100));
    EXPECT_FALSE(vta.contains(0, line(0)));
    EXPECT_TRUE(vta.contains(0, line(2)));
}

TEST(VictimTagArray, WarpsArePrivateAndAProbeIsALookup) {
    VictimTagArray vta(3, 16, 8, 128);
    vta.insert(2, line(7));
    EXPECT_FALSE(vta.probe(1, line(7)));  // another warp's victim: no lost intra-warp locality
    EXPECT_TRUE(vta.probe(2, line(7)));
    EXPECT_TRUE(vta.probe(2, line(7)));  // the tag stays (the release's probe)
    EXPECT_TRUE(vta.probe(2, line(7), true));  // ... unless the caller removes it on the hit
    EXPECT_FALSE(vta.probe(2, line(7)));
    EXPECT_FALSE(vta.probe(9, line(7)));  // out-of-range warp: no hit, no crash
    vta.insert(1, line(3));
    vta.clearWarp(1);
    EXPECT_FALSE(vta.contains(1, line(3)));
}

TEST(VictimTagArray, InvalidateRemovesTheTagFromEveryWarp) {
    VictimTagArray vta(3, 16, 8, 128);
    for (unsigned w = 0; w < 3; ++w) vta.insert(w, line(5));
    vta.insert(1, line(6));
    vta.invalidate(line(5));
    for (unsigned w = 0; w < 3; ++w) EXPECT_FALSE(vta.contains(w, line(5))) << w;
    EXPECT_TRUE(vta.contains(1, line(6)));
    EXPECT_EQ(vta.occupancy(1), 1u);
}

TEST(VictimTagArray, RejectsEntriesNotAMultipleOfWays) {
    EXPECT_THROW(VictimTagArray(4, 12, 8, 128), std::invalid_argument);
    EXPECT_THROW(VictimTagArray(4, 16, 0, 128), std::invalid_argument);
}

} // namespace victim_tag_array_test
