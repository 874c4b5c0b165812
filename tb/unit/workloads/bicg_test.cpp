// Expectations from PolyBench/GPU bicg.cu and the modelled SASS (MatVecPass.hpp): per warp with a
// lane in range 4 prologue + 1 (ST acc = 0) + 7n loop + EXIT = 7n + 6 instructions, else 5.
// Kernel 1 walks a column per thread (r[i] then A[i*n + j]), kernel 2 a row (A[i*n + j] then p[j]).
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace bicg_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

// n = 256: A = 256*256*4 = 0x40000 bytes; vectors 1 KiB each. Allocation order A, r, s, p, q.
constexpr uint64_t kA = 0x10000000, kR = 0x10040000, kS = 0x10040400, kP = 0x10040800, kQ = 0x10040c00;
size_t first(uint64_t j) { return 5 + 7 * j; }   // first load of iteration j
size_t second(uint64_t j) { return 6 + 7 * j; }  // second load
size_t store(uint64_t j) { return 8 + 7 * j; }

} // namespace

TEST(Bicg, Geometry) {
    auto w = makeWorkload("bicg:n=300");
    ASSERT_EQ(w->kernels().size(), 2u);
    EXPECT_EQ(w->kernels()[0]->info().name, "bicg_kernel1");
    EXPECT_EQ(w->kernels()[1]->info().name, "bicg_kernel2");
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(k->info().block.x, 256u);
        EXPECT_EQ(k->info().grid.x, 2u);  // ceil(300 / 256)
        EXPECT_TRUE(wellFormed(*k));
    }
}

TEST(Bicg, InstructionCounts) {
    auto w = makeWorkload("bicg:n=300");
    for (const auto& k : w->kernels()) {
        // 16 warps: 0..9 hold a thread < 300, 10..15 none.
        EXPECT_EQ(drainByLinearWarp(*k, 9).size(), 7u * 300 + 6);
        EXPECT_EQ(drainByLinearWarp(*k, 10).size(), 5u);
        EXPECT_EQ(countInstructions(*k), 10u * (7 * 300 + 6) + 6u * 5);
    }
}

TEST(Bicg, ZeroStoreBeforeTheLoop) {
    auto w = makeWorkload("bicg:n=256");
    for (const auto& k : w->kernels()) {
        auto s = drain(*k, 0, 1);
        EXPECT_EQ(s[4].op, OpClass::Store);
        EXPECT_EQ(s[4].src[1], 255u);  // RZ: s[j] = 0.0f
        // The accumulator is never loaded: the zero and each sum stay in a register.
        for (const auto& in : s)
            if (in.op == OpClass::Load) {
                ASSERT_NE(in.addr[0], s[4].addr[0]);
            }
    }
}

TEST(Bicg, AddressesAndLines) {
    auto w = makeWorkload("bicg:n=256");
    const uint64_t n = 256;
    auto k1 = drain(*w->kernels()[0], 0, 2);  // threads 64..95
    auto k2 = drain(*w->kernels()[1], 0, 2);
    for (uint64_t i : {0ull, 17ull, 255ull})
        for (unsigned lane : {0u, 31u}) {
            const uint64_t t = 64 + lane;
            // kernel 1: s[j] += r[i] * A[i*NY + j], j = t
            EXPECT_EQ(k1[first(i)].addr[lane], kR + i * 4);
            EXPECT_EQ(k1[second(i)].addr[lane], kA + (i * n + t) * 4);
            EXPECT_EQ(k1[store(i)].addr[lane], kS + t * 4);
            // kernel 2: q[i] += A[i*NY + j] * p[j], i = t, loop over j
            EXPECT_EQ(k2[first(i)].addr[lane], kA + (t * n + i) * 4);
            EXPECT_EQ(k2[second(i)].addr[lane], kP + i * 4);
            EXPECT_EQ(k2[store(i)].addr[lane], kQ + t * 4);
        }
    EXPECT_EQ(distinctLines(k1[first(3)]), 1u);   // r[i]: one address
    EXPECT_EQ(distinctLines(k1[second(3)]), 1u);  // a 128-byte-aligned row segment
    EXPECT_EQ(distinctLines(k2[first(3)]), 32u);  // one row per lane, 1 KiB apart
    EXPECT_EQ(distinctLines(k2[second(3)]), 1u);
}

TEST(Bicg, CensusMatchesTheSourceFormulas) {
    const uint64_t n = 256, warps = 8;
    auto w = makeWorkload("bicg:n=256");
    const Census c1 = census(*w->kernels()[0]), c2 = census(*w->kernels()[1]);
    for (const Census& c : {c1, c2}) {
        EXPECT_EQ(c.instructions, warps * (7 * n + 6));
        EXPECT_EQ(c.globalLoads, warps * 2 * n);
        EXPECT_EQ(c.globalStores, warps * (1 + n));
        EXPECT_EQ(c.storeLines, warps * (1 + n));  // s[j] / q[i]: one line per warp
        EXPECT_EQ(c.alu, warps * (4 + 4 * n));
    }
    EXPECT_EQ(c1.loadLines, warps * n * (1 + 1));
    EXPECT_EQ(c2.loadLines, warps * n * (32 + 1));
}

TEST(Bicg, DeterministicAndSeedIndependent) {
    auto a = makeWorkload("bicg:n=64", 1), b = makeWorkload("bicg:n=64", 1), c = makeWorkload("bicg:n=64", 99);
    EXPECT_TRUE(sameWorkload(*a, *b));
    EXPECT_TRUE(sameWorkload(*a, *c));  // no generated data
}

} // namespace bicg_test
