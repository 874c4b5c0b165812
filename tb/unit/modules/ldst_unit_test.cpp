// LdStUnit driven cycle by cycle the way SmCore does it (fill -> collect -> step -> send), with a
// hand-built SmConfig (linear set index, l1d.hit_latency 20, smem latency 24).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/Stats.hpp"
#include "modules/L1DCache.hpp"
#include "modules/LdStUnit.hpp"
#include "scheduler/SchedulerPolicy.hpp"
#include "tb/unit/modules/ModuleTestHelpers.hpp"

namespace ldst_unit_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

SmConfig baseCfg() {
    SmConfig c;
    c.setIndexing = SetIndexing::Linear;
    c.l1HitLatency = 20;
    c.smemLatency = 24;
    c.mshrEntries = 32;
    c.missQueue = 8;
    return c;
}

struct Bench {
    SmConfig cfg;
    StatRegistry stats;
    L1DCache l1;
    LdStUnit u;
    std::vector<LdStUnit::Completion> done;
    explicit Bench(const SmConfig& c) : cfg(c), l1(cfg, stats, "l1d."), u(cfg, l1, stats, "ldst.") {}

    double n(const std::string& s) const { return stats.get(s); }
    // The memory stage of one cycle plus the NoC send of the miss-queue head.
    void step(uint64_t c, bool send = true) {
        u.step(c);
        if (send && l1.hasOutgoing()) l1.popOutgoing();
    }
    void fill(uint64_t line, uint64_t c) { u.wake(l1.fill(line), c); }
    size_t collect(uint64_t c) {
        const size_t before = done.size();
        u.collect(c, [&](const LdStUnit::Completion& x) { done.push_back(x); });
        return done.size() - before;
    }
    void prefill(uint64_t line) {
        ASSERT_EQ(l1.read(line, 0, 0, 1000), L1Result::MissNew);
        l1.popOutgoing();
        l1.fill(line);
    }
};

constexpr uint64_t kBase = 0x100000;

} // namespace

TEST(LdStUnit, DivergentLoadOccupiesUnit32Cycles) {
    Bench b(baseCfg());
    b.u.accept(2, load(0x40, 5, kBase, 128), 0);  // 32 lanes, stride 128: 32 lines
    EXPECT_FALSE(b.u.free());
    // One L1D access per cycle, cycles 1..32; busy until the 32nd access is taken.
    for (uint64_t c = 1; c <= 32; ++c) {
        b.step(c);
        EXPECT_EQ(b.u.free(), c == 32) << "cycle " << c;
        // Lines left and no refusal: the SM's sleep check is skipped, and it would say no.
        EXPECT_EQ(b.u.working(), c < 32) << "cycle " << c;
        if (b.u.working()) {
            EXPECT_FALSE(b.u.onlyWaiting()) << "cycle " << c;
            EXPECT_EQ(b.u.blockedOn(), LdStUnit::Refusal::None) << "cycle " << c;
        }
    }
    EXPECT_EQ(b.n("ldst.coalescing_stall_cycles"), 31);  // 32 accesses, the last frees the unit
    EXPECT_EQ(b.n("ldst.line_accesses"), 32);
    EXPECT_EQ(b.n("ldst.loads"), 1);
    EXPECT_EQ(b.n("l1d.read_misses"), 32);
    EXPECT_EQ(b.l1.mshrUsed(), 32u);
    // The load completes with its last line: 31 fills at cycle 100 are not enough.
    for (unsigned l = 0; l < 31; ++l) b.fill(kBase + 128 * l, 100);
    EXPECT_EQ(b.collect(100), 0u);
    b.fill(kBase + 128 * 31, 101);
    ASSERT_EQ(b.collect(101), 1u);
    const auto& d = b.done[0];
    EXPECT_EQ(d.warp, 2u);
    EXPECT_EQ(d.dst[0], 5);
    EXPECT_EQ(d.dst[1], kNoReg);
    EXPECT_EQ(d.pc, 0x40u);
    EXPECT_EQ(d.accesses, 32u);
    EXPECT_FALSE(d.fullyCached);
    EXPECT_EQ(d.latency, 101u);  // accepted at cycle 0
    // L1D access latency: first access at 1 to the last fill at 101 (a divergent load).
    EXPECT_EQ(b.n("ldst.load_access_cycles_divergent"), 100);
    EXPECT_EQ(b.n("ldst.occlusion_cycles_divergent"), 0);
    EXPECT_TRUE(b.u.idle());
}

