// Expectations are computed by hand from PolyBench/GPU atax.cu and the modelled SASS in
// workloads/builtin/Atax.cpp: a warp with any lane in range runs 4 prologue + 1 accumulator load
// + 7 per loop iteration + EXIT = 7n + 6 instructions; a warp with none runs 4 + EXIT = 5.
#include <gtest/gtest.h>

#include <set>

#include "WorkloadTestHelpers.hpp"
#include "workloads/Workload.hpp"

namespace atax_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

std::unique_ptr<Workload> make(unsigned n, uint64_t seed = 1) {
    return WorkloadRegistry::builtin().create("atax:n=" + std::to_string(n), seed);
}

// Stream positions: prologue 0..3, accumulator load 4, iteration j at 5 + 7j .. 11 + 7j.
constexpr size_t kLdAcc = 4;
size_t ldMatrix(uint64_t j) { return 5 + 7 * j; }
size_t ldVector(uint64_t j) { return 6 + 7 * j; }
size_t ffma(uint64_t j) { return 7 + 7 * j; }
size_t stAcc(uint64_t j) { return 8 + 7 * j; }
size_t bra(uint64_t j) { return 11 + 7 * j; }

// Buffers allocated A, x, y, tmp at 256-byte-aligned bases from 0x10000000.
struct Bases {
    uint64_t a, x, y, tmp;
};
constexpr Bases kBases256{0x10000000, 0x10040000, 0x10040400, 0x10040800};  // A = 0x40000 bytes
// n = 300: A = 360000 bytes -> 360192 (0x57f00); vectors 1200 bytes -> 1280 (0x500).
constexpr Bases kBases300{0x10000000, 0x10057f00, 0x10058400, 0x10058900};

} // namespace

TEST(Atax, TwoKernelsWithPolybenchGeometry) {
    auto w = make(300);
    ASSERT_EQ(w->kernels().size(), 2u);
    EXPECT_EQ(w->kernels()[0]->info().name, "atax_kernel1");
    EXPECT_EQ(w->kernels()[1]->info().name, "atax_kernel2");
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(k->info().block.x, 256u);
        EXPECT_EQ(k->info().block.y, 1u);
        EXPECT_EQ(k->info().grid.x, 2u);  // ceil(300 / 256)
        EXPECT_GT(k->info().regsPerThread, 0u);
    }
}

TEST(Atax, InstructionCountsN256) {
    auto w = make(256);
    const uint64_t perWarp = 7 * 256 + 6;
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(drain(*k, 0, 0).size(), perWarp);
        EXPECT_EQ(countInstructions(*k), 8 * perWarp);  // one CTA of 8 full warps
    }
}

TEST(Atax, InstructionCountsN300) {
    auto w = make(300);
    const uint64_t active = 7 * 300 + 6;
    for (const auto& k : w->kernels()) {
        // 16 warps: 0..9 hold a thread < 300 (warp 9 = threads 288..319), 10..15 none.
        EXPECT_EQ(drainByLinearWarp(*k, 9).size(), active);
        EXPECT_EQ(drainByLinearWarp(*k, 10).size(), 5u);
        EXPECT_EQ(countInstructions(*k), 10 * active + 6 * 5);
    }
}

TEST(Atax, PartialWarpMasks) {
    auto w = make(300);
    for (const auto& k : w->kernels()) {
        auto s = drain(*k, 1, 1);  // threads 288..319, 288..299 in range
        for (size_t p = 0; p < 4; ++p) EXPECT_EQ(s[p].activeMask, 0xffffffffu) << p;
        for (size_t p = 4; p + 1 < s.size(); ++p) ASSERT_EQ(s[p].activeMask, 0xfffu) << p;
        EXPECT_EQ(s.back().op, OpClass::Exit);
        EXPECT_EQ(s.back().activeMask, 0xffffffffu);
        auto empty = drain(*k, 1, 2);  // threads 320..351: none in range
        ASSERT_EQ(empty.size(), 5u);
        EXPECT_EQ(empty[4].op, OpClass::Exit);
        EXPECT_EQ(empty[4].activeMask, 0xffffffffu);
    }
}

