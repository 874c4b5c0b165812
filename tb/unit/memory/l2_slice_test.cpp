// L2Slice between the scripted initiator (standing in for the NoC) and an IdealMemory.
// Timing rules the expectations below are derived from (see memory/L2Slice.hpp):
//  - a request accepted at time t is looked up at the first L2 edge strictly after t;
//  - whatever the lookup produces (hit answer, write ack, miss request, write-back) leaves the
//    slice T = l2.tag_latency_cycles edges after the lookup edge;
//  - the ideal memory answers at DRAM edge floor(arrival / period) + M;
//  - a memory answer arriving at time t is installed at the first L2 edge strictly after t and
//    its first waiting request is answered on that edge, the others one per cycle after it.
// Most tests use T = 4, M = 10 and a 1000 ps period on both clocks so cycles read off directly.
#include <gtest/gtest.h>

#include "MemoryTestBench.hpp"

namespace l2_slice_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

constexpr uint64_t kP = 1000;  // ps, both clocks in the small setups

// The units' parameters are built directly, without a Config (the defaults are the schema's).
L2BenchParams small() {
    L2BenchParams p;
    p.map.partitions = 1;
    p.l2.tagLatencyCycles = 4;
    p.mem.latencyCycles = 10;
    return p;
}

// Two sets of two 128-byte ways: lines 0x000, 0x100, 0x200, 0x300 share set 0.
L2BenchParams tiny() {
    L2BenchParams p = small();
    p.l2.ways = 2;
    p.l2.sizeBytes = 128 * 2 * 2;
    return p;
}

const Histogram& histogram(const StatRegistry& s, const std::string& name) {
    return dynamic_cast<const Histogram&>(*s.find(name));
}

std::vector<bool> hits(const TestInitiator& init) {
    std::vector<bool> out;
    for (const auto& r : init.records) out.push_back(r.l2Hit);
    return out;
}

} // namespace

TEST(L2Slice, ReadMissThenHitWithClockCrossing) {
    // Default parameters: T = 60 L2 cycles at 700 MHz (1429 ps), M = 100 DRAM cycles at 924 MHz
    // (1082 ps), on one partition.
    L2BenchParams m;
    m.map.partitions = 1;
    L2Bench b(m, periodOfMhz(700), periodOfMhz(924));
    ASSERT_EQ(b.l2Clock.period().value(), 1429u);
    ASSERT_EQ(b.dramClock.period().value(), 1082u);
    b.init.read(0x4000, 0);
    b.init.read(0x4000, 0, /*serial=*/true);
    sc_core::sc_start();

    // Miss: sent at 0, looked up at L2 edge 1; the line read leaves at edge 1 + 60 = 61,
    // 61 * 1429 = 87169 ps. DRAM edge at or before that: floor(87169 / 1082) = 80 (86560 ps),
    // answer at DRAM edge 80 + 100 = 180, 180 * 1082 = 194760 ps. First L2 edge after it:
    // floor(194760 / 1429) + 1 = 137, so the fill and the answer are at 137 * 1429 = 195773 ps.
    EXPECT_EQ(b.init.records[0].answeredPs, 195773u);
    EXPECT_FALSE(b.init.records[0].l2Hit);
    // Hit: sent at 195773 ps (exactly L2 edge 137), looked up at edge 138, answered at edge
    // 138 + 60 = 198, 198 * 1429 = 282942 ps: 61 L2 cycles after it was sent.
    EXPECT_EQ(b.init.records[1].sentPs, 195773u);
    EXPECT_EQ(b.init.records[1].answeredPs, 282942u);
    EXPECT_TRUE(b.init.records[1].l2Hit);

    EXPECT_EQ(b.stat("l2.slice0.accesses"), 2);
    EXPECT_EQ(b.stat("l2.slice0.read_misses"), 1);
    EXPECT_EQ(b.stat("l2.slice0.read_hits"), 1);
    EXPECT_EQ(b.stat("mem0.reads"), 1);
    EXPECT_EQ(b.stat("mem0.writes"), 0);
    const Histogram& lat = histogram(b.stats, "l2.slice0.latency");
    EXPECT_EQ(lat.count(), 2u);
    EXPECT_DOUBLE_EQ(lat.mean(), (137.0 + 61.0) / 2);  // 195773 / 1429 and 87169 / 1429
    b.expectDrained();
}

