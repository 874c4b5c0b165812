// The SM mechanisms the scheduler policies of issue 6 rely on, in the one-SM bench
// (tb/unit/modules/SmTestBench.hpp; it lives with the modules tests, this file is here because the
// scheduler test folder links only the scheduler library):
// - the load-serviced hook (accesses, distinct L1D sets, fully cached) and the coherent/divergent
//   load counters (OAWS 2.2: coherent = 1-2 lines);
// - the scheduler stall caused by a busy LD/ST unit (OAWS Fig. 2, right bar);
// - MASCAR's re-execution queue: a hit overtakes a divergent load occluded by full MSHRs;
// - CCWS's victim tag array fed by L1D evictions with the owner warp, probed by later misses.
// Timing rules (see sm_core_test.cpp): clock 1000 ps, first issue at cycle 3, a load's first L1D
// access the cycle after its issue, one access per cycle, a request sent the cycle of its miss,
// a fill the first edge after the answer, a dependent instruction issues in the fill's cycle.
#include <gtest/gtest.h>

#include <memory>

#include "scheduler/CcwsPolicy.hpp"
#include "scheduler/GtoPolicy.hpp"
#include "scheduler/MascarPolicy.hpp"
#include "tb/unit/modules/ModuleTestHelpers.hpp"
#include "tb/unit/modules/SmTestBench.hpp"

namespace scheduler_sm_mechanisms_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

constexpr uint16_t R0 = 0, R1 = 1, R2 = 2, R3 = 3;
constexpr uint64_t kX = 0x40000;  // 128-aligned; linear set index: line 0x800 -> set 0
constexpr uint64_t kA = 0x80000;  // lanes 128 B apart: one line per lane, sets 0, 1, 2, ...

std::unique_ptr<Kernel> kernelOf(unsigned threads, ScriptKernel::Gen gen) {
    return std::make_unique<ScriptKernel>("k", 1, threads, std::move(gen));
}

SmConfig linearCfg() {
    SmConfig c;
    c.setIndexing = SetIndexing::Linear;
    return c;
}

// A load whose first `lanes` lanes are active.
WarpInstruction loadLanes(uint64_t pc, uint16_t dst, uint64_t base, uint64_t stride, unsigned lanes,
                          std::initializer_list<uint16_t> srcs = {}) {
    WarpInstruction i = mem(OpClass::Load, pc, base, stride, 4, lanes >= 32 ? kAllLanes : (1u << lanes) - 1);
    i.numDst = 1;
    i.dst[0] = dst;
    for (uint16_t s : srcs) i.src[i.numSrc++] = s;
    return i;
}

uint64_t completionOf(const RecordingPolicy& rec, uint64_t pc) {
    for (const auto& l : rec.loads)
        if (l.pc == pc) return l.cycle;
    return ~uint64_t(0);
}

} // namespace

TEST(SchedulerSmMechanisms, LoadServicedReportsAccessesSetsAndCaching) {
    // One warp: #0 32 lines 128 B apart (32 distinct sets) ; #1 the same addresses, after #0 is
    // back (src R1): all hits ; #2 one line (coherent), a miss ; EXIT.
    ScriptWorkload wl;
    wl.add(kernelOf(32, [](uint64_t, unsigned) {
        return Program{load(0x00, R1, kA, 128), load(0x10, R2, kA, 128, {R1}), load(0x20, R3, kX, 4, {R2}),
                       exitInst(0x30)};
    }));
    SmBench b(linearCfg(), std::make_unique<GtoPolicy>(), wl, 50500);
    b.run();
    const auto& sv = b.rec->serviced;
    ASSERT_EQ(sv.size(), 3u);
    // #0 issued at 3, accesses at 4..35: serviced at 35.
    EXPECT_EQ(sv[0].first, 35u);
    EXPECT_EQ(sv[0].second.pc, 0x00u);
    EXPECT_EQ(sv[0].second.activeLanes, 32u);
    EXPECT_EQ(sv[0].second.accesses, 32u);
    EXPECT_EQ(sv[0].second.setsTouched, 32u);
    EXPECT_FALSE(sv[0].second.fullyCached);
    EXPECT_TRUE(sv[1].second.fullyCached);
    EXPECT_EQ(sv[1].second.accesses, 32u);
    EXPECT_EQ(sv[2].second.accesses, 1u);
    EXPECT_EQ(sv[2].second.setsTouched, 1u);
    EXPECT_FALSE(sv[2].second.fullyCached);
    EXPECT_EQ(b.stat("sm0.ldst.divergent_loads"), 2);
    EXPECT_EQ(b.stat("sm0.ldst.coherent_loads"), 1);
    EXPECT_EQ(b.stat("sm0.ldst.fully_cached_divergent_loads"), 1);
    EXPECT_EQ(b.stat("sm0.ldst.fully_cached_coherent_loads"), 0);
    EXPECT_EQ(b.stat("sm0.ldst.fully_cached_loads"), 1);
    EXPECT_TRUE(b.sm.quiescent()) << b.sm.dumpState();
}

