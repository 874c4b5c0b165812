// SmCore + CtaDispatcher in a one-SM SystemC bench (SmTestBench.hpp), with issue cycles worked
// out by hand from the SM's per-cycle stage order and SmConfig's latencies:
//   tick(c): fill port, writeback (ALU results due at c, loads done at c), LD/ST's L1D access,
//            send the miss-queue head, issue, fetch, retire; then the dispatcher, then the stopper.
//   ALU latency 4, interval 2, 2 units; L1D hit latency 20; instruction buffer 2.
//   Clock 1000 ps. wake() at t=0 -> first edge is cycle 1. The dispatcher places the CTA at
//   cycle 1 (after the SM's tick); the SM fetches at 2 (after issue); first issue at 3.
//   A result due at c is written back before issue at c, so a dependent issues at c.
// Each case runs in its own process (ctest); run a single case by --gtest_filter.
#include <gtest/gtest.h>

#include <memory>

#include "scheduler/GtoPolicy.hpp"
#include "scheduler/LrrPolicy.hpp"
#include "tb/unit/modules/SmCoreTestHelpers.hpp"

namespace sm_core_test {


TEST(SmCore, AluDependenceChainTiming) {
    // One warp: R1<-R0 ; R2<-R1 (RAW) ; R3<-R0 ; EXIT.
    //  c3: #0 (unit0, free again at 5; R1 due 7)     c4-6: #1 waits on R1
    //  c7: #1 (unit0, free at 9; R2 due 11)           c8: #2 (unit1; R3 due 12)
    //  c9: EXIT (no operands)
    //  retire needs an empty scoreboard: R2 at 11, R3 at 12 -> warp ends at 12, kernel ends at 12.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{alu(0x00, R1, {R0}), alu(0x08, R2, {R1}), alu(0x10, R3, {R0}), exitInst(0x18)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 7, 8, 9}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{12, 0}}));
    ASSERT_EQ(b.disp.records().size(), 1u);
    EXPECT_EQ(b.disp.records()[0].startCycle, 1u);
    EXPECT_EQ(b.disp.records()[0].endCycle, 12u);
    EXPECT_EQ(b.stat("kernel0.cycles"), 11);
    EXPECT_EQ(b.stat("sm0.issued"), 4);
    // Resident from the tick at 2 through the tick at 12: 11 cycles; no issue at 2,4,5,6,10,11,12.
    EXPECT_EQ(b.stat("sm0.active_cycles"), 11);
    EXPECT_EQ(b.stat("sm0.issue.idle_cycles"), 7);
    EXPECT_TRUE(b.mem.log.empty());
    expectCleanEnd(b, 12);
}

// The chain above through GPGPU-Sim's operand collector (16 banks; bank of Rr in warp 0 = r):
//  #0 R1<-R0    c3 issue; c4 collector unit; c5 R0 read; c6 execute register; c7 ALU (R1 due 11)
//  #1 R2<-R1    c11 issue (R1 written back first); c12, c13 read R1, c14; c15 ALU (R2 due 19)
//  #2 R3<-R0    c12 issue (the issue register emptied at c12's step); c16 ALU on unit 1
//               (unit 0 took #1 at 15, interval 2) -> R3 due 20
//  EXIT         c13 (needs no unit: not through the collector)
//  warp ends at 20. With #0 reading R0 and R16 (both bank 0) its second read is at c6: every
//  later step one cycle later, #1 issues at 12. (One SystemC simulation per test process.)
void collectorChain(bool conflict) {
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [conflict](uint64_t, unsigned) {
        return Program{conflict ? alu(0x00, R1, {R0, 16}) : alu(0x00, R1, {R0}), alu(0x08, R2, {R1}),
                       alu(0x10, R3, {R0}), exitInst(0x18)};
    }));
    SmConfig c = cfgWith(2);
    c.collector.banks = 16;
    SmBench b(c, std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    const uint64_t d = conflict ? 1 : 0;
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 11 + d, 12 + d, 13 + d}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{20 + d, 0}}));
    EXPECT_EQ(b.stat("sm0.collector.reads"), conflict ? 4 : 3);
    EXPECT_EQ(b.stat("sm0.collector.bank_conflicts"), conflict ? 1 : 0);
    expectCleanEnd(b, 20 + d);
}

