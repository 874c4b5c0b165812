// FlatHashMap (common/FlatHashMap.hpp) with an identity hash, so every slot is hand-computed:
// linear probing wraps around the table's end, and erasing the head of a probe chain moves each
// later entry back into the hole unless its home lies between (backward shift). PointerMap's and
// MshrTable's tests check the same table against std::map over long random sequences.
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "common/FlatHashMap.hpp"

namespace flat_hash_map_test {

using namespace gpusim;

namespace {
struct Identity {
    uint64_t operator()(uint64_t k) const { return k; }
};
constexpr uint64_t kEmpty = ~uint64_t(0);
using Map = FlatHashMap<uint64_t, int, Identity, kEmpty>;

std::vector<std::pair<uint64_t, int>> inTableOrder(const Map& m) {
    std::vector<std::pair<uint64_t, int>> v;
    m.forEach([&](uint64_t k, int x) { v.emplace_back(k, x); });
    return v;
}
} // namespace

TEST(FlatHashMap, ProbesWrapAroundAndErasingShiftsTheChainBack) {
    Map m(8);  // slots 0..7, home = key & 7
    ASSERT_TRUE(m.insert(7, 70));   // home 7: slot 7
    ASSERT_TRUE(m.insert(15, 150)); // home 7: taken, wraps to slot 0
    ASSERT_TRUE(m.insert(8, 80));   // home 0: taken by 15, slot 1
    ASSERT_TRUE(m.insert(1, 10));   // home 1: taken by 8, slot 2
    EXPECT_EQ(inTableOrder(m), (std::vector<std::pair<uint64_t, int>>{{15, 150}, {8, 80}, {1, 10}, {7, 70}}));
    // Erasing 7 frees slot 7: 15 (home 7) moves back to 7, then 8 (home 0) to 0, then 1 (home 1)
    // to 1; slot 2 ends empty.
    ASSERT_TRUE(m.erase(7));
    EXPECT_EQ(inTableOrder(m), (std::vector<std::pair<uint64_t, int>>{{8, 80}, {1, 10}, {15, 150}}));
    ASSERT_NE(m.find(1), nullptr);
    EXPECT_EQ(*m.find(1), 10);
    *m.find(1) = 11;  // values are writable in place
    EXPECT_EQ(*m.find(1), 11);
    EXPECT_EQ(m.find(7), nullptr);
    EXPECT_EQ(m.size(), 3u);
    EXPECT_EQ(m.slots(), 8u);
}

TEST(FlatHashMap, TakeHandsOverTheValueAndShiftsTheChainAsEraseDoes) {
    Map m(8);
    ASSERT_TRUE(m.insert(7, 70));   // slot 7
    ASSERT_TRUE(m.insert(15, 150)); // wraps to slot 0
    int v = -1;
    EXPECT_FALSE(m.take(23, v));    // home 7, not there: the probe ends at slot 1
    EXPECT_EQ(v, -1);
    ASSERT_TRUE(m.take(7, v));
    EXPECT_EQ(v, 70);
    // 15 (home 7) moves back into slot 7, as erase(7) would move it.
    EXPECT_EQ(inTableOrder(m), (std::vector<std::pair<uint64_t, int>>{{15, 150}}));
    EXPECT_EQ(m.size(), 1u);
    EXPECT_FALSE(m.take(7, v));
}

TEST(FlatHashMap, AnEntryAtItsHomeStaysWhenAnEarlierSlotEmpties) {
    Map m(8);
    ASSERT_TRUE(m.insert(2, 20));  // slot 2
    ASSERT_TRUE(m.insert(3, 30));  // slot 3, its home
    ASSERT_TRUE(m.erase(2));       // 3's home 3 lies in (2, 3]: it stays
    EXPECT_EQ(inTableOrder(m), (std::vector<std::pair<uint64_t, int>>{{3, 30}}));
    ASSERT_NE(m.find(3), nullptr);
}

TEST(FlatHashMap, GrowsWhenMoreThanHalfFullAndKeepsEveryEntry) {
    Map m(4);
    ASSERT_TRUE(m.insert(0, 0));
    ASSERT_TRUE(m.insert(4, 4));  // 2 of 4: not more than half
    EXPECT_EQ(m.slots(), 4u);
    ASSERT_TRUE(m.insert(8, 8));  // 3 of 4: doubles
    EXPECT_EQ(m.slots(), 8u);
    EXPECT_FALSE(m.insert(4, 99));  // already there: unchanged
    for (uint64_t k : {0u, 4u, 8u}) {
        ASSERT_NE(m.find(k), nullptr) << k;
        EXPECT_EQ(*m.find(k), int(k));
    }
}

// Sparseness 8 (PointerMap's): a 16-slot table takes two entries and doubles at the third.
TEST(FlatHashMap, ASparserTableGrowsWhenMoreThanItsShareIsFull) {
    FlatHashMap<uint64_t, int, Identity, kEmpty, 8> m(16);
    ASSERT_TRUE(m.insert(1, 1));
    ASSERT_TRUE(m.insert(17, 17));  // 2 of 16: not more than 1/8
    EXPECT_EQ(m.slots(), 16u);
    ASSERT_TRUE(m.insert(33, 33));  // 3 of 16: doubles
    EXPECT_EQ(m.slots(), 32u);
    for (uint64_t k : {1u, 17u, 33u}) {
        ASSERT_NE(m.find(k), nullptr) << k;
        EXPECT_EQ(*m.find(k), int(k));
    }
}

} // namespace flat_hash_map_test