TEST(LdStUnit, CoalescedHitCompletesHitLatencyAfterItsAccess) {
    Bench b(baseCfg());
    b.prefill(kBase);
    b.u.accept(1, load(0x80, 3, kBase, 4), 10);  // accepted (issued) at 10
    b.step(11);                                  // L1D access at 11: hit
    EXPECT_TRUE(b.u.free());
    EXPECT_EQ(b.n("ldst.coalescing_stall_cycles"), 0);
    for (uint64_t c = 12; c <= 30; ++c) EXPECT_EQ(b.collect(c), 0u) << c;
    ASSERT_EQ(b.collect(31), 1u);  // 11 + 20
    EXPECT_TRUE(b.done[0].fullyCached);
    EXPECT_EQ(b.done[0].accesses, 1u);
    EXPECT_EQ(b.done[0].latency, 21u);  // issue to writeback: 1 + hit latency
    EXPECT_EQ(b.n("ldst.fully_cached_loads"), 1);
    EXPECT_EQ(b.n("ldst.load_latency"), 21);  // histogram mean of one sample
    EXPECT_EQ(b.n("ldst.load_access_cycles"), 20);  // the lookup at 11 to the data at 31: the hit time
    EXPECT_EQ(b.n("ldst.load_access_cycles_coherent"), 20);
    EXPECT_TRUE(b.u.idle());
}

TEST(LdStUnit, OcclusionCyclesCountedWhileMshrsFull) {
    SmConfig c = baseCfg();
    c.mshrEntries = 1;
    Bench b(c);
    const uint64_t X = kBase, Y = kBase + 0x1000;
    b.u.accept(0, load(0, 1, X, 4), 0);
    b.step(1);                           // P: MissNew, takes the only MSHR
    b.u.accept(1, load(0, 2, Y, 4), 1);  // Q issued the same cycle the unit freed
    b.step(2);                           // Q: StallMshr (occlusion 1)
    b.step(3);                           // Q: StallMshr (occlusion 2)
    EXPECT_FALSE(b.u.free());
    // Refused: not working, so the SM asks its full sleep check, which may sleep on the refusal.
    EXPECT_FALSE(b.u.working());
    EXPECT_EQ(b.u.blockedOn(), LdStUnit::Refusal::Mshr);
    b.fill(X, 4);                        // fill port first ...
    b.step(4);                           // ... then Q gets the freed MSHR
    EXPECT_TRUE(b.u.free());
    ASSERT_EQ(b.collect(4), 1u);
    EXPECT_EQ(b.done[0].warp, 0u);
    EXPECT_EQ(b.done[0].latency, 4u);
    b.fill(Y, 6);
    ASSERT_EQ(b.collect(6), 1u);
    EXPECT_EQ(b.done[1].warp, 1u);
    EXPECT_EQ(b.done[1].latency, 5u);  // accepted at 1
    EXPECT_EQ(b.n("l1d.mshr_stall_cycles"), 2);
    EXPECT_EQ(b.n("ldst.coalescing_stall_cycles"), 0);  // replays are MSHR stalls, not coalescing
    const auto* occ = dynamic_cast<const Average*>(b.stats.find("ldst.occlusion_cycles"));
    ASSERT_NE(occ, nullptr);
    EXPECT_EQ(occ->count(), 2u);  // P: 0, Q: 2
    EXPECT_DOUBLE_EQ(occ->mean(), 1.0);
    // Access latency: P 1 -> 4 (3, its miss), Q 2 -> 6 (2 occluded + its miss sent at 4, back at 6).
    const auto* acc = dynamic_cast<const Average*>(b.stats.find("ldst.load_access_cycles_coherent"));
    ASSERT_NE(acc, nullptr);
    EXPECT_EQ(acc->count(), 2u);
    EXPECT_DOUBLE_EQ(acc->mean(), 3.5);
}