TEST(L2Slice, MshrMergeAnswersEveryRequestAtFill) {
    L2BenchParams m = small();
    L2Bench b(m, ps(kP), ps(kP));
    const uint64_t a = 0x1000;
    b.init.read(a, 0);
    b.init.read(a + 32, 0);
    b.init.write(a + 64, 0);  // a store to a line being fetched merges too
    b.init.read(a + 96, 0);
    b.init.read(a, 30 * kP, /*serial=*/true);
    sc_core::sc_start();

    // Lookups at edges 1..4: the first allocates, the next three merge. The line read leaves at
    // 1 + 4 = 5 (5000 ps), memory answers at 5 + 10 = 15 (15000 ps), the fill is at edge 16 and
    // the four merged requests are answered one per cycle in arrival order: 16, 17, 18, 19.
    for (unsigned i = 0; i < 4; ++i) {
        EXPECT_EQ(b.init.records[i].endReqPs, 0u);
        EXPECT_EQ(b.init.records[i].answeredPs, (16 + i) * kP) << i;
        EXPECT_FALSE(b.init.records[i].l2Hit) << i;
    }
    // The line is resident (and dirty from the merged store): sent at 30000, looked up at 31,
    // answered at 35.
    EXPECT_EQ(b.init.records[4].answeredPs, 35 * kP);
    EXPECT_TRUE(b.init.records[4].l2Hit);
    const unsigned set = b.l2.setOf(a);
    ASSERT_TRUE(b.l2.tags().find(set, a));
    EXPECT_TRUE(b.l2.tags().dirty(set, *b.l2.tags().find(set, a)));

    EXPECT_EQ(b.stat("mem0.reads"), 1);
    EXPECT_EQ(b.stat("l2.slice0.accesses"), 5);
    EXPECT_EQ(b.stat("l2.slice0.read_misses"), 3);
    EXPECT_EQ(b.stat("l2.slice0.write_misses"), 1);
    EXPECT_EQ(b.stat("l2.slice0.mshr_merges"), 3);
    EXPECT_EQ(b.stat("l2.slice0.read_hits"), 1);
    EXPECT_EQ(b.stat("l2.slice0.mshr_stall_cycles"), 0);
    b.expectDrained();
}

TEST(L2Slice, MergeLimitStallsTheLookupUntilTheFill) {
    L2BenchParams m = small();
    m.l2.mshrMaxMerge = 2;
    L2Bench b(m, ps(kP), ps(kP));
    for (unsigned i = 0; i < 3; ++i) b.init.read(0x2000 + 8 * i, 0);
    sc_core::sc_start();

    // Edge 1 allocates, edge 2 merges, the third request finds the entry full from edge 3 on.
    // The fill at edge 16 (as above) frees the entry before that edge's lookup, so the third
    // request stalled on edges 3..15 (13 cycles) and then hits the freshly installed line:
    // answered at 16 + 4 = 20. The first two are answered at 16 and 17.
    EXPECT_EQ(b.init.records[0].answeredPs, 16 * kP);
    EXPECT_EQ(b.init.records[1].answeredPs, 17 * kP);
    EXPECT_EQ(b.init.records[2].answeredPs, 20 * kP);
    EXPECT_EQ(hits(b.init), (std::vector<bool>{false, false, true}));
    EXPECT_EQ(b.stat("l2.slice0.mshr_stall_cycles"), 13);
    EXPECT_EQ(b.stat("l2.slice0.mshr_merges"), 1);
    EXPECT_EQ(b.stat("mem0.reads"), 1);
    b.expectDrained();
}

