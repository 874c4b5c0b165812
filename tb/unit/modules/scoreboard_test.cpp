// Scoreboard: RAW and WAW hazards per warp; RZ (255) and "no register" never block; uniform
// registers and predicates (WarpInstruction.hpp's namespace) are entries of their own.
#include <gtest/gtest.h>

#include "modules/Scoreboard.hpp"
#include "tb/unit/modules/ModuleTestHelpers.hpp"

namespace scoreboard_test {

using namespace gpusim;
using namespace gpusim::test;

TEST(Scoreboard, ReadAfterWriteBlocks) {
    Scoreboard sb(4);
    sb.reserve(1, 5);  // warp 1 has R5 in flight
    EXPECT_TRUE(sb.pending(1, 5));
    EXPECT_TRUE(sb.hazard(1, alu(0, 6, {5})));      // R6 <- R5: RAW
    EXPECT_TRUE(sb.hazard(1, alu(0, 6, {2, 3, 4, 5})));  // RAW on the 4th source
    EXPECT_FALSE(sb.hazard(1, alu(0, 6, {4})));     // unrelated
    EXPECT_FALSE(sb.hazard(0, alu(0, 6, {5})));     // other warp: own scoreboard
    EXPECT_FALSE(sb.empty(1));
    EXPECT_TRUE(sb.empty(0));
}

TEST(Scoreboard, WriteAfterWriteBlocks) {
    Scoreboard sb(2);
    sb.reserve(0, 7);
    EXPECT_TRUE(sb.hazard(0, alu(0, 7, {1})));  // R7 <- R1 while R7 in flight: WAW
    WarpInstruction two = alu(0, 8, {1});
    two.numDst = 2;
    two.dst[1] = 7;  // second destination
    EXPECT_TRUE(sb.hazard(0, two));
}

TEST(Scoreboard, ZeroRegisterAndNoRegNeverBlock) {
    Scoreboard sb(1);
    sb.reserve(0, Scoreboard::kZeroRegister);  // writing RZ reserves nothing
    sb.reserve(0, kNoReg);
    EXPECT_TRUE(sb.empty(0));
    EXPECT_FALSE(sb.pending(0, 255));
    EXPECT_FALSE(sb.hazard(0, alu(0, 255, {255})));
    // Even with every other register pending, RZ reads and writes do not block.
    for (uint16_t r = 0; r < 255; ++r) sb.reserve(0, r);
    EXPECT_FALSE(sb.hazard(0, alu(0, 255, {255, 255})));
    EXPECT_TRUE(sb.hazard(0, alu(0, 255, {254})));
}

TEST(Scoreboard, ReleaseClears) {
    Scoreboard sb(2);
    sb.reserve(0, 3);
    sb.reserve(0, 4);
    sb.release(0, 3);
    EXPECT_FALSE(sb.hazard(0, alu(0, 9, {3})));
    EXPECT_TRUE(sb.hazard(0, alu(0, 9, {4})));
    sb.release(0, 4);
    EXPECT_TRUE(sb.empty(0));
    // clear() drops everything of one warp only.
    sb.reserve(0, 1);
    sb.reserve(1, 1);
    sb.clear(0);
    EXPECT_TRUE(sb.empty(0));
    EXPECT_FALSE(sb.empty(1));
}

TEST(Scoreboard, UniformRegistersAndPredicatesAreEntriesOfTheirOwn) {
    Scoreboard sb(2);
    const uint16_t ur4 = kUniformRegisterBase + 4, p0 = kPredicateBase, up1 = kUniformPredicateBase + 1;
    sb.reserve(0, ur4);  // S2UR UR4 in flight
    EXPECT_TRUE(sb.hazard(0, alu(0, 10, {3, ur4})));  // IMAD R10, R3, UR4: RAW on UR4
    EXPECT_FALSE(sb.hazard(0, alu(0, 10, {4})));      // R4 is another register than UR4
    EXPECT_FALSE(sb.pending(0, 4));
    EXPECT_FALSE(sb.hazard(1, alu(0, 10, {ur4})));    // one uniform file per warp
    sb.reserve(0, p0);
    sb.reserve(0, up1);
    EXPECT_TRUE(sb.hazard(0, alu(0, 11, {p0})));
    EXPECT_TRUE(sb.hazard(0, alu(0, up1, {1})));      // WAW on UP1
    EXPECT_FALSE(sb.hazard(0, alu(0, 11, {kPredicateBase + 1, kUniformPredicateBase})));
    sb.release(0, ur4);
    EXPECT_FALSE(sb.hazard(0, alu(0, 10, {ur4})));
}

TEST(Scoreboard, ConstantRegistersNeverBlock) {
    Scoreboard sb(1);
    for (uint16_t c : {kZeroRegister, kUniformZeroRegister, kTruePredicate, kUniformTruePredicate}) {
        sb.reserve(0, c);  // writing URZ, PT or UPT reserves nothing, as writing RZ
        EXPECT_FALSE(sb.pending(0, c));
    }
    EXPECT_TRUE(sb.empty(0));
    // With every other entry of the table pending, the four constants still do not block.
    for (uint16_t r = 0; r < Scoreboard::kRegisters; ++r) sb.reserve(0, r);
    EXPECT_FALSE(sb.hazard(0, alu(0, kUniformZeroRegister, {kZeroRegister, kTruePredicate, kUniformTruePredicate})));
    EXPECT_TRUE(sb.hazard(0, alu(0, kUniformZeroRegister, {kUniformZeroRegister - 1})));  // UR62
}

} // namespace scoreboard_test
