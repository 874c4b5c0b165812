// InstructionCache: hit/miss/merge/refusal sequences and LRU victims worked out by hand for a
// 512-B cache of 128-B lines, 2 ways (2 sets: set = line address / 128 mod 2), 2 MSHRs of at most
// 3 fetches, a miss queue of 2, code at 0x1000.
#include <gtest/gtest.h>

#include <vector>

#include "common/Stats.hpp"
#include "modules/InstructionCache.hpp"
#include "modules/SmConfig.hpp"

namespace instruction_cache_test {

using namespace gpusim;
using R = InstructionCache::Result;
using W = std::vector<unsigned>;

namespace {
SmConfig cfg() {
    SmConfig c;
    c.l1iBytes = 512;
    c.l1iLine = 128;
    c.l1iWays = 2;
    c.l1iMshrEntries = 2;
    c.l1iMshrMaxMerge = 3;
    c.l1iMissQueue = 2;
    c.l1iCodeBase = 0x1000;
    return c;
}
} // namespace

TEST(InstructionCache, MissesMergeAndRefuseWhenTheMshrsAreTaken) {
    SmConfig c = cfg();
    StatRegistry stats;
    InstructionCache ic(c, stats, "l1i.");
    EXPECT_EQ(ic.lineOf(0x90), 0x1080u);
    EXPECT_EQ(ic.fetch(0x00, 0), R::Miss);    // line 0x1000
    EXPECT_EQ(ic.fetch(0x10, 1), R::Merged);  // same line
    EXPECT_EQ(ic.fetch(0x80, 2), R::Miss);    // line 0x1080: both MSHRs taken
    EXPECT_EQ(ic.fetch(0x100, 3), R::Fail);   // a third line: no MSHR
    EXPECT_EQ(ic.fetch(0x90, 4), R::Merged);
    EXPECT_EQ(ic.fetch(0xa0, 5), R::Merged);  // 3 fetches in 0x1080's entry
    EXPECT_EQ(ic.fetch(0xb0, 6), R::Fail);    // entry full
    ASSERT_TRUE(ic.hasOutgoing());
    EXPECT_EQ(ic.frontOutgoing(), 0x1000u);
    ic.popOutgoing();
    EXPECT_EQ(ic.frontOutgoing(), 0x1080u);
    ic.popOutgoing();
    EXPECT_FALSE(ic.hasOutgoing());
    EXPECT_EQ(ic.fill(0x1000), (W{0, 1}));
    EXPECT_EQ(ic.fetch(0x70, 0), R::Hit);
    EXPECT_EQ(ic.fill(0x1080), (W{2, 4, 5}));
    EXPECT_TRUE(ic.quiescent());
    EXPECT_EQ(stats.get("l1i.misses"), 2);
    EXPECT_EQ(stats.get("l1i.mshr_merges"), 3);
    EXPECT_EQ(stats.get("l1i.reservation_fails"), 2);
    EXPECT_EQ(stats.get("l1i.hits"), 1);
    EXPECT_EQ(stats.get("l1i.accesses"), 6);  // refusals are not accesses
    EXPECT_EQ(stats.get("l1i.fills"), 2);
}

TEST(InstructionCache, FullMissQueueRefusesAFetchWithAFreeMshr) {
    SmConfig c = cfg();
    c.l1iMshrEntries = 4;
    StatRegistry stats;
    InstructionCache ic(c, stats, "l1i.");
    EXPECT_EQ(ic.fetch(0x000, 0), R::Miss);
    EXPECT_EQ(ic.fetch(0x080, 1), R::Miss);
    EXPECT_EQ(ic.fetch(0x100, 2), R::Fail);  // 2 reads queued for the NoC
    ic.popOutgoing();
    EXPECT_EQ(ic.fetch(0x100, 2), R::Miss);
}

TEST(InstructionCache, FillReplacesTheLeastRecentlyUsedWay) {
    SmConfig c = cfg();
    StatRegistry stats;
    InstructionCache ic(c, stats, "l1i.");
    // Lines 0x1000, 0x1100, 0x1200 all map to set 0 (32, 34, 36 mod 2).
    ASSERT_EQ(ic.fetch(0x000, 0), R::Miss);
    ic.popOutgoing();
    ic.fill(0x1000);
    ASSERT_EQ(ic.fetch(0x100, 0), R::Miss);
    ic.popOutgoing();
    ic.fill(0x1100);
    EXPECT_EQ(ic.fetch(0x000, 0), R::Hit);  // 0x1000 is now the most recent
    ASSERT_EQ(ic.fetch(0x200, 0), R::Miss);
    ic.popOutgoing();
    ic.fill(0x1200);                        // evicts 0x1100
    EXPECT_TRUE(ic.probe(0x000));
    EXPECT_FALSE(ic.probe(0x100));
    EXPECT_TRUE(ic.probe(0x200));
    EXPECT_TRUE(ic.probe(0x280 - 0x80));    // same line as 0x200
    EXPECT_FALSE(ic.probe(0x080));          // set 1, never fetched
}

} // namespace instruction_cache_test