TEST(Atax, Kernel1AddressesN300) {
    auto w = make(300);
    const Kernel& k1 = *w->kernels()[0];
    const uint64_t n = 300;
    auto s = drain(k1, 0, 3);  // warpBase = 96
    const uint64_t warpBase = 96;
    for (unsigned lane : {0u, 1u, 17u, 31u}) {
        const uint64_t i = warpBase + lane;
        EXPECT_EQ(s[kLdAcc].addr[lane], kBases300.tmp + i * 4);
        for (uint64_t j : {0ull, 1ull, 123ull, 299ull}) {
            EXPECT_EQ(s[ldMatrix(j)].addr[lane], kBases300.a + (i * n + j) * 4);
            EXPECT_EQ(s[ldVector(j)].addr[lane], kBases300.x + j * 4);
            EXPECT_EQ(s[stAcc(j)].addr[lane], kBases300.tmp + i * 4);
        }
    }
    // Partial warp: lane 11 is thread 299.
    auto p = drain(k1, 1, 1);
    EXPECT_EQ(p[ldMatrix(5)].addr[11], kBases300.a + (299 * n + 5) * 4);
}

TEST(Atax, Kernel2AddressesN300) {
    auto w = make(300);
    const Kernel& k2 = *w->kernels()[1];
    const uint64_t n = 300;
    auto s = drain(k2, 1, 0);  // warpBase = 256
    const uint64_t warpBase = 256;
    for (unsigned lane : {0u, 5u, 31u}) {
        const uint64_t j = warpBase + lane;
        EXPECT_EQ(s[kLdAcc].addr[lane], kBases300.y + j * 4);
        for (uint64_t i : {0ull, 7ull, 299ull}) {
            EXPECT_EQ(s[ldMatrix(i)].addr[lane], kBases300.a + (i * n + j) * 4);
            EXPECT_EQ(s[ldVector(i)].addr[lane], kBases300.tmp + i * 4);
            EXPECT_EQ(s[stAcc(i)].addr[lane], kBases300.y + j * 4);
        }
    }
}

TEST(Atax, LinesPerMatrixLoad) {
    auto w = make(256);
    auto k1 = drain(*w->kernels()[0], 0, 2);
    auto k2 = drain(*w->kernels()[1], 0, 2);
    for (uint64_t j : {0ull, 1ull, 100ull, 255ull}) {
        EXPECT_EQ(distinctLines(k1[ldMatrix(j)]), 32u) << j;  // one row per lane, 1 KiB apart
        EXPECT_EQ(distinctLines(k2[ldMatrix(j)]), 1u) << j;   // 32 adjacent floats, 128-aligned
        EXPECT_EQ(distinctLines(k1[ldVector(j)]), 1u) << j;   // x[j]: same address for all lanes
        EXPECT_EQ(distinctLines(k2[ldVector(j)]), 1u) << j;
    }
    EXPECT_EQ(k1[ldMatrix(3)].addr[5], kBases256.a + ((64 + 5) * 256 + 3) * 4);
    EXPECT_EQ(k2[ldMatrix(3)].addr[5], kBases256.a + (3 * 256 + 64 + 5) * 4);
    EXPECT_EQ(k2[stAcc(3)].addr[5], kBases256.y + (64 + 5) * 4);
    EXPECT_EQ(k1[ldVector(3)].addr[5], kBases256.x + 3 * 4);
    EXPECT_EQ(k2[ldVector(3)].addr[5], kBases256.tmp + 3 * 4);
}

TEST(Atax, Kernel2RowsNotLineAlignedSpanTwoLines) {
    auto w = make(300);
    auto k2 = drain(*w->kernels()[1], 0, 0);
    EXPECT_EQ(distinctLines(k2[ldMatrix(0)]), 1u);
    EXPECT_EQ(distinctLines(k2[ldMatrix(1)]), 2u);  // row 1 starts 1200 bytes in: 48 mod 128
}

