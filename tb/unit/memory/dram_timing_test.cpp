// DRAM timing presets and overrides (DramConfig), the bank state machine (DramBank), the
// timing checker (DramTimingChecker) and the scheduler (DramScheduler), without SystemC
// simulation. GDDR5 numbers from DESIGN.md section 8 (see DramConfig.hpp).
#include <gtest/gtest.h>

#include "bench/DramTraffic.hpp"

namespace dram_timing_test {

using namespace gpusim;
using gpusim::dramtest::DramParams;

namespace {
std::string validationError(DramParams& m) {
    try {
        m.cfg->validate();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}
} // namespace

TEST(DramConfig, Gddr5AndGddr3Presets) {
    const DramTiming a = DramTiming::preset("gddr5");
    EXPECT_EQ(a.tCL, 12u);
    EXPECT_EQ(a.tRP, 12u);
    EXPECT_EQ(a.tRC, 40u);
    EXPECT_EQ(a.tRAS, 28u);
    EXPECT_EQ(a.tRCD, 12u);
    EXPECT_EQ(a.tRRD, 6u);
    EXPECT_EQ(a.tCDLR, 5u);
    EXPECT_EQ(a.tWR, 12u);
    EXPECT_EQ(a.tWL, 4u);
    EXPECT_EQ(a.tCCD, 2u);
    EXPECT_EQ(a.burstCycles(), 2u);  // 8 beats at 4 per cycle
    EXPECT_EQ(a.tRTW, 12u);          // 12 + 2 + 2 - 4
    const DramTiming b = DramTiming::preset("gddr3");
    EXPECT_EQ(b.tCL, 10u);
    EXPECT_EQ(b.tRP, 10u);
    EXPECT_EQ(b.tRC, 35u);
    EXPECT_EQ(b.tRAS, 25u);
    EXPECT_EQ(b.tRCD, 12u);
    EXPECT_EQ(b.tRRD, 8u);
    EXPECT_EQ(b.tCDLR, 6u);
    EXPECT_EQ(b.tWR, 11u);
    EXPECT_EQ(b.burstCycles(), 2u);  // 4 beats at 2 per cycle
    EXPECT_EQ(b.burstBytes(), 32u);  // on the default 8-byte bus
    EXPECT_EQ(b.tRTW, 7u);           // 10 + 2 + 2 - 7
}

TEST(DramConfig, EveryValueOverridesThePreset) {
    DramParams m;
    m.set("dram.preset", "gddr3").set("dram.tCL", 14).set("dram.tRRD", 3).set("dram.bus_bytes", 16);
    EXPECT_EQ(validationError(m), "");
    const DramTiming t = DramTiming::from(*m.cfg);
    EXPECT_EQ(t.tCL, 14u);
    EXPECT_EQ(t.tRRD, 3u);
    EXPECT_EQ(t.tRP, 10u);           // still the preset's
    EXPECT_EQ(t.tRTW, 14u + 2 + 2 - 7);  // derived from the overridden tCL
    EXPECT_EQ(t.burstBytes(), 64u);
    m.set("dram.tRTW", 20);
    EXPECT_EQ(DramTiming::from(*m.cfg).tRTW, 20u);
    EXPECT_EQ(m.cfg->getString("memory.model"), "frfcfs");
    EXPECT_DOUBLE_EQ(m.cfg->getDouble("dram.clock_mhz"), 924.0);
    EXPECT_EQ(m.cfg->getInt("dram.queue_size"), 32);
}

TEST(DramConfig, BurstMustBeAMultipleOfTheDataRate) {
    DramParams m;
    m.set("dram.burst_length", 6);
    EXPECT_EQ(validationError(m), "test: dram.burst_length: burst length 6 is not a positive multiple of the data rate (4)");
}

// Bank state machine: idle -> activating (until ACT + tRCD) -> active -> precharging (until
// PRE + tRP) -> idle.
TEST(DramBank, StateMachine) {
    const DramTiming t = DramTiming::preset("gddr5");
    DramBank b;
    EXPECT_EQ(b.state(0, t), DramBank::State::Idle);
    b.activate(7, 10);
    EXPECT_EQ(b.state(21, t), DramBank::State::Activating);
    EXPECT_EQ(b.state(22, t), DramBank::State::Active);
    EXPECT_EQ(b.openRow(), 7u);
    b.column(false, 0x80);
    b.column(true, 0x100);
    EXPECT_EQ(b.readAddrs(), std::vector<uint64_t>{0x80});
    EXPECT_EQ(b.writes(), 1u);
    b.precharge(40);
    EXPECT_FALSE(b.rowOpen());
    EXPECT_EQ(b.state(51, t), DramBank::State::Precharging);
    EXPECT_EQ(b.state(52, t), DramBank::State::Idle);
    EXPECT_THROW(b.precharge(60), std::logic_error);
    b.activate(8, 60);
    EXPECT_THROW(b.activate(9, 70), std::logic_error);
    EXPECT_TRUE(b.readAddrs().empty());  // reset by the new ACT
}

// Earliest cycles, by hand (GDDR5, B = 2):
TEST(DramTimingChecker, EachConstraint) {
    const DramTiming t = DramTiming::preset("gddr5");
    DramTimingChecker c(t, 16);
    EXPECT_EQ(c.earliest(DramCmd::Act, 0), 0u);
    c.record(DramCmd::Act, 0, 10);
    EXPECT_EQ(c.earliest(DramCmd::Act, 1), 16u);  // tRRD
    EXPECT_EQ(c.earliest(DramCmd::Rd, 0), 22u);   // tRCD
    EXPECT_EQ(c.earliest(DramCmd::Wr, 0), 22u);
    EXPECT_EQ(c.earliest(DramCmd::Pre, 0), 38u);  // tRAS
    c.record(DramCmd::Rd, 0, 22);
    EXPECT_EQ(c.earliest(DramCmd::Rd, 0), 24u);   // tCCD
    EXPECT_EQ(c.earliest(DramCmd::Wr, 0), 34u);   // tRTW 12
    EXPECT_EQ(c.earliest(DramCmd::Pre, 0), 38u);  // tRAS still binds (tRTP: 24)
    EXPECT_EQ(c.dataEnd(DramCmd::Rd, 22), 36u);   // 22 + 12 + 2
    c.record(DramCmd::Wr, 0, 34);
    EXPECT_EQ(c.dataEnd(DramCmd::Wr, 34), 40u);   // 34 + 4 + 2
    EXPECT_EQ(c.earliest(DramCmd::Rd, 0), 45u);   // write-to-read: 40 + tCDLR 5
    EXPECT_EQ(c.earliest(DramCmd::Pre, 0), 52u);  // write recovery: 40 + tWR 12
    c.record(DramCmd::Pre, 0, 52);
    EXPECT_EQ(c.earliest(DramCmd::Act, 0), 64u);  // tRP (tRC: 50)
    EXPECT_THROW(c.record(DramCmd::Act, 0, 63), std::logic_error);
    c.record(DramCmd::Act, 0, 64);
    EXPECT_EQ(c.earliest(DramCmd::Act, 0), 104u);  // tRC (64 + 40), no PRE yet either
    EXPECT_EQ(c.earliest(DramCmd::Act, 5), 70u);   // tRRD
}

// ACT to ACT in one bank: tRC binds when ACT + tRAS + tRP is earlier.
TEST(DramTimingChecker, TRcBindsWhenThePrechargeIsEarly) {
    DramTiming t = DramTiming::preset("gddr5");
    t.tRAS = 10;  // so tRC (40) is the binding ACT-to-ACT constraint, not tRAS + tRP (22)
    DramTimingChecker c(t, 16);
    c.record(DramCmd::Act, 3, 0);
    c.record(DramCmd::Pre, 3, 10);
    EXPECT_EQ(c.earliest(DramCmd::Act, 3), 40u);
}

// Bank groups (dram.bank_groups 4 of 16 banks: group = bank / 4). ACT b0 at 0, b1 at 6, b4 at
// 12; RD b0 at 24 (every tRCD over). Then, with tRAS 10 so it does not hide anything:
//   RD b1 (b0's group):   max(lastCol 24 + tCCD 2, bus 38 - tCL 12, group 24 + tCCDL 3) = 27
//   RD b4 (other group):  max(26, 26) = 26
//   PRE b1 (b0's group):  max(ACT 6 + tRAS = 16, group RD 24 + tRTPL 8) = 32
//   PRE b4:               12 + 10 = 22
// Without groups: RD b1 at 26, PRE b1 at 16.
TEST(DramTimingChecker, BankGroupsAddTccdlAndTrtplInsideAGroup) {
    DramTiming t = DramTiming::preset("gddr5");
    t.tRAS = 10;
    t.tRTPL = 8;
    for (unsigned groups : {4u, 1u}) {
        t.bankGroups = groups;
        DramTimingChecker c(t, 16);
        c.record(DramCmd::Act, 0, 0);
        c.record(DramCmd::Act, 1, 6);
        c.record(DramCmd::Act, 4, 12);
        c.record(DramCmd::Rd, 0, 24);
        EXPECT_EQ(c.earliest(DramCmd::Rd, 1), groups == 4 ? 27u : 26u) << groups;
        EXPECT_EQ(c.earliest(DramCmd::Wr, 1), 36u) << groups;  // tRTW 12 binds either way
        EXPECT_EQ(c.earliest(DramCmd::Rd, 4), 26u) << groups;
        EXPECT_EQ(c.earliest(DramCmd::Pre, 1), groups == 4 ? 32u : 16u) << groups;
        EXPECT_EQ(c.earliest(DramCmd::Pre, 4), 22u) << groups;
        // A WR sets the group's column time too, not its RD-to-PRE time.
        c.record(DramCmd::Wr, 4, 36);
        EXPECT_EQ(c.earliest(DramCmd::Rd, 5), 47u) << groups;  // write-to-read: 36 + 4 + 2 + tCDLR 5
        EXPECT_EQ(c.earliest(DramCmd::Wr, 5), groups == 4 ? 39u : 38u) << groups;  // tCCDL / tCCD
    }
}

// The checker keeps answers between commands (a bank's own bound until a command goes to the
// bank or its group; the all-bank bound per command): an answer asked before a command must move
// with it. GDDR5, 4 groups of 4 banks, tRAS 10, tRTPL 8; ACT b1 at 0 and b0 at 6, then:
//   before RD b0 at 18:  RD b1 = ACT 0 + tRCD 12 = 12; PRE b1 = 0 + tRAS 10 = 10;
//                        ACT b9 = lastAct 6 + tRRD 6 = 12
//   after it:            RD b1 = max(12, lastCol 18 + tCCD 2, bus 32 - tCL 12, group 18 + tCCDL 3)
//                        = 21; PRE b1 = max(10, group RD 18 + tRTPL 8) = 26; RD b5 (other group)
//                        = 20; ACT b9 still 12
//   after ACT b5 at 20:  ACT b9 = 20 + 6 = 26; RD b5 = max(20 + tRCD 12, 20) = 32; RD b1 still 21
TEST(DramTimingChecker, AnswersAskedBeforeACommandMoveWithIt) {
    DramTiming t = DramTiming::preset("gddr5");
    t.tRAS = 10;
    t.tRTPL = 8;
    t.bankGroups = 4;
    DramTimingChecker c(t, 16);
    c.record(DramCmd::Act, 1, 0);
    c.record(DramCmd::Act, 0, 6);
    EXPECT_EQ(c.earliest(DramCmd::Rd, 1), 12u);
    EXPECT_EQ(c.earliest(DramCmd::Pre, 1), 10u);
    EXPECT_EQ(c.earliest(DramCmd::Act, 9), 12u);
    c.record(DramCmd::Rd, 0, 18);
    EXPECT_EQ(c.earliest(DramCmd::Rd, 1), 21u);
    EXPECT_EQ(c.earliest(DramCmd::Pre, 1), 26u);
    EXPECT_EQ(c.earliest(DramCmd::Rd, 5), 20u);
    EXPECT_EQ(c.earliest(DramCmd::Act, 9), 12u);
    c.record(DramCmd::Act, 5, 20);
    EXPECT_EQ(c.earliest(DramCmd::Act, 9), 26u);
    EXPECT_EQ(c.earliest(DramCmd::Rd, 5), 32u);
    EXPECT_EQ(c.earliest(DramCmd::Rd, 1), 21u);
}

TEST(DramConfig, BankGroupsMustDivideTheBanks) {
    DramParams m;
    m.set("dram.bank_groups", 3);
    EXPECT_EQ(validationError(m), "test: dram.bank_groups: 3 does not divide dram.banks (16)");
    m.set("dram.bank_groups", 4);
    EXPECT_EQ(validationError(m), "");
    EXPECT_EQ(DramTiming::from(*m.cfg).bankGroups, 4u);
    EXPECT_EQ(DramTiming::from(*m.cfg).tCCDL, 3u);  // GDDR5 (GPGPU-Sim's GTX480 CCDL=3)
    EXPECT_EQ(DramTiming::from(*m.cfg).tRTPL, 2u);
}

using dramtest::queuedRequest;

// Bank 0 has row 1 open (ACT at 0, tRCD over at 12). Queue: X (bank 0 row 2, older), Y (bank 0
// row 1). FR-FCFS at 12: Y's RD. FCFS at 12: X's PRE is not legal before tRAS (28), and Y is
// not its bank's oldest: nothing; at 28: X's PRE.
TEST(DramScheduler, RowHitFirstVersusArrivalOrder) {
    const DramTiming t = DramTiming::preset("gddr5");
    DramTimingChecker chk(t, 16);
    std::vector<DramBank> banks(16);
    banks[0].activate(1, 0);
    chk.record(DramCmd::Act, 0, 0);
    const std::vector<DramRequest> q = {queuedRequest(0, 0, 2), queuedRequest(1, 0, 1)};
    const DramScheduler fr(DramScheduler::Policy::FrFcfs), fcfs(DramScheduler::Policy::Fcfs);
    auto d = fr.pick(q, banks, chk, 12);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 1u);
    EXPECT_EQ(d->cmd, DramCmd::Rd);
    EXPECT_FALSE(fr.pick(q, banks, chk, 11)) << "tRCD not over: nothing, and no PRE while a hit waits";
    EXPECT_FALSE(fcfs.pick(q, banks, chk, 12));
    d = fcfs.pick(q, banks, chk, 28);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 0u);
    EXPECT_EQ(d->cmd, DramCmd::Pre);
    d = fr.pick(q, banks, chk, 30);  // past tRAS, X's PRE is legal, yet the hit goes first
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 1u);
    EXPECT_EQ(d->cmd, DramCmd::Rd);
    chk.record(DramCmd::Rd, 0, 30);
    EXPECT_FALSE(fr.pick(q, banks, chk, 31)) << "Y's second RD waits for tCCD and X's PRE for the hit";
}

