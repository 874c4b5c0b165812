// Expectations from the CUDA SDK BlackScholes kernel and the modelled SASS in BlackScholes.cpp: a
// grid-stride loop, per option 3 loads + 60 arithmetic instructions (10 of them SFU) + 2 stores +
// 3 loop = 68; per warp 5 + 68 per round in which a lane has an option + EXIT.
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace blackscholes_test {

using namespace gpusim;
using namespace gpusim::test;

TEST(BlackScholes, GridStrideCounts) {
    // 4 blocks x 128 threads = 512 threads; 1000 options: round 0 all threads, round 1 threads
    // < 488, i.e. warps 0..14 fully and warp 15 lanes 0..7.
    auto w = makeWorkload("blackscholes:options=1000,blocks=4,launches=2");
    ASSERT_EQ(w->kernels().size(), 2u);
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(k->info().name, "BlackScholesGPU");
        EXPECT_EQ(k->info().block.x, 128u);
        EXPECT_EQ(k->info().grid.x, 4u);
        EXPECT_TRUE(wellFormed(*k));
        const Census c = census(*k);
        const uint64_t warps = 16, options = 1000;
        EXPECT_EQ(c.instructions, warps * (5 + 2 * 68 + 1));
        EXPECT_EQ(c.sfu, warps * 2 * 10);
        EXPECT_EQ(c.globalLoads, warps * 2 * 3);
        EXPECT_EQ(c.globalStores, warps * 2 * 2);
        EXPECT_EQ(c.loadLines, c.globalLoads);  // every access one coalesced line
        EXPECT_EQ(c.storeLines, c.globalStores);
        // Active lanes of the memory instructions = options per array access.
        uint64_t loadLanes = 0;
        for (uint64_t cta = 0; cta < 4; ++cta)
            for (unsigned wp = 0; wp < 4; ++wp)
                for (const auto& in : drain(*k, cta, wp))
                    if (in.op == OpClass::Load) loadLanes += in.activeLanes();
        EXPECT_EQ(loadLanes, 3 * options);
    }
    auto last = drain(*w->kernels()[0], 3, 3);  // warp 15
    EXPECT_EQ(last[5 + 68].activeMask, 0xffu);
}

TEST(BlackScholes, Addresses) {
    auto w = makeWorkload("blackscholes:options=1000,blocks=4,launches=1");
    // Call, Put, Stock, Strike, Years: 4000 bytes -> 4096 each.
    const uint64_t call = 0x10000000, stock = call + 2 * 4096, strike = stock + 4096, years = strike + 4096;
    auto s = drain(*w->kernels()[0], 2, 1);  // threads 256 + 32 ..
    const unsigned lane = 4;
    const uint64_t opt0 = 256 + 32 + lane, opt1 = opt0 + 512;
    EXPECT_EQ(s[5].addr[lane], stock + opt0 * 4);
    EXPECT_EQ(s[6].addr[lane], strike + opt0 * 4);
    EXPECT_EQ(s[7].addr[lane], years + opt0 * 4);
    EXPECT_EQ(s[5 + 63].addr[lane], call + opt0 * 4);
    EXPECT_EQ(s[5 + 68].addr[lane], stock + opt1 * 4);
}

TEST(BlackScholes, Deterministic) {
    const char* spec = "blackscholes:options=600,blocks=2,launches=1";
    EXPECT_TRUE(sameWorkload(*makeWorkload(spec, 1), *makeWorkload(spec, 1)));
}

} // namespace blackscholes_test
