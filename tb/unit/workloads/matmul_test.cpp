// Expectations from the CUDA SDK matrixMul kernel and the modelled SASS in Matmul.cpp: per warp
// 11 + (n/T)(3T + 10) instructions; per tile 2 global loads, 2 shared stores, 2 barriers and 2T
// shared loads (the unrolled inner product).
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"
#include "common/SimError.hpp"

namespace matmul_test {

using namespace gpusim;
using namespace gpusim::test;

TEST(Matmul, GeometryAndParameterChecks) {
    auto w = makeWorkload("matmul:n=64,tile=16");
    ASSERT_EQ(w->kernels().size(), 1u);
    const auto& info = w->kernels()[0]->info();
    EXPECT_EQ(info.name, "matrixMulCUDA");
    EXPECT_EQ(info.grid.x, 4u);
    EXPECT_EQ(info.grid.y, 4u);
    EXPECT_EQ(info.block.x, 16u);
    EXPECT_EQ(info.block.y, 16u);
    EXPECT_EQ(info.smemPerCta, 2u * 16 * 16 * 4);
    EXPECT_TRUE(wellFormed(*w->kernels()[0]));
    EXPECT_THROW(makeWorkload("matmul:n=72,tile=16"), InputError);  // not a multiple of the tile
    EXPECT_THROW(makeWorkload("matmul:n=64,tile=12"), InputError);
}

TEST(Matmul, CensusMatchesTheSourceFormulas) {
    for (uint64_t tile : {8u, 16u, 32u}) {
        const uint64_t n = 64, tiles = n / tile, warps = (n / tile) * (n / tile) * (tile * tile / 32);
        auto w = makeWorkload("matmul:n=64,tile=" + std::to_string(tile));
        const Census c = census(*w->kernels()[0]);
        EXPECT_EQ(c.instructions, warps * (11 + tiles * (3 * tile + 10))) << tile;
        EXPECT_EQ(c.globalLoads, warps * 2 * tiles) << tile;
        EXPECT_EQ(c.globalStores, warps) << tile;
        EXPECT_EQ(c.sharedLoads, warps * 2 * tile * tiles) << tile;
        EXPECT_EQ(c.sharedStores, warps * 2 * tiles) << tile;
        EXPECT_EQ(c.barriers, warps * 2 * tiles) << tile;
        // A warp covers 32 / T rows of T floats; rows are 256 bytes and segments T-aligned: one
        // line per row.
        const uint64_t rowsPerWarp = 32 / tile;
        EXPECT_EQ(c.loadLines, warps * 2 * tiles * rowsPerWarp) << tile;
        EXPECT_EQ(c.storeLines, warps * rowsPerWarp) << tile;
    }
}

TEST(Matmul, AddressesFollowTheSource) {
    const uint64_t n = 64, t = 16;
    auto w = makeWorkload("matmul:n=64,tile=16");
    const uint64_t a = 0x10000000, b = a + n * n * 4, c = b + n * n * 4;
    const uint64_t bx = 2, by = 1;
    auto s = drain(*w->kernels()[0], by * 4 + bx, 3);  // rows ty = 6, 7
    const unsigned lane = 19;                          // ty = 7, tx = 3
    const uint64_t ty = 7, tx = 3;
    for (uint64_t step = 0; step < n / t; ++step) {
        const size_t base = 8 + step * (3 * t + 10);
        EXPECT_EQ(s[base].addr[lane], a + (n * t * by + step * t + n * ty + tx) * 4);
        EXPECT_EQ(s[base + 1].addr[lane], b + (t * bx + step * t * n + n * ty + tx) * 4);
        EXPECT_EQ(s[base + 2].addr[lane], (ty * t + tx) * 4);  // As[ty][tx]
        EXPECT_EQ(s[base + 5].addr[lane], (ty * t + 0) * 4);    // As[ty][0]
        EXPECT_EQ(s[base + 6].addr[lane], t * t * 4 + tx * 4);  // Bs[0][tx]
    }
    EXPECT_EQ(s[s.size() - 2].addr[lane], c + (n * t * by + t * bx + n * ty + tx) * 4);
}

TEST(Matmul, Deterministic) {
    EXPECT_TRUE(sameWorkload(*makeWorkload("matmul:n=32,tile=8", 1), *makeWorkload("matmul:n=32,tile=8", 1)));
}

} // namespace matmul_test
