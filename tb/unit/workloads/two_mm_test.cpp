// Expectations from PolyBench/GPU 2mm.cu and the modelled SASS in TwoMm.cpp: two kernels, 32 x 8
// blocks, a warp is one row i; per warp with a lane in range 8 + 1 + 7n + 1 = 7n + 10
// instructions, else 9. Left operand one address per warp, right operand a coalesced segment.
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace two_mm_test {

using namespace gpusim;
using namespace gpusim::test;

TEST(TwoMm, GeometryAndCounts) {
    auto w = makeWorkload("2mm:n=40");
    ASSERT_EQ(w->kernels().size(), 2u);
    EXPECT_EQ(w->kernels()[0]->info().name, "mm2_kernel1");
    EXPECT_EQ(w->kernels()[1]->info().name, "mm2_kernel2");
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(k->info().grid.x, 2u);
        EXPECT_EQ(k->info().grid.y, 5u);
        EXPECT_TRUE(wellFormed(*k));
        EXPECT_EQ(countInstructions(*k), 10u * 8 * (7 * 40 + 10));
    }
}

TEST(TwoMm, AddressesAndLines) {
    const uint64_t n = 64, bytes = n * n * 4;  // 0x4000 per matrix, order A, B, C, D, E
    const uint64_t a = 0x10000000, b = a + bytes, c = b + bytes, d = c + bytes, e = d + bytes;
    auto w = makeWorkload("2mm:n=64");
    auto s1 = drain(*w->kernels()[0], 2 * 3 + 1, 4);  // blockIdx (1, 3): j = 32..63, i = 24 + 4 = 28
    auto s2 = drain(*w->kernels()[1], 2 * 3 + 1, 4);
    const unsigned lane = 17;
    const uint64_t i = 28, j = 32 + lane, k = 40;
    EXPECT_EQ(s1[8].addr[lane], c + (i * n + j) * 4);  // C[i][j] loaded once
    EXPECT_EQ(s1[9 + 7 * k].addr[lane], a + (i * n + k) * 4);
    EXPECT_EQ(s1[10 + 7 * k].addr[lane], b + (k * n + j) * 4);
    EXPECT_EQ(s1[12 + 7 * k].addr[lane], c + (i * n + j) * 4);
    EXPECT_EQ(s2[8].addr[lane], e + (i * n + j) * 4);
    EXPECT_EQ(s2[9 + 7 * k].addr[lane], c + (i * n + k) * 4);
    EXPECT_EQ(s2[10 + 7 * k].addr[lane], d + (k * n + j) * 4);
    EXPECT_EQ(distinctLines(s1[9 + 7 * k]), 1u);
    EXPECT_EQ(distinctLines(s1[10 + 7 * k]), 1u);
}

TEST(TwoMm, CensusMatchesTheSourceFormulas) {
    const uint64_t n = 64, warps = 2 * 8 * 8;
    auto w = makeWorkload("2mm:n=64");
    for (const auto& k : w->kernels()) {
        const Census c = census(*k);
        EXPECT_EQ(c.instructions, warps * (7 * n + 10));
        EXPECT_EQ(c.globalLoads, warps * (1 + 2 * n));
        EXPECT_EQ(c.globalStores, warps * n);
        EXPECT_EQ(c.loadLines, warps * (1 + 2 * n));  // every access one line
        EXPECT_EQ(c.storeLines, warps * n);
    }
}

TEST(TwoMm, Deterministic) {
    EXPECT_TRUE(sameWorkload(*makeWorkload("2mm:n=40", 8), *makeWorkload("2mm:n=40", 8)));
}

} // namespace two_mm_test