// The OAWS paper's Figure 1 in small: two MSHRs, a coherent load P holding one, and a divergent
// load Q of four lines whose accesses wait for MSHRs. Q's L1D access latency (first access to the
// last line's data) is its occlusion time, plus one cycle per further access, plus its last
// access's miss time.
TEST(LdStUnit, OcclusionTimeIsPartOfTheL1dAccessLatency) {
    SmConfig c = baseCfg();
    c.mshrEntries = 2;
    Bench b(c);
    const uint64_t X = kBase, Y = kBase + 0x1000;
    b.u.accept(0, load(0, 1, X, 4), 0);
    b.step(1);                            // P: MissNew (MSHR 1 of 2)
    b.u.accept(1, load(0, 2, Y, 16), 1);  // Q: 32 lanes x 16 B = 4 lines
    b.step(2);                            // Q0: MissNew (MSHR 2 of 2); Q's first access
    b.step(3);                            // Q1: StallMshr (occlusion 1)
    b.step(4);                            // occlusion 2
    b.fill(X, 5);
    ASSERT_EQ(b.collect(5), 1u);          // P's data: 1 -> 5
    b.step(5);                            // Q1: MissNew
    b.step(6);                            // Q2: StallMshr (occlusion 3)
    b.step(7);                            // occlusion 4
    b.fill(Y, 8);
    b.step(8);                            // Q2: MissNew
    b.step(9);                            // Q3: StallMshr (occlusion 5)
    b.fill(Y + 128, 10);
    b.step(10);                           // Q3: MissNew, the last access
    EXPECT_TRUE(b.u.free());
    b.fill(Y + 256, 12);
    EXPECT_EQ(b.collect(12), 0u);         // Q3's line still out
    b.fill(Y + 384, 15);
    ASSERT_EQ(b.collect(15), 1u);
    EXPECT_EQ(b.n("ldst.divergent_loads"), 1);
    EXPECT_EQ(b.n("ldst.occlusion_cycles_divergent"), 5);
    // 2 -> 15 = 13 = 5 occluded + 3 further accesses (at 5, 8, 10 after 2) + 5 of Q3's miss.
    EXPECT_EQ(b.n("ldst.load_access_cycles_divergent"), 13);
    EXPECT_EQ(b.n("ldst.occlusion_cycles_coherent"), 0);
    EXPECT_EQ(b.n("ldst.load_access_cycles_coherent"), 4);  // P: 1 -> 5, no occlusion
    EXPECT_EQ(b.n("ldst.load_access_cycles"), 8.5);         // both loads
    EXPECT_EQ(b.done[1].latency, 14u);  // issue at 1 to the data: the hand-over cycle is not access time
}

TEST(LdStUnit, MissQueueStallIsNotOcclusion) {
    SmConfig c = baseCfg();
    c.missQueue = 1;
    Bench b(c);
    const uint64_t X = kBase, Y = kBase + 0x1000;
    b.u.accept(0, load(0, 1, X, 4), 0);
    b.step(1, false);                    // P: MissNew, queue now full (not sent)
    b.u.accept(0, load(0, 2, Y, 4), 1);
    b.step(2, false);                    // Q: StallMissQueue
    b.step(3, true);                     // Q: StallMissQueue, then P's request leaves
    b.step(4, true);                     // Q: MissNew
    EXPECT_TRUE(b.u.free());
    EXPECT_EQ(b.n("l1d.miss_queue_stall_cycles"), 2);
    const auto* occ = dynamic_cast<const Average*>(b.stats.find("ldst.occlusion_cycles"));
    ASSERT_NE(occ, nullptr);
    EXPECT_EQ(occ->count(), 2u);
    EXPECT_DOUBLE_EQ(occ->mean(), 0.0);
}

