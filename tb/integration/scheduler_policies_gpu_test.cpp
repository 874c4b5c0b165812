// Each issue-6 policy runs a whole fermi15 GPU (small ATAX) to completion with a TLM protocol
// checker on every link: the same warp instructions as any other policy, a clean end, and the
// policy's own mechanism visibly acting (its statistics under sm<i>.sched.).
#include <gtest/gtest.h>

#include <string>

#include "tb/common/GpuTestBench.hpp"

namespace scheduler_policies_gpu_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

// atax, n = 256: one CTA of 8 warps per kernel, every lane in range; per warp 4 + 1 + 7n + 1
// instructions (S2R, S2R, IMAD, ISETP, LD acc, n x [LD A, LD vec, FFMA, ST, IADD, ISETP, BRA],
// EXIT): 2 kernels x 8 x 1798 = 28768.
constexpr uint64_t kAtaxInstructions = 2 * 8 * (4 + 1 + 7 * 256 + 1);

void runAndCheck(GpuTestBench& b) {
    RunResult r;
    ASSERT_NO_THROW(r = b.run()) << "run() checks the end-of-run invariants";
    EXPECT_FALSE(r.truncated);
    EXPECT_EQ(r.instructions, kAtaxInstructions);
    EXPECT_EQ(b.checkers.size(), b.numSms() + 2 * b.numPartitions()) << "a checker on every link";
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_EQ(b.checkers.openTransactions(), 0u) << b.checkers.report();
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
    EXPECT_TRUE(b.gpu->dispatcher().done());
}

} // namespace

TEST(SchedulerPoliciesGpu, TwoLevel) {
    GpuTestBench b("two-level:group=2", "atax:n=256");
    runAndCheck(b);
}

TEST(SchedulerPoliciesGpu, Swl) {
    GpuTestBench b("swl:2", "atax:n=256");
    runAndCheck(b);
    EXPECT_GT(b.sum("sm", ".sched.swl_blocked"), 0u);
}

TEST(SchedulerPoliciesGpu, Ccws) {
    GpuTestBench b("ccws", "atax:n=256");
    runAndCheck(b);
    EXPECT_GT(b.sum("sm", ".sched.ccws_vta_hits"), 0u);
    EXPECT_GT(b.sum("sm", ".sched.ccws_blocked_loads"), 0u);
}

TEST(SchedulerPoliciesGpu, Mascar) {
    GpuTestBench b("mascar", "atax:n=256");
    runAndCheck(b);
    EXPECT_GT(b.sum("sm", ".sched.mascar_saturated_cycles"), 0u);
    EXPECT_GT(b.sum("sm", ".ldst.reexec_parked"), 0u);
}

TEST(SchedulerPoliciesGpu, MascarWithTheSendGate) {
    // send_gate 1: at saturation nothing waits at issue; non-owners' misses are held in the LD/ST
    // unit instead.
    GpuTestBench b("mascar:send_gate=1", "atax:n=256");
    runAndCheck(b);
    EXPECT_GT(b.sum("sm", ".sched.mascar_saturated_cycles"), 0u);
    EXPECT_EQ(b.sum("sm", ".sched.mascar_blocked_memory"), 0u);
    EXPECT_GT(b.sum("sm", ".sched.mascar_held_accesses"), 0u);
    EXPECT_GT(b.sum("sm", ".ldst.reexec_parked"), 0u);
}

TEST(SchedulerPoliciesGpu, MascarWithTheSendGateDrainsStoresParkedAfterTheLastWarp) {
    // pathfinder on fermi30: SMs whose last warp exits with stores still parked. Saturation is
    // read when the unit asks, so they go once MSHRs free; the run ends (it hung when the gate
    // kept the last cycle's saturation).
    GpuTestBench b("mascar:send_gate=1", "pathfinder", {}, "fermi30");
    RunResult r;
    ASSERT_NO_THROW(r = b.run()) << "run() checks the end-of-run invariants";
    EXPECT_FALSE(r.truncated);
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
    EXPECT_TRUE(b.gpu->dispatcher().done());
    EXPECT_GT(b.sum("sm", ".sched.mascar_held_accesses"), 0u);
}

TEST(SchedulerPoliciesGpu, OawsStatic) {
    GpuTestBench b("oaws-static", "atax:n=256");
    runAndCheck(b);
    EXPECT_GT(b.sum("sm", ".sched.oaws_blocked_loads"), 0u);
    // Kernel 1's A load is divergent (32 lines) every iteration but the DLC learns it from its
    // first serviced occurrence: 8 warps x 256 iterations - 1.
    EXPECT_EQ(b.sum("sm", ".sched.oaws_divergent_issued"), 8u * 256 - 1);
}

TEST(SchedulerPoliciesGpu, OawsDyn) {
    GpuTestBench b("oaws-dyn", "atax:n=256");
    runAndCheck(b);
    EXPECT_GT(b.sum("sm", ".sched.oaws_blocked_loads"), 0u);
}

} // namespace scheduler_policies_gpu_test
