// Global atomics through the SM (issue 18), on the one-SM bench of sm_core_test.cpp (the same
// stage order and latencies; see its header): an ATOM's value returns to its register like a
// load's, a RED blocks nothing, lanes on one address are separate requests that must all return.
// Each case runs in its own process (ctest); run a single case by --gtest_filter.
#include <gtest/gtest.h>

#include "scheduler/GtoPolicy.hpp"
#include "tb/unit/modules/SmCoreTestHelpers.hpp"

namespace sm_core_test {

namespace {
WarpInstruction atomicOf(WarpInstruction i) {
    i.atomic = true;
    return i;
}
} // namespace

TEST(SmCore, AtomReturnsToItsRegisterWhileRedDoesNotBlock) {
    // Memory (standing in for the L2, which performs the atomics) answers 10.5 cycles after the
    // request.
    //  #0 ATOM R1 <- [kLine + 4*lane]  c3 issue; c4 one request (32 distinct words of one line)
    //                                  passes the L1D without a lookup and is sent at c4 (4000
    //                                  ps), answered at 14500 ps; c15 fill port -> R1 written
    //                                  back at 15, as a load's would be.
    //  #1 R2 <- R1                     c15: waits for the ATOM's value
    //  #2 RED [kLine + 4*lane] <- R0   c16 issue; c17 sent (17000 ps), acknowledged at 27500 ps,
    //                                  taken at c28; no register, so nothing waits for it:
    //  #3 R3 <- R0                     c17
    //  #4 EXIT                         c18
    //  the warp retires at 21 (R3 due 17 + 4); the kernel ends at 28, with the RED's answer.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        return Program{atomicOf(load(0x00, R1, kLine, 4)), alu(0x08, R2, {R1}),
                       atomicOf(store(0x10, kLine, 4, {R0})), alu(0x18, R3, {R0}), exitInst(0x20)};
    }));
    SmConfig cfg = cfgWith(2);
    cfg.atomicSegmentBytes = 0;  // one request per line (32-B segments: 4, see the Coalescer tests)
    SmBench b(cfg, std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 15, 16, 17, 18}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{21, 0}}));
    // The ATOM completes like a load (its facts are not L1D ones: not fully cached).
    ASSERT_EQ(b.rec->loads.size(), 1u);
    EXPECT_EQ(b.rec->loads[0].cycle, 15u);
    EXPECT_EQ(b.rec->loads[0].accesses, 1u);
    EXPECT_FALSE(b.rec->loads[0].fullyCached);
    EXPECT_TRUE(b.rec->serviced.empty());  // no onLoadServiced: no L1D lookup
    ASSERT_EQ(b.mem.log.size(), 2u);
    EXPECT_FALSE(b.mem.log[0].write);  // ATOM: answered with data
    EXPECT_EQ(b.mem.log[0].arrivedPs, 4000u);
    EXPECT_EQ(b.mem.log[0].answeredPs, 14500u);
    EXPECT_TRUE(b.mem.log[1].write);  // RED: acknowledged
    EXPECT_EQ(b.mem.log[1].arrivedPs, 17000u);
    EXPECT_EQ(b.mem.log[1].answeredPs, 27500u);
    EXPECT_EQ(b.stat("sm0.l1d.accesses"), 0);
    EXPECT_EQ(b.stat("sm0.l1d.atomic_bypasses"), 2);
    EXPECT_EQ(b.stat("sm0.ldst.atomics"), 2);
    EXPECT_EQ(b.stat("sm0.ldst.atomic_requests"), 2);
    EXPECT_EQ(b.stat("sm0.ldst.loads") + b.stat("sm0.ldst.stores"), 0);
    EXPECT_EQ(b.stat("sm0.noc.atomics"), 2);
    EXPECT_EQ(b.stat("sm0.noc.reads") + b.stat("sm0.noc.writes"), 0);
    EXPECT_FALSE(b.sm.l1().probe(kLine));  // no allocation
    EXPECT_EQ(b.disp.records()[0].endCycle, 28u);
    expectCleanEnd(b, 28);
}

TEST(SmCore, AtomLanesOnOneAddressAreSeparateRequestsAndAllMustReturn) {
    // Lanes 0 and 1 both on kLine: two requests, sent at c4 and c5 (one per cycle through the
    // L1D's port), answered at 14500 and 15500 ps, taken at c15 and c16: R1 is written back at 16
    // and the dependent ALU issues then.
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        WarpInstruction atom = atomicOf(load(0x00, R1, kLine, 0));
        atom.activeMask = 0x3u;
        return Program{atom, alu(0x08, R2, {R1}), exitInst(0x10)};
    }));
    SmBench b(cfgWith(2), std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    ASSERT_EQ(b.mem.log.size(), 2u);
    EXPECT_EQ(b.mem.log[0].arrivedPs, 4000u);
    EXPECT_EQ(b.mem.log[1].arrivedPs, 5000u);
    EXPECT_EQ(b.rec->issueCycle(0, 1), 16u);
    EXPECT_EQ(b.stat("sm0.ldst.atomic_requests"), 2);
    // Issues 3 (ATOM), 16 (ALU), 17 (EXIT); R2 due 20: the warp and the kernel end at 20.
    expectCleanEnd(b, 20);
}

// Lanes 0 and 1 of a RED both on kLine: two requests, sent at c4 and c5 and acknowledged at 14500
// and 15500 ps (taken at c15 and c16), with an independent ALU and the EXIT behind it.
void runRedThenAlu(bool atomicBlocksWarp, const U64& issues, uint64_t end) {
    ScriptWorkload wl;
    wl.add(kernelOf(1, 32, [](uint64_t, unsigned) {
        WarpInstruction red = atomicOf(store(0x00, kLine, 0, {R0}));
        red.activeMask = 0x3u;
        return Program{red, alu(0x08, R3, {R0}), exitInst(0x10)};
    }));
    SmConfig cfg = cfgWith(2);
    cfg.atomicBlocksWarp = atomicBlocksWarp;
    SmBench b(cfg, std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    ASSERT_EQ(b.mem.log.size(), 2u);
    EXPECT_EQ(b.mem.log[0].arrivedPs, 4000u);
    EXPECT_EQ(b.mem.log[1].arrivedPs, 5000u);
    EXPECT_EQ(b.mem.log[1].answeredPs, 15500u);
    EXPECT_EQ(b.rec->issueCycles(0), issues);
    expectCleanEnd(b, end);
}

TEST(SmCore, UnderAtomicBlocksWarpARedHoldsItsWarpUntilEveryAnswerIsBack) {
    // sm.atomic_blocks_warp (GPGPU-Sim's m_n_atomic): the ALU waits for both acknowledgements,
    // issuing at 16, the EXIT at 17; R3 is due at 20, when the kernel ends.
    runRedThenAlu(true, U64{3, 16, 17}, 20);
}

TEST(SmCore, WithoutAtomicBlocksWarpARedHoldsNothing) {
    // The ALU and the EXIT issue right behind the RED; the kernel ends with the last
    // acknowledgement, taken at c16.
    runRedThenAlu(false, U64{3, 4, 5}, 16);
}

} // namespace sm_core_test