// Oldest-first among row commands, banks in parallel, ineligible requests ignored: bank 2's
// ACT (older) before bank 5's; a request not yet eligible is skipped; tRRD blocks the next.
TEST(DramScheduler, OldestReadyRowCommandAndEligibility) {
    const DramTiming t = DramTiming::preset("gddr5");
    DramTimingChecker chk(t, 16);
    std::vector<DramBank> banks(16);
    const DramScheduler fr(DramScheduler::Policy::FrFcfs);
    std::vector<DramRequest> q = {queuedRequest(0, 2, 0, false, 5), queuedRequest(1, 5, 0, true, 3)};
    auto d = fr.pick(q, banks, chk, 4);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 1u) << "request 0 is not eligible before cycle 5";
    d = fr.pick(q, banks, chk, 5);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 0u);
    EXPECT_EQ(d->cmd, DramCmd::Act);
    chk.record(DramCmd::Act, 2, 5);
    banks[2].activate(0, 5);
    EXPECT_FALSE(fr.pick(q, banks, chk, 10)) << "tRRD: bank 5's ACT not before 11";
    d = fr.pick(q, banks, chk, 11);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 1u);
    EXPECT_EQ(d->cmd, DramCmd::Act);
}

// The per-bank marks of a pick (FR-FCFS: a pending hit holds its bank's row open; FCFS: the
// bank's oldest request was seen) last that pick only: the same scheduler asked again about a
// queue without the marking request decides afresh. GDDR5: tRCD 12, tRAS 28.
TEST(DramScheduler, ABanksMarksLastOnePick) {
    const DramTiming t = DramTiming::preset("gddr5");
    const DramScheduler fr(DramScheduler::Policy::FrFcfs), fcfs(DramScheduler::Policy::Fcfs);
    DramTimingChecker chk(t, 16);
    std::vector<DramBank> banks(16);
    banks[0].activate(1, 0);
    chk.record(DramCmd::Act, 0, 0);
    // X (bank 0, row 2: a conflict) and Y (bank 0, row 1: a hit).
    const std::vector<DramRequest> both = {queuedRequest(0, 0, 2), queuedRequest(1, 0, 1)};
    const std::vector<DramRequest> onlyX = {queuedRequest(0, 0, 2)}, onlyY = {queuedRequest(1, 0, 1)};
    auto d = fr.pick(both, banks, chk, 30);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 1u) << "Y's hit first; bank 0 marked as holding a hit";
    d = fr.pick(onlyX, banks, chk, 30);
    ASSERT_TRUE(d) << "without Y no hit holds the row: X's PRE (tRAS over at 28)";
    EXPECT_EQ(d->cmd, DramCmd::Pre);
    EXPECT_FALSE(fcfs.pick(both, banks, chk, 12)) << "X is bank 0's oldest; its PRE waits for tRAS";
    d = fcfs.pick(onlyY, banks, chk, 12);
    ASSERT_TRUE(d) << "Y alone is bank 0's oldest: its RD at tRCD";
    EXPECT_EQ(d->cmd, DramCmd::Rd);
}

