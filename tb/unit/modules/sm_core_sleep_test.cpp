// The SM's sleep and its parked issue stage (SmCore's speed paths, modules/SmCoreSleep.cpp) in
// the one-SM bench of sm_core_test.cpp, with the same hand-worked timing conventions: every
// statistic of a skipped cycle is what a ticked one would count, and the host-side counters
// (sleptTicks, parkedTicks) show the mechanism acting.
// Each case runs in its own process (ctest); run a single case by --gtest_filter.
#include <gtest/gtest.h>

#include <memory>

#include "scheduler/GtoPolicy.hpp"
#include "tb/unit/modules/SmCoreTestHelpers.hpp"

namespace sm_core_test {

TEST(SmCore, CyclesOfAStalledSmCountAsIfTicked) {
    // GTO lets a stalled SM sleep (SchedulerPolicy::idleWhileStalled): from c5 to c14 its only
    // warp waits on a miss and nothing moves, so those cycles skip the pipeline but must count
    // exactly as the full tick would. Memory answers 10500 ps after the request (as above):
    //  #0 LD R1  c3 issue; c4 miss, MSHR taken after that cycle's sample, sent at 4000 ps,
    //            answered at 14500 ps; c15 fill (after the sample) -> R1 back at 15.
    //  #1 R2<-R1 c15 (R2 due 19)   #2 EXIT c16   warp retires at 19; kernel ends at 19.
    //  Resident from the tick at 2 through 19: 18 active cycles; issues at 3, 15, 16: 15 idle.
    //  MSHR occupancy sampled at the start of every active cycle: 1 at 5..15 (11 samples), 0 at
    //  2, 3, 4, 16..19 (7): mean 11/18.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{load(0x00, R1, kLine, 4), alu(0x08, R2, {R1}), exitInst(0x10)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 15, 16}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{19, 0}}));
    EXPECT_EQ(b.stat("sm0.active_cycles"), 18);
    EXPECT_EQ(b.stat("sm0.issue.idle_cycles"), 15);
    EXPECT_DOUBLE_EQ(b.stat("sm0.l1d.mshr_occupancy"), 11.0 / 18.0);
    expectCleanEnd(b, 19);
}

TEST(SmCore, AnSmWhoseLoadWaitsForAnMshrSleepsAndCountsEveryReplay) {
    // One MSHR entry; three loads of different lines, then their sum. Memory answers 10500 ps
    // after the request. A load refused for want of an MSHR is replayed every cycle until a fill
    // frees the entry; nothing else can move meanwhile, so the SM sleeps through the replays,
    // counting each as the full tick would (L1D MSHR stall, the load's occlusion, the issue
    // stage's LD/ST-busy cycle while a memory instruction is ready behind it).
    //  #0 LD A  c3 issue; c4 miss, MSHR taken, sent at 4000 ps, answered 14500 -> fill at c15
    //  #1 LD B  c4 issue; c5..c14 refused (10 replays); #2 (LD C) ready behind it: LD/ST busy
    //           at c5..c14; c15 (after A's fill) miss, sent, answered 25500 -> fill at c26
    //  #2 LD C  c15 issue; c16..c25 refused (10); c26 miss, answered 36500 -> fill at c37
    //  #3 R4 <- R1, R2, R3  c37 (R4 due 41)   #4 EXIT c38   retire at 41; the kernel ends at 41.
    //  Sleeping: c6..c14 and c17..c25 while a load is refused (18 ticks, each asleep after the
    //  tick of its first refusal), c27..c36 (only waiting for C's fill) and c40 (for R4): 29.
    //  Active c2..c41: 40 cycles; issues at 3, 4, 15, 37, 38: 35 idle.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{load(0x00, R1, kLine, 4), load(0x08, R2, kLine + 0x1000, 4),
                       load(0x10, R3, kLine + 0x2000, 4), alu(0x18, R4, {R1, R2, R3}), exitInst(0x20)};
    }));
    SmConfig c = cfgWith(2);
    c.mshrEntries = 1;
    SmBench b(c, std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 4, 15, 37, 38}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{41, 0}}));
    EXPECT_EQ(b.stat("sm0.l1d.mshr_stall_cycles"), 20);
    EXPECT_DOUBLE_EQ(b.stat("sm0.ldst.occlusion_cycles"), 20.0 / 3.0);  // 0, 10, 10
    EXPECT_EQ(b.stat("sm0.issue.ldst_busy_cycles"), 10);
    EXPECT_EQ(b.stat("sm0.issue.ldst_stall_cycles"), 10);
    EXPECT_EQ(b.stat("sm0.active_cycles"), 40);
    EXPECT_EQ(b.stat("sm0.issue.idle_cycles"), 35);
    EXPECT_EQ(b.sm.sleptTicks(), 29u);
    expectCleanEnd(b, 41);
}

