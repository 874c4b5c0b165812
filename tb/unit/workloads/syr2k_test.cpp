// Expectations from PolyBench/GPU syr2k.cu and the modelled SASS in Syr2k.cpp: per warp with a
// lane in range 8 + 3 + 13m + 1 = 13m + 12 instructions, else 9. Per iteration a[i][k] and b[i][k]
// are one address each for the warp, b[j][k] and a[j][k] one row per lane.
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace syr2k_test {

using namespace gpusim;
using namespace gpusim::test;

TEST(Syr2k, GeometryAndCounts) {
    auto w = makeWorkload("syr2k:n=40,m=8");
    ASSERT_EQ(w->kernels().size(), 1u);
    const Kernel& k = *w->kernels()[0];
    EXPECT_EQ(k.info().name, "syr2k_kernel");
    EXPECT_EQ(k.info().grid.x, 2u);
    EXPECT_EQ(k.info().grid.y, 5u);
    EXPECT_TRUE(wellFormed(k));
    EXPECT_EQ(countInstructions(k), 10u * 8 * (13 * 8 + 12));  // every warp has a lane in range
}

TEST(Syr2k, AddressesAndLines) {
    const uint64_t n = 64, m = 32;
    auto w = makeWorkload("syr2k:n=64,m=32");
    // A, B = 64*32*4 = 0x2000 bytes each, then C.
    const uint64_t a = 0x10000000, b = 0x10002000, c = 0x10004000;
    auto s = drain(*w->kernels()[0], 0, 6);  // blockIdx (0, 0), i = 6, j = lane
    const unsigned lane = 30;
    const uint64_t i = 6, j = lane, k = 5;
    const size_t base = 11 + 13 * k;
    EXPECT_EQ(s[8].addr[lane], c + (i * n + j) * 4);
    EXPECT_EQ(s[base].addr[lane], a + (i * m + k) * 4);
    EXPECT_EQ(s[base + 1].addr[lane], b + (j * m + k) * 4);
    EXPECT_EQ(s[base + 2].addr[lane], b + (i * m + k) * 4);
    EXPECT_EQ(s[base + 3].addr[lane], a + (j * m + k) * 4);
    EXPECT_EQ(s[base + 9].op, OpClass::Store);
    EXPECT_EQ(s[base + 9].addr[lane], c + (i * n + j) * 4);
    EXPECT_EQ(distinctLines(s[base]), 1u);
    EXPECT_EQ(distinctLines(s[base + 1]), 32u);
    EXPECT_EQ(distinctLines(s[base + 2]), 1u);
    EXPECT_EQ(distinctLines(s[base + 3]), 32u);
}

TEST(Syr2k, CensusMatchesTheSourceFormulas) {
    const uint64_t n = 64, m = 32, warps = (n / 32) * (n / 8) * 8;
    auto w = makeWorkload("syr2k:n=64,m=32");
    const Census c = census(*w->kernels()[0]);
    EXPECT_EQ(c.instructions, warps * (13 * m + 12));
    EXPECT_EQ(c.globalLoads, warps * (1 + 4 * m));
    EXPECT_EQ(c.globalStores, warps * (1 + m));
    EXPECT_EQ(c.alu, warps * (8 + 1 + 8 * m));
    EXPECT_EQ(c.loadLines, warps * (1 + m * (1 + 32 + 1 + 32)));
    EXPECT_EQ(c.storeLines, warps * (1 + m));
}

TEST(Syr2k, Deterministic) {
    EXPECT_TRUE(sameWorkload(*makeWorkload("syr2k:n=40,m=4", 2), *makeWorkload("syr2k:n=40,m=4", 2)));
}

} // namespace syr2k_test
