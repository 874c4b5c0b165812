// L1DCache on small hand-built geometries (linear set index, so set = (addr/128) mod sets).
// With 4 sets, lines 0x000, 0x200, 0x400, ... all map to set 0; 0x080 to set 1; 0x100 to set 2.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "common/Stats.hpp"
#include "modules/L1DCache.hpp"
#include "scheduler/SchedulerPolicy.hpp"

namespace l1d_cache_test {

using namespace gpusim;

namespace {

SmConfig cfgOf(L1Allocation alloc, unsigned ways = 2, unsigned sets = 4) {
    SmConfig c;
    c.l1Line = 128;
    c.l1Ways = ways;
    c.l1Bytes = 128 * ways * sets;
    c.setIndexing = SetIndexing::Linear;
    c.allocation = alloc;
    c.mshrEntries = 8;
    c.mshrMaxMerge = 8;
    c.missQueue = 8;
    return c;
}

struct Bench {
    StatRegistry stats;
    SmConfig cfg;
    L1DCache l1;
    explicit Bench(const SmConfig& c) : cfg(c), l1(cfg, stats, "l1.") {}
    uint64_t n(const std::string& s) const { return static_cast<uint64_t>(stats.get("l1." + s)); }
    size_t queued() const { return cfg.missQueue - l1.missQueueFree(); }
    // A read that misses, leaves the miss queue (sent) and is filled at once.
    void missAndFill(uint64_t line, unsigned warp = 0) {
        ASSERT_EQ(l1.read(line, warp, 0, 99), L1Result::MissNew) << std::hex << line;
        l1.popOutgoing();
        l1.fill(line);
    }
};

constexpr uint64_t A = 0x000, B = 0x200, C = 0x400, D = 0x600;  // all in set 0 of 4 sets
constexpr uint64_t E = 0x800, F = 0xA00, G = 0xC00, H = 0xE00;  // set 0 as well

// Records the observer hooks.
struct Recorder : SchedulerPolicy {
    std::string name() const override { return "recorder"; }
    void order(unsigned, std::vector<unsigned>&, const SmView&) override {}
    void onL1Access(const L1AccessEvent& e) override {
        accesses.push_back({e.warp, e.lineAddr, e.hit, e.merged, e.isWrite});
    }
    void onL1Evict(uint64_t line, int owner) override { evicts.push_back({line, owner}); }
    void onMshrAlloc(uint64_t line) override { allocs.push_back(line); }
    void onMshrFree(uint64_t line) override { frees.push_back(line); }
    std::vector<std::tuple<unsigned, uint64_t, bool, bool, bool>> accesses;
    std::vector<std::pair<uint64_t, int>> evicts;
    std::vector<uint64_t> allocs, frees;
};

} // namespace

TEST(L1DCache, MissThenFillThenHit) {
    Bench b(cfgOf(L1Allocation::OnMiss));
    EXPECT_EQ(b.l1.read(A, 3, 0x80, 1), L1Result::MissNew);
    EXPECT_FALSE(b.l1.probe(A));
    EXPECT_TRUE(b.l1.reserved(A));  // on-miss: the way is reserved now
    EXPECT_EQ(b.l1.mshrUsed(), 1u);
    ASSERT_TRUE(b.l1.hasOutgoing());
    EXPECT_EQ(b.queued(), 1u);
    const MissRequest& m = b.l1.frontOutgoing();
    EXPECT_EQ(m.lineAddr, A);
    EXPECT_FALSE(m.write);
    EXPECT_EQ(m.bytes, 128u);
    EXPECT_EQ(m.warp, 3u);
    EXPECT_EQ(m.pc, 0x80u);
    b.l1.popOutgoing();
    EXPECT_FALSE(b.l1.quiescent());  // MSHR still held
    EXPECT_EQ(b.l1.fill(A), (std::vector<uint32_t>{1}));
    EXPECT_TRUE(b.l1.probe(A));
    EXPECT_FALSE(b.l1.reserved(A));
    EXPECT_TRUE(b.l1.quiescent());
    EXPECT_EQ(b.l1.read(A, 3, 0x80, 2), L1Result::Hit);
    // Any byte of the line is the same line.
    EXPECT_EQ(b.l1.lineOf(A + 0x7f), A);
    EXPECT_EQ(b.n("accesses"), 2u);
    EXPECT_EQ(b.n("read_hits"), 1u);
    EXPECT_EQ(b.n("read_misses"), 1u);
    EXPECT_EQ(b.n("fills"), 1u);
}

TEST(L1DCache, SecondReadOfSameLineMergesWithoutQueueEntry) {
    Bench b(cfgOf(L1Allocation::OnMiss));
    EXPECT_EQ(b.l1.read(A, 0, 0, 1), L1Result::MissNew);
    EXPECT_EQ(b.l1.read(A, 1, 0, 2), L1Result::MissMerged);  // another warp, same line
    EXPECT_EQ(b.queued(), 1u);  // still one request toward the NoC
    EXPECT_EQ(b.l1.mshrUsed(), 1u);
    EXPECT_EQ(b.n("mshr_merges"), 1u);
    EXPECT_EQ(b.n("read_misses"), 1u);
}

TEST(L1DCache, MergeLimitThenStallMshr) {
    SmConfig c = cfgOf(L1Allocation::OnMiss);
    c.mshrMaxMerge = 3;  // the entry holds 3 accesses: the first plus 2 merges
    Bench b(c);
    EXPECT_EQ(b.l1.read(A, 0, 0, 1), L1Result::MissNew);
    EXPECT_EQ(b.l1.read(A, 0, 0, 2), L1Result::MissMerged);
    EXPECT_EQ(b.l1.read(A, 0, 0, 3), L1Result::MissMerged);
    EXPECT_EQ(b.l1.read(A, 0, 0, 4), L1Result::StallMshr);
    EXPECT_EQ(b.l1.read(A, 0, 0, 4), L1Result::StallMshr);  // replay next cycle, still full
    EXPECT_EQ(b.n("mshr_merges"), 2u);
    EXPECT_EQ(b.n("mshr_stall_cycles"), 2u);
    EXPECT_EQ(b.n("accesses"), 3u);  // stalls are not accesses
    b.l1.popOutgoing();
    EXPECT_EQ(b.l1.fill(A), (std::vector<uint32_t>{1, 2, 3}));  // token 4 was never taken
    EXPECT_EQ(b.l1.read(A, 0, 0, 4), L1Result::Hit);
}

TEST(L1DCache, MshrFullStallsNewLinesButStillMerges) {
    SmConfig c = cfgOf(L1Allocation::OnMiss);
    c.mshrEntries = 2;
    Bench b(c);
    EXPECT_EQ(b.l1.read(A, 0, 0, 1), L1Result::MissNew);
    EXPECT_EQ(b.l1.read(0x080, 0, 0, 2), L1Result::MissNew);  // set 1
    EXPECT_EQ(b.l1.mshrFree(), 0u);
    EXPECT_EQ(b.l1.read(0x100, 0, 0, 3), L1Result::StallMshr);  // set 2, third distinct line
    EXPECT_EQ(b.l1.read(A, 0, 0, 4), L1Result::MissMerged);     // merging needs no new entry
    EXPECT_EQ(b.n("mshr_stall_cycles"), 1u);
    EXPECT_EQ(b.queued(), 2u);
    b.l1.popOutgoing();
    EXPECT_EQ(b.l1.fill(A), (std::vector<uint32_t>{1, 4}));
    EXPECT_EQ(b.l1.read(0x100, 0, 0, 3), L1Result::MissNew);
}

TEST(L1DCache, MissQueueFullStallsReadsAndWrites) {
    SmConfig c = cfgOf(L1Allocation::OnMiss);
    c.missQueue = 2;
    Bench b(c);
    EXPECT_EQ(b.l1.read(A, 0, 0, 1), L1Result::MissNew);
    EXPECT_EQ(b.l1.read(0x080, 0, 0, 2), L1Result::MissNew);
    EXPECT_EQ(b.l1.missQueueFree(), 0u);
    EXPECT_EQ(b.l1.read(0x100, 0, 0, 3), L1Result::StallMissQueue);
    EXPECT_EQ(b.l1.write(0x180, 4, 0, 0), L1Result::StallMissQueue);
    EXPECT_EQ(b.l1.read(A, 0, 0, 4), L1Result::MissMerged);  // a merge sends nothing
    EXPECT_EQ(b.n("miss_queue_stall_cycles"), 2u);
    EXPECT_EQ(b.n("mshr_stall_cycles"), 0u);
    EXPECT_EQ(b.l1.mshrUsed(), 2u);  // the stalled read took no MSHR
    b.l1.popOutgoing();              // one request enters the NoC
    EXPECT_EQ(b.l1.read(0x100, 0, 0, 3), L1Result::MissNew);
}

// The LD/ST unit repeats a refusal without asking again while version() stays (LdStUnit's
// refusedVersion_): a refused read or write leaves it, every change an answer depends on moves it.
TEST(L1DCache, VersionStaysThroughRefusalsAndMovesWithEveryChange) {
    SmConfig c = cfgOf(L1Allocation::OnMiss);
    c.mshrEntries = 1;
    c.missQueue = 2;
    Bench b(c);
    uint64_t v = b.l1.version();
    const auto moved = [&] {
        const bool m = b.l1.version() != v;
        v = b.l1.version();
        return m;
    };
    EXPECT_EQ(b.l1.read(A, 0, 0, 1), L1Result::MissNew);
    EXPECT_TRUE(moved());
    EXPECT_EQ(b.l1.read(0x080, 0, 0, 2), L1Result::StallMshr);  // the only MSHR is taken
    EXPECT_EQ(b.l1.read(0x080, 0, 0, 2), L1Result::StallMshr);
    EXPECT_FALSE(moved());
    EXPECT_EQ(b.n("mshr_stall_cycles"), 2u);
    EXPECT_EQ(b.l1.write(0x100, 4, 0, 0), L1Result::WriteSent);  // the miss queue is now full
    EXPECT_TRUE(moved());
    EXPECT_EQ(b.l1.write(0x180, 4, 0, 0), L1Result::StallMissQueue);
    EXPECT_FALSE(moved());
    b.l1.popOutgoing();
    EXPECT_TRUE(moved());
    EXPECT_EQ(b.l1.read(A, 0, 0, 3), L1Result::MissMerged);
    EXPECT_TRUE(moved());
    b.l1.fill(A);
    EXPECT_TRUE(moved());
    EXPECT_EQ(b.l1.read(A, 0, 0, 4), L1Result::Hit);
    EXPECT_TRUE(moved());
    b.l1.flush();
    EXPECT_TRUE(moved());
}

TEST(L1DCache, AllocateOnMissReservationFailure) {
    Bench b(cfgOf(L1Allocation::OnMiss));  // 2 ways
    EXPECT_EQ(b.l1.read(A, 0, 0, 1), L1Result::MissNew);  // reserves way 0 of set 0
    EXPECT_EQ(b.l1.read(B, 0, 0, 2), L1Result::MissNew);  // reserves way 1 of set 0
    EXPECT_TRUE(b.l1.reserved(A));
    EXPECT_TRUE(b.l1.reserved(B));
    EXPECT_EQ(b.l1.read(C, 0, 0, 3), L1Result::StallReservation);  // set 0 all reserved
    EXPECT_EQ(b.l1.mshrUsed(), 2u);
    EXPECT_EQ(b.queued(), 2u);
    EXPECT_EQ(b.n("reservation_fail_cycles"), 1u);
    EXPECT_EQ(b.l1.read(0x080, 0, 0, 4), L1Result::MissNew);  // other sets unaffected
    // A's fill frees its way (now valid, not reserved): C reserves it, evicting A at once.
    b.l1.popOutgoing();
    b.l1.fill(A);
    EXPECT_EQ(b.l1.read(C, 0, 0, 3), L1Result::MissNew);
    EXPECT_FALSE(b.l1.probe(A));
    EXPECT_TRUE(b.l1.reserved(C));
    EXPECT_EQ(b.n("evictions"), 1u);
}

TEST(L1DCache, AllocateOnFillNeedsOnlyMshrsAndEvictsAtFill) {
    Bench b(cfgOf(L1Allocation::OnFill));  // 2 ways, 8 MSHRs
    EXPECT_EQ(b.l1.read(A, 0, 0, 1), L1Result::MissNew);
    EXPECT_EQ(b.l1.read(B, 0, 0, 2), L1Result::MissNew);
    EXPECT_EQ(b.l1.read(C, 0, 0, 3), L1Result::MissNew);  // no reservation to fail
    EXPECT_FALSE(b.l1.reserved(A));
    EXPECT_EQ(b.l1.mshrUsed(), 3u);
    EXPECT_EQ(b.n("reservation_fail_cycles"), 0u);
    EXPECT_EQ(b.l1.fill(A), (std::vector<uint32_t>{1}));  // way 0
    EXPECT_EQ(b.l1.fill(B), (std::vector<uint32_t>{2}));  // way 1
    EXPECT_EQ(b.n("evictions"), 0u);
    EXPECT_EQ(b.l1.fill(C), (std::vector<uint32_t>{3}));  // LRU of {A, B} is A
    EXPECT_FALSE(b.l1.probe(A));
    EXPECT_TRUE(b.l1.probe(B));
    EXPECT_TRUE(b.l1.probe(C));
    EXPECT_EQ(b.n("evictions"), 1u);
}

TEST(L1DCache, AllocateOnFillChoosesVictimAtFillTime) {
    Bench b(cfgOf(L1Allocation::OnFill));
    b.missAndFill(A);
    b.missAndFill(B);
    EXPECT_EQ(b.l1.read(A, 0, 0, 1), L1Result::Hit);   // LRU now B
    EXPECT_EQ(b.l1.read(C, 0, 0, 2), L1Result::MissNew);
    EXPECT_TRUE(b.l1.probe(A));  // nothing evicted at the miss
    EXPECT_TRUE(b.l1.probe(B));
    EXPECT_EQ(b.l1.read(B, 0, 0, 3), L1Result::Hit);   // LRU now A
    b.l1.popOutgoing();
    b.l1.fill(C);
    EXPECT_FALSE(b.l1.probe(A));  // the victim is the LRU line at fill time
    EXPECT_TRUE(b.l1.probe(B));
    EXPECT_TRUE(b.l1.probe(C));
}

TEST(L1DCache, AllocateOnMissChoosesVictimAtMissTime) {
    Bench b(cfgOf(L1Allocation::OnMiss));
    b.missAndFill(A);
    b.missAndFill(B);
    EXPECT_EQ(b.l1.read(A, 0, 0, 1), L1Result::Hit);    // LRU now B
    EXPECT_EQ(b.l1.read(C, 0, 0, 2), L1Result::MissNew);
    EXPECT_FALSE(b.l1.probe(B));  // evicted at the miss
    EXPECT_TRUE(b.l1.probe(A));
    EXPECT_TRUE(b.l1.reserved(C));
    EXPECT_EQ(b.n("evictions"), 1u);
}

TEST(L1DCache, LruEvictionOrderInOneSet) {
    Bench b(cfgOf(L1Allocation::OnMiss, 4, 4));  // 4 ways
    Recorder rec;
    b.l1.setObserver(&rec);
    // Stamps: A 1/2 (reserve/fill), B 3/4, C 5/6, D 7/8 (warps 0..3 bring them in).
    b.missAndFill(A, 0);
    b.missAndFill(B, 1);
    b.missAndFill(C, 2);
    b.missAndFill(D, 3);
    EXPECT_EQ(b.l1.read(B, 9, 0, 1), L1Result::Hit);  // B 9
    EXPECT_EQ(b.l1.read(A, 9, 0, 1), L1Result::Hit);  // A 10
    // LRU order now C(6) D(8) B(9) A(10): new lines evict C, D, B, A in turn.
    b.missAndFill(E, 4);
    EXPECT_FALSE(b.l1.probe(C));
    b.missAndFill(F, 5);
    EXPECT_FALSE(b.l1.probe(D));
    b.missAndFill(G, 6);
    EXPECT_FALSE(b.l1.probe(B));
    b.missAndFill(H, 7);
    EXPECT_FALSE(b.l1.probe(A));
    for (uint64_t l : {E, F, G, H}) EXPECT_TRUE(b.l1.probe(l));
    // The observer saw the evictions with the warp that brought each line in.
    EXPECT_EQ(rec.evicts, (std::vector<std::pair<uint64_t, int>>{{C, 2}, {D, 3}, {B, 1}, {A, 0}}));
    EXPECT_EQ(b.n("evictions"), 4u);
    EXPECT_EQ(rec.allocs.size(), 8u);
    EXPECT_EQ(rec.frees.size(), 8u);
}

TEST(L1DCache, EveryWayIsFoundAtEachAssociativity) {
    // 4 and 8 ways take find()'s and victim()'s unrolled scans, 2 and 16 their general loops: a
    // line is found in every way, the last included; a way holding an invalidated line's stale
    // tag is not a hit; invalid ways fill lowest first, then the LRU line leaves.
    for (unsigned ways : {2u, 4u, 8u, 16u}) {
        Bench b(cfgOf(L1Allocation::OnMiss, ways, 4));
        for (unsigned k = 0; k < ways; ++k) b.missAndFill(0x200 * k);  // set 0, ways 0..ways-1
        for (unsigned k = 0; k < ways; ++k) EXPECT_TRUE(b.l1.probe(0x200 * k)) << ways << " ways, way " << k;
        EXPECT_FALSE(b.l1.probe(0x200 * ways)) << ways;   // set 0, not there
        EXPECT_FALSE(b.l1.probe(0x080)) << ways;          // set 1, empty
        const uint64_t last = 0x200 * (ways - 1);
        EXPECT_EQ(b.l1.write(last, 4, 0, 0), L1Result::WriteSent);  // write-evict: the tag stays behind
        EXPECT_FALSE(b.l1.probe(last)) << ways;
        EXPECT_EQ(b.l1.read(last, 0, 0, 1), L1Result::MissNew) << ways;
        EXPECT_EQ(b.l1.read(0, 0, 0, 2), L1Result::Hit) << ways;
        // No invalid way left: the victim is the least recently used of the unreserved ways
        // (line 0x200, or line 0 when it is the only one).
        const uint64_t lru = ways > 2 ? 0x200 : 0;
        EXPECT_EQ(b.l1.read(0x200 * ways, 0, 0, 3), L1Result::MissNew) << ways;
        EXPECT_FALSE(b.l1.probe(lru)) << ways;
        EXPECT_TRUE(b.l1.reserved(last)) << ways;
        EXPECT_TRUE(b.l1.reserved(0x200 * ways)) << ways;
    }
}

TEST(L1DCache, HitsSplitIntoIntraAndInterWarpByTheLinesOwner) {
    // Warp 5 brings A in, warp 6 brings B in (on-miss: the reserving warp owns the line; on-fill
    // the missing warp). Hits: A by 5 (intra), A by 6 (inter), B by 6 (intra), B by 5 (inter),
    // A by 5 again (intra): 3 of 5 hits intra-warp.
    for (L1Allocation a : {L1Allocation::OnMiss, L1Allocation::OnFill}) {
        Bench b(cfgOf(a));
        b.missAndFill(A, 5);
        b.missAndFill(B, 6);
        for (auto [line, warp] : std::vector<std::pair<uint64_t, unsigned>>{{A, 5}, {A, 6}, {B, 6}, {B, 5}, {A, 5}})
            EXPECT_EQ(b.l1.read(line, warp, 0, 1), L1Result::Hit);
        EXPECT_EQ(b.n("read_hits"), 5u);
        EXPECT_EQ(b.n("read_hits_intra_warp"), 3u);
    }
}

TEST(L1DCache, IntraWarpHitsSplitIntoIntraAndInterThreadByTheOwnersLanes) {
    // Warp 5 misses A with lanes 0-3 and merges lanes 4-7 into the pending miss; warp 6 merges
    // lane 9 (not the owner: its lanes are not the owner's). After the fill, hits by
    //   5 on lane 8     intra-warp, inter-thread (new lane; lane 8 joins the owner's lanes)
    //   5 on lane 4     intra-thread (merged before the fill)
    //   6 on lane 0     inter-warp
    //   5 on lane 9     intra-warp, inter-thread (lane 9 read A only as warp 6's)
    //   5 on lane 0     intra-thread
    // : 5 hits, 4 intra-warp, 2 of them intra-thread, under either allocation.
    for (L1Allocation a : {L1Allocation::OnMiss, L1Allocation::OnFill}) {
        Bench b(cfgOf(a));
        ASSERT_EQ(b.l1.read(A, 5, 0, 1, 0x0Fu), L1Result::MissNew);
        ASSERT_EQ(b.l1.read(A, 5, 0, 2, 0xF0u), L1Result::MissMerged);
        ASSERT_EQ(b.l1.read(A, 6, 0, 3, 0x200u), L1Result::MissMerged);
        b.l1.popOutgoing();
        b.l1.fill(A);
        for (auto [warp, lanes] : std::vector<std::pair<unsigned, uint32_t>>{
                 {5, 0x100u}, {5, 0x10u}, {6, 0x1u}, {5, 0x200u}, {5, 0x1u}})
            EXPECT_EQ(b.l1.read(A, warp, 0, 4, lanes), L1Result::Hit);
        EXPECT_EQ(b.n("read_hits"), 5u);
        EXPECT_EQ(b.n("read_hits_intra_warp"), 4u);
        EXPECT_EQ(b.n("read_hits_intra_thread"), 2u);
    }
}

TEST(L1DCache, OnFillOwnerIsTheMissingWarp) {
    Bench b(cfgOf(L1Allocation::OnFill));
    Recorder rec;
    b.l1.setObserver(&rec);
    b.missAndFill(A, 5);
    b.missAndFill(B, 6);
    b.missAndFill(C, 7);  // evicts A (LRU), owned by warp 5
    EXPECT_EQ(rec.evicts, (std::vector<std::pair<uint64_t, int>>{{A, 5}}));
}

TEST(L1DCache, StoreWriteEvictsValidLineWithoutMshr) {
    Bench b(cfgOf(L1Allocation::OnMiss));
    b.missAndFill(A);
    EXPECT_EQ(b.l1.write(A, 64, 3, 0x40), L1Result::WriteSent);
    EXPECT_FALSE(b.l1.probe(A));  // invalidated
    EXPECT_EQ(b.l1.mshrUsed(), 0u);
    ASSERT_TRUE(b.l1.hasOutgoing());
    const MissRequest& m = b.l1.frontOutgoing();
    EXPECT_EQ(m.lineAddr, A);
    EXPECT_TRUE(m.write);
    EXPECT_EQ(m.bytes, 64u);
    EXPECT_EQ(m.warp, 3u);
    EXPECT_EQ(m.pc, 0x40u);
    EXPECT_EQ(b.n("writes"), 1u);
    EXPECT_EQ(b.n("write_evicts"), 1u);
    // A store to an absent line: sent, nothing invalidated, no allocation.
    EXPECT_EQ(b.l1.write(B, 4, 3, 0x40), L1Result::WriteSent);
    EXPECT_FALSE(b.l1.probe(B));
    EXPECT_EQ(b.n("writes"), 2u);
    EXPECT_EQ(b.n("write_evicts"), 1u);
    // A store to a reserved line keeps the reservation; the fill still lands.
    EXPECT_EQ(b.l1.read(C, 0, 0, 8), L1Result::MissNew);
    EXPECT_EQ(b.l1.write(C, 4, 0, 0), L1Result::WriteSent);
    EXPECT_TRUE(b.l1.reserved(C));
    EXPECT_EQ(b.l1.fill(C), (std::vector<uint32_t>{8}));
    EXPECT_TRUE(b.l1.probe(C));
}

// The "evictions" counter is documented as "Valid lines replaced by a fill or reservation", and
// write-evict invalidations have their own counter (write_evicts). A store that invalidates a line
// replaces nothing, so neither the evictions counter nor the policies' onL1Evict hook (CCWS's
// lost-locality detector feeds its victim tag array from it) should see it.
TEST(L1DCache, WriteEvictIsNotCountedAsReplacementEviction) {
    Bench b(cfgOf(L1Allocation::OnMiss));
    Recorder rec;
    b.l1.setObserver(&rec);
    b.missAndFill(A, 2);
    EXPECT_EQ(b.l1.write(A, 4, 2, 0), L1Result::WriteSent);
    EXPECT_EQ(b.n("write_evicts"), 1u);
    EXPECT_EQ(b.n("evictions"), 0u);
    EXPECT_TRUE(rec.evicts.empty());
}

TEST(L1DCache, FillReturnsTokensInArrivalOrder) {
    Bench b(cfgOf(L1Allocation::OnMiss));
    EXPECT_EQ(b.l1.read(A, 0, 0, 7), L1Result::MissNew);
    EXPECT_EQ(b.l1.read(A, 1, 0, 3), L1Result::MissMerged);
    EXPECT_EQ(b.l1.read(A, 2, 0, 5), L1Result::MissMerged);
    EXPECT_EQ(b.l1.fill(A), (std::vector<uint32_t>{7, 3, 5}));
    EXPECT_EQ(b.l1.mshrUsed(), 0u);
}

TEST(L1DCache, ObserverSeesEveryAccessKind) {
    Bench b(cfgOf(L1Allocation::OnMiss));
    Recorder rec;
    b.l1.setObserver(&rec);
    b.l1.read(A, 1, 0, 1);  // miss
    b.l1.read(A, 2, 0, 2);  // merged
    b.l1.popOutgoing();
    b.l1.fill(A);
    b.l1.read(A, 3, 0, 3);      // hit
    b.l1.write(B, 4, 4, 0);     // write
    using T = std::tuple<unsigned, uint64_t, bool, bool, bool>;  // warp, line, hit, merged, write
    EXPECT_EQ(rec.accesses, (std::vector<T>{T{1, A, false, false, false}, T{2, A, false, true, false},
                                            T{3, A, true, false, false}, T{4, B, false, false, true}}));
    EXPECT_EQ(rec.allocs, (std::vector<uint64_t>{A}));
    EXPECT_EQ(rec.frees, (std::vector<uint64_t>{A}));
}

TEST(L1DCache, CountersMatchHandCount) {
    SmConfig c = cfgOf(L1Allocation::OnMiss);
    c.mshrEntries = 2;
    c.mshrMaxMerge = 2;
    Bench b(c);
    const uint64_t X = 0x000, Y = 0x080, Z = 0x100;  // sets 0, 1, 2
    EXPECT_EQ(b.l1.read(X, 0, 0, 0), L1Result::MissNew);     // acc 1, miss 1
    EXPECT_EQ(b.l1.read(X, 0, 0, 1), L1Result::MissMerged);  // acc 2, merge 1
    EXPECT_EQ(b.l1.read(X, 0, 0, 2), L1Result::StallMshr);   // merge room gone: stall 1
    EXPECT_EQ(b.l1.read(Y, 0, 0, 3), L1Result::MissNew);     // acc 3, miss 2
    EXPECT_EQ(b.l1.read(Z, 0, 0, 4), L1Result::StallMshr);   // MSHRs full: stall 2
    EXPECT_EQ(b.l1.fill(X), (std::vector<uint32_t>{0, 1}));  // fill 1
    EXPECT_EQ(b.l1.read(X, 0, 0, 5), L1Result::Hit);         // acc 4, hit 1
    EXPECT_EQ(b.l1.read(Z, 0, 0, 4), L1Result::MissNew);     // acc 5, miss 3
    EXPECT_EQ(b.l1.write(X, 4, 0, 0), L1Result::WriteSent);  // acc 6, write 1, write-evict 1
    EXPECT_EQ(b.l1.read(X, 0, 0, 6), L1Result::StallMshr);   // Y, Z hold both MSHRs: stall 3
    EXPECT_EQ(b.l1.fill(Y), (std::vector<uint32_t>{3}));     // fill 2
    EXPECT_EQ(b.l1.fill(Z), (std::vector<uint32_t>{4}));     // fill 3
    EXPECT_EQ(b.l1.read(Y, 0, 0, 7), L1Result::Hit);         // acc 7, hit 2
    EXPECT_EQ(b.n("accesses"), 7u);
    EXPECT_EQ(b.n("read_hits"), 2u);
    EXPECT_EQ(b.n("read_misses"), 3u);
    EXPECT_EQ(b.n("mshr_merges"), 1u);
    EXPECT_EQ(b.n("writes"), 1u);
    EXPECT_EQ(b.n("write_evicts"), 1u);
    EXPECT_EQ(b.n("mshr_stall_cycles"), 3u);
    EXPECT_EQ(b.n("miss_queue_stall_cycles"), 0u);
    EXPECT_EQ(b.n("reservation_fail_cycles"), 0u);
    EXPECT_EQ(b.n("fills"), 3u);
    EXPECT_EQ(b.queued(), 4u);  // reads X, Y, Z and the write, none popped
    EXPECT_FALSE(b.l1.quiescent());
}

// l1d.flush_at_kernel_end: every valid line goes (a read after it misses again), a reserved line
// keeps its reservation and its fill still lands; flushed lines are counted apart from evictions.
TEST(L1DCache, FlushInvalidatesValidLinesAndKeepsReservations) {
    Bench b(cfgOf(L1Allocation::OnMiss));
    b.missAndFill(0x000);
    b.missAndFill(0x080);
    ASSERT_EQ(b.l1.read(0x100, 0, 0, 7), L1Result::MissNew);  // reserved, fill not yet back
    b.l1.flush();
    EXPECT_FALSE(b.l1.probe(0x000));
    EXPECT_FALSE(b.l1.probe(0x080));
    EXPECT_TRUE(b.l1.reserved(0x100));
    EXPECT_EQ(b.n("flushed_lines"), 2u);
    EXPECT_EQ(b.n("evictions"), 0u);
    EXPECT_EQ(b.l1.read(0x000, 0, 0, 8), L1Result::MissNew);
    b.l1.popOutgoing();
    b.l1.popOutgoing();
    EXPECT_EQ(b.l1.fill(0x100), std::vector<uint32_t>{7});
    EXPECT_TRUE(b.l1.probe(0x100));
}

// l1d.write_policy: a store to a valid line invalidates it (evict, a read after it misses) or
// keeps it (write-through, the read hits); both send the store to L2 and allocate nothing on a
// store miss.
TEST(L1DCache, WritePolicyEvictsOrKeepsTheLine) {
    for (const auto policy : {L1WritePolicy::Evict, L1WritePolicy::WriteThrough}) {
        SmConfig c = cfgOf(L1Allocation::OnMiss);
        c.writePolicy = policy;
        Bench b(c);
        b.missAndFill(0x000);
        EXPECT_EQ(b.l1.write(0x000, 4, 0, 0), L1Result::WriteSent);
        EXPECT_EQ(b.l1.write(0x080, 4, 0, 0), L1Result::WriteSent);  // a store miss: nothing allocated
        EXPECT_FALSE(b.l1.probe(0x080));
        EXPECT_EQ(b.queued(), 2u);
        const bool through = policy == L1WritePolicy::WriteThrough;
        EXPECT_EQ(b.l1.probe(0x000), through);
        EXPECT_EQ(b.n("write_hits"), through ? 1u : 0u);
        EXPECT_EQ(b.n("write_evicts"), through ? 0u : 1u);
        EXPECT_EQ(b.l1.read(0x000, 0, 0, 5), through ? L1Result::Hit : L1Result::MissNew);
    }
}

} // namespace l1d_cache_test