// Row commands come from each bank's oldest non-hit request; among the banks whose command is
// legal, the oldest request goes, whatever the bank numbers. GDDR5: tRRD 6, tRCD 12.
TEST(DramScheduler, OldestRowCommandAcrossBanks) {
    const DramTiming t = DramTiming::preset("gddr5");
    const DramScheduler fr(DramScheduler::Policy::FrFcfs);
    DramTimingChecker chk(t, 16);
    std::vector<DramBank> banks(16);
    // A (bank 3, row 0), B (bank 1, row 0), C (bank 3, row 5); every bank precharged.
    const std::vector<DramRequest> q = {queuedRequest(0, 3, 0), queuedRequest(1, 1, 0), queuedRequest(2, 3, 5)};
    auto d = fr.pick(q, banks, chk, 0);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 0u) << "A's and B's ACTs are both legal: the older, A, though bank 1 < bank 3";
    EXPECT_EQ(d->cmd, DramCmd::Act);
    chk.record(DramCmd::Act, 3, 0);
    banks[3].activate(0, 0);
    // At 3: A is a hit waiting for tRCD (12), C's PRE is held by A's hit, B's ACT waits for tRRD (6).
    uint64_t quiet = 0;
    EXPECT_FALSE(fr.pick(q, banks, chk, 3, &quiet));
    EXPECT_EQ(quiet, 6u);
    d = fr.pick(q, banks, chk, 6);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 1u);
    EXPECT_EQ(d->cmd, DramCmd::Act);
    // Once A has left, C's PRE is no longer held (tRAS 28 after A's ACT at 0).
    const std::vector<DramRequest> bc = {queuedRequest(1, 1, 0), queuedRequest(2, 3, 5)};
    chk.record(DramCmd::Act, 1, 6);
    banks[1].activate(0, 6);
    d = fr.pick(bc, banks, chk, 28);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 0u) << "B's RD (a hit, tRCD over at 18) before C's PRE";
    EXPECT_EQ(d->cmd, DramCmd::Rd);
    d = fr.pick({queuedRequest(2, 3, 5)}, banks, chk, 28);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->cmd, DramCmd::Pre);
}

