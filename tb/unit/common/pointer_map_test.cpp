// PointerMap (common/PointerMap.hpp): insert refuses a key already there, find and erase see
// exactly what was inserted, growth keeps every entry, and removal by backward shift keeps every
// other key findable (checked against std::map over a long random sequence, many keys sharing
// probe chains).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "common/PointerMap.hpp"

namespace pointer_map_test {

using namespace gpusim;

TEST(PointerMap, InsertFindEraseOfOneKey) {
    PointerMap m;
    int a = 0, b = 0;
    EXPECT_TRUE(m.empty());
    EXPECT_TRUE(m.insert(&a, 42));
    EXPECT_FALSE(m.insert(&a, 7));  // already there: unchanged
    ASSERT_NE(m.find(&a), nullptr);
    EXPECT_EQ(*m.find(&a), 42u);
    EXPECT_EQ(m.find(&b), nullptr);
    EXPECT_EQ(m.size(), 1u);
    EXPECT_FALSE(m.erase(&b));
    EXPECT_TRUE(m.erase(&a));
    EXPECT_FALSE(m.erase(&a));
    EXPECT_EQ(m.find(&a), nullptr);
    EXPECT_TRUE(m.empty());
}

TEST(PointerMap, GrowingKeepsEveryEntryAndErasingHalfKeepsTheOtherHalf) {
    std::vector<int> objects(1000);
    PointerMap m;
    for (size_t i = 0; i < objects.size(); ++i) ASSERT_TRUE(m.insert(&objects[i], i * 3));
    EXPECT_EQ(m.size(), 1000u);
    for (size_t i = 0; i < objects.size(); i += 2) ASSERT_TRUE(m.erase(&objects[i]));
    EXPECT_EQ(m.size(), 500u);
    for (size_t i = 0; i < objects.size(); ++i) {
        const uint64_t* v = m.find(&objects[i]);
        if (i % 2 == 0) {
            EXPECT_EQ(v, nullptr) << i;
        } else {
            ASSERT_NE(v, nullptr) << i;
            EXPECT_EQ(*v, i * 3);
        }
    }
    uint64_t sum = 0;
    size_t n = 0;
    m.forEach([&](const void*, uint64_t v) {
        sum += v;
        ++n;
    });
    EXPECT_EQ(n, 500u);
    EXPECT_EQ(sum, 3u * 250000u);  // 3 * (1 + 3 + ... + 999) = 3 * 500^2
}

TEST(PointerMap, RandomInsertsAndErasesAgreeWithStdMap) {
    // 64 keys over a table that stays small: long shared probe chains, many backward shifts.
    std::vector<char> objects(64);
    std::map<const void*, uint64_t> ref;
    PointerMap m;
    std::mt19937 rng(19);
    for (int step = 0; step < 20000; ++step) {
        const void* k = &objects[rng() % objects.size()];
        if (rng() % 2) {
            const uint64_t v = rng();
            EXPECT_EQ(m.insert(k, v), ref.emplace(k, v).second);
        } else {
            EXPECT_EQ(m.erase(k), ref.erase(k) == 1);
        }
        ASSERT_EQ(m.size(), ref.size());
        for (const char& o : objects) {
            const auto it = ref.find(&o);
            const uint64_t* v = m.find(&o);
            ASSERT_EQ(v != nullptr, it != ref.end());
            if (v) {
                ASSERT_EQ(*v, it->second);
            }
        }
    }
}

} // namespace pointer_map_test
