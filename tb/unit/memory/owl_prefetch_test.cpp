// OWL's opportunistic prefetch (memory/OwlPrefetcher.hpp) in the FR-FCFS controller, and the
// L2 side that installs the prefetched lines.
// Controller tests: the traffic generator -> DramController, GDDR5 preset, DRAM period 1000 ps
// (cycle c at c x 1000 ps), one partition, so column = addr & 0x7ff, bank = (addr >> 11) & 15,
// row = addr >> 15; 128-byte lines are two 64-byte bursts, 16 lines per 2 KB row. Timing (see
// dram_controller_test.cpp): tCL 12, tRCD 12, tRP 12, tRAS 28, tCCD 2, tRTP 2, burst 2 cycles, a
// read's data end at RD + 14.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "MemoryTestBench.hpp"
#include "bench/DramTraffic.hpp"
#include "common/SimError.hpp"

namespace owl_prefetch_test {

using namespace gpusim;

namespace {

constexpr uint64_t kP = 1000;
constexpr uint64_t kRow = 0x8000;  // next row, same bank

struct Fill {
    uint64_t line;
    uint64_t atPs;
};

struct PrefetchBench {
    dramtest::DramParams m;
    std::unique_ptr<dramtest::DramBench> b;
    std::vector<Fill> fills;
    PrefetchBench(unsigned minLines, unsigned minLinesHigh, unsigned threshold, bool enable = true) {
        m.set("mem.partitions", 1)
            .set("dram.prefetch_min_lines", minLines)
            .set("dram.prefetch_min_lines_high", minLinesHigh)
            .set("dram.prefetch_queue_threshold", threshold);
        b = std::make_unique<dramtest::DramBench>(*m.cfg, kP);
        b->ctrl.commandLog().enable(true);
        if (enable)
            b->ctrl.enablePrefetch(128, [this](uint64_t line) {
                fills.push_back({line, sc_core::sc_time_stamp().value()});
            });
    }
    // X = 0x0 (bank 0, row 0) and Y = 0x8000 (bank 0, row 1), both sent at 0.
    void twoReads() {
        b->gen.read(0x0);
        b->gen.read(kRow);
        sc_core::sc_start();
    }
    // Prefetch RDs, all or of one bank's row.
    std::vector<uint64_t> prefetchRdCycles(int bank = -1, uint64_t row = 0) const {
        std::vector<uint64_t> out;
        for (const auto& r : b->ctrl.commandLog().records())
            if (r.request == kPrefetchRequest && (bank < 0 || (r.bank == unsigned(bank) && r.row == row)))
                out.push_back(r.cycle);
        return out;
    }
    std::vector<uint64_t> filledLines(uint64_t lo, uint64_t hi) const {  // in [lo, hi)
        std::vector<uint64_t> out;
        for (const Fill& f : fills)
            if (f.line >= lo && f.line < hi) out.push_back(f.line);
        return out;
    }
    uint64_t preCycle() const {
        for (const auto& r : b->ctrl.commandLog().records())
            if (r.cmd == DramCmd::Pre) return r.cycle;
        return 0;
    }
};

using U = std::vector<uint64_t>;

} // namespace

// Without prefetch: X: ACT 1, RD 13 and 15, answered 15 + 14 = 29. Y waits for X's hit, then
// PRE at ACT + tRAS = 29, ACT 41, RD 53 and 55, answered 69.
TEST(OwlPrefetch, OffChangesNothing) {
    PrefetchBench t(8, 16, 8, false);
    t.twoReads();
    EXPECT_EQ(t.b->gen.records[0].answeredPs, 29 * kP);
    EXPECT_EQ(t.b->gen.records[1].answeredPs, 69 * kP);
    EXPECT_TRUE(t.prefetchRdCycles().empty());
    EXPECT_EQ(t.b->stats.find("mem0.prefetch_lines"), nullptr);  // no statistics either
    EXPECT_EQ(t.b->ctrl.prefetcher(), nullptr);
}

// The start rule: the prefetcher starts on a row only when its bank has no demand left at all.
// Y (another row of bank 0) is queued from the start, so when X's RDs (13, 15) leave row 0 without
// demand, the row is about to close for Y: nothing is prefetched and nothing is held, even with
// C = 4 (the queue holds 1 < 8 requests). Y is answered at 69, as without prefetch. (Before this
// rule the row was held for C lines and Y answered at 73.)
TEST(OwlPrefetch, DoesNotStartOnARowWhoseBankHasADemandWaiting) {
    PrefetchBench t(2, 4, 8);
    t.twoReads();
    EXPECT_TRUE(t.prefetchRdCycles().empty());
    EXPECT_EQ(t.preCycle(), 29u);
    EXPECT_EQ(t.b->gen.records[1].answeredPs, 69 * kP);
    EXPECT_EQ(t.b->stat("mem0.prefetch_held_pre_cycles"), 0.0);
    EXPECT_EQ(t.b->stat("mem0.prefetch_episodes"), 0.0);
}

// X (bank 0, row 0), reads of 4 rows of bank 1 that keep the controller busy, and Y (bank 0,
// row 1) at cycle 20: the traffic of the two tests below.
static void rowZeroThenBusyBankOneThenY(PrefetchBench& t) {
    t.b->gen.read(0x0);
    for (uint64_t r = 0; r < 4; ++r) t.b->gen.read(0x800 + r * kRow);
    t.b->gen.read(kRow, 20 * kP);
}

// Scheme 2, "at least C lines regardless of whether or not a demand arrives": X opens row 0 of
// bank 0; reads of 4 rows of bank 1 keep the controller busy, so bank 0 is idle with its row open
// and prefetching starts there. Y (bank 0, row 1) arrives at cycle 20, after it began: its PRE is
// refused until C = 4 lines of row 0 are read (the queue is short), then the episode stops for Y.
// (Idle rows opened later, Y's row 1 and the last bank-1 row, are prefetched too; not looked at.)
TEST(OwlPrefetch, StartedEpisodeReadsAtLeastCLinesThenStopsForTheDemandToAnotherRow) {
    PrefetchBench t(2, 4, 8);
    rowZeroThenBusyBankOneThenY(t);
    sc_core::sc_start();
    const auto pf = t.prefetchRdCycles(0, 0);
    ASSERT_EQ(pf.size(), 8u);  // 4 lines x 2 bursts of row 0, then stopped
    EXPECT_LT(pf.front(), 20u) << "prefetching began before Y arrived";
    EXPECT_EQ(t.filledLines(0, 0x800), (U{0x80, 0x100, 0x180, 0x200}));
    uint64_t pre0 = 0;
    for (const auto& r : t.b->ctrl.commandLog().records())
        if (r.cmd == DramCmd::Pre && r.bank == 0 && !pre0) pre0 = r.cycle;
    EXPECT_GT(pre0, pf.back()) << "bank 0 closed only after the C-th line";
    EXPECT_GT(t.b->stat("mem0.prefetch_held_pre_cycles"), 0.0);
    EXPECT_GE(t.b->stat("mem0.prefetch_stopped_by_demand"), 1.0);
    EXPECT_EQ(t.b->stat("mem0.reads"), 6.0);  // demand answers only
    EXPECT_TRUE(t.b->ctrl.quiescent());
}

// The queue threshold: with threshold 1 a queue of 1 or more requests is not short, so C = 2:
// the same traffic stops row 0 after 2 lines.
TEST(OwlPrefetch, MinimumIsTheLowValueWhenTheQueueIsNotShort) {
    PrefetchBench t(2, 4, 1);
    rowZeroThenBusyBankOneThenY(t);
    sc_core::sc_start();
    EXPECT_EQ(t.filledLines(0, 0x800), (U{0x80, 0x100}));
}

// C = 0 is the paper's first scheme: stop at once when a demand to another row waits. Here Y
// is queued from the start, so no line is prefetched at all.
TEST(OwlPrefetch, ZeroMinimumStopsAtTheFirstDemandToAnotherRow) {
    PrefetchBench t(0, 0, 8);
    t.twoReads();
    EXPECT_TRUE(t.prefetchRdCycles().empty());
    EXPECT_EQ(t.b->gen.records[1].answeredPs, 69 * kP);
    EXPECT_EQ(t.b->stat("mem0.prefetch_episodes"), 0.0);
}

// An idle controller does not prefetch: one read alone leaves its row open with nothing queued.
TEST(OwlPrefetch, NoPrefetchWithoutDemandQueued) {
    PrefetchBench t(8, 16, 8);
    t.b->gen.read(0x0);
    sc_core::sc_start();
    EXPECT_TRUE(t.prefetchRdCycles().empty());
    EXPECT_TRUE(t.b->ctrl.quiescent());
}

// ---- With the L2: initiator -> L2 slice -> controller, the controller's prefetch bound to the
// slice's prefetchFill() as the platform does it.
namespace {

struct L2DramBench {
    StatRegistry stats;
    PayloadPool pool;
    AddressMap map;
    ClockDomain l2Clock, dramClock;
    L2Slice l2;
    DramController ctrl;
    test::TestInitiator init;
    L2DramBench(const Config& cfg)
        : map(AddressMapParams::from(cfg)),
          l2Clock("l2clk", sc_core::sc_time::from_value(kP)),
          dramClock("dramclk", sc_core::sc_time::from_value(kP)),
          l2("l2", L2SliceParams::from(cfg), stats, l2Clock, pool, map, 0),
          ctrl("ctrl", DramControllerParams::from(cfg), stats, dramClock, map, 0),
          init("init", pool) {
        cfg.validate();
        init.socket.bind(l2.nocSide);
        l2.memSide.bind(ctrl.socket);
        l2.enablePrefetchFills();
        ctrl.enablePrefetch(128, [this](uint64_t line) { l2.prefetchFill(line); });
    }
};

} // namespace

// Row 0 of bank 0 is opened by a read of 0x0; reads of 6 rows of bank 1 keep the controller's
// queue busy (each closes the previous bank-1 row). No demand ever wants another row of bank 0,
// so its 15 other lines are all prefetched into the L2 (the row is exhausted). Read later, they
// all hit in the L2 and count as useful; nothing of bank 0 row 0 was read twice from DRAM.
// C = 0 so the bank-1 rows are not held open for prefetches.
TEST(OwlPrefetch, FillsTheL2WithTheOpenRowsRemainingLines) {
    dramtest::DramParams m;
    m.set("mem.partitions", 1).set("l2.tag_latency_cycles", 4).set("dram.prefetch_min_lines", 0)
        .set("dram.prefetch_min_lines_high", 0);
    L2DramBench b(*m.cfg);
    b.ctrl.commandLog().enable(true);
    b.init.read(0x0);
    for (uint64_t r = 0; r < 6; ++r) b.init.read(0x800 + r * kRow);
    constexpr uint64_t kLater = 2'000'000;  // ps: everything above is long done
    for (uint64_t l = 1; l < 16; ++l) b.init.read(l * 0x80, kLater, true);
    sc_core::sc_start();
    for (size_t i = 7; i < b.init.records.size(); ++i) EXPECT_TRUE(b.init.records[i].l2Hit) << "read " << i;
    EXPECT_EQ(b.stats.get("l2.slice0.prefetch_useful"), 15.0);
    EXPECT_GE(b.stats.get("l2.slice0.prefetch_fills"), 15.0);
    EXPECT_GE(b.stats.get("mem0.prefetch_rows_exhausted"), 1.0);
    std::set<uint64_t> row0;
    for (const auto& r : b.ctrl.commandLog().records())
        if (r.bank == 0 && r.row == 0 && r.cmd == DramCmd::Rd) {
            EXPECT_TRUE(row0.insert(r.column).second) << "column " << r.column << " read twice";
        }
    EXPECT_EQ(row0.size(), 32u);  // 16 lines x 2 bursts, each once
    EXPECT_EQ(b.init.answered(), b.init.ops.size());
    EXPECT_TRUE(b.l2.quiescent()) << b.l2.dumpState();
    EXPECT_TRUE(b.ctrl.quiescent()) << b.ctrl.dumpState();
    EXPECT_EQ(b.pool.outstanding(), 0u);
}

// The L2 side alone (ideal memory behind it, T = 4, M = 10, 1000 ps clocks): two lines handed
// over at time 0 are installed at edges 1 and 2 (one fill slot per cycle); a third is dropped
// (l2.prefetch_queue = 2). A read of 0x100 accepted at 0 is looked up at edge 1, after that
// edge's fill, and misses (0x100 was not prefetched); a read of 0x80 sent at 5000 hits (hit
// counts useful), a second read of it hits but is not counted again. A line handed over while
// resident is dropped as redundant. Reads accepted at t are looked up at the next edge.
TEST(OwlPrefetch, L2InstallsDropsAndCountsPrefetchedLines) {
    test::MemoryConfig m;
    m.set("mem.partitions", 1).set("l2.tag_latency_cycles", 4).set("mem.ideal_latency_cycles", 10)
        .set("l2.prefetch_queue", 2);
    test::L2Bench b(*m.cfg, sc_core::sc_time::from_value(kP), sc_core::sc_time::from_value(kP));
    b.init.read(0x100);
    b.init.read(0x80, 5000);
    b.init.read(0x80, 6000);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // time 0, simulation started
    EXPECT_THROW(b.l2.prefetchFill(0x80), ModelError);  // not enabled
    b.l2.enablePrefetchFills();
    b.l2.prefetchFill(0x80);
    b.l2.prefetchFill(0x180);
    b.l2.prefetchFill(0x200);  // queue full
    sc_core::sc_start(sc_core::sc_time::from_value(20000));
    b.l2.prefetchFill(0x180);  // resident: redundant
    sc_core::sc_start();
    EXPECT_FALSE(b.init.records[0].l2Hit);
    EXPECT_TRUE(b.init.records[1].l2Hit);
    EXPECT_TRUE(b.init.records[2].l2Hit);
    EXPECT_EQ(b.stat("l2.slice0.prefetch_fills"), 2.0);
    EXPECT_EQ(b.stat("l2.slice0.prefetch_dropped"), 1.0);
    EXPECT_EQ(b.stat("l2.slice0.prefetch_useful"), 1.0);
    EXPECT_EQ(b.stat("l2.slice0.prefetch_redundant"), 1.0);
    EXPECT_EQ(b.stat("l2.slice0.prefetch_redundant_in_flight"), 0.0);  // it was resident
    b.expectDrained();
}

// Random traffic with the prefetcher on (defaults C = 8 / 16), the command log replayed through
// rules written here from the constraint list (not through DramTimingChecker): bank state (a RD
// only to the bank's open row, ACT to a closed bank, PRE to an open one), tRCD, tRTP, tRAS,
// tCCD, write-to-read and read-to-write turnaround, no overlapping data bursts. Every demand
// request still gets exactly its two bursts, and the prefetch really ran.
TEST(OwlPrefetch, RandomTrafficKeepsEveryTimingRule) {
    dramtest::DramParams m;
    m.set("dram.queue_size", 16);
    dramtest::DramBench b(*m.cfg, kP, 3);
    b.ctrl.commandLog().enable(true);
    unsigned fills = 0;
    b.ctrl.enablePrefetch(128, [&fills, &b](uint64_t line) {
        EXPECT_EQ(b.map.partition(line), 3u);
        ++fills;
    });
    std::mt19937 rng(21);
    const auto lines = dramtest::randomLines(b.map, 3, 800, 4, 128, 21);
    uint64_t at = 0;
    for (uint64_t a : lines) {
        at += (rng() % 4 == 0) ? (rng() % 40) * kP : 0;
        if (rng() % 4 == 0)
            b.gen.write(a, at);
        else
            b.gen.read(a, at);
    }
    sc_core::sc_start();
    const DramTiming& t = b.ctrl.timing();
    const int64_t B = t.burstCycles();
    const auto& log = b.ctrl.commandLog().records();
    std::vector<int64_t> open(b.ctrl.banks().size(), -1), actAt(open.size(), -1000), rdAt(open.size(), -1000);
    std::map<uint64_t, unsigned> bursts;
    unsigned bad = 0, prefetchBursts = 0;
    int64_t lastCol = -1000, lastRd = -1000, lastWr = -1000, busEnd = -1000;
    for (const auto& r : log) {
        const int64_t c = int64_t(r.cycle);
        switch (r.cmd) {
        case DramCmd::Act:
            bad += open[r.bank] >= 0;
            open[r.bank] = int64_t(r.row);
            actAt[r.bank] = c;
            break;
        case DramCmd::Pre:
            bad += open[r.bank] < 0;
            bad += c < actAt[r.bank] + t.tRAS;
            bad += c < rdAt[r.bank] + t.tRTP;
            open[r.bank] = -1;
            break;
        case DramCmd::Rd:
        case DramCmd::Wr: {
            const bool rd = r.cmd == DramCmd::Rd;
            bad += open[r.bank] != int64_t(r.row);
            bad += c < actAt[r.bank] + t.tRCD;
            bad += c < lastCol + t.tCCD;
            if (rd) bad += c < lastWr + t.tWL + B + t.tCDLR;
            if (!rd) bad += c < lastRd + t.tRTW;
            const int64_t start = c + (rd ? t.tCL : t.tWL);
            bad += start < busEnd;
            busEnd = start + B;
            lastCol = c;
            (rd ? lastRd : lastWr) = c;
            if (rd) rdAt[r.bank] = c;
            if (r.request == kPrefetchRequest) {
                bad += !rd;
                ++prefetchBursts;
            } else {
                ++bursts[r.request];
            }
            break;
        }
        }
    }
    EXPECT_EQ(bad, 0u);
    EXPECT_GT(prefetchBursts, 0u);
    EXPECT_EQ(prefetchBursts, 2 * fills);  // every prefetched line was delivered, 2 bursts each
    EXPECT_EQ(double(fills), b.stat("mem3.prefetch_lines"));
    EXPECT_EQ(bursts.size(), lines.size());
    for (const auto& [req, n] : bursts) EXPECT_EQ(n, 2u) << "request " << req;
    EXPECT_EQ(b.gen.answered(), lines.size());
    EXPECT_TRUE(b.ctrl.quiescent()) << b.ctrl.dumpState();
    EXPECT_EQ(b.pool.outstanding(), 0u);
}

} // namespace owl_prefetch_test
