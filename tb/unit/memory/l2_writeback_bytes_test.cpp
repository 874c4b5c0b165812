// A sectored L2's write-backs write exactly the dirty bytes: each run of dirty sectors as aligned
// power-of-two pieces (memory/WritebackPieces.hpp), checked against a memory that stores data and
// refuses what a burst-oriented memory refuses (a length that is not a power of two, an address
// that is not a multiple of it). Sectors of 32 bytes, 128-byte lines, two ways in each of two sets
// (lines 0x000, 0x100, 0x200 share set 0), T = 4, 1000 ps L2 clock; timing rules as in
// l2_slice_test.cpp. The same write-backs through our FR-FCFS controller count one WR burst per
// 64 bytes of each piece.
#include <bit>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "MemoryTestBench.hpp"
#include "memory/DramController.hpp"
#include "memory/WritebackPieces.hpp"

namespace l2_writeback_bytes_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

constexpr uint64_t kP = 1000;  // ps

// Stores every byte written to it (byte enables honoured, as a TLM-2.0 memory must) and answers
// each request at once (TLM_COMPLETED to BEGIN_REQ). Records each write's address, length, byte
// enables and time.
struct StoringMemory : sc_core::sc_module {
    struct Write {
        uint64_t addr;
        unsigned length;
        bool byteEnables;
        uint64_t atPs;
        bool operator==(const Write&) const = default;
    };
    tlm_utils::simple_target_socket<StoringMemory> socket{"socket"};
    std::map<uint64_t, unsigned char> bytes;  // address -> last value written
    std::vector<Write> writes;
    unsigned reads = 0;
    unsigned refused = 0;  // not a power of two, or not aligned to its length

    explicit StoringMemory(sc_core::sc_module_name n) : sc_module(n) {
        socket.register_nb_transport_fw(this, &StoringMemory::fw);
    }
    tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
        EXPECT_EQ(ph, tlm::BEGIN_REQ);
        const uint64_t a = p.get_address();
        const unsigned len = p.get_data_length();
        if (!std::has_single_bit(len) || a % len != 0) {
            ++refused;
            p.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
            return tlm::TLM_COMPLETED;
        }
        if (p.is_write()) {
            const unsigned char* be = p.get_byte_enable_ptr();
            for (unsigned i = 0; i < len; ++i)
                if (!be || be[i % p.get_byte_enable_length()] == TLM_BYTE_ENABLED) bytes[a + i] = p.get_data_ptr()[i];
            writes.push_back({a, len, be != nullptr, sc_core::sc_time_stamp().value()});
        } else {
            ++reads;
        }
        p.set_response_status(tlm::TLM_OK_RESPONSE);
        return tlm::TLM_COMPLETED;
    }
    std::set<uint64_t> written() const {
        std::set<uint64_t> out;
        for (const auto& [a, v] : bytes) out.insert(a);
        return out;
    }
};

std::set<uint64_t> range(uint64_t from, uint64_t to) {
    std::set<uint64_t> out;
    for (uint64_t a = from; a < to; ++a) out.insert(a);
    return out;
}

struct Bench {
    StatRegistry stats;
    PayloadPool pool;
    AddressMap map;
    ClockDomain l2Clock;
    L2Slice l2;
    StoringMemory mem;
    TestInitiator init;
    static L2BenchParams params() {
        L2BenchParams p;
        p.map.partitions = 1;
        p.l2.tagLatencyCycles = 4;
        p.l2.sectorBytes = 32;
        p.l2.ways = 2;
        p.l2.sizeBytes = 128 * 2 * 2;
        return p;
    }
    Bench()
        : map(params().map), l2Clock("l2clk", ps(kP)), l2("l2", params().l2, stats, l2Clock, pool, map, 0),
          mem("mem"), init("init", pool) {
        init.socket.bind(l2.nocSide);
        l2.memSide.bind(mem.socket);
    }
    // Stores to lines 0x000, 0x100 and 0x200 of set 0, each touching the 32-byte chunks
    // `chunks`, one after the other: the third evicts the first, whose dirty sectors are `chunks`.
    void evictLineZeroDirty(uint32_t chunks) {
        init.storeBytes = 32 * std::popcount(chunks);
        init.storeChunks = chunks;
        init.write(0x000, 0, true);
        init.write(0x100, 0, true);
        init.write(0x200, 0, true);
        sc_core::sc_start();
        EXPECT_EQ(init.answered(), 3u);
        EXPECT_TRUE(l2.quiescent()) << l2.dumpState();
        EXPECT_EQ(pool.outstanding(), 0u);
        EXPECT_EQ(mem.refused, 0u);
        EXPECT_EQ(mem.reads, 0u);  // stores allocate without a fetch
        EXPECT_EQ(stats.get("l2.slice0.writebacks"), 1);
    }
};