TEST(Atax, PcsAreStaticAndLoopReusesThem) {
    auto w = make(256);
    for (const auto& k : w->kernels()) {
        auto s = drain(*k, 0, 0);
        std::set<uint64_t> pcs;
        for (size_t p = 0; p < ldMatrix(1); ++p) pcs.insert(s[p].pc);  // prologue + first iteration
        pcs.insert(s.back().pc);
        EXPECT_EQ(pcs.size(), 13u);  // every static instruction distinct
        for (uint64_t pc : pcs) EXPECT_EQ(pc % 16, 0u);
        for (uint64_t j = 1; j < 256; ++j)
            for (size_t slot = 0; slot < 7; ++slot)
                ASSERT_EQ(s[ldMatrix(j) + slot].pc, s[ldMatrix(0) + slot].pc) << j;
    }
}

TEST(Atax, LoopBodyClassesAndDependences) {
    auto w = make(256);
    for (const auto& k : w->kernels()) {
        auto s = drain(*k, 0, 0);
        EXPECT_EQ(s[kLdAcc].op, OpClass::Load);
        const uint64_t j = 17;
        const auto& ldA = s[ldMatrix(j)];
        const auto& ldV = s[ldVector(j)];
        const auto& fma = s[ffma(j)];
        const auto& st = s[stAcc(j)];
        EXPECT_EQ(ldA.op, OpClass::Load);
        EXPECT_EQ(ldV.op, OpClass::Load);
        EXPECT_EQ(fma.op, OpClass::Alu);
        EXPECT_EQ(st.op, OpClass::Store);
        for (size_t p = stAcc(j) + 1; p <= bra(j); ++p) EXPECT_EQ(s[p].op, OpClass::Alu);
        auto reads = [](const WarpInstruction& in, uint16_t r) {
            for (unsigned q = 0; q < in.numSrc; ++q)
                if (in.src[q] == r) return true;
            return false;
        };
        ASSERT_EQ(ldA.numDst, 1u);
        ASSERT_EQ(ldV.numDst, 1u);
        ASSERT_EQ(fma.numDst, 1u);
        EXPECT_TRUE(reads(fma, ldA.dst[0]));
        EXPECT_TRUE(reads(fma, ldV.dst[0]));
        EXPECT_TRUE(reads(fma, fma.dst[0]));          // accumulates
        EXPECT_EQ(s[kLdAcc].dst[0], fma.dst[0]);      // into the register loaded before the loop
        EXPECT_TRUE(reads(st, fma.dst[0]));
        EXPECT_EQ(st.numDst, 0u);
        for (size_t p : {kLdAcc, ldMatrix(j), ldVector(j), stAcc(j)}) EXPECT_EQ(s[p].accessBytes, 4u);
    }
}

TEST(Atax, DeterministicForSameSeed) {
    auto a = make(300, 42);
    auto b = make(300, 42);
    for (size_t kk = 0; kk < 2; ++kk)
        for (uint64_t g : {0ull, 9ull, 10ull}) {
            auto sa = drainByLinearWarp(*a->kernels()[kk], g);
            auto sb = drainByLinearWarp(*b->kernels()[kk], g);
            ASSERT_EQ(sa.size(), sb.size());
            for (size_t p = 0; p < sa.size(); ++p) ASSERT_TRUE(sameInstruction(sa[p], sb[p])) << kk << ":" << g;
        }
}

TEST(Atax, LargestSizeIsGeneratedLazily) {
    // Materialising these 512 warps would take ~115K instructions x ~330 bytes each; holding
    // every stream open at once must cost only their coroutine frames.
    auto w = make(16384);
    const Kernel& k1 = *w->kernels()[0];
    ASSERT_EQ(k1.info().ctas() * k1.info().warpsPerCta(), 512u);
    std::vector<std::unique_ptr<WarpStream>> streams;
    for (uint64_t cta = 0; cta < k1.info().ctas(); ++cta)
        for (unsigned warp = 0; warp < k1.info().warpsPerCta(); ++warp) streams.push_back(k1.warp(cta, warp));
    WarpInstruction in;
    for (auto& s : streams)
        for (int p = 0; p < 100; ++p) ASSERT_TRUE(s->next(in));
    // Position 99 = stAcc(13): the store, static instruction 8 of the listing.
    EXPECT_EQ(stAcc(13), 99u);
    EXPECT_EQ(in.op, OpClass::Store);
    EXPECT_EQ(in.pc, 8u * 16);
}

} // namespace atax_test
