#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "workloads/FrameCache.hpp"

namespace frame_cache_test {

using namespace gpusim;

// A freed block comes back to the next request of its size class (last freed first), whatever
// the exact size inside the class (64-byte steps); another class does not get it.
TEST(FrameCache, AFreedBlockServesTheNextRequestOfItsClass) {
    if (!FrameCache::enabled()) GTEST_SKIP() << "the cache is off under AddressSanitizer";
    void* a = FrameCache::allocate(1100);  // the 1,152-byte class
    FrameCache::release(a, 1100);
    void* b = FrameCache::allocate(1152);  // same class
    EXPECT_EQ(b, a);
    void* c = FrameCache::allocate(1090);  // the class is empty again: a new block
    EXPECT_NE(c, a);
    FrameCache::release(b, 1152);
    void* d = FrameCache::allocate(1153);  // the next class up: not the freed block
    EXPECT_NE(d, a);
    void* e = FrameCache::allocate(1089);  // the lowest size of the class
    EXPECT_EQ(e, a);
    for (void* p : {c, e}) FrameCache::release(p, 1100);
    FrameCache::release(d, 1153);
}

// A block of the class's full size is usable to its end (the heap block is the class's size,
// not the request's).
TEST(FrameCache, BlocksHoldTheirWholeClass) {
    if (!FrameCache::enabled()) GTEST_SKIP() << "the cache is off under AddressSanitizer";
    void* a = FrameCache::allocate(65);  // the 128-byte class
    std::memset(a, 0xab, 128);
    FrameCache::release(a, 65);
    void* b = FrameCache::allocate(128);
    ASSERT_EQ(b, a);
    std::memset(b, 0xcd, 128);
    FrameCache::release(b, 128);
}

// Over 4 KiB the heap serves and takes every block: nothing is kept to hand out again.
TEST(FrameCache, LargeBlocksAreNotCached) {
    std::vector<void*> big;
    for (int i = 0; i < 4; ++i) big.push_back(FrameCache::allocate(8192));
    std::set<void*> distinct(big.begin(), big.end());
    EXPECT_EQ(distinct.size(), big.size());
    for (void* p : big) std::memset(p, 0, 8192);
    for (void* p : big) FrameCache::release(p, 8192);
}

// More blocks freed than a class keeps: the surplus goes back to the heap, and the blocks kept
// come back in last-freed-first order. Run on a thread of its own so that its cache starts empty.
TEST(FrameCache, KeepsABoundedNumberPerClass) {
    if (!FrameCache::enabled()) GTEST_SKIP() << "the cache is off under AddressSanitizer";
    std::thread([] {
        std::vector<void*> blocks;
        for (int i = 0; i < 100; ++i) blocks.push_back(FrameCache::allocate(256));
        for (void* p : blocks) FrameCache::release(p, 256);
        // The first 64 freed are kept; the next allocations return them newest first.
        std::vector<void*> again;
        for (int i = 0; i < 64; ++i) again.push_back(FrameCache::allocate(256));
        for (int i = 0; i < 64; ++i) EXPECT_EQ(again[i], blocks[63 - i]) << i;
        for (void* p : again) FrameCache::release(p, 256);
    }).join();
}

} // namespace frame_cache_test