TEST(SmCore, OperandCollectorAddsItsStages) { collectorChain(false); }
TEST(SmCore, OperandCollectorBankConflictDelaysTheChainOneCycle) { collectorChain(true); }

TEST(SmCore, InstructionCacheMissDelaysTheFirstFetchOnly) {
    // The chain above with a 2 KB L1I: the fetch of #0 misses and reads the line 0xF0000000
    // (l1i.code_base + PC 0), which holds all four instructions; the rest hit.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{alu(0x00, R1, {R0}), alu(0x08, R2, {R1}), alu(0x10, R3, {R0}), exitInst(0x18)};
    }));
    SmConfig c = cfgWith(2);
    c.l1iBytes = 2048;
    SmBench b(c, std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    ASSERT_EQ(b.mem.log.size(), 1u);
    EXPECT_EQ(b.mem.log[0].addr, 0xF0000000u);
    EXPECT_FALSE(b.mem.log[0].write);
    const U64 issues = b.rec->issueCycles(0);
    ASSERT_EQ(issues.size(), 4u);
    // The fetch of cycle 2 misses (#0 issued at 3 without the cache); the line read leaves at 3,
    // the stub answers 10 cycles later (13), the fill and the fetch again are in that tick: 14.
    EXPECT_EQ(issues[0], 14u);
    // From there the chain's own timing: +4 (RAW on R1), +1, +1.
    EXPECT_EQ(issues, (U64{issues[0], issues[0] + 4, issues[0] + 5, issues[0] + 6}));
    EXPECT_EQ(b.stat("sm0.l1i.misses"), 1);
    EXPECT_EQ(b.stat("sm0.l1i.hits"), 4);  // #0 again after the fill, then #1, #2, EXIT
    EXPECT_EQ(b.stat("sm0.l1i.fills"), 1);
    expectCleanEnd(b, issues[0] + 9);
}

// A loop body of `body` independent ALU instructions run `iters` times, then EXIT, through a
// 256-byte, 2-way L1I (one set of two 128-byte lines, 16 instructions each, LRU, allocated at the
// fill). Memory answers 10 ns after the request.
struct LoopRun {
    uint64_t misses, hits, fills, end;
    U64 issues;
};
LoopRun loopThroughL1i(unsigned body, unsigned iters) {
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [body, iters](uint64_t, unsigned) {
        Program p;
        for (unsigned it = 0; it < iters; ++it)
            for (unsigned k = 0; k < body; ++k) p.push_back(alu(8 * k, kNoReg));
        p.push_back(exitInst(8 * body));
        return p;
    }));
    SmConfig c = cfgWith(2);
    c.l1iBytes = 256;
    c.l1iWays = 2;
    SmBench b(c, std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    const auto& ends = b.rec->warpEnds;
    return {uint64_t(b.stat("sm0.l1i.misses")), uint64_t(b.stat("sm0.l1i.hits")), uint64_t(b.stat("sm0.l1i.fills")),
            ends.empty() ? 0 : ends[0].first, b.rec->issueCycles(0)};
}

TEST(SmCore, InstructionCacheALoopThatFitsMissesOnlyOnItsFirstPass) {
    // 16 instructions (line 0) four times, EXIT in line 1: two misses in all; every instruction
    // hits once its line is in (the missing fetch is retried after the fill and hits).
    const LoopRun r = loopThroughL1i(16, 4);
    EXPECT_EQ(r.misses, 2u);
    EXPECT_EQ(r.fills, 2u);
    EXPECT_EQ(r.hits, 65u);
    ASSERT_EQ(r.issues.size(), 65u);
    // A fetch that misses at cycle f: the line read leaves at f+1, is answered at f+11, and the
    // fill and the fetch again let the instruction issue at f+12 (the first fetch, at c2, gives
    // the first issue at 14, as in InstructionCacheMissDelaysTheFirstFetchOnly). Then one
    // instruction per cycle: #63 at 77. EXIT's line is fetched at 76 (the buffer of two runs one
    // instruction ahead), misses, and EXIT issues at 76 + 12 = 88, when the warp ends.
    for (size_t i = 0; i < 64; ++i) EXPECT_EQ(r.issues[i], 14 + i) << "instruction " << i;
    EXPECT_EQ(r.issues[64], 88u);
    EXPECT_EQ(r.end, 88u);
}

