#include <gtest/gtest.h>
#include <vector>

#include <stdexcept>

#include "common/SimError.hpp"
#include "workloads/InstructionFactory.hpp"
#include "workloads/WarpProgram.hpp"

namespace warp_program_test {

using namespace gpusim;

namespace {

WarpProgram counted(int* resumed, int body) {
    for (int k = 0; k < body; ++k) {
        ++*resumed;
        co_yield inst::alu(sassPc(k), 1u, {uint16_t(k)}, {});
    }
    ++*resumed;
    co_yield inst::exit(sassPc(body), 1u);
}

WarpProgram noExit() { co_yield inst::alu(0, 1u, {}, {}); }

WarpProgram afterExit() {
    co_yield inst::exit(0, 1u);
    co_yield inst::alu(sassPc(1), 1u, {}, {});
}

WarpProgram throwing() {
    co_yield inst::alu(0, 1u, {}, {});
    throw std::runtime_error("boom");
}

} // namespace

TEST(WarpProgram, RunsOnlyAsFarAsPulled) {
    int resumed = 0;
    WarpProgramStream s(counted(&resumed, 1000));
    EXPECT_EQ(resumed, 0);  // lazy start
    WarpInstruction in;
    ASSERT_TRUE(s.next(in));
    ASSERT_TRUE(s.next(in));
    EXPECT_EQ(resumed, 2);
    EXPECT_EQ(in.pc, 16u);
    EXPECT_EQ(in.dst[0], 1u);
}

TEST(WarpProgram, EndsAfterExit) {
    int resumed = 0;
    WarpProgramStream s(counted(&resumed, 2));
    WarpInstruction in;
    ASSERT_TRUE(s.next(in));
    ASSERT_TRUE(s.next(in));
    ASSERT_TRUE(s.next(in));
    EXPECT_EQ(in.op, OpClass::Exit);
    EXPECT_FALSE(s.next(in));
    EXPECT_FALSE(s.next(in));  // stays ended
}

TEST(WarpProgram, MissingExitIsAModelError) {
    WarpProgramStream s(noExit());
    WarpInstruction in;
    ASSERT_TRUE(s.next(in));
    EXPECT_THROW(s.next(in), ModelError);
}

TEST(WarpProgram, InstructionAfterExitIsAModelError) {
    WarpProgramStream s(afterExit());
    WarpInstruction in;
    ASSERT_TRUE(s.next(in));
    EXPECT_THROW(s.next(in), ModelError);
}

TEST(WarpProgram, BodyExceptionReachesTheCaller) {
    WarpProgramStream s(throwing());
    WarpInstruction in;
    ASSERT_TRUE(s.next(in));
    EXPECT_THROW(s.next(in), std::runtime_error);
}

TEST(WarpProgram, DestroyingAnUnfinishedStreamIsSafe) {
    int resumed = 0;
    {
        WarpProgramStream s(counted(&resumed, 10));
        WarpInstruction in;
        s.next(in);
    }
    EXPECT_EQ(resumed, 1);
}

TEST(InstructionFactory, MemoryOperationFillsOnlyActiveLanes) {
    WarpInstruction in = inst::load(0x40, 0b1010u, {5}, {2, 7}, 4, [](unsigned lane) { return 0x1000u + lane * 4; });
    EXPECT_EQ(in.op, OpClass::Load);
    EXPECT_EQ(in.numDst, 1);
    EXPECT_EQ(in.numSrc, 2);
    EXPECT_EQ(in.src[1], 7u);
    EXPECT_EQ(in.accessBytes, 4);
    EXPECT_EQ(in.addr[0], 0u);
    EXPECT_EQ(in.addr[1], 0x1004u);
    EXPECT_EQ(in.addr[2], 0u);
    EXPECT_EQ(in.addr[3], 0x100cu);
}

TEST(InstructionFactory, WriteEvaluatesActiveLanesOnlyAndLeavesTheOthers) {
    // A reused buffer, as the SM's is: the lane function runs once per active lane, in lane
    // order, and inactive lanes keep what they held (nothing reads them).
    WarpInstruction in;
    in.addr.fill(0xdead);
    std::vector<unsigned> asked;
    auto addrOf = [&asked](unsigned lane) {
        asked.push_back(lane);
        return 0x1000u + lane * 4;
    };
    inst::load(0x40, 0x80000005u, {5}, {2}, 4, addrOf).writeTo(in);
    EXPECT_EQ(asked, (std::vector<unsigned>{0, 2, 31}));
    EXPECT_EQ(in.addr[0], 0x1000u);
    EXPECT_EQ(in.addr[1], 0xdeadu);
    EXPECT_EQ(in.addr[2], 0x1008u);
    EXPECT_EQ(in.addr[30], 0xdeadu);
    EXPECT_EQ(in.addr[31], 0x107cu);
    // A full warp: every lane, in order.
    asked.clear();
    inst::store(0x80, ~0u, {2, 4}, 4, addrOf).writeTo(in);
    ASSERT_EQ(asked.size(), kWarpSize);
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        EXPECT_EQ(asked[lane], lane);
        EXPECT_EQ(in.addr[lane], 0x1000u + lane * 4);
    }
}

TEST(InstructionFactory, StoreWritesNoRegister) {
    WarpInstruction in = inst::store(0x80, 1u, {2, 4}, 4, [](unsigned) { return 0x2000u; });
    EXPECT_EQ(in.op, OpClass::Store);
    EXPECT_EQ(in.numDst, 0);
    EXPECT_EQ(in.dst[0], kNoReg);
    EXPECT_EQ(in.numSrc, 2);
}

TEST(InstructionFactory, CoYieldWritesEveryFieldOfTheCallersInstruction) {
    WarpInstruction in = inst::load(0x40, 1u, {5, 6}, {2, 3, 4}, 8, [](unsigned) { return 0x10u; },
                                    MemSpace::Shared);
    inst::alu(0x50, 3u, {9}, {7}).writeTo(in);  // reused buffer, as the SM's would be
    EXPECT_EQ(in.pc, 0x50u);
    EXPECT_EQ(in.op, OpClass::Alu);
    EXPECT_EQ(in.space, MemSpace::Global);
    EXPECT_EQ(in.activeMask, 3u);
    EXPECT_EQ(in.numDst, 1);
    EXPECT_EQ(in.numSrc, 1);
    EXPECT_EQ(in.src[0], 7u);
    EXPECT_EQ(in.accessBytes, 0);
}

TEST(InstructionFactory, TooManyDestinationsIsRejected) {
    EXPECT_THROW((void)WarpInstruction(inst::alu(0, 1u, {1, 2, 3}, {})), std::logic_error);
}

TEST(InstructionFactory, PcsAreSixteenBytesApart) {
    EXPECT_EQ(sassPc(0), 0u);
    EXPECT_EQ(sassPc(12), 0xc0u);
}

} // namespace warp_program_test
