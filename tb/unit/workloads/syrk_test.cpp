// Expectations from PolyBench/GPU syrk.cu and the modelled SASS in Syrk.cpp: 32 x 8 blocks, a warp
// is one row i of C (all lanes share i); per warp with a lane in range 8 + 3 + 8m + 1 = 8m + 12
// instructions, else 9. Per iteration a[i][k] is one address, a[j][k] one row per lane.
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace syrk_test {

using namespace gpusim;
using namespace gpusim::test;

TEST(Syrk, Geometry) {
    auto w = makeWorkload("syrk:n=40,m=16");
    ASSERT_EQ(w->kernels().size(), 1u);
    const auto& info = w->kernels()[0]->info();
    EXPECT_EQ(info.name, "syrk_kernel");
    EXPECT_EQ(info.block.x, 32u);
    EXPECT_EQ(info.block.y, 8u);
    EXPECT_EQ(info.grid.x, 2u);  // ceil(40 / 32)
    EXPECT_EQ(info.grid.y, 5u);  // ceil(40 / 8)
    EXPECT_TRUE(wellFormed(*w->kernels()[0]));
}

TEST(Syrk, InstructionCountsWithPartialBlocks) {
    const uint64_t m = 16;
    auto w = makeWorkload("syrk:n=40,m=16");
    const Kernel& k = *w->kernels()[0];
    // 10 CTAs x 8 warps, each warp one row of 32 j's. Rows i < 40 all exist (5 * 8 = 40); in
    // column block 1 (j = 32..63) lanes 0..7 are in range. Every warp has a lane in range.
    EXPECT_EQ(countInstructions(k), 10u * 8 * (8 * m + 12));
    auto s = drain(k, 1, 0);  // blockIdx (1, 0), row 0, j = 32..63
    EXPECT_EQ(s[8].activeMask, 0xffu);
}

TEST(Syrk, AddressesAndLines) {
    const uint64_t n = 64, m = 32;
    auto w = makeWorkload("syrk:n=64,m=32");
    // A = 64*32*4 = 0x2000 bytes, then C.
    const uint64_t a = 0x10000000, c = 0x10002000;
    auto s = drain(*w->kernels()[0], 2 * 1 + 1, 3);  // blockIdx (1, 1): j = 32..63, i = 8 + 3 = 11
    const unsigned lane = 9;
    const uint64_t i = 11, j = 32 + lane;
    EXPECT_EQ(s[8].addr[lane], c + (i * n + j) * 4);  // c[i][j] *= beta: load, store
    EXPECT_EQ(s[10].addr[lane], c + (i * n + j) * 4);
    for (uint64_t k : {0ull, 31ull}) {
        const size_t base = 11 + 8 * k;
        EXPECT_EQ(s[base].addr[lane], a + (i * m + k) * 4);
        EXPECT_EQ(s[base + 1].addr[lane], a + (j * m + k) * 4);
        EXPECT_EQ(s[base + 4].addr[lane], c + (i * n + j) * 4);
        EXPECT_EQ(distinctLines(s[base]), 1u);
        EXPECT_EQ(distinctLines(s[base + 1]), 32u);  // rows of A 128 bytes apart
        EXPECT_EQ(distinctLines(s[base + 4]), 1u);
    }
}

TEST(Syrk, CensusMatchesTheSourceFormulas) {
    const uint64_t n = 64, m = 32;
    const uint64_t warps = (n / 32) * (n / 8) * 8;  // every warp fully in range
    auto w = makeWorkload("syrk:n=64,m=32");
    const Census c = census(*w->kernels()[0]);
    EXPECT_EQ(c.instructions, warps * (8 * m + 12));
    EXPECT_EQ(c.globalLoads, warps * (1 + 2 * m));
    EXPECT_EQ(c.globalStores, warps * (1 + m));
    EXPECT_EQ(c.loadLines, warps * (1 + m * (1 + 32)));
    EXPECT_EQ(c.storeLines, warps * (1 + m));
}

TEST(Syrk, Deterministic) {
    EXPECT_TRUE(sameWorkload(*makeWorkload("syrk:n=40,m=8", 2), *makeWorkload("syrk:n=40,m=8", 2)));
}

} // namespace syrk_test