TEST(SmCore, InstructionCacheALoopThatDoesNotFitMissesEveryLineEveryPass) {
    // 48 instructions (lines 0, 1, 2) three times, EXIT in line 3, with room for two lines: LRU
    // evicts the line needed next every time (0 1 2 0 1 2 0 1 2 3: ten misses), and each miss
    // stops the warp for a memory round trip.
    const LoopRun r = loopThroughL1i(48, 3);
    EXPECT_EQ(r.misses, 10u);
    EXPECT_EQ(r.fills, 10u);
    EXPECT_EQ(r.hits, 145u);
    ASSERT_EQ(r.issues.size(), 145u);
    // As above, the first instruction of each line is fetched (and misses) the cycle its
    // predecessor's predecessor issues, so it issues 11 cycles after its predecessor instead of
    // one: instruction i (of 144) at 14 + i + 10 * (i / 16); EXIT after #143 (at 237) at 248.
    for (size_t i = 0; i < 144; ++i) EXPECT_EQ(r.issues[i], 14 + i + 10 * (i / 16)) << "instruction " << i;
    EXPECT_EQ(r.issues[144], 248u);
    EXPECT_EQ(r.end, 248u);
}

TEST(SmCore, LoadMissThenHitThenStore) {
    // Memory answers 10.5 cycles after the request (10500 ps), i.e. between edges.
    //  #0 LD R1 <- [kLine + 4*lane]  c3 issue; c4 L1D miss, request sent at c4 (4000 ps),
    //                                answered at 14500 ps; c15 fill -> R1 written back at 15.
    //  #1 R2 <- R1                   c15
    //  #2 LD R3 <- same line         c16 issue; c17 L1D hit, due 17 + 20 = 37
    //  #3 R4 <- R3                   c37 (R4 due 41)
    //  #4 ST [same line] <- R2       c38 issue; c39 write-evict, request sent at 39000 ps,
    //                                answered at 49500 ps -> taken at c50
    //  #5 EXIT                       c39
    //  warp retires at 41 (R4); the kernel ends at 50, once the store's answer is back.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{load(0x00, R1, kLine, 4), alu(0x08, R2, {R1}), load(0x10, R3, kLine, 4),
                       alu(0x18, R4, {R3}),      store(0x20, kLine, 4, {R2}), exitInst(0x28)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 15, 16, 37, 38, 39}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{41, 0}}));
    ASSERT_EQ(b.rec->loads.size(), 2u);
    EXPECT_EQ(b.rec->loads[0].cycle, 15u);
    EXPECT_FALSE(b.rec->loads[0].fullyCached);
    EXPECT_EQ(b.rec->loads[0].accesses, 1u);
    EXPECT_EQ(b.rec->loads[1].cycle, 37u);
    EXPECT_TRUE(b.rec->loads[1].fullyCached);
    ASSERT_EQ(b.mem.log.size(), 2u);
    EXPECT_EQ(b.mem.log[0].addr, kLine);
    EXPECT_FALSE(b.mem.log[0].write);
    EXPECT_EQ(b.mem.log[0].arrivedPs, 4000u);
    EXPECT_EQ(b.mem.log[0].answeredPs, 14500u);
    EXPECT_EQ(b.mem.log[1].addr, kLine);
    EXPECT_TRUE(b.mem.log[1].write);
    EXPECT_EQ(b.mem.log[1].arrivedPs, 39000u);
    EXPECT_EQ(b.mem.log[1].answeredPs, 49500u);
    EXPECT_EQ(b.stat("sm0.l1d.read_misses"), 1);
    EXPECT_EQ(b.stat("sm0.l1d.read_hits"), 1);
    EXPECT_EQ(b.stat("sm0.l1d.write_evicts"), 1);
    EXPECT_EQ(b.stat("sm0.noc.reads"), 1);
    EXPECT_EQ(b.stat("sm0.noc.writes"), 1);
    // Load latencies 15-3 = 12 and 37-16 = 21: mean 16.5.
    EXPECT_DOUBLE_EQ(b.stat("sm0.ldst.load_latency"), 16.5);
    EXPECT_EQ(b.disp.records()[0].endCycle, 50u);
    expectCleanEnd(b, 50);
}

