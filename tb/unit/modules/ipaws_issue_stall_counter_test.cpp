// The SM's issue-stall counter for iPAWS (WarpView::issueStalls), kept only for a policy whose
// issueStallCount() asks for it. OldestReady: per scheduler and cycle, the oldest warp whose next
// instruction is free of hazards (buffered, scoreboard clear, not at a barrier, not exited) is
// charged one stall if it does not issue. UnitBusy: every hazard-free warp the scheduler's walk
// reaches and a busy unit refuses is charged. One-SM bench built from SmTestBench.hpp's parts
// (timing as in sm_core_test.cpp: first issue at cycle 3; ALU 2 units x interval 2, so one ALU
// instruction per cycle always fits; one SFU, interval 8).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "scheduler/GtoPolicy.hpp"
#include "scheduler/LrrPolicy.hpp"
#include "tb/unit/modules/ModuleTestHelpers.hpp"
#include "tb/unit/modules/SmTestBench.hpp"

namespace ipaws_issue_stall_counter_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

SmConfig oneScheduler() {
    SmConfig c;
    c.schedulers = 1;
    return c;
}

// Two warps of one CTA, each: three independent ALU instructions (R1, R2, R3 <- R0) and EXIT.
ScriptWorkload& twoIndependentWarps(ScriptWorkload& wl) {
    wl.add(std::make_unique<ScriptKernel>("k", 1, 64, [](uint64_t, unsigned) {
        return Program{alu(0x00, 1, {0}), alu(0x08, 2, {0}), alu(0x10, 3, {0}), exitInst(0x18)};
    }));
    return wl;
}

// Three warps of one CTA, each: SFU R1 <- R0, ALU R2 <- R1 (waits for the SFU's result), EXIT.
ScriptWorkload& threeSfuWarps(ScriptWorkload& wl) {
    wl.add(std::make_unique<ScriptKernel>("k", 1, 96, [](uint64_t, unsigned) {
        return Program{alu(0x00, 1, {0}, OpClass::Sfu), alu(0x08, 2, {1}), exitInst(0x10)};
    }));
    return wl;
}

template <class Base, SchedulerPolicy::IssueStallCount Rule = SchedulerPolicy::IssueStallCount::OldestReady>
struct Counting : Base {
    SchedulerPolicy::IssueStallCount issueStallCount() const override { return Rule; }
};
using Rule = SchedulerPolicy::IssueStallCount;

// SmBench without the recording wrapper, so the SM sees the policy's own capabilities.
struct Bench {
    StatRegistry stats;
    PayloadPool pool{128};
    AddressMap map{1, 256, AddressMap::Hash::None};
    ClockDomain clock{"core", sc_core::sc_time(double(kPeriodPs), sc_core::SC_PS)};
    SmCore sm;
    StubMemory mem{"mem", sc_core::sc_time(1000.0 * kPeriodPs, sc_core::SC_PS)};
    CtaDispatcher disp;
    Stopper stop{disp};
    Bench(std::unique_ptr<SchedulerPolicy> policy, ScriptWorkload& wl)
        : sm("sm0", 0, oneScheduler(), stats, clock, pool, map, std::move(policy)), disp({&sm}, wl, stats) {
        sm.noc.bind(mem.socket);
        clock.add(&disp);
        clock.add(&stop);
    }
    void run() {
        clock.wake();
        sc_core::sc_start(sc_core::sc_time(100000.0 * kPeriodPs, sc_core::SC_PS));
        EXPECT_TRUE(stop.stopped);
    }
};

using Counts = std::vector<uint64_t>;

// Runs `wl` on one SM under `policy`; the issue-stall count of warp slots 0 .. warps-1.
Counts stallCounts(std::unique_ptr<SchedulerPolicy> policy, ScriptWorkload& wl, unsigned warps) {
    Bench b(std::move(policy), wl);
    b.run();
    Counts counts;
    for (unsigned w = 0; w < warps; ++w) counts.push_back(b.sm.warp(w).issueStalls);
    return counts;
}

} // namespace