TEST(L2Slice, LruEvictionOrderInOneSet) {
    L2BenchParams m = tiny();
    L2Bench b(m, ps(kP), ps(kP));
    const uint64_t A = 0x000, B = 0x100, C = 0x200, other = 0x080;  // other is in set 1
    ASSERT_EQ(b.l2.setOf(A), 0u);
    ASSERT_EQ(b.l2.setOf(B), 0u);
    ASSERT_EQ(b.l2.setOf(C), 0u);
    ASSERT_EQ(b.l2.setOf(other), 1u);
    // One request at a time. Set 0 after each: {A}, {A,B}, A used, C evicts B (least recent),
    // A used, B evicts C, C evicts A, A evicts B.
    for (uint64_t addr : {other, A, B, A, C, A, B, C, A, other}) b.init.read(addr, 0, true);
    sc_core::sc_start();

    EXPECT_EQ(hits(b.init),
              (std::vector<bool>{false, false, false, true, false, true, false, false, false, true}));
    EXPECT_EQ(b.l2.tags().lruOrder(0), (std::vector<uint64_t>{C, A}));
    EXPECT_EQ(b.l2.tags().lruOrder(1), (std::vector<uint64_t>{other}));
    EXPECT_EQ(b.stat("l2.slice0.read_misses"), 7);
    EXPECT_EQ(b.stat("l2.slice0.read_hits"), 3);
    EXPECT_EQ(b.stat("mem0.reads"), 7);
    EXPECT_EQ(b.stat("mem0.writes"), 0);  // clean lines leave silently
    EXPECT_EQ(b.stat("l2.slice0.writebacks"), 0);
    b.expectDrained();
}

TEST(L2Slice, DirtyLinesAreWrittenBackOnEviction) {
    L2BenchParams m = tiny();
    L2Bench b(m, ps(kP), ps(kP));
    const uint64_t A = 0x000, B = 0x100, C = 0x200, D = 0x300;  // all in set 0
    b.init.write(A, 0, true);  // miss: allocated dirty without a fetch
    b.init.write(B, 0, true);  // miss: allocated dirty
    b.init.read(C, 0, true);   // miss: its fill evicts A (dirty) -> write-back 1
    b.init.write(D, 0, true);  // miss: allocation evicts B (dirty) -> write-back 2
    b.init.read(A, 0, true);   // miss: its fill evicts C (clean) -> nothing
    b.init.write(A, 0, true);  // hit
    sc_core::sc_start();

    // Write at 0: looked up at edge 1, acknowledged at 1 + 4 = 5 without touching memory.
    EXPECT_EQ(b.init.records[0].answeredPs, 5 * kP);
    // Write B sent at 5000: looked up at 6, acknowledged at 10.
    EXPECT_EQ(b.init.records[1].answeredPs, 10 * kP);
    // Read C sent at 10000: lookup 11, line read leaves at 15, memory answers at 25, fill and
    // answer at 26.
    EXPECT_EQ(b.init.records[2].answeredPs, 26 * kP);
    // Write D sent at 26000: lookup 27, acknowledged (with B's write-back) at 31.
    EXPECT_EQ(b.init.records[3].answeredPs, 31 * kP);
    // Read A sent at 31000: lookup 32, memory 36 -> 46, answered at 47.
    EXPECT_EQ(b.init.records[4].answeredPs, 47 * kP);
    EXPECT_EQ(hits(b.init), (std::vector<bool>{false, false, false, false, false, true}));

    EXPECT_EQ(b.stat("mem0.reads"), 2);
    EXPECT_EQ(b.stat("mem0.writes"), 2);
    EXPECT_EQ(b.stat("l2.slice0.writebacks"), 2);
    EXPECT_EQ(b.stat("l2.slice0.write_misses"), 3);
    EXPECT_EQ(b.stat("l2.slice0.write_hits"), 1);
    EXPECT_EQ(b.stat("l2.slice0.read_misses"), 2);
    EXPECT_EQ(b.l2.tags().lruOrder(0), (std::vector<uint64_t>{D, A}));
    EXPECT_TRUE(b.l2.tags().dirty(0, *b.l2.tags().find(0, A)));
    EXPECT_TRUE(b.l2.tags().dirty(0, *b.l2.tags().find(0, D)));
    b.expectDrained();
}

