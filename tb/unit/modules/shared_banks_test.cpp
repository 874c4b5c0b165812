// SharedBanks: passes of a warp's shared-memory access through the banks, each expected count
// worked out by hand from word = address / bank bytes, bank = word mod banks, passes of a part =
// the most distinct words one bank is asked for, parts of 32, 16 or 8 lanes for 4-, 8- and
// 16-byte accesses with Fermi's 32 banks of 4 bytes.
#include <gtest/gtest.h>

#include "modules/SharedBanks.hpp"
#include "tb/unit/modules/ModuleTestHelpers.hpp"

namespace shared_banks_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

WarpInstruction shared(uint64_t base, uint64_t stride, uint8_t bytes = 4, uint32_t mask = kAllLanes) {
    return mem(OpClass::Load, 0, base, stride, bytes, mask, MemSpace::Shared);
}

} // namespace

TEST(SharedBanks, ConsecutiveWordsTakeOnePass) {
    SharedBanks b(32, 4);
    // Lane l reads word l: banks 0..31, one word each.
    EXPECT_EQ(b.passes(shared(0, 4)), 1u);
    // The same from an offset: words 7..38 are banks 7..31, 0..6, still one each.
    EXPECT_EQ(b.passes(shared(28, 4)), 1u);
}

TEST(SharedBanks, StrideTwoWordsIsATwoWayConflict) {
    SharedBanks b(32, 4);
    // Lane l reads word 2l: bank 2l mod 32, so lanes l and l + 16 ask bank 2l for words 2l and
    // 2l + 32.
    EXPECT_EQ(b.passes(shared(0, 8)), 2u);
}

TEST(SharedBanks, StrideThirtyTwoWordsIsAThirtyTwoWayConflict) {
    SharedBanks b(32, 4);
    // Lane l reads word 32l: all in bank 0, 32 distinct words.
    EXPECT_EQ(b.passes(shared(0, 128)), 32u);
    // Stride 33 words (the padded column): bank (33l) mod 32 = l, no conflict.
    EXPECT_EQ(b.passes(shared(0, 132)), 1u);
}

TEST(SharedBanks, LanesReadingOneWordAreABroadcast) {
    SharedBanks b(32, 4);
    EXPECT_EQ(b.passes(shared(0x40, 0)), 1u);  // every lane the same word
    // Two words of bank 0 (0 and 32), each read by 16 lanes: two passes, not 32.
    WarpInstruction i = shared(0, 0);
    for (unsigned l = 0; l < kWarpSize; ++l) i.addr[l] = (l % 2) * 128;
    EXPECT_EQ(b.passes(i), 2u);
    // Bytes of one word (1-byte accesses, 4 lanes per word): 8 words in 8 banks.
    EXPECT_EQ(b.passes(shared(0, 1, 1)), 1u);
}

TEST(SharedBanks, InactiveLanesAreIgnored) {
    SharedBanks b(32, 4);
    // Stride 32 words, lanes 0-3 active: 4 words in bank 0.
    EXPECT_EQ(b.passes(shared(0, 128, 4, 0xfu)), 4u);
    // One active lane cannot conflict with anything.
    EXPECT_EQ(b.passes(shared(0, 128, 4, 1u << 17)), 1u);
    // No active lane: the instruction still goes through the unit once.
    EXPECT_EQ(b.passes(shared(0, 128, 4, 0)), 1u);
}

TEST(SharedBanks, EightByteAccessesArePerHalfWarp) {
    SharedBanks b(32, 4);
    EXPECT_EQ(b.lanesPerPart(8), 16u);
    // Lane l reads words 2l and 2l + 1; lanes 0-15 cover words 0..31 (banks 0..31) in one pass,
    // lanes 16-31 words 32..63 in another.
    EXPECT_EQ(b.passes(shared(0, 8, 8)), 2u);
    // Only the first half-warp active: its one pass.
    EXPECT_EQ(b.passes(shared(0, 8, 8, 0xffffu)), 1u);
    // Stride 16 bytes: lane l reads words 4l, 4l + 1; in a half-warp lanes l and l + 8 share
    // banks (4l mod 32) with different words: 2 passes per half, 4 in all.
    EXPECT_EQ(b.passes(shared(0, 16, 8)), 4u);
}

TEST(SharedBanks, SixteenByteAccessesArePerQuarterWarp) {
    SharedBanks b(32, 4);
    EXPECT_EQ(b.lanesPerPart(16), 8u);
    // Lane l reads words 4l..4l+3; each quarter-warp covers 32 consecutive words: 4 x 1 pass.
    EXPECT_EQ(b.passes(shared(0, 16, 16)), 4u);
    // Stride 128 bytes: every lane's 4 words are banks 0-3, 8 distinct words per bank in a
    // quarter: 4 x 8 passes.
    EXPECT_EQ(b.passes(shared(0, 128, 16)), 32u);
}

TEST(SharedBanks, BankCountAndWidthAreParameters) {
    // 16 banks of 4 bytes (compute capability 1.x): a pass delivers 64 bytes, so 4-byte accesses
    // go by half-warp; consecutive words take one pass per half.
    SharedBanks b16(16, 4);
    EXPECT_EQ(b16.lanesPerPart(4), 16u);
    EXPECT_EQ(b16.passes(shared(0, 4)), 2u);
    // Stride 2 words: lanes l and l + 8 of a half meet in bank 2l mod 16: 2 x 2 passes.
    EXPECT_EQ(b16.passes(shared(0, 8)), 4u);
    // 32 banks of 8 bytes: an 8-byte access per lane fits a whole warp in one pass ...
    SharedBanks w8(32, 8);
    EXPECT_EQ(w8.lanesPerPart(8), 32u);
    EXPECT_EQ(w8.passes(shared(0, 8, 8)), 1u);
    // ... 4-byte lanes 2k and 2k + 1 share 8-byte word k (a broadcast, not a conflict) ...
    // ... and at a 16-byte stride lane l reads word 2l, bank 2l mod 32: lanes l, l + 16 conflict.
    EXPECT_EQ(w8.passes(shared(0, 4)), 1u);
    EXPECT_EQ(w8.passes(shared(0, 16)), 2u);
}

} // namespace shared_banks_test