TEST(IpawsIssueStallCounter, RoundRobinChargesTheOldestReadyWarpWhenAnotherIssues) {
    // LRR alternates: c3 w0, c4 w1, c5 w0, c6 w1, c7 w0, c8 w1, c9 w0 EXIT, c10 w1 EXIT.
    // w0 is the oldest warp and always hazard-free (independent instructions, EXIT has no
    // operands) until its EXIT: charged in c4, c6 and c8 when w1 issues = 3. In c10 w0 has
    // exited, so w1 is the oldest ready warp and issues: w1 is never charged.
    ScriptWorkload wl;
    EXPECT_EQ(stallCounts(std::make_unique<Counting<LrrPolicy>>(), twoIndependentWarps(wl), 2), (Counts{3, 0}));
}

TEST(IpawsIssueStallCounter, GreedyOldestFirstChargesNobody) {
    // GTO runs w0 to its EXIT (c3-c6), then w1 (c7-c10): the oldest ready warp issues in every
    // cycle, so neither warp is charged (w1 is never the oldest while w0 is ready).
    ScriptWorkload wl;
    EXPECT_EQ(stallCounts(std::make_unique<Counting<GtoPolicy>>(), twoIndependentWarps(wl), 2), (Counts{0, 0}));
}

TEST(IpawsIssueStallCounter, NotKeptForPoliciesThatDoNotReadIt) {
    // The round-robin run above without the capability: the SM skips the scan, w0 stays at 0.
    ScriptWorkload wl;
    EXPECT_EQ(stallCounts(std::make_unique<LrrPolicy>(), twoIndependentWarps(wl), 1), (Counts{0}));
}

TEST(IpawsIssueStallCounter, UnitBusyChargesEveryReadyWarpReachedBehindABusyUnit) {
    // GTO (whose idleWhileStalled() the SM ignores once a stall counter is asked for, so every
    // walk happens), one SFU (interval 8, latency 20), three warps: SFU R1 ; ALU R2 <- R1 ; EXIT.
    //  c3: w0 SFU (the unit takes the next at 11; R1 due 23).
    //  c4..c10: the walk reaches w0 (waiting for R1: a hazard, not charged), then w1 and w2,
    //           both hazard-free and refused by the busy SFU: 7 each.
    //  c11: w0 still waits; w1 SFU issues (next at 19) and the walk stops: w2 not reached.
    //  c12..c18: w0 and w1 wait for their results; w2 refused: 7 more.  c19: w2 SFU.
    //  Later instructions are ALU (room every cycle) and EXIT: no more refusals.
    // w0 0, w1 7, w2 14: the warp that waited longest behind the unit leads. (The OldestReady
    // rule on the same run charges only the oldest ready warp: the next test.)
    ScriptWorkload wl;
    const Counts counts = stallCounts(std::make_unique<Counting<GtoPolicy, Rule::UnitBusy>>(), threeSfuWarps(wl), 3);
    EXPECT_EQ(counts, (Counts{0, 7, 14}));
}

TEST(IpawsIssueStallCounter, OldestReadyOnTheBusyUnitRunChargesOneWarpPerCycle) {
    // The run above under the OldestReady rule: w1 is the oldest ready warp in c4-c10 (7), w2 in
    // c12-c18 (7); w0 waits on its hazard and is never charged.
    ScriptWorkload wl;
    EXPECT_EQ(stallCounts(std::make_unique<Counting<GtoPolicy>>(), threeSfuWarps(wl), 3), (Counts{0, 7, 7}));
}

TEST(IpawsIssueStallCounter, UnitBusyChargesNothingWhileTheUnitsHaveRoom) {
    // The two independent-ALU warps under round-robin: the ALU always has room, so no warp is
    // ever refused by a unit (the OldestReady rule charges w0 3 on this run, above).
    ScriptWorkload wl;
    const Counts counts =
        stallCounts(std::make_unique<Counting<LrrPolicy, Rule::UnitBusy>>(), twoIndependentWarps(wl), 2);
    EXPECT_EQ(counts, (Counts{0, 0}));
}

} // namespace ipaws_issue_stall_counter_test