TEST(L2Slice, MshrFullStallsAndInputQueueBackPressures) {
    L2BenchParams m = small();
    m.l2.mshrEntries = 1;
    m.l2.inputQueue = 2;
    L2Bench b(m, ps(kP), ps(kP));
    for (uint64_t addr : {0x000, 0x080, 0x100, 0x180}) b.init.read(addr, 0);
    sc_core::sc_start();

    // At 0: r0 and r1 fill the input queue, r2 is held (END_REQ withheld). Edge 1 looks r0 up
    // (allocating the only MSHR) and so accepts r2 (END_REQ at 1000); r3 is sent then and held.
    // r1 stalls on the MSHR at edges 2..15; r0's fill at 16 frees it, r1 is looked up and r3
    // accepted (END_REQ at 16000). Each later miss repeats the cycle 15 edges on: a lookup at
    // L, its line read at L + 4, memory at L + 14, fill and answer at L + 15.
    EXPECT_EQ(b.init.records[0].endReqPs, 0u);
    EXPECT_EQ(b.init.records[1].endReqPs, 0u);
    EXPECT_EQ(b.init.records[2].endReqPs, 1 * kP);
    EXPECT_EQ(b.init.records[3].sentPs, 1 * kP);
    EXPECT_EQ(b.init.records[3].endReqPs, 16 * kP);
    EXPECT_EQ(b.init.records[0].answeredPs, 16 * kP);  // lookup 1
    EXPECT_EQ(b.init.records[1].answeredPs, 31 * kP);  // lookup 16
    EXPECT_EQ(b.init.records[2].answeredPs, 46 * kP);  // lookup 31
    EXPECT_EQ(b.init.records[3].answeredPs, 61 * kP);  // lookup 46
    // Stalls: r1 on 2..15, r2 on 17..30, r3 on 32..45: 3 x 14.
    EXPECT_EQ(b.stat("l2.slice0.mshr_stall_cycles"), 42);
    // A request waited for END_REQ at edge 1 (r2) and at edges 2..16 (r3).
    EXPECT_EQ(b.stat("l2.slice0.input_full_cycles"), 16);
    EXPECT_EQ(b.stat("mem0.reads"), 4);
    b.expectDrained();
}

TEST(L2Slice, FullResponseQueueFreezesThePipelineAndStallsLookups) {
    L2BenchParams m = small();
    m.l2.responseQueue = 1;
    L2Bench b(m, ps(kP), ps(kP));
    constexpr unsigned kWrites = 7;
    for (unsigned i = 0; i < kWrites; ++i) b.init.write(0x80 * i, 0);  // distinct lines and sets
    // The NoC side refuses the first answer (END_RESP withheld) until 19500 ps.
    b.init.holdResponsesUntilPs = 19500;
    sc_core::sc_start();

    // Lookups at edges 1..6 (w0..w5), acks due at 5..10. w0 is sent at 5 and held; w1 fills the
    // one-entry response queue at 6; from 7 the pipeline head (w2) cannot leave, so the pipeline
    // freezes and w6's lookup waits. 19500: w0 completes. Edge 20 sends w1 (still frozen that
    // edge); edge 21 moves w2 out, looks w6 up and sends w2; w3, w4, w5 follow at 22, 23, 24 and
    // w6 at 21 + 4 = 25.
    const std::vector<uint64_t> expected{19500, 20000, 21000, 22000, 23000, 24000, 25000};
    for (unsigned i = 0; i < kWrites; ++i)
        EXPECT_EQ(b.init.records[i].answeredPs, expected[i]) << i;
    EXPECT_EQ(b.stat("l2.slice0.pipe_stall_cycles"), 14);  // edges 7..20
    EXPECT_EQ(b.stat("l2.slice0.write_misses"), kWrites);
    EXPECT_EQ(b.stat("mem0.writes"), 0);
    b.expectDrained();
}

TEST(L2Slice, SetsAreIndexedByThePartitionLocalAddress) {
    L2BenchParams m = small();
    m.map.partitions = 2;
    m.l2.ways = 2;
    m.l2.sizeBytes = 128 * 2 * 4;  // 4 sets
    L2Bench b(m, ps(kP), ps(kP), /*index=*/1);
    // Partition 1 owns the odd 256-byte chunks. Indexed by the global address these lines would
    // use only sets 2 and 3; with the chunk bit squeezed out they use all four.
    EXPECT_EQ(b.l2.setOf(0x100), 0u);
    EXPECT_EQ(b.l2.setOf(0x180), 1u);
    EXPECT_EQ(b.l2.setOf(0x300), 2u);
    EXPECT_EQ(b.l2.setOf(0x380), 3u);
    EXPECT_EQ(b.l2.setOf(0x500), 0u);
    for (uint64_t addr : {0x100, 0x300, 0x500, 0x100}) b.init.read(addr, 0, true);
    sc_core::sc_start();

    // Tags keep the full address: 0x100 and 0x500 share set 0 (two ways) and both stay.
    EXPECT_EQ(hits(b.init), (std::vector<bool>{false, false, false, true}));
    EXPECT_EQ(b.l2.tags().lruOrder(0), (std::vector<uint64_t>{0x500, 0x100}));
    EXPECT_EQ(b.stat("l2.slice1.read_hits"), 1);
    EXPECT_EQ(b.stat("mem1.reads"), 3);
    b.expectDrained();
}