TEST(SmCore, BarrierHoldsWarpUntilTheOtherArrives) {
    // One CTA of 64 threads: warp 0 on scheduler 0, warp 1 on scheduler 1 (slot parity).
    //  warp 0: R1<-R0 ; BAR ; R2<-R0 ; EXIT
    //  warp 1: R1<-R0 ; R2<-R1 ; R3<-R2 ; BAR ; R4<-R0 ; EXIT
    //  c3:  w0 #0 (unit0), w1 #0 (unit1)             R1 of both due 7
    //  c4:  w0 BAR (arrives 1 of 2, waits)
    //  c7:  w1 #1 (unit0 free at 5 -> free at 9)      R2 due 11
    //  c11: w1 #2 (unit0 free at 9 -> 13)             R3 due 15
    //  c12: w1 BAR: 2 of 2 -> barrier opens at 12 (scheduler 0 already ran this cycle)
    //  c13: w0 #2 (unit0 free at 13), w1 #4 (unit1)   R2/R4 due 17
    //  c14: both EXIT; both retire at 17.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 64, [](uint64_t, unsigned w) {
        if (w == 0) return Program{alu(0x00, R1, {R0}), bar(0x08), alu(0x10, R2, {R0}), exitInst(0x18)};
        return Program{alu(0x00, R1, {R0}), alu(0x08, R2, {R1}), alu(0x10, R3, {R2}),
                       bar(0x18),           alu(0x20, R4, {R0}), exitInst(0x28)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 4, 13, 14}));
    EXPECT_EQ(b.rec->issueCycles(1), (U64{3, 7, 11, 12, 13, 14}));
    EXPECT_EQ(b.rec->barrierReleases, (std::vector<CycleWarp>{{12, 0}}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{17, 0}, {17, 1}}));
    expectCleanEnd(b, 17);
}

TEST(SmCore, WarpExitReleasesBarrier) {
    //  warp 0: BAR ; R1<-R0 ; EXIT      warp 1: EXIT
    //  c3: w0 BAR (1 of 2 arrived); w1 EXIT, retires at once (nothing pending) -> 1 live warp,
    //      1 arrived -> the barrier opens at 3.
    //  c4: w0 #1 (R1 due 8); c5: EXIT; retires at 8.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 64, [](uint64_t, unsigned w) {
        if (w == 0) return Program{bar(0x00), alu(0x08, R1, {R0}), exitInst(0x10)};
        return Program{exitInst(0x00)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 4, 5}));
    EXPECT_EQ(b.rec->issueCycles(1), (U64{3}));
    EXPECT_EQ(b.rec->barrierReleases, (std::vector<CycleWarp>{{3, 0}}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{3, 1}, {8, 0}}));
    expectCleanEnd(b, 8);
}

namespace {
// Two warps, one scheduler: three independent ALU instructions and EXIT each.
ScriptWorkload& twoIndependentWarps(ScriptWorkload& wl) {
    wl.add(kernelOf(1, 64, [](uint64_t, unsigned) {
        return Program{alu(0x00, R1, {R0}), alu(0x08, R2, {R0}), alu(0x10, R3, {R0}), exitInst(0x18)};
    }));
    return wl;
}
} // namespace

TEST(SmCore, OneSchedulerLrrAlternates) {
    // One ALU instruction per cycle fits 2 units x interval 2. LRR alternates:
    //  c3 w0#0, c4 w1#0, c5 w0#1, c6 w1#1, c7 w0#2, c8 w1#2, c9 w0 EXIT, c10 w1 EXIT.
    //  w0's R3 due 11, w1's 12 -> ends 11 and 12.
    ScriptWorkload wl;
    SmBench b(cfgWith(1), std::make_unique<LrrPolicy>(), twoIndependentWarps(wl), 10000);
    b.run();
    EXPECT_EQ(b.rec->issueWarps(), (std::vector<unsigned>{0, 1, 0, 1, 0, 1, 0, 1}));
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 5, 7, 9}));
    EXPECT_EQ(b.rec->issueCycles(1), (U64{4, 6, 8, 10}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{11, 0}, {12, 1}}));
    expectCleanEnd(b, 12);
}

