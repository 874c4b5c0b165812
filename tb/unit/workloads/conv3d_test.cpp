// Expectations from PolyBench/GPU 3DConvolution.cu and the modelled SASS in Conv3d.cpp: n - 2
// launches (one per interior plane i), 32 x 8 blocks over (k, j); per warp with a lane in range
// 9 + 11 loads + 15 FP + ST + EXIT = 37 instructions, else 10.
#include <gtest/gtest.h>

#include <set>

#include "WorkloadTestHelpers.hpp"

namespace conv3d_test {

using namespace gpusim;
using namespace gpusim::test;

TEST(Conv3d, OneLaunchPerInteriorPlane) {
    auto w = makeWorkload("3dconv:n=10");
    ASSERT_EQ(w->kernels().size(), 8u);  // i = 1 .. 8
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(k->info().name, "convolution3D_kernel");
        EXPECT_EQ(k->info().grid.x, 1u);  // ceil(10 / 32)
        EXPECT_EQ(k->info().grid.y, 2u);  // ceil(10 / 8)
        EXPECT_TRUE(wellFormed(*k));
    }
}

TEST(Conv3d, InstructionCountsAndMasks) {
    const uint64_t n = 10;
    auto w = makeWorkload("3dconv:n=10");
    const Kernel& k = *w->kernels()[0];
    // 2 CTAs x 8 warps; warp = one j row (j = 8 * by + warp). Rows 1..8 are interior; rows 0,
    // 9 and 10..15 (outside) have no lane in range.
    uint64_t expected = 0;
    for (uint64_t j = 0; j < 16; ++j) expected += (j >= 1 && j <= n - 2) ? 37 : 10;
    EXPECT_EQ(countInstructions(k), expected);
    auto s = drain(k, 0, 3);               // j = 3
    EXPECT_EQ(s[9].activeMask, 0x1feu);   // k = 1 .. 8
    EXPECT_EQ(drain(k, 0, 0).size(), 10u);  // j = 0
}

TEST(Conv3d, ElevenDistinctElementsPerThread) {
    const uint64_t n = 40;
    auto w = makeWorkload("3dconv:n=40");
    const uint64_t b = 0x10000000 + n * n * n * 4;  // A then B, 256000 bytes (256-aligned)
    const uint64_t i = 5;
    auto s = drain(*w->kernels()[i - 1], 1 * 2 + 0, 2);  // blockIdx (0, 1): j = 8 + 2 = 10
    const unsigned lane = 7;                            // k = 7
    const uint64_t j = 10, k = 7;
    std::set<uint64_t> elems;
    for (size_t p = 9; p < 20; ++p) {
        ASSERT_EQ(s[p].op, OpClass::Load) << p;
        elems.insert((s[p].addr[lane] - 0x10000000) / 4);
    }
    auto e = [&](int di, int dj, int dk) { return ((i + di) * n + j + dj) * n + k + dk; };
    const std::set<uint64_t> expected{e(-1, -1, -1), e(1, -1, -1), e(0, -1, 0), e(0, 0, 0),  e(0, 1, 0), e(-1, -1, 1),
                                      e(1, -1, 1),   e(-1, 0, 1),  e(1, 0, 1),  e(-1, 1, 1), e(1, 1, 1)};
    EXPECT_EQ(elems, expected);
    EXPECT_EQ(s[35].op, OpClass::Store);
    EXPECT_EQ(s[35].addr[lane], b + e(0, 0, 0) * 4);
}

TEST(Conv3d, CensusMatchesTheSourceFormulas) {
    // n = 64: grid (2, 8) x 8 warps = 128 warps per launch, warp = (bx, j). Lanes in range:
    // 1 <= j <= 62 and 1 <= k <= 62, i.e. k = 1..31 for bx = 0 and 32..62 for bx = 1.
    auto w = makeWorkload("3dconv:n=64");
    const Census c = census(*w->kernels()[0]);
    const uint64_t activeWarps = 62 * 2, idleWarps = 128 - activeWarps;
    EXPECT_EQ(c.instructions, activeWarps * 37 + idleWarps * 10);
    EXPECT_EQ(c.globalLoads, activeWarps * 11);
    EXPECT_EQ(c.globalStores, activeWarps);
    EXPECT_EQ(c.alu, activeWarps * 24 + idleWarps * 9);
    // Rows are 256 bytes (line-aligned). Of the 11 loads, 2 read k-1, 3 read k and 6 read k+1.
    // bx = 0: k-1 = 0..30 and k = 1..31 stay in one line, k+1 = 2..32 crosses into the next:
    //         2*1 + 3*1 + 6*2 = 17 lines;
    // bx = 1: k-1 = 31..61 spans two lines, k = 32..62 and k+1 = 33..63 one: 2*2 + 3*1 + 6*1 = 13.
    EXPECT_EQ(c.loadLines, 62 * (17 + 13));
    EXPECT_EQ(c.storeLines, activeWarps);
}

TEST(Conv3d, Deterministic) {
    EXPECT_TRUE(sameWorkload(*makeWorkload("3dconv:n=12", 4), *makeWorkload("3dconv:n=12", 4)));
}

} // namespace conv3d_test