TEST(L2Slice, MisroutedRequestIsAModelError) {
    L2BenchParams m = small();
    m.map.partitions = 2;
    L2Bench b(m, ps(kP), ps(kP), /*index=*/1);
    b.init.read(0x000, 0);  // partition 0
    std::string what;
    try {
        sc_core::sc_start();
    } catch (const std::exception& e) {
        what = e.what();
    }
    EXPECT_NE(what.find("belongs to partition 0"), std::string::npos) << what;
}

namespace {

// Initiator -> L2 slice -> TestTarget (a memory with a back-pressure window).
struct L2TargetBench {
    StatRegistry stats;
    PayloadPool pool;
    AddressMap map;
    ClockDomain l2Clock;
    L2Slice l2;
    TestTarget mem;
    TestInitiator init;
    L2TargetBench(const L2BenchParams& p, sc_core::sc_time l2Period)
        : map(p.map),
          l2Clock("l2clk", l2Period),
          l2("l2", p.l2, stats, l2Clock, pool, map, 0),
          mem("mem"),
          init("init", pool) {
        init.socket.bind(l2.nocSide);
        l2.memSide.bind(mem.socket);
    }
    double stat(const std::string& name) const { return stats.get(name); }
    void expectDrained() const {
        EXPECT_EQ(init.answered(), init.ops.size());
        EXPECT_TRUE(l2.quiescent()) << l2.dumpState();
        EXPECT_TRUE(mem.idle());
        EXPECT_EQ(pool.outstanding(), 0u);
    }
};

constexpr uint64_t kL2IdTag = uint64_t(1) << 63;

} // namespace

TEST(L2Slice, MemoryBackPressureFreezesThePipelineAtAFullMissQueue) {
    L2BenchParams m = small();
    m.l2.missQueue = 1;
    L2TargetBench b(m, ps(kP));
    b.mem.holdFromPs = 0;
    b.mem.holdUntilPs = 20500;  // END_REQ withheld for everything until then
    b.mem.latencyPs = 3000;
    // Three misses to lines 0x000, 0x080, 0x100, at unaligned offsets.
    for (uint64_t addr : {0x010, 0x0a0, 0x120}) b.init.read(addr, 0);
    sc_core::sc_start();

    // Lookups at 1, 2, 3; line reads due out at 5, 6, 7. The first is sent at 5 and held by
    // the memory, the second waits in the one-entry miss queue from 6, so from 7 the third
    // cannot leave the pipeline: frozen at 7..21 (the memory accepts the first at 20500, the
    // second is sent at 21 and the third leaves at 22). Answers come 3000 ps after acceptance
    // (23500, 24000, 25000), each answered at the next L2 edge.
    EXPECT_EQ(b.stat("l2.slice0.pipe_stall_cycles"), 15);
    EXPECT_EQ(b.init.records[0].answeredPs, 24 * kP);
    EXPECT_EQ(b.init.records[1].answeredPs, 25 * kP);
    EXPECT_EQ(b.init.records[2].answeredPs, 26 * kP);
    ASSERT_EQ(b.mem.seen.size(), 3u);
    const uint64_t lines[] = {0x000, 0x080, 0x100};
    const uint64_t accepted[] = {20500, 21000, 22000};
    for (unsigned i = 0; i < 3; ++i) {
        const auto& s = b.mem.seen[i];
        EXPECT_EQ(s.addr, lines[i]) << i;  // line-aligned
        EXPECT_EQ(s.kind, AccessKind::Read) << i;
        EXPECT_EQ(s.smId, -1) << i;
        EXPECT_EQ(s.requestId, kL2IdTag | i) << i;  // L2 tag, slice 0, per-slice counter
        EXPECT_EQ(s.acceptedPs, accepted[i]) << i;
    }
    b.expectDrained();
}

