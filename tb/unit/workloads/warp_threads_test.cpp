#include <gtest/gtest.h>

#include "workloads/WarpThreads.hpp"

namespace warp_threads_test {

using namespace gpusim;

namespace {
KernelInfo info1d(unsigned grid, unsigned block) {
    KernelInfo k;
    k.grid.x = grid;
    k.block.x = block;
    return k;
}
} // namespace

TEST(WarpThreads, FullWarpOfOneDimensionalBlock) {
    WarpThreads t(info1d(4, 256), 2, 3);  // block 2, threads 96..127
    EXPECT_EQ(t.existMask(), 0xffffffffu);
    EXPECT_EQ(t.blockIdx().x, 2u);
    EXPECT_EQ(t.threadIdx(0).x, 96u);
    EXPECT_EQ(t.globalX(0), 2u * 256 + 96);
    EXPECT_EQ(t.globalX(31), 2u * 256 + 127);
}

TEST(WarpThreads, BlockNotMultipleOfWarpLeavesLanesMissing) {
    WarpThreads t(info1d(1, 40), 0, 1);  // threads 32..39 exist
    EXPECT_EQ(t.existMask(), 0xffu);
}

TEST(WarpThreads, LanesWhereOnlyConsidersExistingLanes) {
    WarpThreads t(info1d(1, 40), 0, 1);
    EXPECT_EQ(t.lanesWhere([](unsigned) { return true; }), 0xffu);
    EXPECT_EQ(t.lanesWhere([&](unsigned lane) { return t.globalX(lane) < 34; }), 0x3u);
}

TEST(WarpThreads, TwoDimensionalMappingIsXFastest) {
    KernelInfo k;
    k.grid = {3, 2, 1};
    k.block = {16, 16, 1};
    WarpThreads t(k, 4, 1);  // ctaId 4 -> blockIdx (1, 1); warp 1 = threads 32..63 -> y 2..3
    EXPECT_EQ(t.blockIdx().x, 1u);
    EXPECT_EQ(t.blockIdx().y, 1u);
    EXPECT_EQ(t.threadIdx(0).x, 0u);
    EXPECT_EQ(t.threadIdx(0).y, 2u);
    EXPECT_EQ(t.threadIdx(17).x, 1u);
    EXPECT_EQ(t.threadIdx(17).y, 3u);
    EXPECT_EQ(t.globalX(17), 16u + 1);
    EXPECT_EQ(t.globalY(17), 16u + 3);
}

TEST(WarpThreads, ThreeDimensionalGridIndex) {
    KernelInfo k;
    k.grid = {2, 3, 4};
    k.block = {32, 1, 1};
    WarpThreads t(k, 2 * 3 * 2 + 2 * 1 + 1, 0);  // (x, y, z) = (1, 1, 2)
    EXPECT_EQ(t.blockIdx().x, 1u);
    EXPECT_EQ(t.blockIdx().y, 1u);
    EXPECT_EQ(t.blockIdx().z, 2u);
}

TEST(WarpThreads, LanesWhereAmongEvaluatesOnlyThoseLanes) {
    WarpThreads t(info1d(1, 40), 0, 1);  // lanes 0..7 exist
    unsigned calls = 0;
    const uint32_t m = t.lanesWhere(0xf0000005u, [&](unsigned lane) {
        ++calls;
        return lane != 2;
    });
    EXPECT_EQ(m, 0x1u);     // of 0, 2 (lanes 28..31 do not exist), only 0 passes
    EXPECT_EQ(calls, 2u);   // never asked about lanes outside `among` or the block
}

// The constructor counts lane indices on from the first lane; every lane of every warp of
// blocks whose rows do not fit a warp evenly (7 x 3 x 5: rows wrap inside a warp, planes too,
// the last warp is partial) matches the linearisation t -> (t % bx, t / bx % by, t / (bx by)).
TEST(WarpThreads, EveryLaneOfAThreeDimensionalBlockMatchesTheLinearisation) {
    KernelInfo k;
    k.grid = {1, 1, 1};
    k.block = {7, 3, 5};  // 105 threads: warps 0..3, the last with 9 lanes
    for (unsigned w = 0; w < 4; ++w) {
        WarpThreads t(k, 0, w);
        EXPECT_EQ(t.existMask(), w < 3 ? 0xffffffffu : 0x1ffu) << "warp " << w;
        for (unsigned lane = 0; lane < 32; ++lane) {
            const uint64_t th = uint64_t(w) * 32 + lane;
            EXPECT_EQ(t.threadIdx(lane).x, th % 7) << "warp " << w << " lane " << lane;
            EXPECT_EQ(t.threadIdx(lane).y, th / 7 % 3) << "warp " << w << " lane " << lane;
            EXPECT_EQ(t.threadIdx(lane).z, th / 21) << "warp " << w << " lane " << lane;
        }
    }
    WarpThreads beyond(k, 0, 4);  // a warp past the block: no lane exists
    EXPECT_EQ(beyond.existMask(), 0u);
}

// A warp within one row of its block takes the constructor's short path (x counting on); one
// that crosses a row wraps x and counts y on. Both against the linearisation, every lane, with
// globalX (blockIdx.x * blockDim.x + threadIdx.x): block 64 x 2 (every warp inside a row) and
// 48 x 2 (warp 1 crosses from row 0 to row 1), in the grid's third block along x.
TEST(WarpThreads, WarpsInsideAndAcrossRowsMatchTheLinearisation) {
    for (unsigned bx : {64u, 48u}) {
        KernelInfo k;
        k.grid = {4, 1, 1};
        k.block = {bx, 2, 1};
        for (unsigned w = 0; w * 32 < bx * 2; ++w) {
            WarpThreads t(k, 2, w);
            for (unsigned lane = 0; lane < 32; ++lane) {
                const uint64_t th = uint64_t(w) * 32 + lane;
                if (th >= uint64_t(bx) * 2) continue;
                EXPECT_EQ(t.threadIdx(lane).x, th % bx) << "bx " << bx << " warp " << w << " lane " << lane;
                EXPECT_EQ(t.threadIdx(lane).y, th / bx) << "bx " << bx << " warp " << w << " lane " << lane;
                EXPECT_EQ(t.threadIdx(lane).z, 0u);
                EXPECT_EQ(t.globalX(lane), 2u * bx + th % bx) << "bx " << bx << " warp " << w << " lane " << lane;
            }
        }
    }
}

} // namespace warp_threads_test