// quietUntil: when a pick finds nothing, the first cycle one could find something unless the
// queue or the command history change. Hand-computed with GDDR5 (tRCD 12, tRAS 28, tRRD 6).
TEST(DramScheduler, QuietUntilIsTheFirstCycleACandidateCouldGo) {
    const DramTiming t = DramTiming::preset("gddr5");
    const DramScheduler fr(DramScheduler::Policy::FrFcfs), fcfs(DramScheduler::Policy::Fcfs);
    {
        // Bank 0 row 1 opened at 0; X (bank 0 row 2) then Y (bank 0 row 1). FR-FCFS at 5: Y's RD
        // waits for tRCD (12); X's PRE is held by Y's hit, so it adds nothing. FCFS at 12: X is
        // the bank's oldest, its PRE waits for tRAS (28).
        DramTimingChecker chk(t, 16);
        std::vector<DramBank> banks(16);
        banks[0].activate(1, 0);
        chk.record(DramCmd::Act, 0, 0);
        const std::vector<DramRequest> q = {queuedRequest(0, 0, 2), queuedRequest(1, 0, 1)};
        uint64_t quiet = 0;
        EXPECT_FALSE(fr.pick(q, banks, chk, 5, &quiet));
        EXPECT_EQ(quiet, 12u);
        EXPECT_FALSE(fcfs.pick(q, banks, chk, 12, &quiet));
        EXPECT_EQ(quiet, 28u);
        quiet = 7;
        EXPECT_TRUE(fr.pick(q, banks, chk, 12, &quiet));
        EXPECT_EQ(quiet, 7u) << "a decision leaves it unchanged";
        uint64_t none = 0;
        EXPECT_FALSE(fr.pick({}, banks, chk, 12, &none));
        EXPECT_EQ(none, UINT64_MAX) << "an empty queue: nothing until a request arrives";
    }
    {
        // Request 0 (bank 2, eligible at 5), request 1 (bank 5, eligible at 3). At 2 neither is
        // eligible: 3. After bank 2's ACT at 5, at 6: request 0's RD waits for tRCD (17), request
        // 1's ACT for tRRD (11): 11.
        DramTimingChecker chk(t, 16);
        std::vector<DramBank> banks(16);
        const std::vector<DramRequest> q = {queuedRequest(0, 2, 0, false, 5), queuedRequest(1, 5, 0, true, 3)};
        uint64_t quiet = 0;
        EXPECT_FALSE(fr.pick(q, banks, chk, 2, &quiet));
        EXPECT_EQ(quiet, 3u);
        chk.record(DramCmd::Act, 2, 5);
        banks[2].activate(0, 5);
        EXPECT_FALSE(fr.pick(q, banks, chk, 6, &quiet));
        EXPECT_EQ(quiet, 11u);
        EXPECT_FALSE(fr.pick(q, banks, chk, 10));
        EXPECT_TRUE(fr.pick(q, banks, chk, 11));
    }
}

