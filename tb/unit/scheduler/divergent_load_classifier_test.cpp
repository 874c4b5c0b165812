// The OAWS divergent load classifier: coherent = 1-2 line accesses (OAWS 2.2), per-PC history,
// associativity sensitivity #acc > 1.5 x #sets (OAWS 4.3.1), LRU replacement when full.
#include <gtest/gtest.h>

#include "scheduler/DivergentLoadClassifier.hpp"

namespace divergent_load_classifier_test {

using namespace gpusim;

TEST(DivergentLoadClassifier, OnlyLoadsOfMoreThanTwoLinesAreRecorded) {
    DivergentLoadClassifier dlc;  // 32 entries, coherent <= 2 lines, factor 1.5
    EXPECT_EQ(dlc.capacity(), 32u);
    EXPECT_FALSE(dlc.record(0x10, 1, 1));
    EXPECT_FALSE(dlc.record(0x10, 2, 2));
    EXPECT_FALSE(dlc.contains(0x10));
    EXPECT_TRUE(dlc.record(0x20, 3, 3));
    EXPECT_TRUE(dlc.contains(0x20));
    EXPECT_EQ(dlc.size(), 1u);
}

TEST(DivergentLoadClassifier, CountsAndAssociativitySensitivity) {
    DivergentLoadClassifier dlc;
    // ATAX-like: 32 lines in 8 sets -> 32 > 1.5 * 8 = 12: associativity-sensitive.
    dlc.record(0x50, 32, 8);
    const auto* e = dlc.find(0x50);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->inst, 1u);
    EXPECT_EQ(e->acc, 32u);
    EXPECT_EQ(e->sets, 8u);
    EXPECT_TRUE(dlc.associativitySensitive(0x50));
    // 32 lines over 32 sets: 32 > 48 is false.
    dlc.record(0x60, 32, 32);
    EXPECT_FALSE(dlc.associativitySensitive(0x60));
    // Accumulated: 32/32 then 32/8 -> acc 64, sets 40, 64 > 60: sensitive.
    dlc.record(0x70, 32, 32);
    EXPECT_FALSE(dlc.associativitySensitive(0x70));
    dlc.record(0x70, 32, 8);
    EXPECT_EQ(dlc.find(0x70)->inst, 2u);
    EXPECT_TRUE(dlc.associativitySensitive(0x70));
    EXPECT_FALSE(dlc.associativitySensitive(0x99));  // unknown PC
    dlc.clear();
    EXPECT_EQ(dlc.size(), 0u);
    EXPECT_FALSE(dlc.contains(0x50));
}

TEST(DivergentLoadClassifier, FullTableReplacesLeastRecentlyUpdated) {
    DivergentLoadClassifier dlc(2, 2, 1.5);
    dlc.record(0xa, 4, 4);
    dlc.record(0xb, 4, 4);
    dlc.record(0xa, 4, 4);  // A is now the most recent
    dlc.record(0xc, 4, 4);  // replaces B
    EXPECT_TRUE(dlc.contains(0xa));
    EXPECT_FALSE(dlc.contains(0xb));
    EXPECT_TRUE(dlc.contains(0xc));
    EXPECT_EQ(dlc.find(0xc)->inst, 1u);  // a fresh entry, not B's counts
}

TEST(DivergentLoadClassifier, CoherentThresholdIsAParameter) {
    DivergentLoadClassifier dlc(32, 1, 1.5);
    EXPECT_TRUE(dlc.record(0x10, 2, 2));
}

} // namespace divergent_load_classifier_test
