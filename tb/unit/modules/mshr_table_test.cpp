// MshrTable: the flat table with its open-addressing index must behave exactly like the map it
// replaced: has/canMerge/full/used, tokens in arrival order at release, dumps sorted by line.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "modules/MshrTable.hpp"

namespace mshr_table_test {

using namespace gpusim;

TEST(MshrTable, MergesUpToTheLimitAndReleasesTokensInArrivalOrder) {
    MshrTable t(2, 3);
    EXPECT_FALSE(t.has(0x80));
    t.allocate(0x80, 7);
    EXPECT_TRUE(t.has(0x80));
    EXPECT_TRUE(t.canMerge(0x80));
    t.merge(0x80, 9);
    t.merge(0x80, 4);
    EXPECT_FALSE(t.canMerge(0x80));  // 3 accesses: full
    EXPECT_FALSE(t.canMerge(0x100));  // no entry
    t.allocate(0x100, 1);
    EXPECT_TRUE(t.full());
    EXPECT_EQ(t.used(), 2u);
    EXPECT_EQ(t.entries(), (std::vector<std::pair<uint64_t, size_t>>{{0x80, 3}, {0x100, 1}}));
    EXPECT_EQ(t.release(0x80), (std::vector<uint32_t>{7, 9, 4}));
    EXPECT_FALSE(t.has(0x80));
    EXPECT_TRUE(t.has(0x100));  // still found after an earlier entry's removal
    EXPECT_EQ(t.free(), 1u);
    EXPECT_TRUE(t.release(0x80).empty());  // not there: nothing
    EXPECT_EQ(t.release(0x100), (std::vector<uint32_t>{1}));
    EXPECT_EQ(t.used(), 0u);
}

TEST(MshrTable, AgreesWithAMapOverARandomSequence) {
    // 200,000 random operations on lines from a small pool (so probe chains collide and entries
    // are removed from the middle of chains), against std::map as the reference.
    MshrTable t(32, 8);
    std::map<uint64_t, std::vector<uint32_t>> ref;
    std::mt19937_64 rng(42);
    uint32_t token = 0;
    for (int i = 0; i < 200000; ++i) {
        const uint64_t line = (rng() % 96) * 128;
        ASSERT_EQ(t.has(line), ref.count(line) == 1) << i;
        if (rng() % 3 == 0) {
            const auto got = t.release(line);
            std::vector<uint32_t> want;
            if (auto it = ref.find(line); it != ref.end()) {
                want = it->second;
                ref.erase(it);
            }
            ASSERT_EQ(got, want) << i;
        } else if (ref.count(line)) {
            ASSERT_EQ(t.canMerge(line), ref[line].size() < 8) << i;
            if (t.canMerge(line)) {
                t.merge(line, token);
                ref[line].push_back(token++);
            }
        } else if (!t.full()) {
            t.allocate(line, token);
            ref[line].push_back(token++);
        }
        ASSERT_EQ(t.used(), ref.size()) << i;
        ASSERT_EQ(t.full(), ref.size() == 32) << i;
        if (i % 1000 == 0) {  // the dump lists exactly the live entries, whatever slots they hold
            std::vector<std::pair<uint64_t, size_t>> now;
            for (const auto& [l, v] : ref) now.emplace_back(l, v.size());
            ASSERT_EQ(t.entries(), now) << i;
        }
    }
    std::vector<std::pair<uint64_t, size_t>> want;
    for (const auto& [l, v] : ref) want.emplace_back(l, v.size());
    EXPECT_EQ(t.entries(), want);
}

} // namespace mshr_table_test
