// InstructionBuffer: a ring of fixed capacity, filled in place through next()/push().
#include <gtest/gtest.h>

#include "modules/InstructionBuffer.hpp"

namespace instruction_buffer_test {

using namespace gpusim;

namespace {
void fill(InstructionBuffer& b, uint64_t pc, uint8_t numDst = 0) {
    WarpInstruction& s = b.next();
    s.pc = pc;
    s.numDst = numDst;
    b.push();
}
} // namespace

TEST(InstructionBuffer, FifoOrderAcrossTheWrap) {
    InstructionBuffer b;
    b.setCapacity(2);
    EXPECT_TRUE(b.empty());
    fill(b, 0x00);
    fill(b, 0x08);
    EXPECT_TRUE(b.full());
    EXPECT_EQ(b.size(), 2u);
    EXPECT_EQ(b.front().pc, 0x00u);
    b.pop_front();
    // The third goes into slot 0 again (head is slot 1): order must stay 0x08, 0x10.
    fill(b, 0x10);
    EXPECT_EQ(b.front().pc, 0x08u);
    b.pop_front();
    EXPECT_EQ(b.front().pc, 0x10u);
    b.pop_front();
    EXPECT_TRUE(b.empty());
}

TEST(InstructionBuffer, NextSlotStartsFromDefaults) {
    // A stream may leave fields at their defaults; a reused slot must not keep the old values.
    // The per-lane addresses are the exception: only active lanes' count, and every producer
    // writes those.
    InstructionBuffer b;
    b.setCapacity(1);
    WarpInstruction& old = b.next();
    old.pc = 0x40;
    old.op = OpClass::Load;
    old.space = MemSpace::Shared;
    old.activeMask = 0xffffffffu;
    old.numDst = 2;
    old.dst[0] = 7;
    old.src[3] = 9;
    old.accessBytes = 8;
    old.atomic = true;
    b.push();
    b.pop_front();
    const WarpInstruction& s = b.next();
    const WarpInstruction blank{};
    EXPECT_EQ(s.pc, 0u);
    EXPECT_EQ(s.op, blank.op);
    EXPECT_EQ(s.space, blank.space);
    EXPECT_EQ(s.activeMask, 0u);
    EXPECT_EQ(s.numDst, 0u);
    EXPECT_EQ(s.dst[0], kNoReg);
    EXPECT_EQ(s.src[3], kNoReg);
    EXPECT_EQ(s.accessBytes, 0u);
    EXPECT_FALSE(s.atomic);
}

TEST(InstructionBuffer, ClearEmptiesKeepingCapacity) {
    InstructionBuffer b;
    b.setCapacity(3);
    fill(b, 1);
    fill(b, 2);
    b.clear();
    EXPECT_TRUE(b.empty());
    EXPECT_EQ(b.capacity(), 3u);
    fill(b, 3);
    EXPECT_EQ(b.front().pc, 3u);
}

} // namespace instruction_buffer_test