// The program and configuration of the next two tests: four loads of different lines, then a
// sum of three, with a one-entry miss queue.
ScriptWorkload fourLoadsThenASum() {
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{load(0x00, R1, kLine, 4),          load(0x08, R2, kLine + 0x1000, 4),
                       load(0x10, R3, kLine + 0x2000, 4), load(0x18, R4, kLine + 0x3000, 4),
                       alu(0x20, R5, {R1, R2, R3}),       exitInst(0x28)};
    }));
    return wl;
}

SmConfig oneEntryMissQueue() {
    SmConfig c = cfgWith(2);
    c.missQueue = 1;
    return c;
}

TEST(SmCore, AnSmWhosePortIsBlockedSleepsThroughItsMissQueueReplays) {
    // A one-entry miss queue and a NoC that holds the first request (END_REQ withheld) until
    // 19250 ps. Four loads of different lines, then a sum of three. A load refused because the
    // miss queue is full is replayed every cycle; while the port waits for END_REQ the queue
    // cannot drain, so nothing else can move and the SM sleeps until END_REQ, counting each
    // replay as the full tick would (L1D miss-queue stall, the issue stage's LD/ST-busy cycle
    // while the fourth load is ready behind it). Memory answers 10500 ps after taking a request.
    //  #0 LD A  c3 issue; c4 miss, sent at 4000 ps and held: the port is blocked until 19250,
    //           when A is taken (answered 29750 -> fill at c30)
    //  #1 LD B  c4 issue; c5 miss, into the miss queue (the port is blocked)
    //  #2 LD C  c5 issue; c6..c20 refused, queue full (15 replays); c20 B leaves (sent 20000,
    //           answered 30500 -> c31); c21 C misses and leaves (21000, 31500 -> c32)
    //  #3 LD D  ready from c6 behind C: LD/ST busy c6..c20; c21 issue; c22 miss, sent at 22000
    //           (answered 32500 -> fill at c33)
    //  #4 R5 <- R1, R2, R3  c32 (R5 due 36)   #5 EXIT c33   retire at 36; the kernel ends at 36.
    //  Sleeping: c7..c19 (the port blocked; END_REQ at 19250 wakes the SM for c20), c23..c29
    //  (only waiting for fills) and c35 (for R5): 21. Without the port-blocked sleep c7..c19
    //  are full ticks: 8. Active c2..c36: 35 cycles; issues at 3, 4, 5, 21, 32, 33: 29 idle.
    ScriptWorkload wl = fourLoadsThenASum();
    SmBench b(oneEntryMissQueue(), std::make_unique<GtoPolicy>(), wl, 10500);
    b.mem.refuseUntilPs = 19250;
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 4, 5, 21, 32, 33}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{36, 0}}));
    ASSERT_EQ(b.mem.log.size(), 4u);
    EXPECT_EQ(b.mem.log[0].arrivedPs, 19250u);  // taken when the NoC lets it in
    EXPECT_EQ(b.mem.log[1].arrivedPs, 20000u);
    EXPECT_EQ(b.mem.log[2].arrivedPs, 21000u);
    EXPECT_EQ(b.mem.log[3].arrivedPs, 22000u);
    EXPECT_EQ(b.stat("sm0.l1d.miss_queue_stall_cycles"), 15);
    EXPECT_EQ(b.stat("sm0.l1d.mshr_stall_cycles"), 0);
    EXPECT_EQ(b.stat("sm0.issue.ldst_busy_cycles"), 15);
    EXPECT_EQ(b.stat("sm0.issue.ldst_stall_cycles"), 15);
    EXPECT_EQ(b.stat("sm0.active_cycles"), 35);
    EXPECT_EQ(b.stat("sm0.issue.idle_cycles"), 29);
    EXPECT_EQ(b.sm.sleptTicks(), 21u);
    expectCleanEnd(b, 36);
}

