// Expectations are computed by hand from the CUDA source and the modelled SASS in
// workloads/builtin/VectorAdd.cpp (9 instructions per warp with any i < n, 5 otherwise).
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"
#include "workloads/Workload.hpp"

namespace vector_add_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

constexpr uint64_t kA = 0x10000000;
constexpr uint64_t kB = 0x10001000;  // n = 1000: 4000 bytes round up to 4096
constexpr uint64_t kC = 0x10002000;

std::unique_ptr<Workload> make(const std::string& spec, uint64_t seed = 1) {
    return WorkloadRegistry::builtin().create(spec, seed);
}

} // namespace

TEST(VectorAdd, Geometry) {
    auto w = make("vectoradd:n=1000");
    ASSERT_EQ(w->kernels().size(), 1u);
    const auto& info = w->kernels()[0]->info();
    EXPECT_EQ(info.block.x, 256u);
    EXPECT_EQ(info.grid.x, 4u);  // ceil(1000 / 256)
    EXPECT_EQ(info.warpsPerCta(), 8u);
    EXPECT_GT(info.regsPerThread, 0u);
}

TEST(VectorAdd, InstructionCountsN1000) {
    auto w = make("vectoradd:n=1000");
    const Kernel& k = *w->kernels()[0];
    // 32 warps, the last (threads 992..1023) with 8 lanes in range: every warp runs the body.
    for (uint64_t g = 0; g < 32; ++g) EXPECT_EQ(drainByLinearWarp(k, g).size(), 9u) << g;
    EXPECT_EQ(countInstructions(k), 32u * 9);
}

TEST(VectorAdd, InstructionCountsWithWarpsEntirelyPastN) {
    auto w = make("vectoradd:n=300");
    const Kernel& k = *w->kernels()[0];
    // 2 CTAs = 16 warps; warps 0..9 hold a thread < 300 (warp 9: 288..319), warps 10..15 none.
    EXPECT_EQ(drainByLinearWarp(k, 9).size(), 9u);
    EXPECT_EQ(drainByLinearWarp(k, 10).size(), 5u);
    EXPECT_EQ(countInstructions(k), 10u * 9 + 6u * 5);
}

TEST(VectorAdd, SequenceAndRegisters) {
    auto w = make("vectoradd:n=1000");
    auto s = drain(*w->kernels()[0], 0, 0);
    ASSERT_EQ(s.size(), 9u);
    const OpClass ops[] = {OpClass::Alu,  OpClass::Alu,  OpClass::Alu, OpClass::Alu, OpClass::Load,
                           OpClass::Load, OpClass::Alu,  OpClass::Store, OpClass::Exit};
    for (size_t k = 0; k < s.size(); ++k) {
        EXPECT_EQ(s[k].op, ops[k]) << k;
        EXPECT_EQ(s[k].pc, k * 16) << k;
    }
    EXPECT_EQ(s[0].dst[0], 0u);
    EXPECT_EQ(s[1].dst[0], 1u);
    EXPECT_EQ(s[2].dst[0], 2u);
    EXPECT_EQ(s[2].src[0], 0u);
    EXPECT_EQ(s[2].src[1], 1u);
    EXPECT_EQ(s[3].dst[0], 3u);
    EXPECT_EQ(s[3].src[0], 2u);
    EXPECT_EQ(s[4].dst[0], 4u);
    EXPECT_EQ(s[4].src[0], 2u);
    EXPECT_EQ(s[5].dst[0], 5u);
    EXPECT_EQ(s[6].dst[0], 6u);
    EXPECT_EQ(s[6].src[0], 4u);
    EXPECT_EQ(s[6].src[1], 5u);
    EXPECT_EQ(s[7].numDst, 0u);
    EXPECT_EQ(s[7].src[0], 2u);
    EXPECT_EQ(s[7].src[1], 6u);
    for (int k : {4, 5, 7}) EXPECT_EQ(s[k].accessBytes, 4u);
}

TEST(VectorAdd, AddressesFullWarp) {
    auto w = make("vectoradd:n=1000");
    auto s = drain(*w->kernels()[0], 1, 2);  // threads 256 + 64 .. 256 + 95
    for (unsigned lane = 0; lane < 32; ++lane) {
        EXPECT_EQ(s[4].addr[lane], kA + (320 + lane) * 4);
        EXPECT_EQ(s[5].addr[lane], kB + (320 + lane) * 4);
        EXPECT_EQ(s[7].addr[lane], kC + (320 + lane) * 4);
    }
    EXPECT_EQ(distinctLines(s[4]), 1u);  // 32 consecutive floats at a 128-byte boundary
}

TEST(VectorAdd, PartialLastWarpMasksMemoryOps) {
    auto w = make("vectoradd:n=1000");
    auto s = drain(*w->kernels()[0], 3, 7);  // threads 992..1023, 992..999 in range
    ASSERT_EQ(s.size(), 9u);
    for (int k : {0, 1, 2, 3, 8}) EXPECT_EQ(s[k].activeMask, 0xffffffffu) << k;
    for (int k : {4, 5, 6, 7}) EXPECT_EQ(s[k].activeMask, 0xffu) << k;
    EXPECT_EQ(s[7].addr[7], kC + 999 * 4);
    EXPECT_EQ(s[4].addr[0], kA + 992 * 4);
}

TEST(VectorAdd, PartialCtaHas232ThreadsInRange) {
    auto w = make("vectoradd:n=1000");
    unsigned lanes = 0;
    for (unsigned warp = 0; warp < 8; ++warp) lanes += drain(*w->kernels()[0], 3, warp)[4].activeLanes();
    EXPECT_EQ(lanes, 1000u - 768);
}

TEST(VectorAdd, DeterministicForSameSeed) {
    auto a = make("vectoradd:n=1000", 7);
    auto b = make("vectoradd:n=1000", 7);
    for (uint64_t g = 0; g < 32; ++g) {
        auto sa = drainByLinearWarp(*a->kernels()[0], g);
        auto sb = drainByLinearWarp(*b->kernels()[0], g);
        ASSERT_EQ(sa.size(), sb.size());
        for (size_t k = 0; k < sa.size(); ++k) EXPECT_TRUE(sameInstruction(sa[k], sb[k])) << g << ":" << k;
    }
}

} // namespace vector_add_test