TEST(SmCore, OneSchedulerGtoRunsOldestToCompletion) {
    // GTO stays on warp 0 (oldest) through its EXIT, then warp 1:
    //  c3-5 w0#0-2, c6 w0 EXIT, c7-9 w1#0-2, c10 w1 EXIT. Units: c3 u0, c4 u1, c5 u0, c7 u0? u0
    //  free at 7 -> yes, c8 u1 (free 6), c9 u0 (free 9). w0's R3 due 9, w1's 13.
    ScriptWorkload wl;
    SmBench b(cfgWith(1), std::make_unique<GtoPolicy>(), twoIndependentWarps(wl), 10000);
    b.run();
    EXPECT_EQ(b.rec->issueWarps(), (std::vector<unsigned>{0, 0, 0, 0, 1, 1, 1, 1}));
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 4, 5, 6}));
    EXPECT_EQ(b.rec->issueCycles(1), (U64{7, 8, 9, 10}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{9, 0}, {13, 1}}));
    expectCleanEnd(b, 13);
}

TEST(SmCore, OneWarpFetchMakesGtoWaitForItsTurn) {
    // The same two warps with sm.fetch = one-warp: one warp's buffer (2 entries) is filled per
    // cycle, the next after the last served, only once empty. The search starts after warp 0
    // (GPGPU-Sim's m_last_warp_fetched starts at 0), so at c2 warp 1 is fetched and at c3 it is
    // the only warp with instructions: it issues, and warp 0 is fetched. GTO then stays on warp
    // 1, whose buffer is refilled whenever it empties (warp 0's stays full): w1 c3-6, w0 c7-10,
    // the reverse of the order with every-warp fetch.
    ScriptWorkload wl;
    SmConfig c = cfgWith(1);
    c.fetchOneWarp = true;
    SmBench b(c, std::make_unique<GtoPolicy>(), twoIndependentWarps(wl), 10000);
    b.run();
    EXPECT_EQ(b.rec->issueWarps(), (std::vector<unsigned>{1, 1, 1, 1, 0, 0, 0, 0}));
    EXPECT_EQ(b.rec->issueCycles(1), (U64{3, 4, 5, 6}));
    EXPECT_EQ(b.rec->issueCycles(0), (U64{7, 8, 9, 10}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{9, 1}, {13, 0}}));
    expectCleanEnd(b, 13);
}

TEST(SmCore, DispatcherRefillsWhenACtaFinishes) {
    // sm.max_ctas = 1, two CTAs of one warp (R1<-R0 ; EXIT).
    //  CTA 0: placed 1, ALU 3, EXIT 4, retires 7 (R1 due 7).
    //  CTA 1: placed at 7 (the dispatcher ticks after the SM), fetched 8, ALU 9, EXIT 10, retires 13.
    SmConfig c = cfgWith(2);
    c.maxCtas = 1;
    ScriptWorkload wl;
    wl.add(kernelOf(2, 32, [](uint64_t, unsigned) { return Program{alu(0x00, R1, {R0}), exitInst(0x08)}; }));
    SmBench b(c, std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    EXPECT_EQ(b.rec->ctaStarts, (std::vector<CycleWarp>{{1, 0}, {7, 0}}));
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 4, 9, 10}));  // slot 0 reused by CTA 1
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{7, 0}, {13, 0}}));
    EXPECT_EQ(b.stat("sm0.ctas"), 2);
    EXPECT_EQ(b.disp.ctasLaunched(), 2u);
    EXPECT_EQ(b.disp.records()[0].endCycle, 13u);
    expectCleanEnd(b, 13);
}

TEST(SmCore, KernelsRunOneAfterAnother) {
    //  K0: starts 1, ALU 3, EXIT 4, ends 7.  K1: starts 8 (the cycle after), fetched 9, ALU 10,
    //  EXIT 11, ends 14.
    ScriptWorkload wl;
    auto prog = [](uint64_t, unsigned) { return Program{alu(0x00, R1, {R0}), exitInst(0x08)}; };
    wl.add(kernelOf(1, 32, prog, "first")).add(kernelOf(1, 32, prog, "second"));
    SmBench b(cfgWith(2), std::make_unique<LrrPolicy>(), wl, 10000);
    b.run();
    const auto& r = b.disp.records();
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].name, "first");
    EXPECT_EQ(r[0].startCycle, 1u);
    EXPECT_EQ(r[0].endCycle, 7u);
    EXPECT_EQ(r[1].name, "second");
    EXPECT_EQ(r[1].startCycle, 8u);
    EXPECT_EQ(r[1].endCycle, 14u);
    EXPECT_EQ(b.stat("kernel0.cycles"), 6);
    EXPECT_EQ(b.stat("kernel1.cycles"), 6);
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 4, 10, 11}));
    expectCleanEnd(b, 14);
}

