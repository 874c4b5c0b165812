// The address map (common/AddressMap): partition interleaving and its XOR rotation, the
// partition-local address and its inverse, sub-partitions, and DRAM bank/row/column decoding.
// Expectations are computed by hand from the layout in AddressMap.hpp.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "bench/DramTraffic.hpp"

namespace address_map_test {

using namespace gpusim;
using gpusim::dramtest::DramParams;

namespace {
std::string validationError(DramParams& m) {
    try {
        m.cfg->validate();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}
} // namespace

// Six partitions, 256-byte chunks: chunk c -> partition c mod 6, local = (c / 6) * 256 + offset.
TEST(AddressMap, PlainInterleaveAndLocalAddress) {
    const AddressMap m(6, 256, AddressMap::Hash::None);
    EXPECT_EQ(m.partition(0x0), 0u);
    EXPECT_EQ(m.partition(0xff), 0u);
    EXPECT_EQ(m.partition(0x100), 1u);
    EXPECT_EQ(m.partition(0x580), 5u);
    EXPECT_EQ(m.partition(0x600), 0u);
    EXPECT_EQ(m.partition(0x2600), 2u);        // chunk 38 = 6 * 6 + 2
    EXPECT_EQ(m.localAddress(0x2680), 0x680u);  // group 6, offset 0x80
    EXPECT_EQ(m.localAddress(0x600), 0x100u);
    EXPECT_EQ(m.globalAddress(2, 0x680), 0x2680u);
    EXPECT_EQ(m.globalAddress(0, 0x100), 0x600u);
}

// Sub-partitions: consecutive local chunks alternate between the slices; each slice's own local
// address squeezes the choice out. Partition 0's chunks are global 0x0, 0x600, 0xc00, 0x1200:
// local chunks 0, 1, 2, 3 -> slices 0, 1, 0, 1; slice-local 0x0, 0x0, 0x100, 0x100.
TEST(AddressMap, SubPartitionsAlternateChunks) {
    const AddressMap m(6, 256, AddressMap::Hash::None);
    const uint64_t g[] = {0x0, 0x600, 0xc00, 0x1200};
    const unsigned sub[] = {0, 1, 0, 1};
    const uint64_t local[] = {0x0, 0x0, 0x100, 0x100};
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(m.subPartition(g[i] + 0x80, 2), sub[i]) << i;
        EXPECT_EQ(m.subLocalAddress(g[i] + 0x80, 2), local[i] + 0x80) << i;
        EXPECT_EQ(m.subPartition(g[i], 1), 0u);
        EXPECT_EQ(m.subLocalAddress(g[i] + 0x80, 1), m.localAddress(g[i] + 0x80));
    }
}

// With the XOR rotation, each group of 6 chunks is rotated by h(group) = g ^ g>>7 ^ g>>13:
// group 1 (chunks 6..11) by 1: chunk 6 -> partition 1; group 0x80 (chunks 768..773) by
// 0x80 ^ 1 = 129, 129 mod 6 = 3: chunk 768 -> partition 3.
TEST(AddressMap, XorRotationHandExamples) {
    const AddressMap m(6, 256, AddressMap::Hash::Xor);
    EXPECT_EQ(m.partition(0x0), 0u);
    EXPECT_EQ(m.partition(6 * 0x100), 1u);
    EXPECT_EQ(m.partition(11 * 0x100), 0u);  // (5 + 1) mod 6
    EXPECT_EQ(m.partition(768 * 0x100), 3u);
    EXPECT_EQ(m.localAddress(768 * 0x100 + 0x10), 0x80u * 0x100 + 0x10);
}

// Every line of a sweep lands in exactly one (partition, local) slot, the inverse maps back,
// and every partition gets the same share, for plain and XOR maps and P = 6, 8, 5.
TEST(AddressMap, PartitionMapIsABijectionAndBalanced) {
    for (unsigned parts : {6u, 8u, 5u})
        for (auto hash : {AddressMap::Hash::None, AddressMap::Hash::Xor}) {
            const AddressMap m(parts, 256, hash);
            std::set<std::pair<unsigned, uint64_t>> seen;
            std::map<unsigned, unsigned> count;
            const uint64_t chunks = uint64_t(parts) * 3000;  // crosses the >> 7 and >> 13 bits
            for (uint64_t c = 0; c < chunks; ++c) {
                const uint64_t a = c * 256 + 0x40;
                const unsigned p = m.partition(a);
                ASSERT_LT(p, parts);
                const uint64_t l = m.localAddress(a);
                EXPECT_TRUE(seen.insert({p, l}).second) << "two addresses share partition " << p << " local " << l;
                EXPECT_EQ(m.globalAddress(p, l), a);
                ++count[p];
            }
            ASSERT_EQ(count.size(), parts);
            for (const auto& [p, n] : count) EXPECT_EQ(n, 3000u) << "partition " << p;
        }
}

// Default geometry (16 banks, 2 KB rows, bank interleave = a row): local address
// | row | bank (4 bits) | column (11 bits) |.
TEST(AddressMap, DramDecodeRowBankColumn) {
    const AddressMap m(1, 256, AddressMap::Hash::None);
    EXPECT_EQ(m.decodeLocal(0x0), (DramCoord{0, 0, 0}));
    EXPECT_EQ(m.decodeLocal(0x7ff), (DramCoord{0, 0, 0x7ff}));
    EXPECT_EQ(m.decodeLocal(0x800), (DramCoord{1, 0, 0}));
    EXPECT_EQ(m.decodeLocal(0x7880), (DramCoord{15, 0, 0x080}));
    EXPECT_EQ(m.decodeLocal(0x8000), (DramCoord{0, 1, 0}));
    EXPECT_EQ(m.decodeLocal(0x8880), (DramCoord{1, 1, 0x80}));
    EXPECT_EQ(m.encodeLocal({1, 1, 0x80}), 0x8880u);
}

// Bank interleave 256 B: | row | column-high (3 bits) | bank (4 bits) | column-low (8 bits) |:
// 0x100 -> bank 1; 0x1000 -> bank 0, column 0x100; 0x1180 -> bank 1, column 0x180;
// 0x8000 -> row 1.
TEST(AddressMap, DramDecodeWithSmallBankInterleave) {
    const AddressMap m(1, 256, AddressMap::Hash::None, {16, 2048, 256, AddressMap::Hash::None});
    EXPECT_EQ(m.decodeLocal(0x100), (DramCoord{1, 0, 0}));
    EXPECT_EQ(m.decodeLocal(0x1000), (DramCoord{0, 0, 0x100}));
    EXPECT_EQ(m.decodeLocal(0x1180), (DramCoord{1, 0, 0x180}));
    EXPECT_EQ(m.decodeLocal(0x8000), (DramCoord{0, 1, 0}));
    EXPECT_EQ(m.encodeLocal({1, 0, 0x180}), 0x1180u);
}

// XOR bank hash: the bank bits are XORed with the low row bits: row 1, bank bits 0 -> bank 1;
// row 3, bank bits 1 -> bank 2. Rows of one bank-bit pattern spread over banks.
TEST(AddressMap, DramBankXorHash) {
    const AddressMap m(1, 256, AddressMap::Hash::None, {16, 2048, 2048, AddressMap::Hash::Xor});
    EXPECT_EQ(m.decodeLocal(0x0), (DramCoord{0, 0, 0}));
    EXPECT_EQ(m.decodeLocal(0x8000), (DramCoord{1, 1, 0}));
    EXPECT_EQ(m.decodeLocal(3 * 0x8000 + 0x800), (DramCoord{2, 3, 0}));
    EXPECT_EQ(m.encodeLocal({2, 3, 0}), 3u * 0x8000 + 0x800);
}

// A sweep of lines reaches every partition and every bank of every partition, equally often,
// and no two lines share (partition, bank, row, column): for each platform-like geometry,
// with and without hashing.
TEST(AddressMap, SweepReachesEveryPartitionAndBankOnce) {
    struct Case {
        unsigned parts, banks;
        uint64_t interleave, row, bankChunk, line;
        AddressMap::Hash partHash, bankHash;
    };
    const Case cases[] = {
        {6, 16, 256, 2048, 2048, 128, AddressMap::Hash::None, AddressMap::Hash::None},  // fermi15 default
        {6, 16, 256, 2048, 256, 128, AddressMap::Hash::Xor, AddressMap::Hash::Xor},
        {8, 4, 256, 2048, 2048, 64, AddressMap::Hash::None, AddressMap::Hash::None},    // owl28-like GDDR3
        {8, 4, 512, 2048, 512, 64, AddressMap::Hash::Xor, AddressMap::Hash::Xor},
    };
    for (const Case& c : cases) {
        const AddressMap m(c.parts, c.interleave, c.partHash, {c.banks, c.row, c.bankChunk, c.bankHash});
        const uint64_t perBank = 4 * c.row / c.line;  // 4 rows per bank
        const uint64_t lines = uint64_t(c.parts) * c.banks * perBank;
        std::map<std::pair<unsigned, unsigned>, uint64_t> hits;
        std::set<std::tuple<unsigned, unsigned, uint64_t, uint64_t>> slots;
        for (uint64_t i = 0; i < lines; ++i) {
            const uint64_t a = i * c.line;
            const unsigned p = m.partition(a);
            const DramCoord d = m.dram(a);
            ASSERT_LT(d.bank, c.banks);
            ASSERT_LT(d.column, c.row);
            ++hits[{p, d.bank}];
            EXPECT_TRUE(slots.insert({p, d.bank, d.row, d.column}).second) << "0x" << std::hex << a;
            EXPECT_EQ(m.encodeLocal(d), m.localAddress(a));
        }
        EXPECT_EQ(hits.size(), size_t(c.parts) * c.banks) << "every (partition, bank) reached";
        for (const auto& [pb, n] : hits) EXPECT_EQ(n, perBank) << "partition " << pb.first << " bank " << pb.second;
    }
}

TEST(AddressMap, ConfigDefaultsAndChecks) {
    {
        DramParams m;
        EXPECT_EQ(validationError(m), "");
        const AddressMap map(AddressMapParams::from(*m.cfg));
        EXPECT_EQ(map.partitions(), 6u);
        EXPECT_EQ(map.dramGeometry().banks, 16u);
        EXPECT_EQ(map.dramGeometry().rowBytes, 2048u);
        EXPECT_EQ(map.dramGeometry().bankInterleaveBytes, 2048u);
        EXPECT_EQ(map.dramGeometry().bankHash, AddressMap::Hash::None);
    }
    {
        DramParams m;
        m.set("dram.banks", 12);
        EXPECT_EQ(validationError(m), "test: dram.banks: 12 is not a power of two");
    }
    {
        DramParams m;
        m.set("addrmap.bank_interleave_bytes", 4096);
        EXPECT_EQ(validationError(m), "test: addrmap.bank_interleave_bytes: 4096 is larger than dram.row_bytes (2048)");
    }
    {
        DramParams m;
        m.set("addrmap.bank_interleave_bytes", 64);  // below the 128-byte L2 line
        EXPECT_EQ(validationError(m), "test: addrmap.bank_interleave_bytes: must be at least l2.line_bytes (128)");
    }
    {
        DramParams m;
        m.set("dram.row_bytes", 3000);
        EXPECT_EQ(validationError(m), "test: dram.row_bytes: 3000 is not a power of two");
    }
}

// locate() in one call, by hand: 6 partitions, 256-byte chunks, no hash, the default DRAM
// geometry (16 banks, 2048-byte rows, bank interleave 2048). 0x1234567 is chunk 0x12345 = 74565
// = 6 x 12427 + 3 with offset 0x67 = 103: partition 3, local 12427 x 256 + 103 = 3181415 =
// 0x308B67; 3181415 = 1553 x 2048 + 871: column 871, bank 1553 mod 16 = 1, row 1553 / 16 = 97.
TEST(AddressMap, LocateGivesPartitionLocalAddressAndDramCoordinates) {
    const AddressMap map(6, 256, AddressMap::Hash::None);
    const AddressLocation at = map.locate(0x1234567);
    EXPECT_EQ(at.partition, 3u);
    EXPECT_EQ(at.local, 0x308B67u);
    EXPECT_EQ(at.dram, (DramCoord{1, 97, 871}));
    EXPECT_EQ(map.globalAddress(at.partition, at.local), 0x1234567u);
    EXPECT_EQ(map.encodeLocal(at.dram), at.local);
}

} // namespace address_map_test
