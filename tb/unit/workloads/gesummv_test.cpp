// Expectations from PolyBench/GPU gesummv.cu and the modelled SASS in Gesummv.cpp: per warp with a
// lane in range 4 + 13n + 4 + 1 = 13n + 9 instructions, else 5. Per iteration 6 loads (A, x, tmp,
// B, x again, y: stores through any float* may alias the others) and 2 stores.
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace gesummv_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

// n = 64: A, B = 64*64*4 = 0x4000 bytes each; x, y, tmp 256 bytes each. Order A, B, x, y, tmp.
constexpr uint64_t kA = 0x10000000, kB = 0x10004000, kX = 0x10008000, kY = 0x10008100, kTmp = 0x10008200;
size_t at(uint64_t j, size_t slot) { return 4 + 13 * j + slot; }

} // namespace

TEST(Gesummv, GeometryAndCounts) {
    auto w = makeWorkload("gesummv:n=100");
    ASSERT_EQ(w->kernels().size(), 1u);
    const Kernel& k = *w->kernels()[0];
    EXPECT_EQ(k.info().name, "gesummv_kernel");
    EXPECT_EQ(k.info().grid.x, 1u);
    EXPECT_TRUE(wellFormed(k));
    // 8 warps: 0..3 hold a thread < 100 (warp 3: 96..127), 4..7 none.
    EXPECT_EQ(drainByLinearWarp(k, 3).size(), 13u * 100 + 9);
    EXPECT_EQ(drainByLinearWarp(k, 4).size(), 5u);
    EXPECT_EQ(countInstructions(k), 4u * (13 * 100 + 9) + 4u * 5);
}

TEST(Gesummv, LoopBodyAddressesAndReloads) {
    auto w = makeWorkload("gesummv:n=64");
    const uint64_t n = 64;
    auto s = drain(*w->kernels()[0], 0, 1);  // threads 32..63
    const unsigned lane = 5;
    const uint64_t i = 32 + lane, j = 7;
    EXPECT_EQ(s[at(j, 0)].addr[lane], kA + (i * n + j) * 4);
    EXPECT_EQ(s[at(j, 1)].addr[lane], kX + j * 4);
    EXPECT_EQ(s[at(j, 2)].addr[lane], kTmp + i * 4);
    EXPECT_EQ(s[at(j, 4)].op, OpClass::Store);
    EXPECT_EQ(s[at(j, 4)].addr[lane], kTmp + i * 4);
    EXPECT_EQ(s[at(j, 5)].addr[lane], kB + (i * n + j) * 4);
    EXPECT_EQ(s[at(j, 6)].addr[lane], kX + j * 4);  // x[j] read again after the tmp store
    EXPECT_EQ(s[at(j, 7)].addr[lane], kY + i * 4);
    EXPECT_EQ(s[at(j, 9)].addr[lane], kY + i * 4);
    // After the loop: tmp[i] reloaded, y[i] = alpha * tmp[i] + beta * y[i] stored.
    const size_t tail = 4 + 13 * n;
    EXPECT_EQ(s[tail].op, OpClass::Load);
    EXPECT_EQ(s[tail].addr[lane], kTmp + i * 4);
    EXPECT_EQ(s[tail + 3].op, OpClass::Store);
    EXPECT_EQ(s[tail + 3].addr[lane], kY + i * 4);
    EXPECT_EQ(distinctLines(s[at(j, 0)]), 32u);  // rows 256 bytes apart
    EXPECT_EQ(distinctLines(s[at(j, 5)]), 32u);
}

TEST(Gesummv, CensusMatchesTheSourceFormulas) {
    const uint64_t n = 64, warps = 2;  // one CTA of 256 threads, 2 warps in range
    auto w = makeWorkload("gesummv:n=64");
    const Census c = census(*w->kernels()[0]);
    EXPECT_EQ(c.instructions, warps * (13 * n + 9) + 6 * 5);
    EXPECT_EQ(c.globalLoads, warps * (6 * n + 1));
    EXPECT_EQ(c.globalStores, warps * (2 * n + 1));
    // Per iteration: A 32 lines, x 1, tmp 1, B 32, x 1, y 1; after the loop tmp 1.
    EXPECT_EQ(c.loadLines, warps * (n * 68 + 1));
    EXPECT_EQ(c.storeLines, warps * (2 * n + 1));
}

TEST(Gesummv, Deterministic) {
    EXPECT_TRUE(sameWorkload(*makeWorkload("gesummv:n=40", 5), *makeWorkload("gesummv:n=40", 5)));
}

} // namespace gesummv_test
