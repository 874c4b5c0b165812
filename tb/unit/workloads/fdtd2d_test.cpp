// Expectations from PolyBench/GPU fdtd2d.cu and the modelled SASS in Fdtd2d.cpp: three kernels per
// time step; 32 x 8 blocks, a warp is one row i. Per warp in range: step1 12 instructions in row 0
// (ey = _fict_[t]) and 16 in other rows, step2 16, step3 19; out of range 9 each.
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace fdtd2d_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

struct Layout {  // allocation order _fict_, ex, ey, hz
    uint64_t fict, ex, ey, hz;
};
Layout layout(uint64_t nx, uint64_t ny, uint64_t tmax) {
    auto up = [](uint64_t bytes) { return (bytes + 255) / 256 * 256; };
    Layout l;
    l.fict = 0x10000000;
    l.ex = l.fict + up(tmax * 4);
    l.ey = l.ex + up(nx * (ny + 1) * 4);
    l.hz = l.ey + up((nx + 1) * ny * 4);
    return l;
}

} // namespace

TEST(Fdtd2d, ThreeKernelsPerStep) {
    auto w = makeWorkload("fdtd2d:nx=16,ny=32,tmax=3");
    ASSERT_EQ(w->kernels().size(), 9u);
    const char* names[] = {"fdtd_step1_kernel", "fdtd_step2_kernel", "fdtd_step3_kernel"};
    for (size_t k = 0; k < 9; ++k) {
        EXPECT_EQ(w->kernels()[k]->info().name, names[k % 3]);
        EXPECT_EQ(w->kernels()[k]->info().grid.x, 1u);
        EXPECT_EQ(w->kernels()[k]->info().grid.y, 2u);
        EXPECT_TRUE(wellFormed(*w->kernels()[k]));
    }
}

TEST(Fdtd2d, InstructionCounts) {
    // nx = 12 rows: 2 CTAs x 8 warps = rows 0..15, rows 12..15 out of range.
    auto w = makeWorkload("fdtd2d:nx=12,ny=32,tmax=1");
    EXPECT_EQ(countInstructions(*w->kernels()[0]), 12u + 11 * 16 + 4 * 9);
    EXPECT_EQ(countInstructions(*w->kernels()[1]), 12u * 16 + 4 * 9);
    EXPECT_EQ(countInstructions(*w->kernels()[2]), 12u * 19 + 4 * 9);
}

TEST(Fdtd2d, AddressesFollowTheSource) {
    const uint64_t nx = 16, ny = 64, tmax = 2;
    const Layout l = layout(nx, ny, tmax);
    auto w = makeWorkload("fdtd2d:nx=16,ny=64,tmax=2");
    const unsigned lane = 6;
    // Step 1 of time step 1, row 0: ey[0][j] = _fict_[1].
    auto top = drain(*w->kernels()[3], 0, 0);
    EXPECT_EQ(top[9].addr[lane], l.fict + 1 * 4);
    EXPECT_EQ(top[10].addr[lane], l.ey + lane * 4);
    // Step 1, row i = 9 (blockIdx (1, 1), warp 1), j = 32 + lane.
    auto s1 = drain(*w->kernels()[0], 3, 1);
    const uint64_t i = 9, j = 32 + lane;
    EXPECT_EQ(s1[9].addr[lane], l.ey + (i * ny + j) * 4);
    EXPECT_EQ(s1[10].addr[lane], l.hz + (i * ny + j) * 4);
    EXPECT_EQ(s1[11].addr[lane], l.hz + ((i - 1) * ny + j) * 4);
    EXPECT_EQ(s1[14].addr[lane], l.ey + (i * ny + j) * 4);
    // Step 2: ex rows are NY + 1 long; lane 0 of column block 0 (j = 0) is masked off.
    auto s2 = drain(*w->kernels()[1], 3, 1);
    EXPECT_EQ(s2[9].addr[lane], l.ex + (i * (ny + 1) + j) * 4);
    EXPECT_EQ(s2[11].addr[lane], l.hz + (i * ny + j - 1) * 4);
    EXPECT_EQ(drain(*w->kernels()[1], 0, 1)[9].activeMask, 0xfffffffeu);
    // Step 3: hz from ex[j+1], ex[j], ey[i+1][j], ey[i][j].
    auto s3 = drain(*w->kernels()[2], 3, 1);
    EXPECT_EQ(s3[8].addr[lane], l.hz + (i * ny + j) * 4);
    EXPECT_EQ(s3[9].addr[lane], l.ex + (i * (ny + 1) + j + 1) * 4);
    EXPECT_EQ(s3[10].addr[lane], l.ex + (i * (ny + 1) + j) * 4);
    EXPECT_EQ(s3[11].addr[lane], l.ey + ((i + 1) * ny + j) * 4);
    EXPECT_EQ(s3[12].addr[lane], l.ey + (i * ny + j) * 4);
    EXPECT_EQ(s3[17].addr[lane], l.hz + (i * ny + j) * 4);
}

TEST(Fdtd2d, CensusMatchesTheSourceFormulas) {
    // nx = 8, ny = 32: one CTA, 8 warps, all in range. Arrays: fict 256 B, ex 8*33*4 = 1056 -> 1280,
    // ey 9*32*4 = 1152 -> 1280, so ex starts line-aligned and its row i starts 4*33*i bytes in.
    auto w = makeWorkload("fdtd2d:nx=8,ny=32,tmax=1");
    const Census c1 = census(*w->kernels()[0]), c2 = census(*w->kernels()[1]), c3 = census(*w->kernels()[2]);
    EXPECT_EQ(c1.instructions, 12u + 7 * 16);
    EXPECT_EQ(c1.globalLoads, 1u + 7 * 3);
    EXPECT_EQ(c1.globalStores, 8u);
    EXPECT_EQ(c1.loadLines, 1u + 7 * 3);  // ey and hz rows are 128-byte lines
    EXPECT_EQ(c2.instructions, 8u * 16);
    EXPECT_EQ(c2.globalLoads, 8u * 3);
    // ex[i][1..31] starts at 132 i + 4 bytes: one line for row 0, two for rows 1..7 (the 124 bytes
    // cross a line boundary unless 132 i + 4 mod 128 <= 4); hz[i][1..31] one line, hz[i][0..30] one.
    uint64_t exLines = 0;
    for (uint64_t i = 0; i < 8; ++i) {
        const uint64_t startByte = 132 * i + 4, endByte = 132 * i + 31 * 4 + 3;
        exLines += endByte / 128 - startByte / 128 + 1;
    }
    EXPECT_EQ(c2.loadLines, exLines + 8 * 2);
    EXPECT_EQ(c2.storeLines, exLines);
    EXPECT_EQ(c3.globalLoads, 8u * 5);
    EXPECT_EQ(c3.globalStores, 8u);
}

TEST(Fdtd2d, Deterministic) {
    EXPECT_TRUE(sameWorkload(*makeWorkload("fdtd2d:nx=12,ny=40,tmax=2", 6), *makeWorkload("fdtd2d:nx=12,ny=40,tmax=2", 6)));
}

} // namespace fdtd2d_test
