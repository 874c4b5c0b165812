// PackedWarp keeps an instruction's registers in 10 bits each: every register number of
// WarpInstruction.hpp's namespace (R, UR, P, UP, up to UPT = 335) comes back as it went in, in
// every one of the six fields.
#include <gtest/gtest.h>

#include "workloads/InstructionFactory.hpp"
#include "workloads/trace/PackedWarp.hpp"

namespace packed_warp_test {

using namespace gpusim;

TEST(PackedWarp, EveryRegisterNumberSurvivesInEveryField) {
    // Numbers that need the 9th and 10th bit (256 .. 335) and ones that do not; kept apart so a
    // field that bled into its neighbour would change one of them.
    const uint16_t regs[] = {0, 1, 254, kZeroRegister, kUniformRegisterBase, kUniformRegisterBase + 4,
                             kUniformZeroRegister, kPredicateBase, kTruePredicate, kUniformPredicateBase + 1,
                             kUniformTruePredicate};
    PackedWarp w;
    std::vector<WarpInstruction> in;
    for (uint16_t a : regs)
        for (uint16_t b : regs) {
            WarpInstruction i = inst::alu(0x10 * in.size(), 0xffffffff, {a, b}, {b, a, a, b});
            in.push_back(i);
            w.append(i);
        }
    size_t pos = 0;
    WarpInstruction out;
    for (const WarpInstruction& i : in) {
        ASSERT_TRUE(w.read(pos, out));
        EXPECT_EQ(out.pc, i.pc);
        EXPECT_EQ(out.numDst, 2);
        EXPECT_EQ(out.numSrc, 4);
        EXPECT_EQ(out.dst, i.dst);
        EXPECT_EQ(out.src, i.src);
    }
    EXPECT_FALSE(w.read(pos, out));
}

} // namespace packed_warp_test