TEST(LdStUnit, SharedMemoryLoadLatency) {
    Bench b(baseCfg());
    b.u.accept(4, load(0x10, 9, 0, 4, {}, MemSpace::Shared), 5);
    // No L1D port, but the unit is taken for its pass at 6 as by any memory instruction: a second
    // scheduler cannot hand over another in the same cycle.
    EXPECT_FALSE(b.u.free());
    b.step(6);
    EXPECT_TRUE(b.u.free());
    EXPECT_EQ(b.n("ldst.shared_bank_conflicts"), 0);
    EXPECT_EQ(b.collect(28), 0u);
    ASSERT_EQ(b.collect(29), 1u);  // 5 + 24
    EXPECT_EQ(b.done[0].warp, 4u);
    EXPECT_EQ(b.done[0].dst[0], 9);
    EXPECT_EQ(b.done[0].latency, 24u);
    EXPECT_FALSE(b.done[0].fullyCached);
    EXPECT_EQ(b.n("ldst.shared_ops"), 1);
    EXPECT_EQ(b.n("ldst.loads"), 0);
    EXPECT_EQ(b.n("l1d.accesses"), 0);
}

// Lane l reads word 2l (stride 8 bytes): a 2-way bank conflict (32 banks of 4 bytes), so two
// passes: the unit is busy in cycle 6 (first pass) and free after the second at 7; the data
// comes one cycle after a conflict-free load's: 5 + 24 + 1 = 30.
TEST(LdStUnit, SharedTwoWayConflictHoldsTheUnitAndDelaysTheDataOneCycle) {
    Bench b(baseCfg());
    b.u.accept(4, load(0x10, 9, 0, 8, {}, MemSpace::Shared), 5);
    EXPECT_FALSE(b.u.free());
    b.step(6);
    EXPECT_FALSE(b.u.free());
    EXPECT_FALSE(b.u.onlyWaiting());  // an SM must not sleep through the second pass
    b.step(7);
    EXPECT_TRUE(b.u.free());
    EXPECT_EQ(b.collect(29), 0u);
    ASSERT_EQ(b.collect(30), 1u);
    EXPECT_EQ(b.done[0].latency, 25u);
    EXPECT_EQ(b.n("ldst.shared_bank_conflicts"), 1);
    EXPECT_EQ(b.n("ldst.shared_bank_conflict_cycles"), 1);
    EXPECT_EQ(b.n("l1d.accesses"), 0);
    EXPECT_TRUE(b.u.idle());
}

// A store at stride 32 words: 32 passes, cycles 1..32; the unit frees with the last, and a
// conflict-free shared load after it counts no conflict.
TEST(LdStUnit, SharedThirtyTwoWayConflictStoreHoldsTheUnit32Cycles) {
    Bench b(baseCfg());
    WarpInstruction st = mem(OpClass::Store, 0x20, 0, 128, 4, kAllLanes, MemSpace::Shared);
    b.u.accept(0, st, 0);
    for (uint64_t c = 1; c <= 32; ++c) {
        b.step(c);
        EXPECT_EQ(b.u.free(), c == 32) << "cycle " << c;
    }
    EXPECT_EQ(b.n("ldst.shared_bank_conflicts"), 1);
    EXPECT_EQ(b.n("ldst.shared_bank_conflict_cycles"), 31);
    b.u.accept(1, load(0x30, 2, 0, 4, {}, MemSpace::Shared), 32);
    b.step(33);
    EXPECT_TRUE(b.u.free());
    EXPECT_EQ(b.n("ldst.shared_bank_conflicts"), 1);
    ASSERT_EQ(b.collect(56), 1u);  // 32 + 24
    EXPECT_EQ(b.n("ldst.shared_ops"), 2);
    EXPECT_EQ(b.n("ldst.stores"), 0);  // global/local only
}