TEST(L2Slice, FillWaitsForMissQueueRoomForItsWriteBack) {
    L2BenchParams m = tiny();
    m.l2.missQueue = 1;
    L2TargetBench b(m, ps(kP));
    b.mem.holdFromPs = 7500;
    b.mem.holdUntilPs = 15500;
    b.mem.latencyPs = 3500;
    const uint64_t A = 0x000, B = 0x100, C = 0x200;  // set 0
    const uint64_t D = 0x080, E = 0x180;             // set 1
    b.init.write(A, 0);
    b.init.write(B, 0);  // set 0 is now two dirty lines
    b.init.read(C, 0);
    b.init.read(D, 0);
    b.init.read(E, 0);
    sc_core::sc_start();

    // Lookups at 1..5. Acks of A and B at 5 and 6. C's line read goes at 7 (accepted, answered
    // 10500); D's at 8 is held by the memory until 15500; E's waits in the miss queue from 9.
    // C's fill at 11 would evict dirty A, but the miss queue is full: the fill waits at 11..16
    // (E leaves at 16), installs at 17 with A's write-back and answers C then.
    // D: accepted 15500, answered 19000, filled at 20. E: accepted 16000, answered 19500, also
    // eligible at 20 but one fill per cycle: 21.
    const std::vector<uint64_t> expected{5000, 6000, 17000, 20000, 21000};
    for (unsigned i = 0; i < expected.size(); ++i)
        EXPECT_EQ(b.init.records[i].answeredPs, expected[i]) << i;
    EXPECT_EQ(b.stat("l2.slice0.fill_stall_cycles"), 6);
    EXPECT_EQ(b.stat("l2.slice0.writebacks"), 1);
    ASSERT_EQ(b.mem.seen.size(), 4u);
    EXPECT_EQ(b.mem.seen[3].kind, AccessKind::Writeback);
    EXPECT_EQ(b.mem.seen[3].addr, A);
    EXPECT_EQ(b.mem.seen[3].acceptedPs, 17000u);
    EXPECT_EQ(b.mem.seen[3].requestId, kL2IdTag | 3);
    EXPECT_EQ(b.l2.tags().lruOrder(0), (std::vector<uint64_t>{B, C}));
    b.expectDrained();
}

// A write-back has no SM waiting for it, but the slice is not quiescent until the memory has
// answered it (before issue 23 it was, so a run with a user's memory ended with the write-back
// still in that memory), and its dump names the write-back on its link.
TEST(L2Slice, WriteBackKeepsTheSliceBusyUntilMemoryAnswersIt) {
    L2TargetBench b(tiny(), ps(kP));
    b.mem.latencyPs = 20000;
    const uint64_t A = 0x000, B = 0x100, C = 0x200;  // set 0
    b.init.write(A, 0);
    b.init.write(B, 0);
    b.init.read(C, 0);  // its fill evicts dirty A
    auto writeBackSeen = [&] {
        for (const auto& s : b.mem.seen)
            if (s.kind == AccessKind::Writeback) return true;
        return false;
    };
    for (int i = 0; i < 100 && !writeBackSeen(); ++i) sc_core::sc_start(ps(kP));
    ASSERT_TRUE(writeBackSeen());
    EXPECT_EQ(b.mem.seen.back().addr, A);
    // Five cycles later C is answered and nothing but the write-back is left (due 20 cycles after
    // its acceptance).
    sc_core::sc_start(ps(5 * kP));
    EXPECT_EQ(b.init.answered(), 3u);
    EXPECT_FALSE(b.l2.quiescent());
    EXPECT_NE(b.l2.dumpState().find("awaiting memory (l2.0->mem) 1: writeback 0x0 (request " +
                                    std::to_string(kL2IdTag | 1) + ")"),
              std::string::npos)
        << b.l2.dumpState();
    sc_core::sc_start();
    b.expectDrained();
}

// ---- Sectored (l2.sector_bytes = 32: four sectors per 128-byte line), T = 4, M = 10.

namespace {
L2BenchParams sectored() {
    L2BenchParams p = small();
    p.l2.sectorBytes = 32;
    return p;
}
} // namespace

