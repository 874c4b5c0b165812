// Expectations from PolyBench/GPU mvt.cu and the modelled SASS (MatVecPass.hpp, as ATAX): per
// warp with a lane in range 4 + 1 (LD x[i]) + 7n + 1 = 7n + 6 instructions, else 5.
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace mvt_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

// n = 256: allocation order a (0x40000 bytes), x1, x2, y_1, y_2 (1 KiB each).
constexpr uint64_t kA = 0x10000000, kX1 = 0x10040000, kX2 = 0x10040400, kY1 = 0x10040800, kY2 = 0x10040c00;
size_t ldMatrix(uint64_t j) { return 5 + 7 * j; }
size_t ldVector(uint64_t j) { return 6 + 7 * j; }
size_t stAcc(uint64_t j) { return 8 + 7 * j; }

} // namespace

TEST(Mvt, GeometryAndCounts) {
    auto w = makeWorkload("mvt:n=300");
    ASSERT_EQ(w->kernels().size(), 2u);
    EXPECT_EQ(w->kernels()[0]->info().name, "mvt_kernel1");
    EXPECT_EQ(w->kernels()[1]->info().name, "mvt_kernel2");
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(k->info().grid.x, 2u);
        EXPECT_TRUE(wellFormed(*k));
        EXPECT_EQ(countInstructions(*k), 10u * (7 * 300 + 6) + 6u * 5);
    }
}

TEST(Mvt, AddressesAndLines) {
    auto w = makeWorkload("mvt:n=256");
    const uint64_t n = 256;
    auto k1 = drain(*w->kernels()[0], 0, 5);  // threads 160..191
    auto k2 = drain(*w->kernels()[1], 0, 5);
    EXPECT_EQ(k1[4].op, OpClass::Load);  // x1[i] loaded once before the loop
    EXPECT_EQ(k1[4].addr[3], kX1 + (160 + 3) * 4);
    EXPECT_EQ(k2[4].addr[3], kX2 + (160 + 3) * 4);
    for (uint64_t j : {0ull, 99ull})
        for (unsigned lane : {0u, 7u}) {
            const uint64_t i = 160 + lane;
            EXPECT_EQ(k1[ldMatrix(j)].addr[lane], kA + (i * n + j) * 4);  // a[i * N + j]
            EXPECT_EQ(k1[ldVector(j)].addr[lane], kY1 + j * 4);
            EXPECT_EQ(k1[stAcc(j)].addr[lane], kX1 + i * 4);
            EXPECT_EQ(k2[ldMatrix(j)].addr[lane], kA + (j * n + i) * 4);  // a[j * N + i]
            EXPECT_EQ(k2[ldVector(j)].addr[lane], kY2 + j * 4);
        }
    EXPECT_EQ(distinctLines(k1[ldMatrix(10)]), 32u);
    EXPECT_EQ(distinctLines(k2[ldMatrix(10)]), 1u);
}

TEST(Mvt, CensusMatchesTheSourceFormulas) {
    const uint64_t n = 256, warps = 8;
    auto w = makeWorkload("mvt:n=256");
    const Census c1 = census(*w->kernels()[0]), c2 = census(*w->kernels()[1]);
    for (const Census& c : {c1, c2}) {
        EXPECT_EQ(c.instructions, warps * (7 * n + 6));
        EXPECT_EQ(c.globalLoads, warps * (1 + 2 * n));
        EXPECT_EQ(c.globalStores, warps * n);
        EXPECT_EQ(c.storeLines, warps * n);
    }
    EXPECT_EQ(c1.loadLines, warps * (1 + n * (32 + 1)));
    EXPECT_EQ(c2.loadLines, warps * (1 + n * (1 + 1)));
}

TEST(Mvt, Deterministic) {
    EXPECT_TRUE(sameWorkload(*makeWorkload("mvt:n=64", 3), *makeWorkload("mvt:n=64", 3)));
}

} // namespace mvt_test