TEST(LdStUnit, StoresUseOnePortCyclePerLineAndComplete) {
    Bench b(baseCfg());
    b.u.accept(0, store(0, kBase + 64, 4), 0);  // 2 lines (see the coalescer test)
    b.step(1);
    EXPECT_FALSE(b.u.free());
    b.step(2);
    EXPECT_TRUE(b.u.free());
    EXPECT_EQ(b.n("ldst.stores"), 1);
    EXPECT_EQ(b.n("ldst.coalescing_stall_cycles"), 1);
    EXPECT_EQ(b.n("l1d.writes"), 2);
    EXPECT_EQ(b.collect(100), 0u);  // stores write nothing back
    EXPECT_TRUE(b.u.idle());
}

TEST(LdStUnit, MergedLoadsCompleteInArrivalOrderAndTokensAreReused) {
    Bench b(baseCfg());
    b.u.accept(0, load(0, 1, kBase, 4), 0);  // token 0
    b.step(1);
    b.u.accept(1, load(0, 1, kBase, 4), 1);  // token 1, merges
    b.step(2);
    EXPECT_EQ(b.n("l1d.mshr_merges"), 1);
    const auto tokens = b.l1.fill(kBase);
    EXPECT_EQ(tokens, (std::vector<uint32_t>{0, 1}));
    b.u.wake(tokens, 10);
    ASSERT_EQ(b.collect(10), 2u);
    EXPECT_EQ(b.done[0].warp, 0u);
    EXPECT_EQ(b.done[1].warp, 1u);
    // Both tokens free: the next load takes the lowest, 0.
    b.u.accept(2, load(0, 1, kBase + 0x1000, 4), 11);
    b.step(12);
    EXPECT_EQ(b.l1.fill(kBase + 0x1000), (std::vector<uint32_t>{0}));
}


namespace {
// A policy whose send gate (MASCAR's, send_gate 1) says what `allow` holds for each warp.
struct GatePolicy : SchedulerPolicy {
    std::vector<bool> allow = std::vector<bool>(4, true);
    unsigned asked = 0, refused = 0;
    std::string name() const override { return "gate"; }
    void order(unsigned, std::vector<unsigned>&, const SmView&) override {}
    bool gatesSendBelowL1() const override { return true; }
    bool maySendBelowL1(unsigned warp) override {
        ++asked;
        if (!allow[warp]) ++refused;
        return allow[warp];
    }
};
} // namespace

namespace {
struct ServicedRecorder : SchedulerPolicy {
    std::string name() const override { return "serviced"; }
    void order(unsigned, std::vector<unsigned>&, const SmView&) override {}
    void onLoadServiced(const LoadServicedEvent& e) override { events.push_back(e); }
    std::vector<LoadServicedEvent> events;
};
} // namespace

TEST(LdStUnit, AServicedLoadReportsTheDistinctL1dSetsItsLinesTouch) {
    // Linear index, 128-byte lines, 8 ways: line l of a load with stride s is in set
    // (l * s / 128) mod sets, at most 8 lines a set (each reserves a way). 32 sets take the
    // one-word path, 128 sets the byte marks.
    struct Case {
        unsigned sets;
        uint64_t stride;
        unsigned want;
    };
    for (const Case& k : {Case{32, 128, 32}, Case{32, 1024, 4}, Case{32, 4, 1}, Case{128, 2048, 8},
                          Case{128, 128, 32}}) {
        SmConfig c = baseCfg();
        c.l1Bytes = k.sets * c.l1Line * c.l1Ways;
        c.mshrEntries = 64;  // both loads' misses in flight at once
        Bench b(c);
        ServicedRecorder rec;
        b.u.setObserver(&rec);
        b.u.accept(0, load(0x40, 5, kBase, k.stride), 0);
        for (uint64_t cyc = 1; cyc <= 40; ++cyc) b.step(cyc);
        ASSERT_EQ(rec.events.size(), 1u) << k.sets << " sets, stride " << k.stride;
        EXPECT_EQ(rec.events[0].setsTouched, k.want) << k.sets << " sets, stride " << k.stride;
        // The marks are cleared: the same load a line further on counts the same.
        b.u.accept(0, load(0x40, 6, kBase + 128, k.stride), 40);
        for (uint64_t cyc = 41; cyc <= 80; ++cyc) b.step(cyc);
        ASSERT_EQ(rec.events.size(), 2u);
        EXPECT_EQ(rec.events[1].setsTouched, k.want) << k.sets << " sets, stride " << k.stride;
    }
}