// A line read is four sector lookups (edges 1, 2, 3, 4), each a miss with its own MSHR entry
// and memory read, leaving at 5, 6, 7, 8; memory answers at 15..18, the fills are at 16..19 and
// the request is answered with the last, at 19. The same line again (sent at 19000): four hits
// at 20..23, answered when the last leaves the pipeline, 23 + 4 = 27.
TEST(L2Slice, SectoredLineReadLooksUpAndFetchesEachSector) {
    L2Bench b(sectored(), ps(kP), ps(kP));
    b.init.read(0x1000, 0);
    b.init.read(0x1000, 0, /*serial=*/true);
    sc_core::sc_start();
    EXPECT_EQ(b.init.records[0].answeredPs, 19 * kP);
    EXPECT_FALSE(b.init.records[0].l2Hit);
    EXPECT_EQ(b.init.records[1].answeredPs, 27 * kP);
    EXPECT_TRUE(b.init.records[1].l2Hit);
    EXPECT_EQ(b.stat("l2.slice0.accesses"), 2);   // requests
    EXPECT_EQ(b.stat("l2.slice0.read_misses"), 4);  // sectors
    EXPECT_EQ(b.stat("l2.slice0.read_hits"), 4);
    EXPECT_EQ(b.stat("mem0.reads"), 4);
    b.expectDrained();
}

// A store touching chunks 0 and 2 (GpuExtension::chunks = 0b0101): sector 0 at edge 1 allocates
// the line with that sector alone (valid, dirty), sector 2 at edge 2 is added to it; answered
// at 2 + 4 = 6. A line read then (sent at 6000): sector 0 hits at 7, sector 1 misses at 8
// (memory read leaves at 12, answered 22, fill 23), sector 2 hits at 9, sector 3 misses at 10
// (leaves 14, answered 24, fill 25): answered at 25, not a hit.
TEST(L2Slice, SectoredStoreValidatesOnlyItsSectors) {
    L2Bench b(sectored(), ps(kP), ps(kP));
    b.init.storeBytes = 8;
    b.init.storeChunks = 0x5;
    b.init.write(0x2000, 0);
    b.init.read(0x2000, 0, /*serial=*/true);
    sc_core::sc_start();
    EXPECT_EQ(b.init.records[0].answeredPs, 6 * kP);
    EXPECT_EQ(b.init.records[1].answeredPs, 25 * kP);
    EXPECT_FALSE(b.init.records[1].l2Hit);
    EXPECT_EQ(b.stat("l2.slice0.write_misses"), 2);
    EXPECT_EQ(b.stat("l2.slice0.read_hits"), 2);
    EXPECT_EQ(b.stat("l2.slice0.read_misses"), 2);
    EXPECT_EQ(b.stat("mem0.reads"), 2);
    EXPECT_EQ(b.stat("mem0.writes"), 0);
    b.expectDrained();
}

// MSHR entries count sectors: with two, a line read allocates sectors 0 and 1 (edges 1, 2) and
// its sector 2 waits (edges 3..15 stall) for the fill of sector 0 at 16 to free an entry; it
// allocates at 16 (read leaves 20, answered 30, fill 31), sector 3 at 17 after the fill of
// sector 1 (leaves 21, answered 31, fill 32). Answered at 32.
TEST(L2Slice, SectoredMshrEntriesCountSectors) {
    L2BenchParams p = sectored();
    p.l2.mshrEntries = 2;
    L2Bench b(p, ps(kP), ps(kP));
    b.init.read(0x3000, 0);
    sc_core::sc_start();
    EXPECT_EQ(b.init.records[0].answeredPs, 32 * kP);
    EXPECT_EQ(b.stat("l2.slice0.mshr_stall_cycles"), 13);
    EXPECT_EQ(b.stat("mem0.reads"), 4);
    b.expectDrained();
}