std::vector<std::pair<unsigned, unsigned>> pieces(uint64_t dirty) {
    std::vector<std::pair<unsigned, unsigned>> out;
    forEachWritebackPiece(dirty, [&](unsigned first, unsigned n) { out.emplace_back(first, n); });
    return out;
}

} // namespace

// Runs of dirty sectors, cut where alignment demands: a piece of n sectors starts at a multiple
// of n, n a power of two, as long as the run and that rule allow.
TEST(WritebackPieces, RunsCutIntoAlignedPowerOfTwoPieces) {
    using V = std::vector<std::pair<unsigned, unsigned>>;
    EXPECT_EQ(pieces(0b0000), V{});
    EXPECT_EQ(pieces(0b1111), (V{{0, 4}}));
    EXPECT_EQ(pieces(0b1010), (V{{1, 1}, {3, 1}}));
    EXPECT_EQ(pieces(0b0111), (V{{0, 2}, {2, 1}}));          // 3 sectors: 2 + 1, never a 3-sector write
    EXPECT_EQ(pieces(0b0110), (V{{1, 1}, {2, 1}}));          // sector 1 is not 2-aligned
    EXPECT_EQ(pieces(0b1110), (V{{1, 1}, {2, 2}}));
    EXPECT_EQ(pieces(0b1001), (V{{0, 1}, {3, 1}}));
    EXPECT_EQ(pieces(0b11111110), (V{{1, 1}, {2, 2}, {4, 4}}));  // 8 sectors (a 256-byte line)
    EXPECT_EQ(pieces(~uint64_t(0)), (V{{0, 64}}));           // every bit: one piece, no overflow
    EXPECT_EQ(pieces(1), (V{{0, 1}}));                       // an unsectored line
}

// Sectors 1 and 3 of line 0x000 dirty (chunks 0b1010). Store 0x000: lookups at edges 1 and 2,
// answered at 6; store 0x100 (sent at 6000): lookups 7, 8, answered 12; store 0x200 (sent at
// 12000): its sector-1 lookup at 13 allocates the line and evicts 0x000, whose write-back leaves
// the tag pipeline at 13 + 4 = 17 as two pieces, one per L2 cycle: [0x20, 0x40) at 17000 and
// [0x60, 0x80) at 18000, 32 bytes each, no byte enables. The memory then holds exactly bytes
// 0x20..0x3f and 0x60..0x7f (64 bytes), nothing of sectors 0 and 2. (The old write-back was one
// 64-byte write at 0x000: sectors 0 and 1.)
TEST(L2WritebackBytes, SectorsOneAndThreeDirtyWriteExactlyThoseBytes) {
    Bench b;
    b.evictLineZeroDirty(0b1010);
    using W = StoringMemory::Write;
    EXPECT_EQ(b.mem.writes, (std::vector<W>{{0x20, 32, false, 17 * kP}, {0x60, 32, false, 18 * kP}}));
    std::set<uint64_t> expected = range(0x20, 0x40);
    for (uint64_t a = 0x60; a < 0x80; ++a) expected.insert(a);
    EXPECT_EQ(b.mem.written(), expected);
    EXPECT_EQ(b.mem.written().size(), 64u);
    EXPECT_EQ(b.stats.get("l2.slice0.writeback_writes"), 2);
    EXPECT_EQ(b.init.records[2].answeredPs, 18 * kP);  // store 0x200: last sector looked up at 14
}

