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
    InstructionBuffer b;
    b.setCapacity(1);
    fill(b, 0x40, 2);
    b.pop_front();
    const WarpInstruction& s = b.next();
    EXPECT_EQ(s.pc, 0u);
    EXPECT_EQ(s.numDst, 0u);
    EXPECT_EQ(s.dst[0], kNoReg);
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