TEST(SmCore, AStatisticReadWhileTheSmSleepsCountsTheCyclesSleptSoFar) {
    // The run above, stopped at 12500 ps, in the middle of the sleep c7..c19: a sleeping SM adds
    // its slept cycles when it wakes, but a read through the registry settles them first. By the
    // edge at c12: active c2..c12 = 11 cycles, issues at 3, 4, 5: 8 idle; the third load refused
    // for a full miss queue c6..c12: 7 miss-queue stalls and 7 LD/ST-busy cycles. Without the
    // settling the read would see the cycles up to c6 only (5 active, 1 stall). The rest of the
    // run ends with the totals of the run above.
    ScriptWorkload wl = fourLoadsThenASum();
    SmBench b(oneEntryMissQueue(), std::make_unique<GtoPolicy>(), wl, 10500);
    b.mem.refuseUntilPs = 19250;
    b.clock.wake();
    sc_core::sc_start(sc_core::sc_time(12500, sc_core::SC_PS));
    EXPECT_EQ(b.sm.sleptTicks(), 6u);  // c7..c12
    EXPECT_EQ(b.stat("sm0.active_cycles"), 11);
    EXPECT_EQ(b.stat("sm0.issue.idle_cycles"), 8);
    EXPECT_EQ(b.stat("sm0.l1d.miss_queue_stall_cycles"), 7);
    EXPECT_EQ(b.stat("sm0.issue.ldst_busy_cycles"), 7);
    EXPECT_EQ(b.stats.toJson()["sm0.l1d.mshr_occupancy"]["count"], 11);
    b.run();
    EXPECT_EQ(b.stat("sm0.active_cycles"), 35);
    EXPECT_EQ(b.stat("sm0.issue.idle_cycles"), 29);
    EXPECT_EQ(b.stat("sm0.l1d.miss_queue_stall_cycles"), 15);
    EXPECT_EQ(b.stat("sm0.issue.ldst_busy_cycles"), 15);
    EXPECT_EQ(b.sm.sleptTicks(), 21u);
    expectCleanEnd(b, 36);
}

TEST(SmCore, AnSmWhoseLdStUnitWorksThroughADivergentLoadParksItsIssueStage) {
    // A load of 16 lines (stride 64: two lanes per line), then a load of another line, then a
    // sum of both. Memory answers 10500 ps after taking a request.
    //  #0 LD R1  c3 issue; c4..c19 one L1D miss a cycle, each sent the same cycle (fills at
    //            c15..c30: the load completes at c30)
    //  #1 LD R2  ready from c3 behind #0: the LD/ST unit is busy c4..c18 and frees itself in
    //            c19's memory stage; c19 issue; c20 miss, sent (fill at c31)
    //  #2 R3 <- R1, R2  c31 (R3 due 35)   #3 EXIT c32   the warp retires at 35.
    // From the end of c4 nothing can change the issue stage before the LD/ST unit frees up:
    // no result is due, the fills that arrive from c15 complete nothing before c30, the
    // buffers are full. So c5..c18 skip issue, fetch and retire (14 parked ticks) while the
    // memory side ticks, and count what the issue stage would: an idle cycle in which a ready
    // memory instruction waits for the LD/ST unit. Active c2..c35: 34 cycles; issues at 3, 19,
    // 31, 32: 30 idle; LD/ST busy with #1 ready c4..c18: 15.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{load(0x00, R1, kLine, 64), load(0x08, R2, kLine + 0x1000, 4), alu(0x10, R3, {R1, R2}),
                       exitInst(0x18)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 19, 31, 32}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{35, 0}}));
    ASSERT_EQ(b.mem.log.size(), 17u);
    EXPECT_EQ(b.mem.log[0].arrivedPs, 4000u);
    EXPECT_EQ(b.mem.log[15].arrivedPs, 19000u);
    EXPECT_EQ(b.mem.log[16].arrivedPs, 20000u);
    EXPECT_EQ(b.stat("sm0.issue.ldst_busy_cycles"), 15);
    EXPECT_EQ(b.stat("sm0.issue.ldst_stall_cycles"), 15);
    EXPECT_EQ(b.stat("sm0.active_cycles"), 34);
    EXPECT_EQ(b.stat("sm0.issue.idle_cycles"), 30);
    EXPECT_EQ(b.sm.parkedTicks(), 14u);
    expectCleanEnd(b, 35);
}

} // namespace sm_core_test