// Three sectors dirty (0, 1, 2): a 64-byte write at 0x00 and a 32-byte one at 0x40, never a
// 96-byte write; the memory holds exactly 0x00..0x5f.
TEST(L2WritebackBytes, ThreeDirtySectorsAreTwoPiecesNeverNinetySixBytes) {
    Bench b;
    b.evictLineZeroDirty(0b0111);
    ASSERT_EQ(b.mem.writes.size(), 2u);
    EXPECT_EQ(b.mem.writes[0].addr, 0x00u);
    EXPECT_EQ(b.mem.writes[0].length, 64u);
    EXPECT_EQ(b.mem.writes[1].addr, 0x40u);
    EXPECT_EQ(b.mem.writes[1].length, 32u);
    EXPECT_EQ(b.mem.written(), range(0x00, 0x60));
    EXPECT_EQ(b.stats.get("l2.slice0.writeback_writes"), 2);
}

// Every sector dirty: one 128-byte write of the whole line. Store 0x000: lookups 1..4, answered
// 8; 0x100 (sent 8000): lookups 9..12, answered 16; 0x200 (sent 16000): sector 0 at 17 evicts
// 0x000, its write-back leaves at 17 + 4 = 21.
TEST(L2WritebackBytes, AWhollyDirtyLineIsOneLineWrite) {
    Bench b;
    b.evictLineZeroDirty(0b1111);
    using W = StoringMemory::Write;
    EXPECT_EQ(b.mem.writes, (std::vector<W>{{0x00, 128, false, 21 * kP}}));
    EXPECT_EQ(b.mem.written(), range(0x00, 0x80));
    EXPECT_EQ(b.stats.get("l2.slice0.writeback_writes"), 1);
}

namespace {
// The same slice in front of our FR-FCFS controller (GDDR5 defaults: 64-byte bursts, 8 beats of
// 8 bytes), which serves each write-back piece as a request of ceil(bytes / 64) bursts.
struct DramBenchL2 {
    StatRegistry stats;
    PayloadPool pool;
    AddressMap map;
    ClockDomain l2Clock, dramClock;
    L2Slice l2;
    DramController dram;
    TestInitiator init;
    DramBenchL2()
        : map(Bench::params().map), l2Clock("l2clk", ps(kP)), dramClock("dramclk", ps(kP)),
          l2("l2", Bench::params().l2, stats, l2Clock, pool, map, 0),
          dram("dram", DramControllerParams{}, stats, dramClock, map, 0), init("init", pool) {
        init.socket.bind(l2.nocSide);
        l2.memSide.bind(dram.socket);
    }
    void evictLineZeroDirty(uint32_t chunks) {
        init.storeBytes = 32 * std::popcount(chunks);
        init.storeChunks = chunks;
        init.write(0x000, 0, true);
        init.write(0x100, 0, true);
        init.write(0x200, 0, true);
        sc_core::sc_start();
        EXPECT_EQ(init.answered(), 3u);
        EXPECT_TRUE(l2.quiescent()) << l2.dumpState();
        EXPECT_TRUE(dram.quiescent()) << dram.dumpState();
        EXPECT_EQ(pool.outstanding(), 0u);
    }
};
} // namespace

// Sectors 1 and 3 dirty: two 32-byte writes, one WR burst each (each fills half of a 64-byte
// burst), 2 WR commands. (One 64-byte write from the line's start would have been one WR.)
TEST(L2WritebackBytes, OurDramControllerServesEachPieceInItsOwnBursts) {
    DramBenchL2 b;
    b.evictLineZeroDirty(0b1010);
    EXPECT_EQ(b.stats.get("mem0.writes"), 2);
    EXPECT_EQ(b.stats.get("mem0.cmd_wr"), 2);
    EXPECT_EQ(b.stats.get("mem0.reads"), 0);
}

// Three sectors (0, 1, 2): a 64-byte write (one burst) and a 32-byte one (one burst): 2 WR.
TEST(L2WritebackBytes, OurDramControllerBurstsForThreeDirtySectors) {
    DramBenchL2 b;
    b.evictLineZeroDirty(0b0111);
    EXPECT_EQ(b.stats.get("mem0.writes"), 2);
    EXPECT_EQ(b.stats.get("mem0.cmd_wr"), 2);
}

} // namespace l2_writeback_bytes_test