TEST(LdStUnit, ASendGateParksOnlyAccessesThatWouldGoBelowTheL1d) {
    // Warp 1 may not send below the L1D. Its load of two lines: kBase (a miss) and kBase + 128
    // (prefilled, a hit). c1: the miss is held and parked, no L1D access counted; c2: the parked
    // access retries first and is held again (a MASCAR_Replay cycle), then the hit goes (data at
    // 22) and frees the unit; c3: held again. The gate opens: c4 the parked miss goes. c5: warp 1,
    // gated again, reads kBase once more: a merge sends nothing below, so it is not held.
    Bench b(baseCfg());
    GatePolicy g;
    b.u.setObserver(&g);
    b.u.setReexecutionQueue(2);
    b.prefill(kBase + 128);
    g.allow[1] = false;
    b.u.accept(1, mem(OpClass::Load, 0x40, kBase, 128, 4, 0x3u), 0);
    b.step(1);
    EXPECT_EQ(b.n("ldst.reexec_parked"), 1);
    EXPECT_EQ(b.n("l1d.read_misses"), 1);  // the prefill's only
    EXPECT_EQ(b.n("l1d.mshr_stall_cycles"), 0);
    EXPECT_FALSE(b.u.free());
    b.step(2);
    EXPECT_TRUE(b.u.free());
    EXPECT_EQ(b.n("l1d.read_hits"), 1);
    b.step(3);
    EXPECT_EQ(b.n("ldst.reexec_stall_cycles"), 2);
    EXPECT_EQ(g.refused, 3u);
    EXPECT_EQ(g.asked, 3u);  // the hit was not asked
    g.allow[1] = true;
    b.step(4);
    EXPECT_EQ(b.n("l1d.read_misses"), 1 + 1);  // the prefill's and the parked access's
    EXPECT_EQ(b.u.reexecutionQueued(), 0u);
    g.allow[1] = false;
    b.u.accept(1, mem(OpClass::Load, 0x48, kBase, 4, 4, 0x1u), 4);
    b.step(5);
    EXPECT_EQ(b.n("l1d.mshr_merges"), 1);
    EXPECT_EQ(g.asked, 4u);  // the c4 retry only: the merge was not asked
    EXPECT_TRUE(b.u.free());
    EXPECT_EQ(b.n("ldst.reexec_parked"), 1);
}

// l1d.lookup_after_latency (GPGPU-Sim's l1_latency queue): hit latency 20 = 19 stages in front of
// the lookup, plus the cycle to the writeback.
namespace {
SmConfig pipeCfg() {
    SmConfig c = baseCfg();
    c.l1LookupAfterLatency = true;
    return c;
}
} // namespace