TEST(SchedulerSmMechanisms, SchedulersStallWhileTheLdStUnitIsBusy) {
    // Two warps (scheduler 0 and 1), each: LD 32 lines (the same lines: the second merges) ;
    // ALU on the loaded register ; EXIT. c3: warp 0's load issues, warp 1's finds the unit busy
    // (scheduler 1 idle, but scheduler 0 issued: not a scheduler stall). c4..c35: warp 0's 32
    // accesses; c4..c34 no warp can issue and warp 1 waits for the LD/ST unit: 31 cycles. c35:
    // the unit is free after the step, warp 1's load issues.
    ScriptWorkload wl;
    wl.add(kernelOf(64, [](uint64_t, unsigned) {
        return Program{load(0x00, R1, kA, 128), alu(0x10, R2, {R1}), exitInst(0x20)};
    }));
    SmBench b(linearCfg(), std::make_unique<GtoPolicy>(), wl, 200500);
    b.run();
    EXPECT_EQ(b.rec->issueCycle(0, 0), 3u);
    EXPECT_EQ(b.rec->issueCycle(1, 0), 35u);
    EXPECT_EQ(b.stat("sm0.issue.ldst_stall_cycles"), 31);
    EXPECT_EQ(b.stat("sm0.issue.ldst_busy_cycles"), 32);  // c3..c34, issue or not
    EXPECT_EQ(b.stat("sm0.ldst.coalescing_stall_cycles"), 62);
    EXPECT_EQ(b.stat("sm0.l1d.mshr_merges"), 32);
    EXPECT_EQ(b.stat("sm0.ldst.divergent_loads"), 2);
    EXPECT_DOUBLE_EQ(b.stat("sm0.ldst.occlusion_cycles_divergent"), 0.0);
}

namespace {

// One warp, 4 MSHRs, memory answering 100.5 cycles after a request:
//  #0 LD R1 <- [X]                 c3; miss at c4, answered 104500 ps -> fill and R1 at c105
//  #1 LD R2 <- 8 lines of A (src R1) c105; accesses c106..c109 take the 4 MSHRs (requests sent
//                                    106..109, fills at 207..210); the 5th access finds none
//  #2 LD R3 <- [X]                 a hit, once the LD/ST unit is free
//  #3 EXIT
Program reexecProgram() {
    return {loadLanes(0x00, R1, kX, 4, 32), loadLanes(0x08, R2, kA, 128, 8, {R1}), loadLanes(0x10, R3, kX, 4, 32),
            exitInst(0x18)};
}

SmConfig fourMshrs() {
    SmConfig c = linearCfg();
    c.mshrEntries = 4;
    return c;
}

} // namespace

