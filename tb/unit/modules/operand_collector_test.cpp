// OperandCollector alone, cycle by cycle, as the SM drives it: in cycle c the SM first takes what
// the execute registers hold (ready/pop), then calls step(), then issues (issue()). So with no
// conflict an instruction issued in cycle 0 is in a collector unit after step 1, has its operands
// after step 2, is in the execute register after step 3 and enters its unit in cycle 4.
// 16 banks; register r of warp w is in bank (r + w) mod 16 (GPGPU-Sim's register_bank).
#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

#include "modules/OperandCollector.hpp"

namespace operand_collector_test {

using namespace gpusim;

namespace {

WarpInstruction inst(OpClass op, std::initializer_list<uint16_t> srcs, uint64_t pc = 0) {
    WarpInstruction i;
    i.pc = pc;
    i.op = op;
    i.activeMask = 0xffffffffu;
    for (uint16_t r : srcs) i.src[i.numSrc++] = r;
    return i;
}

CollectorConfig gtx480() {
    CollectorConfig c;
    c.banks = 16;
    c.units = {6, 8, 2};
    c.ports = {2, 1, 1};
    return c;
}

struct Bench {
    StatRegistry stats;
    OperandCollector oc;
    explicit Bench(const CollectorConfig& c = gtx480()) : oc(c, stats, "oc.") {}
    uint64_t n(const char* s) const { return static_cast<uint64_t>(stats.get(std::string("oc.") + s)); }