TEST(L2Slice, AtomicsWaitForTheirLineAndSerialiseInTheReadModifyWriteUnit) {
    // T = 4, M = 10, K = l2.atomic_cycles = 5, 1000 ps on both clocks.
    L2BenchParams m = small();
    m.l2.atomicCycles = 5;
    L2Bench b(m, ps(kP), ps(kP));
    const uint64_t a = 0x1000, c = 0x2000;
    b.init.atomic(a, AccessKind::Read, 32, 0, true);          // ATOM on a miss
    b.init.atomic(a + 4, AccessKind::Read, 1, 30 * kP, true);  // two ATOMs on one address,
    b.init.atomic(a + 4, AccessKind::Read, 1, 30 * kP);        // back to back, both hits
    b.init.read(a, 60 * kP, true);                             // a plain read hit, for comparison
    b.init.atomic(c, AccessKind::Write, 2, 80 * kP, true);     // RED on a miss
    sc_core::sc_start();

    // 0: looked up at edge 1 (miss), the line read leaves at 1 + 4 = 5, memory answers at
    // 5 + 10 = 15, the fill is installed at edge 16 and the atomic enters the RMW unit then: it
    // answers at 16 + K = 21, not at the fill (16) as a read would.
    EXPECT_EQ(b.init.records[0].answeredPs, 21 * kP);
    EXPECT_FALSE(b.init.records[0].l2Hit);
    // 1 and 2, both accepted at 30000: looked up at edges 31 and 32 (hits), out of the tag
    // pipeline at 35 and 36. 1 enters the unit at 35 and answers at 35 + K = 40; 2 waits for it
    // (same line) at 36, 37, 38, 39, enters at 40 (as 1 leaves) and answers at 45: exactly K after.
    EXPECT_EQ(b.init.records[1].answeredPs, 40 * kP);
    EXPECT_EQ(b.init.records[2].answeredPs, 45 * kP);
    EXPECT_EQ(b.init.records[2].answeredPs - b.init.records[1].answeredPs, m.l2.atomicCycles * kP);
    EXPECT_TRUE(b.init.records[1].l2Hit);
    EXPECT_TRUE(b.init.records[2].l2Hit);
    // 3, a read hit sent at 60000: lookup 61, answered at 61 + T = 65 (no RMW unit).
    EXPECT_EQ(b.init.records[3].answeredPs, 65 * kP);
    // 4, a RED sent at 80000: lookup 81 (miss), line read out at 85, memory 95, fill at 96, RMW
    // 96..101: acknowledged at 101.
    EXPECT_EQ(b.init.records[4].answeredPs, 101 * kP);

    // Atomics dirty their lines (a later eviction writes them back).
    for (const uint64_t line : {a, c}) {
        const unsigned set = b.l2.setOf(line);
        ASSERT_TRUE(b.l2.tags().find(set, line));
        EXPECT_TRUE(b.l2.tags().dirty(set, *b.l2.tags().find(set, line))) << line;
    }
    EXPECT_EQ(b.stat("l2.slice0.accesses"), 5);
    EXPECT_EQ(b.stat("l2.slice0.atomics"), 4);
    EXPECT_EQ(b.stat("l2.slice0.atomic_lanes"), 32 + 1 + 1 + 2);
    EXPECT_EQ(b.stat("l2.slice0.atomic_hits"), 2);
    EXPECT_EQ(b.stat("l2.slice0.atomic_misses"), 2);
    EXPECT_EQ(b.stat("l2.slice0.read_hits"), 1);  // the plain read only
    EXPECT_EQ(b.stat("l2.slice0.read_misses"), 0);
    EXPECT_EQ(b.stat("l2.slice0.write_hits") + b.stat("l2.slice0.write_misses"), 0);
    EXPECT_EQ(b.stat("l2.slice0.atomic_serialise_cycles"), 4);  // 2's cycles 36..39
    // In the unit: 16..20, 35..44, 96..100.
    EXPECT_EQ(b.stat("l2.slice0.atomic_busy_cycles"), 5 + 10 + 5);
    EXPECT_EQ(b.stat("mem0.reads"), 2);
    EXPECT_EQ(b.stat("mem0.writes"), 0);
    b.expectDrained();
}

TEST(L2Slice, AtomicMergedIntoAReadMissIsAnsweredAfterTheFillPlusItsOccupancy) {
    L2BenchParams m = small();
    m.l2.atomicCycles = 7;
    L2Bench b(m, ps(kP), ps(kP));
    const uint64_t a = 0x1000;
    b.init.read(a, 0);
    b.init.atomic(a + 8, AccessKind::Read, 4, 0);
    sc_core::sc_start();
    // Lookups at 1 (allocates) and 2 (merges); the line read leaves at 5, memory answers at 15,
    // the fill at 16 answers the read then and starts the atomic, which answers at 16 + 7 = 23.
    EXPECT_EQ(b.init.records[0].answeredPs, 16 * kP);
    EXPECT_EQ(b.init.records[1].answeredPs, 23 * kP);
    EXPECT_EQ(b.stat("l2.slice0.mshr_merges"), 1);
    EXPECT_EQ(b.stat("l2.slice0.atomic_misses"), 1);
    EXPECT_EQ(b.stat("mem0.reads"), 1);
    const unsigned set = b.l2.setOf(a);
    EXPECT_TRUE(b.l2.tags().dirty(set, *b.l2.tags().find(set, a)));  // the merged atomic dirties the fill
    b.expectDrained();
}

} // namespace l2_slice_test