TEST(SmCore, SharedMemoryLoadLatency) {
    //  #0 LD.shared R1   c3 (no L1D, done at 3 + 24 = 27)
    //  #1 R2 <- R1       c27 (R2 due 31)
    //  #2 EXIT           c28; retires 31.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{load(0x00, R1, 0x100, 4, {}, MemSpace::Shared), alu(0x08, R2, {R1}), exitInst(0x10)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 27, 28}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{31, 0}}));
    EXPECT_EQ(b.stat("sm0.ldst.shared_ops"), 1);
    EXPECT_EQ(b.stat("sm0.l1d.accesses"), 0);
    EXPECT_TRUE(b.mem.log.empty());
    expectCleanEnd(b, 31);
}

// Two independent shared loads and a use of both; the first at a stride of `stride` bytes
// (32 banks of 4 bytes: 4 -> 1 pass, 8 -> 2 (lanes l, l + 16 share bank 2l), 128 -> 32 (all in
// bank 0)), the second conflict-free. P = passes of the first:
//  #0 LD.shared R1   c3; passes at 4 .. 3 + P; R1 at 3 + 24 + (P - 1) = 26 + P
//  #1 LD.shared R2   refused while the unit is busy (ldst_busy c4 .. c2 + P: P - 1 cycles), issues
//                    at 3 + P, the cycle of #0's last pass; R2 at 3 + P + 24 = 27 + P
//  #2 R3 <- R1, R2   27 + P (R2 written back first); R3 due 31 + P
//  #3 EXIT           28 + P; the warp ends at 31 + P.
// P = 1 is the conflict-free timing (issues 3, 4, 28, 29, end 32); each further pass moves
// everything after #0 by one cycle.
void sharedConflictChain(uint64_t stride, uint64_t passes) {
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [stride](uint64_t, unsigned) {
        return Program{load(0x00, R1, 0x100, stride, {}, MemSpace::Shared),
                       load(0x08, R2, 0x1000, 4, {}, MemSpace::Shared), alu(0x10, R3, {R1, R2}), exitInst(0x18)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    const uint64_t P = passes;
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 3 + P, 27 + P, 28 + P}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{31 + P, 0}}));
    EXPECT_EQ(b.stat("sm0.issue.ldst_busy_cycles"), double(P - 1));
    EXPECT_EQ(b.stat("sm0.ldst.shared_ops"), 2);
    EXPECT_EQ(b.stat("sm0.ldst.shared_bank_conflicts"), P > 1 ? 1 : 0);
    EXPECT_EQ(b.stat("sm0.ldst.shared_bank_conflict_cycles"), double(P - 1));
    EXPECT_EQ(b.stat("sm0.l1d.accesses"), 0);
    expectCleanEnd(b, 31 + P);
}

TEST(SmCore, SharedLoadWithoutBankConflictTakesOnePass) { sharedConflictChain(4, 1); }
TEST(SmCore, SharedLoadWithTwoWayBankConflictIsOneCycleLater) { sharedConflictChain(8, 2); }
TEST(SmCore, SharedLoadWithThirtyTwoWayBankConflictHoldsTheUnit32Cycles) { sharedConflictChain(128, 32); }