TEST(LdStUnitLookupAfterLatency, HitTakesTheSameLatencyButIsLookedUpLate) {
    Bench b(pipeCfg());
    b.prefill(kBase);
    const double before = b.n("l1d.accesses");  // the prefill's
    b.u.accept(1, load(0x80, 3, kBase, 4), 10);
    b.step(11);  // into the pipeline; lookup due at 11 + 19 = 30
    EXPECT_TRUE(b.u.free());
    for (uint64_t c = 12; c <= 29; ++c) b.step(c);
    EXPECT_EQ(b.n("l1d.accesses"), before);  // not looked up yet
    EXPECT_FALSE(b.u.idle());
    b.step(30);
    EXPECT_EQ(b.n("l1d.read_hits"), 1);
    EXPECT_EQ(b.collect(30), 0u);
    ASSERT_EQ(b.collect(31), 1u);  // as without the pipeline: 11 + 20
    EXPECT_TRUE(b.done[0].fullyCached);
    EXPECT_EQ(b.done[0].latency, 21u);
    EXPECT_TRUE(b.u.idle());
}

TEST(LdStUnitLookupAfterLatency, MissLeavesOnlyAfterTheLatency) {
    Bench b(pipeCfg());
    b.u.accept(0, load(0, 1, kBase, 4), 0);
    for (uint64_t c = 1; c <= 19; ++c) {
        b.u.step(c);
        EXPECT_FALSE(b.l1.hasOutgoing()) << "cycle " << c;
    }
    b.u.step(20);  // 1 + 19: the lookup misses and the request is queued for the NoC
    EXPECT_TRUE(b.l1.hasOutgoing());
    EXPECT_EQ(b.n("l1d.read_misses"), 1);
    b.l1.popOutgoing();
    b.fill(kBase, 300);
    ASSERT_EQ(b.collect(300), 1u);
    EXPECT_EQ(b.done[0].latency, 300u);
    // Its access latency starts when it enters the pipeline (whose stages are the hit latency).
    EXPECT_EQ(b.n("ldst.load_access_cycles"), 299);
}

TEST(LdStUnitLookupAfterLatency, RefusedHeadHoldsThePipelineWhileTheUnitMovesOn) {
    SmConfig c = pipeCfg();
    c.l1HitLatency = 4;  // 3 stages
    c.mshrEntries = 1;
    Bench b(c);
    const uint64_t X = kBase, Y = kBase + 0x1000;
    b.u.accept(0, load(0, 1, X, 4), 0);
    b.step(1);  // P -> pipeline (lookup at 4); the unit is free at once
    EXPECT_TRUE(b.u.free());
    b.u.accept(1, load(0, 2, Y, 128), 1);  // Q: 32 lines, lookups due at 5, 6, 7, ...
    b.step(2);
    b.step(3);
    EXPECT_EQ(b.n("l1d.accesses"), 0);
    b.step(4);  // P misses and takes the only MSHR; Q's third access enters
    EXPECT_EQ(b.n("l1d.read_misses"), 1);
    b.step(5);  // Q0 refused (no MSHR): it stays, and the full pipeline takes nothing
    b.step(6);
    EXPECT_EQ(b.n("l1d.mshr_stall_cycles"), 2);
    EXPECT_EQ(b.n("ldst.pipeline_full_cycles"), 2);
    b.fill(X, 7);  // frees the MSHR
    ASSERT_EQ(b.collect(7), 1u);
    b.step(7);  // Q0 misses; Q3 enters behind Q2
    EXPECT_EQ(b.n("l1d.read_misses"), 2);
    EXPECT_EQ(b.n("ldst.pipeline_full_cycles"), 2);
    b.step(8);  // Q1 (due at 6) is looked up the cycle after Q0 left, and refused
    EXPECT_EQ(b.n("l1d.mshr_stall_cycles"), 3);
    EXPECT_EQ(b.n("ldst.pipeline_full_cycles"), 3);
    EXPECT_FALSE(b.u.free());  // Q's 4th..32nd accesses still to enter
}