// FR-FCFS counts the row hits of a column command kind that the per-command bound rules out
// with that bound (GDDR5). Banks 0 and 1 have row 1 open (ACT at 0 and 6); bank 0 reads at 12,
// so the data bus is busy until 12 + tCL 12 + burst 2 = 26. The bounds for every bank: RD
// max(12 + tCCD 2, 26 - tCL) = 14, WR max(14, 12 + tRTW 12, 26 - tWL 4) = 24. Queue: A, a read
// of bank 1 row 1 (its bank's own bound: 6 + tRCD 12 = 18), and B, a write of bank 0 row 1
// (bank's own 12). At 13 both kinds are ruled out: quiet is the RD bound 14, earlier than A's
// 18, which costs a scan at 14 that finds nothing and sets 18; A's RD goes at 18, not before.
TEST(DramScheduler, HitsRuledOutByTheCommandBoundWaitForIt) {
    const DramTiming t = DramTiming::preset("gddr5");
    DramTimingChecker chk(t, 16);
    std::vector<DramBank> banks(16);
    banks[0].activate(1, 0);
    chk.record(DramCmd::Act, 0, 0);
    banks[1].activate(1, 6);
    chk.record(DramCmd::Act, 1, 6);
    chk.record(DramCmd::Rd, 0, 12);
    EXPECT_EQ(chk.globalEarliest(DramCmd::Rd), 14u);
    EXPECT_EQ(chk.globalEarliest(DramCmd::Wr), 24u);
    const std::vector<DramRequest> q = {queuedRequest(0, 1, 1), queuedRequest(1, 0, 1, true)};
    const DramScheduler fr(DramScheduler::Policy::FrFcfs);
    uint64_t quiet = 0;
    EXPECT_FALSE(fr.pick(q, banks, chk, 13, &quiet));
    EXPECT_EQ(quiet, 14u);
    EXPECT_FALSE(fr.pick(q, banks, chk, 14, &quiet));
    EXPECT_EQ(quiet, 18u);
    EXPECT_FALSE(fr.pick(q, banks, chk, 17));
    const auto d = fr.pick(q, banks, chk, 18);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->index, 0u);
    EXPECT_EQ(d->cmd, DramCmd::Rd);
}

} // namespace dram_timing_test