TEST(SmCore, DivergentLoadHoldsLdStUnitForOtherWarps) {
    // warp 0 (scheduler 0): LD R1 <- 32 lines (stride 128) ; R2 <- R1 ; EXIT
    // warp 1 (scheduler 1): LD R1 <- one line 0x80000       ; R2 <- R1 ; EXIT
    // Lines kLine + 128*i have bits 7-11 = i and only bit 18 above (not hashed): 32 distinct sets.
    //  c3: w0 LD accepted; w1 LD refused (LD/ST busy) -> ldst_busy from 3 ...
    //  c4..c35: w0's 32 L1D accesses, one per cycle, each miss sent the same cycle; at 35 the unit
    //           frees before issue, so w1's LD issues at 35 -> ldst_busy cycles 3..34 = 32.
    //  c36: w1's access (miss), sent at 36.
    //  Answers 10.5 cycles after each send: w0's lines fill at 15..46, w1's at 47.
    //  w0: ALU at 46, EXIT 47, R2 due 50 -> ends 50.  w1: ALU 47, EXIT 48, ends 51.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 64, [](uint64_t, unsigned w) {
        const uint64_t base = w == 0 ? kLine : 0x80000;
        const uint64_t stride = w == 0 ? 128 : 4;
        return Program{load(0x00, R1, base, stride), alu(0x08, R2, {R1}), exitInst(0x10)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 46, 47}));
    EXPECT_EQ(b.rec->issueCycles(1), (U64{35, 47, 48}));
    EXPECT_EQ(b.stat("sm0.issue.ldst_busy_cycles"), 32);
    EXPECT_EQ(b.stat("sm0.ldst.coalescing_stall_cycles"), 31);
    EXPECT_EQ(b.stat("sm0.l1d.read_misses"), 33);
    EXPECT_EQ(b.stat("sm0.noc.reads"), 33);
    ASSERT_EQ(b.mem.log.size(), 33u);
    EXPECT_EQ(b.mem.log[0].arrivedPs, 4000u);
    EXPECT_EQ(b.mem.log[31].arrivedPs, 35000u);
    EXPECT_EQ(b.mem.log[32].addr, 0x80000u);
    EXPECT_EQ(b.mem.log[32].arrivedPs, 36000u);
    ASSERT_EQ(b.rec->loads.size(), 2u);
    EXPECT_EQ(b.rec->loads[0].cycle, 46u);
    EXPECT_EQ(b.rec->loads[0].accesses, 32u);
    EXPECT_EQ(b.rec->loads[1].cycle, 47u);
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{50, 0}, {51, 1}}));
    expectCleanEnd(b, 51);
}

TEST(SmCore, FullResponseQueueBackPressuresTheNoc) {
    // sm.response_queue = 1. One load of 3 lines (lanes 0-2, stride 128): accesses at 4, 5, 6, each
    // sent at once. The memory holds every answer until 20500 ps and then answers back to back:
    //  20500: answer 1 taken (queue 1/1); answer 2 refused (held by the SM's port, counted).
    //  c21: fill 1; the held answer 2 is taken; END_RESP lets memory send answer 3: refused (2nd).
    //  c22: fill 2; answer 3 taken.   c23: fill 3 -> the load completes at 23.
    //  R2 <- R1 at 23, EXIT 24, R2 due 27 -> ends 27.
    SmConfig c = cfgWith(2);
    c.responseQueue = 1;
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        WarpInstruction ld = load(0x00, R1, kLine, 128);
        ld.activeMask = 0x7;
        return Program{ld, alu(0x08, R2, {R1}), exitInst(0x10)};
    }));
    SmBench b(c, std::make_unique<GtoPolicy>(), wl, 1000);
    b.mem.holdUntilPs = 20500;
    b.run();
    ASSERT_EQ(b.mem.log.size(), 3u);
    EXPECT_EQ(b.mem.log[0].arrivedPs, 4000u);
    EXPECT_EQ(b.mem.log[2].arrivedPs, 6000u);
    EXPECT_EQ(b.mem.log[0].answeredPs, 20500u);
    EXPECT_EQ(b.mem.log[1].answeredPs, 20500u);  // BEGIN_RESP sent, END_RESP only at 21
    EXPECT_EQ(b.mem.log[2].answeredPs, 21000u);
    EXPECT_EQ(b.stat("sm0.noc.answer_full_cycles"), 2);
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 23, 24}));
    ASSERT_EQ(b.rec->loads.size(), 1u);
    EXPECT_EQ(b.rec->loads[0].cycle, 23u);
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{27, 0}}));
    expectCleanEnd(b, 27);
}

TEST(SmCore, SfuIntervalSerialisesTwoWarps) {
    // One SFU, latency 20, interval 8. warp 0 (sched 0) and warp 1 (sched 1): SFU R1 <- R0 ; EXIT.
    //  c3: w0 SFU (unit free again at 11; R1 due 23); w1 refused (unit busy).
    //  c4: w0 EXIT.  c11: w1 SFU (R1 due 31).  c12: w1 EXIT.  Ends: w0 23, w1 31.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 64, [](uint64_t, unsigned) {
        return Program{alu(0x00, R1, {R0}, OpClass::Sfu), exitInst(0x08)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 4}));
    EXPECT_EQ(b.rec->issueCycles(1), (U64{11, 12}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{23, 0}, {31, 1}}));
    expectCleanEnd(b, 31);
}