    // Runs steps from cycle `from` until the set's execute register holds an entry; returns the
    // cycle its unit takes it (the cycle after the step that put it there), popping it.
    uint64_t cycleEntering(CollectorSet s, uint64_t from, uint64_t limit = 100) {
        for (uint64_t c = from; c < limit; ++c) {
            if (oc.ready(s)) {
                oc.pop(s);
                return c;
            }
            oc.step();
        }
        return UINT64_MAX;
    }
};

} // namespace

TEST(OperandCollector, TwoSourcesInTwoBanksEnterTheUnitFourCyclesAfterIssue) {
    Bench b;
    b.oc.issue(CollectorSet::Alu, 0, inst(OpClass::Alu, {1, 2}));  // cycle 0; banks 1 and 2
    EXPECT_FALSE(b.oc.empty());
    EXPECT_EQ(b.cycleEntering(CollectorSet::Alu, 1), 4u);
    EXPECT_TRUE(b.oc.empty());
    EXPECT_EQ(b.n("reads"), 2u);
    EXPECT_EQ(b.n("bank_conflicts"), 0u);
}

TEST(OperandCollector, NoSourceIsReadyAfterItsAllocation) {
    // Allocated at step 1 with nothing to read: dispatched at step 2, in the unit at 3.
    Bench b;
    b.oc.issue(CollectorSet::Alu, 0, inst(OpClass::Alu, {}));
    EXPECT_EQ(b.cycleEntering(CollectorSet::Alu, 1), 3u);
    EXPECT_EQ(b.n("reads"), 0u);
}

TEST(OperandCollector, TwoSourcesInOneBankTakeTwoReadCycles) {
    // R0 and R16 of warp 0 are both in bank 0: one read at step 2, the other at 3, dispatch at 4.
    Bench b;
    b.oc.issue(CollectorSet::Alu, 0, inst(OpClass::Alu, {0, 16}));
    EXPECT_EQ(b.cycleEntering(CollectorSet::Alu, 1), 5u);
    EXPECT_EQ(b.n("reads"), 2u);
    EXPECT_EQ(b.n("bank_conflicts"), 1u);  // R16 waited one cycle
}

TEST(OperandCollector, ASourceNamedTwiceIsReadOnce) {
    Bench b;
    b.oc.issue(CollectorSet::Alu, 0, inst(OpClass::Alu, {5, 5, 5}));
    EXPECT_EQ(b.cycleEntering(CollectorSet::Alu, 1), 4u);
    EXPECT_EQ(b.n("reads"), 1u);
}

TEST(OperandCollector, TheWarpShiftsTheBank) {
    // Warp 1's R15 and warp 0's R0 are both in bank 0; warp 0's R15 would be in bank 15.
    EXPECT_EQ(OperandCollector::bank(15, 1, 16), 0u);
    EXPECT_EQ(OperandCollector::bank(0, 0, 16), 0u);
    EXPECT_EQ(OperandCollector::bank(15, 0, 16), 15u);
    // Issued together (two ALU ports): both allocated at step 1 in issue order, warp 1's read
    // queued first, served at 2; warp 0's at 3. Warp 1 enters at 4, warp 0 at 5.
    Bench b;
    b.oc.issue(CollectorSet::Alu, 1, inst(OpClass::Alu, {15}));
    b.oc.issue(CollectorSet::Alu, 0, inst(OpClass::Alu, {0}));
    std::vector<std::pair<uint64_t, unsigned>> entered;
    for (uint64_t c = 1; c < 10; ++c) {
        while (const auto* e = b.oc.ready(CollectorSet::Alu)) {
            entered.emplace_back(c, e->warp);
            b.oc.pop(CollectorSet::Alu);
        }
        b.oc.step();
    }
    EXPECT_EQ(entered, (std::vector<std::pair<uint64_t, unsigned>>{{4, 1}, {5, 0}}));
    EXPECT_EQ(b.n("bank_conflicts"), 1u);
}

TEST(OperandCollector, AWrittenBankServesNoReadThatCycle) {
    // Warp 0 reads R3 (bank 3); a result is written to warp 0's R3 in cycle 2, before the step
    // that would read it: the read moves to step 3, the unit to cycle 5.
    Bench b;
    b.oc.issue(CollectorSet::Alu, 0, inst(OpClass::Alu, {3}));
    b.oc.step();          // cycle 1: allocated
    b.oc.write(0, 3);     // cycle 2: writeback first
    b.oc.write(0, 7);     //   (bank 7: nobody reads it, not a conflict)
    b.oc.step();          //   read refused
    EXPECT_EQ(b.n("reads"), 0u);
    EXPECT_EQ(b.n("write_conflicts"), 1u);
    EXPECT_EQ(b.cycleEntering(CollectorSet::Alu, 3), 5u);
    EXPECT_EQ(b.n("reads"), 1u);
}

TEST(OperandCollector, TheIssueRegisterHoldsPortsInstructions) {
    // MEM: 1 slot. A second memory instruction cannot issue until the first leaves for a
    // collector unit (step 1); the ALU's 2 slots take two.
    Bench b;
    EXPECT_TRUE(b.oc.canIssue(CollectorSet::Mem));
    b.oc.issue(CollectorSet::Mem, 0, inst(OpClass::Load, {1}));
    EXPECT_FALSE(b.oc.canIssue(CollectorSet::Mem));
    EXPECT_TRUE(b.oc.canIssue(CollectorSet::Alu));
    b.oc.issue(CollectorSet::Alu, 0, inst(OpClass::Alu, {1}));
    b.oc.issue(CollectorSet::Alu, 1, inst(OpClass::Alu, {1}));
    EXPECT_FALSE(b.oc.canIssue(CollectorSet::Alu));
    b.oc.step();
    EXPECT_TRUE(b.oc.canIssue(CollectorSet::Mem));
    EXPECT_TRUE(b.oc.canIssue(CollectorSet::Alu));
}

TEST(OperandCollector, BusyCollectorUnitsAndAFullExecuteRegisterHoldInstructionsBack) {
    // MEM: 2 collector units, 1 execute slot, 1 issue slot; the LD/ST unit takes nothing until
    // cycle 7. Four memory instructions A-D without sources, one issued whenever there is room:
    //   c0 issue A;  c1 step: A -> unit 0;                           issue B
    //   c2 step: A -> execute register (dispatcher's last = unit 0); B -> unit 0;  issue C
    //   c3 step: execute register full; C -> unit 1;                 issue D
    //   c4..6: both units busy, D stays in the issue register: nothing more can issue.
    Bench b;
    const WarpInstruction ld = inst(OpClass::Load, {});
    unsigned issued = 0;
    for (uint64_t c = 0; c <= 6; ++c) {
        if (c > 0) b.oc.step();
        if (issued < 4 && b.oc.canIssue(CollectorSet::Mem)) b.oc.issue(CollectorSet::Mem, issued++, ld);
    }
    EXPECT_EQ(issued, 4u);
    EXPECT_FALSE(b.oc.canIssue(CollectorSet::Mem));
    ASSERT_NE(b.oc.ready(CollectorSet::Mem), nullptr);
    EXPECT_EQ(b.oc.ready(CollectorSet::Mem)->warp, 0u);
    // c7: the unit takes A; the dispatcher searches round-robin from unit 1, so C (unit 1) goes
    // before the older B (unit 0), as GPGPU-Sim's find_ready does; D takes unit 1.
    b.oc.pop(CollectorSet::Mem);
    b.oc.step();
    ASSERT_NE(b.oc.ready(CollectorSet::Mem), nullptr);
    EXPECT_EQ(b.oc.ready(CollectorSet::Mem)->warp, 2u);
    EXPECT_TRUE(b.oc.canIssue(CollectorSet::Mem));
    // c8: B (unit 0) next, then c9: D (unit 1).
    b.oc.pop(CollectorSet::Mem);
    b.oc.step();
    EXPECT_EQ(b.oc.ready(CollectorSet::Mem)->warp, 1u);
    b.oc.pop(CollectorSet::Mem);
    b.oc.step();
    EXPECT_EQ(b.oc.ready(CollectorSet::Mem)->warp, 3u);
    b.oc.pop(CollectorSet::Mem);
    EXPECT_TRUE(b.oc.empty());
}

TEST(OperandCollector, TheOldestIssuedLeavesTheIssueRegisterFirst) {
    // ALU, 2 slots: warps 4 then 2 issued in one cycle are allocated to units 0 and 1 in issue
    // order (not slot order) and leave the execute register in that order.
    Bench b;
    b.oc.issue(CollectorSet::Alu, 4, inst(OpClass::Alu, {}));
    b.oc.issue(CollectorSet::Alu, 2, inst(OpClass::Alu, {}));
    b.oc.step();
    b.oc.step();
    ASSERT_NE(b.oc.ready(CollectorSet::Alu), nullptr);
    EXPECT_EQ(b.oc.ready(CollectorSet::Alu)->warp, 4u);
    b.oc.pop(CollectorSet::Alu);
    ASSERT_NE(b.oc.ready(CollectorSet::Alu), nullptr);
    EXPECT_EQ(b.oc.ready(CollectorSet::Alu)->warp, 2u);
    b.oc.pop(CollectorSet::Alu);
    EXPECT_TRUE(b.oc.empty());
}

} // namespace operand_collector_test