// sm.mem_issue_queue = 2: the issue stage hands over instructions while the unit is busy; they
// enter it in order, each in the unit's first free cycle, and a shared-memory load's latency
// starts when it enters.
TEST(LdStUnitIssueQueue, InstructionsWaitInOrderAndEnterWhenTheUnitFrees) {
    SmConfig c = baseCfg();
    c.memIssueQueue = 2;
    c.mshrEntries = 64;  // A's 32 misses leave room for B's
    Bench b(c);
    b.u.accept(0, load(0x10, 1, kBase, 128), 0);  // A: 32 lines
    EXPECT_TRUE(b.u.free());                      // one of two queue entries taken
    b.u.accept(1, load(0x20, 2, 0, 4, {}, MemSpace::Shared), 0);  // S: shared, 24 cycles
    EXPECT_FALSE(b.u.free());
    b.step(1);  // A enters and makes its first access; S waits behind it
    EXPECT_EQ(b.n("l1d.accesses"), 1);
    EXPECT_TRUE(b.u.free());
    b.u.accept(2, load(0x30, 3, kBase + 0x10000, 4), 1);  // B: one line, behind S
    EXPECT_FALSE(b.u.free());
    for (uint64_t cy = 2; cy <= 32; ++cy) b.step(cy);  // A's accesses 2..32
    EXPECT_EQ(b.n("l1d.accesses"), 32);
    EXPECT_EQ(b.n("ldst.shared_ops"), 0);  // S still queued
    b.step(33);  // S enters (no port) and B with it, B's access now
    EXPECT_EQ(b.n("ldst.shared_ops"), 1);
    EXPECT_EQ(b.n("l1d.accesses"), 33);
    EXPECT_TRUE(b.u.free());
    // S entered at 33 as if accepted at 32: its data at 32 + 24 = 56; its latency counts from
    // its issue at 0.
    EXPECT_EQ(b.collect(55), 0u);
    ASSERT_EQ(b.collect(56), 1u);
    EXPECT_EQ(b.done[0].warp, 1u);
    EXPECT_EQ(b.done[0].latency, 56u);
}

// With the queue, a shared load with a 2-way conflict (S2) entering in cycle 1 (as if accepted at
// 0) makes its passes at 1 and 2; the global load G behind it enters and makes its access at 2,
// not at 1 as behind a conflict-free one. S2's data at 0 + 24 + 1 = 25.
TEST(LdStUnitIssueQueue, ABankConflictDelaysTheNextQueuedInstruction) {
    SmConfig c = baseCfg();
    c.memIssueQueue = 2;
    Bench b(c);
    b.u.accept(0, load(0x10, 1, 0, 8, {}, MemSpace::Shared), 0);
    b.u.accept(1, load(0x20, 2, kBase, 4), 0);
    b.step(1);
    EXPECT_EQ(b.n("ldst.shared_ops"), 1);
    EXPECT_EQ(b.n("l1d.accesses"), 0);  // G waits for S2's second pass
    b.step(2);
    EXPECT_EQ(b.n("l1d.accesses"), 1);
    EXPECT_EQ(b.collect(24), 0u);
    ASSERT_EQ(b.collect(25), 1u);
    EXPECT_EQ(b.done[0].warp, 0u);
    EXPECT_EQ(b.done[0].latency, 25u);
}

TEST(LdStUnitIssueQueue, AnEmptyQueueKeepsTheTimingOfTheDirectHandOver) {
    for (unsigned q : {0u, 4u}) {
        SmConfig c = baseCfg();
        c.memIssueQueue = q;
        Bench b(c);
        b.prefill(kBase);
        b.u.accept(1, load(0x80, 3, kBase, 4), 10);
        b.step(11);  // the hit's lookup, as in CoalescedHitCompletesHitLatencyAfterItsAccess
        EXPECT_EQ(b.collect(30), 0u) << q;
        ASSERT_EQ(b.collect(31), 1u) << q;
        b.u.accept(2, load(0x90, 4, 0, 4, {}, MemSpace::Shared), 40);
        b.step(41);
        EXPECT_EQ(b.collect(63), 0u) << q;
        ASSERT_EQ(b.collect(64), 1u) << q;  // 40 + 24
    }
}

} // namespace ldst_unit_test