// The tensor pipeline (sm.tensor.*), here latency 12 and interval 5 so that the two can be told
// apart (the defaults are 32 and 32), one pipeline.
SmConfig tensorCfg() {
    SmConfig c = cfgWith(2);
    c.tensorUnits = 1;
    c.tensorLatency = 12;
    c.tensorInterval = 5;
    return c;
}

TEST(SmCore, TensorIntervalAndLatency) {
    // One warp: T R1<-R0 ; T R2<-R0 (independent) ; ALU R3<-R1 (needs the first result) ; EXIT.
    //  c3: T#0 (pipeline free again at 3+5 = 8; R1 due 3+12 = 15). Fetch after issue: ALU in.
    //  c4-c7: T#1 ready, pipeline busy: 4 tensor-busy cycles.   c8: T#1 (R2 due 8+12 = 20).
    //  c9-c14: ALU waits on R1.  c15: ALU (R1 written back before issue: 15 - 3 = 12 = latency;
    //  R3 due 19).  c16: EXIT.  Retire once R2 (20) and R3 (19) are back: warp ends at 20.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{alu(0x00, R1, {R0}, OpClass::Tensor), alu(0x08, R2, {R0}, OpClass::Tensor),
                       alu(0x10, R3, {R1}), exitInst(0x18)};
    }));
    SmBench b(tensorCfg(), std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 8, 15, 16}));
    EXPECT_EQ(b.rec->issueCycle(0, 2) - b.rec->issueCycle(0, 0), 12u);
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{20, 0}}));
    EXPECT_EQ(b.stat("sm0.tensor.issued"), 2);
    EXPECT_EQ(b.stat("sm0.issue.tensor_busy_cycles"), 4);
    EXPECT_EQ(b.stat("sm0.issued"), 4);
    expectCleanEnd(b, 20);
}

TEST(SmCore, TensorInstructionLeavesTheAluFree) {
    // warp 0 (scheduler 0): T R1<-R0 ; EXIT.   warp 1 (scheduler 1): ALU R1, R2, R3 <- R0 ; EXIT.
    // Warp 1 alone on 2 ALU pipelines of interval 2: c3 unit 0 (free at 5), c4 unit 1 (free at 6),
    // c5 unit 0 again, c6 EXIT; R3 due 5+4 = 9. With the tensor instruction at c3 on its own
    // pipeline that is unchanged. (Had it taken ALU unit 0 at c3, as when tensor ops ran as ALU,
    // both units would be busy at c4 and warp 1 would issue at 3, 5, 6, 7.)
    // Warp 0: c3 T (R1 due 15), c4 EXIT, ends at 15.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 64, [](uint64_t, unsigned w) {
        if (w == 0) return Program{alu(0x00, R1, {R0}, OpClass::Tensor), exitInst(0x08)};
        return Program{alu(0x00, R1, {R0}), alu(0x08, R2, {R0}), alu(0x10, R3, {R0}), exitInst(0x18)};
    }));
    SmBench b(tensorCfg(), std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 4}));
    EXPECT_EQ(b.rec->issueCycles(1), (U64{3, 4, 5, 6}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{9, 1}, {15, 0}}));
    EXPECT_EQ(b.stat("sm0.tensor.issued"), 1);
    EXPECT_EQ(b.stat("sm0.issue.tensor_busy_cycles"), 0);
    expectCleanEnd(b, 15);
}

TEST(SmCore, TensorInstructionThroughTheOperandCollector) {
    // The collector's tensor set (16 banks; bank of Rr in warp 0 = r), as the ALU chain above:
    //  T R1<-R0     c3 issue; c4 collector unit; c5 R0 read; c6 execute register; c7 tensor
    //               pipeline (R1 due 7+12 = 19)
    //  ALU R2<-R1   c19 issue; c20 unit; c21 R1 read; c22; c23 ALU (R2 due 27)
    //  EXIT         c20.  Warp ends at 27.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{alu(0x00, R1, {R0}, OpClass::Tensor), alu(0x08, R2, {R1}), exitInst(0x10)};
    }));
    SmConfig c = tensorCfg();
    c.collector.banks = 16;
    SmBench b(c, std::make_unique<GtoPolicy>(), wl, 10000);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 19, 20}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{27, 0}}));
    EXPECT_EQ(b.stat("sm0.tensor.issued"), 1);
    expectCleanEnd(b, 27);
}

} // namespace sm_core_test
