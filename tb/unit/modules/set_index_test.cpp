// SetIndex: linear (line address mod sets) and GPGPU-Sim's Fermi hash (bits 7-11 XOR bits
// {13,14,15,17,19}; with 64 sets, bit 12 becomes set bit 5). All values worked by hand.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "modules/SetIndex.hpp"

namespace set_index_test {

using namespace gpusim;

TEST(SetIndex, Linear) {
    SetIndex lin32(SetIndexing::Linear, 32, 128);
    // 0x1234 >> 7 = 0x24 = 36; 36 mod 32 = 4.
    EXPECT_EQ(lin32(0x1234), 4u);
    // Offsets within a line do not matter.
    EXPECT_EQ(lin32(0x1200), 4u);
    EXPECT_EQ(lin32(0x127F), 4u);
    // 0xA5A80 = 678528; /128 = 5301; 5301 mod 32 = 21, mod 64 = 53.
    EXPECT_EQ(lin32(0xA5A80), 21u);
    SetIndex lin64(SetIndexing::Linear, 64, 128);
    EXPECT_EQ(lin64(0xA5A80), 53u);
    // 64-byte lines, 4 sets: 0x1C0 >> 6 = 7; 7 mod 4 = 3.
    SetIndex lin4(SetIndexing::Linear, 4, 64);
    EXPECT_EQ(lin4(0x1C0), 3u);
}

TEST(SetIndex, FermiHashSingleBits) {
    SetIndex h(SetIndexing::FermiHash, 32, 128);
    EXPECT_EQ(h(0x0), 0u);
    EXPECT_EQ(h(0x80), 1u);      // bit 7 -> lower bit 0
    EXPECT_EQ(h(0x800), 16u);    // bit 11 -> lower bit 4
    EXPECT_EQ(h(0x2000), 1u);    // bit 13 -> upper bit 0
    EXPECT_EQ(h(0x4000), 2u);    // bit 14 -> upper bit 1
    EXPECT_EQ(h(0x8000), 4u);    // bit 15 -> upper bit 2
    EXPECT_EQ(h(0x20000), 8u);   // bit 17 -> upper bit 3
    EXPECT_EQ(h(0x80000), 16u);  // bit 19 -> upper bit 4
    // Bits 12, 16, 18 are not used with 32 sets.
    EXPECT_EQ(h(0x1000), 0u);
    EXPECT_EQ(h(0x10000), 0u);
    EXPECT_EQ(h(0x40000), 0u);
    // XOR: bit 7 and bit 13 cancel.
    EXPECT_EQ(h(0x2080), 0u);
}

TEST(SetIndex, FermiHashWorkedExample) {
    // 0xA5A80 = 1010 0101 1010 1000 0000 (bits 19..0)
    //  bits 7-11:  b7=1 b8=0 b9=1 b10=0 b11=1 -> 0b10101 = 21
    //  upper:      b13=0 b14=1 b15=0 b17=1 b19=1 -> 0b11010 = 26
    //  21 ^ 26 = 0b01111 = 15; 64 sets: b12=1 -> 15 | 32 = 47
    SetIndex h32(SetIndexing::FermiHash, 32, 128);
    SetIndex h64(SetIndexing::FermiHash, 64, 128);
    EXPECT_EQ(h32(0xA5A80), 15u);
    EXPECT_EQ(h64(0xA5A80), 47u);
    // 64 sets: bit 12 alone -> set 32; without bit 12 the 32-set value.
    EXPECT_EQ(h64(0x1000), 32u);
    EXPECT_EQ(h64(0x2080), 0u);
}

TEST(SetIndex, CollideUnderLinearButNotUnderHash) {
    SetIndex lin(SetIndexing::Linear, 32, 128);
    SetIndex h(SetIndexing::FermiHash, 32, 128);
    // Power-of-two stride of 4 KB x 2: 0x0 and 0x2000 -> lines 0 and 64 -> linear set 0 for both.
    EXPECT_EQ(lin(0x0), 0u);
    EXPECT_EQ(lin(0x2000), 0u);
    // The hash folds bit 13 in: sets 0 and 1.
    EXPECT_EQ(h(0x0), 0u);
    EXPECT_EQ(h(0x2000), 1u);
    // A column walk with stride 0x2000 (8 KB): 0x0, 0x2000, 0x4000, 0x6000 -> linear set 0 x4,
    // hash sets 0, 1, 2, 3.
    for (unsigned k = 0; k < 4; ++k) {
        EXPECT_EQ(lin(0x2000ull * k), 0u);
        EXPECT_EQ(h(0x2000ull * k), k);
    }
}

// The hash as its definition reads, bit by bit, against the index for random addresses and
// both set counts (the index reads its upper term from a table).
TEST(SetIndex, FermiHashEqualsItsBitDefinitionForRandomAddresses) {
    auto bit = [](uint64_t a, unsigned i) { return unsigned(a >> i & 1); };
    SetIndex h32(SetIndexing::FermiHash, 32, 128);
    SetIndex h64(SetIndexing::FermiHash, 64, 128);
    std::mt19937_64 rng(19);
    for (int k = 0; k < 20000; ++k) {
        const uint64_t a = rng() >> (rng() % 40);
        unsigned set = 0;
        set |= (bit(a, 7) ^ bit(a, 13)) << 0;
        set |= (bit(a, 8) ^ bit(a, 14)) << 1;
        set |= (bit(a, 9) ^ bit(a, 15)) << 2;
        set |= (bit(a, 10) ^ bit(a, 17)) << 3;
        set |= (bit(a, 11) ^ bit(a, 19)) << 4;
        ASSERT_EQ(h32(a), set) << std::hex << a;
        ASSERT_EQ(h64(a), set | bit(a, 12) << 5) << std::hex << a;
    }
}

TEST(SetIndex, FermiHashNeeds32Or64Sets) {
    EXPECT_THROW(SetIndex(SetIndexing::FermiHash, 16, 128), std::invalid_argument);
    EXPECT_NO_THROW(SetIndex(SetIndexing::FermiHash, 64, 128));
    EXPECT_NO_THROW(SetIndex(SetIndexing::Linear, 16, 128));
}

// A set-index function must spread one contiguous block of `sets` lines over all `sets` sets (the
// linear function does, and so does the Fermi hash with 128-byte lines: bits 7-12 are the
// contiguous-line bits, XORed with constant upper bits). The config accepts fermi-hash with any
// power-of-two line size as long as there are 32 or 64 sets, e.g. the owl28 L1D
// (32 KB / 64 B / 8-way = 64 sets). With 64-byte lines the code takes bits 6-10 and bit 12, so
// address bit 11 is never used: 64 consecutive lines land in only 32 sets.
TEST(SetIndex, FermiHashCoversAContiguousBlockForEveryAcceptedGeometry) {
    // One contiguous block of `sets` lines must reach every set. The hash is defined for 128-byte
    // lines only; other line sizes are refused (with 64 B lines and 64 sets, address bit 11 never
    // reached the index, so 64 consecutive lines used only 32 sets).
    for (unsigned sets : {32u, 64u}) {
        SetIndex h(SetIndexing::FermiHash, sets, 128);
        std::vector<bool> seen(sets, false);
        unsigned distinct = 0;
        for (unsigned i = 0; i < sets; ++i) {
            const unsigned s = h(0x100000ull + uint64_t(i) * 128);
            ASSERT_LT(s, sets);
            if (!seen[s]) ++distinct;
            seen[s] = true;
        }
        EXPECT_EQ(distinct, sets) << sets << " sets";
    }
    EXPECT_THROW(SetIndex(SetIndexing::FermiHash, 64, 64), std::invalid_argument);
    EXPECT_THROW(SetIndex(SetIndexing::FermiHash, 32, 64), std::invalid_argument);
}

} // namespace set_index_test