TEST(SchedulerSmMechanisms, WithoutReexecutionTheHitWaitsBehindTheOccludedLoad) {
    // GTO: accesses 5..8 of #1 replay c110..c206 (97 MSHR stalls); the first fill at c207 frees
    // an entry for the 5th access (fill port before the memory stage), then one per cycle to c210:
    // the unit is free at c210, #2 issues at c210, hits at c211, returns at 231.
    ScriptWorkload wl;
    wl.add(kernelOf(32, [](uint64_t, unsigned) { return reexecProgram(); }));
    SmBench b(fourMshrs(), std::make_unique<GtoPolicy>(), wl, 100500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (std::vector<uint64_t>{3, 105, 210, 211}));
    EXPECT_EQ(completionOf(*b.rec, 0x10), 231u);
    EXPECT_EQ(b.stat("sm0.l1d.mshr_stall_cycles"), 97);
    EXPECT_EQ(b.stat("sm0.ldst.reexec_parked"), 0);
    EXPECT_DOUBLE_EQ(b.stat("sm0.ldst.occlusion_cycles_divergent"), 97.0);
}

TEST(SchedulerSmMechanisms, ReexecutionQueueLetsTheHitOvertake) {
    // MASCAR: accesses 5..8 are refused once each (c110..c113) and parked; the unit is free
    // after c113, #2 issues at c113 and hits at c114 (the parked head still cannot go: it does
    // not take the port), returning at 134 instead of 231. The head retries every cycle from
    // c111 and goes at c207 when the first fill frees an MSHR: 96 blocked cycles (c111..c206,
    // MASCAR_Replay); the others follow at 208..210 and #1 completes when the last fill is in at
    // c311, as without the queue. Saturation (0 free MSHRs from c109) leaves the single warp as
    // the owner: its memory instructions still issue.
    ScriptWorkload wl;
    wl.add(kernelOf(32, [](uint64_t, unsigned) { return reexecProgram(); }));
    SmBench b(fourMshrs(), std::make_unique<MascarPolicy>(MascarPolicy::Params{}), wl, 100500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (std::vector<uint64_t>{3, 105, 113, 114}));
    EXPECT_EQ(completionOf(*b.rec, 0x10), 134u);
    EXPECT_EQ(completionOf(*b.rec, 0x08), 311u);
    EXPECT_EQ(b.stat("sm0.l1d.mshr_stall_cycles"), 4);
    EXPECT_EQ(b.stat("sm0.ldst.reexec_parked"), 4);
    EXPECT_EQ(b.stat("sm0.ldst.reexec_stall_cycles"), 96);
    EXPECT_DOUBLE_EQ(b.stat("sm0.ldst.occlusion_cycles_divergent"), 0.0);
    EXPECT_GT(b.stat("sm0.sched.mascar_saturated_cycles"), 0);
    EXPECT_TRUE(b.sm.quiescent()) << b.sm.dumpState();
    EXPECT_EQ(b.pool.outstanding(), 0u);
}

TEST(SchedulerSmMechanisms, CcwsVictimTagsComeFromEvictionsWithTheOwnerWarp) {
    // A one-set L1D (1 KB, 8 ways). One warp: #0 8 lines P0..P7 fill the set ; #1 8 other lines
    // Q0..Q7 (after #0, src R1) evict all of P, owner warp 0 -> 8 tags in warp 0's VTA part ;
    // #2 P0..P7 again (src R2): 8 misses, each a VTA hit.
    SmConfig c = linearCfg();
    c.l1Bytes = 1024;
    ScriptWorkload wl;
    wl.add(kernelOf(32, [](uint64_t, unsigned) {
        return Program{loadLanes(0x00, R1, kA, 128, 8), loadLanes(0x08, R2, kA + 0x10000, 128, 8, {R1}),
                       loadLanes(0x10, R3, kA, 128, 8, {R2}), exitInst(0x18)};
    }));
    auto* ccws = new CcwsPolicy(CcwsPolicy::Params{});
    SmBench b(c, std::unique_ptr<SchedulerPolicy>(ccws), wl, 20500);
    b.run();
    EXPECT_EQ(b.stat("sm0.l1d.evictions"), 16);  // P by Q, then Q by P
    EXPECT_EQ(ccws->vtaHits(), 8u);
    EXPECT_EQ(b.stat("sm0.sched.ccws_vta_hits"), 8);
    EXPECT_TRUE(b.sm.quiescent()) << b.sm.dumpState();
}

} // namespace scheduler_sm_mechanisms_test
