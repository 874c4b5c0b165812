// Expectations from Rodinia backprop_cuda_kernel.cu and the modelled SASS in Backprop.cpp. Grid
// (1, in / 16) of 16 x 16 blocks; warp w holds rows ty = 2w, 2w + 1.
//   layerforward per warp: 18 before the reduction, 4 steps of 16 instructions (+4 when a row of the
//     warp has ty % 2^i == 0: i = 1 every warp, i = 2 even warps, i = 3 warps 0 and 4, i = 4 warp 0),
//     the failing loop check (3), BAR, the tx == 0 store pair (2), EXIT: 89 + 4 h(w).
//   adjust_weights per warp: 36, plus 19 for the bias update in block 0, warp 0 (ty == 0).
#include <gtest/gtest.h>

#include <set>

#include "WorkloadTestHelpers.hpp"

namespace backprop_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

constexpr unsigned kSteps[8] = {4, 1, 2, 1, 3, 1, 2, 1};  // h(w): reduction steps with active rows

// in = 64: input 65 floats (512 B), output_hidden 17 (256), input_hidden 65*17 (4608),
// hidden_partial_sum 4*16 (256), hidden_delta 17 (256), prev_weights.
constexpr uint64_t kInput = 0x10000000, kInputHidden = kInput + 768, kPartial = kInputHidden + 4608,
                   kDelta = kPartial + 256, kPrev = kDelta + 256;

uint64_t weightIndex(uint64_t by, uint64_t ty, uint64_t tx) { return 17 * 16 * by + 17 * ty + tx + 1 + 17; }

} // namespace

TEST(Backprop, Geometry) {
    auto w = makeWorkload("backprop:in=64");
    ASSERT_EQ(w->kernels().size(), 2u);
    EXPECT_EQ(w->kernels()[0]->info().name, "bpnn_layerforward_CUDA");
    EXPECT_EQ(w->kernels()[1]->info().name, "bpnn_adjust_weights_cuda");
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(k->info().grid.x, 1u);
        EXPECT_EQ(k->info().grid.y, 4u);
        EXPECT_EQ(k->info().threadsPerCta(), 256u);
        EXPECT_TRUE(wellFormed(*k));
    }
    EXPECT_EQ(w->kernels()[0]->info().smemPerCta, (16u + 256) * 4);
}

TEST(Backprop, InstructionCounts) {
    auto w = makeWorkload("backprop:in=64");
    for (unsigned by = 0; by < 4; ++by)
        for (unsigned wp = 0; wp < 8; ++wp) {
            EXPECT_EQ(drain(*w->kernels()[0], by, wp).size(), 89u + 4 * kSteps[wp]) << by << "," << wp;
            EXPECT_EQ(drain(*w->kernels()[1], by, wp).size(), 36u + (by == 0 && wp == 0 ? 19 : 0)) << by << "," << wp;
        }
    EXPECT_EQ(countInstructions(*w->kernels()[0]), 4u * (8 * 89 + 4 * 15));
    EXPECT_EQ(countInstructions(*w->kernels()[1]), 4u * 8 * 36 + 19);
}

TEST(Backprop, ReductionMasksBarriersAndSfu) {
    auto w = makeWorkload("backprop:in=64");
    auto s = drain(*w->kernels()[0], 2, 4);  // rows 8, 9
    const Census c = censusOf(s);
    EXPECT_EQ(c.barriers, 8u);
    EXPECT_EQ(c.sfu, 4u * 4 + 1);  // per step LG2 (check), LG2 + EX2 (powf), RCP (modulo); final check
    // Lanes summing at step i are the rows with ty % 2^i == 0: row 8 for i = 1, 2, 3.
    unsigned sums = 0;
    for (const auto& in : s)
        if (in.op == OpClass::Store && in.space == MemSpace::Shared && in.activeMask == 0xffffu) ++sums;
    EXPECT_EQ(sums, 3u);
    EXPECT_EQ(s[7].activeMask, 0x00010001u);  // tx == 0: lanes 0 and 16
}

TEST(Backprop, AddressesAndLines) {
    auto w = makeWorkload("backprop:in=64");
    const unsigned by = 3, wp = 5;
    auto f = drain(*w->kernels()[0], by, wp);  // rows 10, 11
    std::set<uint64_t> lines;
    for (unsigned lane = 0; lane < 32; ++lane) {
        const uint64_t ty = 10 + lane / 16, tx = lane % 16;
        EXPECT_EQ(f[10].addr[lane], kInputHidden + weightIndex(by, ty, tx) * 4);
        lines.insert((kInputHidden + weightIndex(by, ty, tx) * 4) / 128);
    }
    EXPECT_EQ(distinctLines(f[10]), lines.size());
    EXPECT_EQ(f[7].addr[16], kInput + (16 * by + 11 + 1) * 4);          // input_node[ty] from input[index_in]
    EXPECT_EQ(f[f.size() - 2].addr[0], kPartial + (by * 16 + 10) * 4);  // hidden_partial_sum[by*hid + ty]
    auto a = drain(*w->kernels()[1], by, wp);
    const unsigned lane = 21;  // ty = 11, tx = 5
    EXPECT_EQ(a[7].addr[lane], kDelta + (5 + 1) * 4);             // delta[index_x]
    EXPECT_EQ(a[8].addr[lane], kInput + (16 * by + 11 + 1) * 4);  // ly[index_y]
    EXPECT_EQ(a[9].addr[lane], kPrev + weightIndex(by, 11, 5) * 4);
    EXPECT_EQ(a[10].addr[lane], kInputHidden + weightIndex(by, 11, 5) * 4);
    EXPECT_EQ(a[20].op, OpClass::Store);
    EXPECT_EQ(a[20].addr[lane], kInputHidden + weightIndex(by, 11, 5) * 4);
    EXPECT_EQ(a[23].addr[lane], kPrev + weightIndex(by, 11, 5) * 4);  // oldw reloaded after the w store
    EXPECT_EQ(a[31].addr[lane], kPrev + weightIndex(by, 11, 5) * 4);
}

TEST(Backprop, Deterministic) {
    EXPECT_TRUE(sameWorkload(*makeWorkload("backprop:in=48", 2), *makeWorkload("backprop:in=48", 2)));
}

} // namespace backprop_test
