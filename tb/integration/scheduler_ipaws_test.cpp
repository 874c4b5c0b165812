// iPAWS on the whole fermi15 GPU (the iPAWS paper's 15-SM Table 1 baseline) with a TLM protocol
// checker on every link: the per-kernel decision of the first SM to finish adapting, applied by
// every SM; the per-SM variant; ipaws-ccws; and the paper's expected directions (its Table 2 and
// section 5.1: LPS and SC RR-friendly, i.e. convex; KMN kernel 0 and BFS GTO-friendly, i.e.
// concave) checked against what our model actually does.
//
// Sizes: small, but large enough that the SMs hold several CTAs as in the paper (its Table 3 MAX
// column: LPS 32 warps, SC/KMN/BFS 48). Measured when this test was written (docs/schedulers.md,
// section "ipaws and ipaws-ccws", has the table and commands): see the comment on each TEST for
// which direction holds here and why the others do not.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "tb/common/GpuTestBench.hpp"

namespace scheduler_ipaws_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

void runClean(GpuTestBench& b) {
    RunResult r;
    ASSERT_NO_THROW(r = b.run()) << "run() checks the end-of-run invariants";
    EXPECT_FALSE(r.truncated);
    EXPECT_EQ(b.checkers.size(), b.numSms() + 2 * b.numPartitions()) << "a checker on every link";
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_EQ(b.checkers.openTransactions(), 0u) << b.checkers.report();
    EXPECT_TRUE(b.gpu->dispatcher().done());
}

struct KernelDecision {
    bool rr = false;
    double doc = 0;
    unsigned woi = 0, warps = 0, sm = 0;
};

KernelDecision decision(const GpuTestBench& b, unsigned kernel) {
    const std::string k = "gpu.ipaws.kernel" + std::to_string(kernel) + ".";
    KernelDecision d;
    d.rr = b.stat(k + "rr") != 0;
    d.doc = b.stats.get(k + "doc");
    d.woi = static_cast<unsigned>(b.stat(k + "woi"));
    d.warps = static_cast<unsigned>(b.stat(k + "warps"));
    d.sm = static_cast<unsigned>(b.stat(k + "sm"));
    std::cout << "kernel " << kernel << ": " << (d.rr ? "RR" : "greedy") << ", DoC " << d.doc << ", WOI " << d.woi
              << " of " << d.warps << " warps, decided by sm" << d.sm << ", cycles "
              << b.gpu->dispatcher().records().at(kernel).endCycle - b.gpu->dispatcher().records().at(kernel).startCycle
              << "\n";
    return d;
}

// Every SM that applied a decision for `kernel` applied the GPU's; the deciding SM counted it as
// its own.
void checkShared(const GpuTestBench& b, unsigned kernel, const KernelDecision& d) {
    unsigned applied = 0;
    for (unsigned s = 0; s < b.numSms(); ++s) {
        const std::string name = "sm" + std::to_string(s) + ".sched.ipaws.kernel" + std::to_string(kernel) + ".rr";
        if (!b.stats.find(name)) continue;
        ++applied;
        EXPECT_EQ(b.stat(name) != 0, d.rr) << name;
    }
    EXPECT_GT(applied, 0u);
    EXPECT_LE(b.sum("sm", ".sched.ipaws_own_decisions"), b.gpu->dispatcher().records().size());
}

} // namespace

// LPS (3-D Laplace, 32 x 4 blocks: 8 CTAs = 32 warps per SM as in the paper's Table 3), one
// sweep of 16 planes. The paper: RR-friendly, convex. Holds: convex (measured DoC 1.63, WOI 31 of
// 32), Recover then RR on every SM; on our model lrr is also (slightly, ~1%) faster than gto here.
TEST(SchedulerIpaws, LpsPicksRoundRobin) {
    GpuTestBench b("ipaws", "lps:nx=128,ny=120,nz=16");
    runClean(b);
    const KernelDecision d = decision(b, 0);
    EXPECT_TRUE(d.rr);
    EXPECT_GE(d.doc, 1.0);
    checkShared(b, 0, d);
    EXPECT_GT(b.sum("sm", ".sched.ipaws_recover_cycles"), 0u);
    EXPECT_GT(b.sum("sm", ".sched.ipaws_adapt_cycles"), 0u);
}

// The same with the barrier score counting every cycle at a barrier in which any warp of the SM
// issued (barrier_score=1) instead of a warp of the waiter's own CTA: the last warp of each CTA
// (less halo work, so it waits at every plane's barrier) gets thousands of cycles, several times
// the instruction counts, and the pattern reads concave (measured DoC 0.89): GTO, against the
// paper. This is why the default counts only the CTA's own issues (docs/schedulers.md).
TEST(SchedulerIpaws, LpsWithSmWideBarrierScoreReadsConcave) {
    GpuTestBench b("ipaws:barrier_score=1", "lps:nx=128,ny=120,nz=16");
    runClean(b);
    const KernelDecision d = decision(b, 0);
    EXPECT_FALSE(d.rr);
    EXPECT_LT(d.doc, 1.0);
}

// Streamcluster (pgain, 512-thread blocks), one launch. The paper: RR-friendly, convex. The
// decision holds (DoC 1.87, WOI 18 of 32: every warp issues about the same before the first
// ends), but on our model gto is ~5% faster than lrr for this input (L1D read hit rate 44.7%
// under gto, 43.3% under lrr: the shared center point hits under either order), so RR does not
// pay off here.
TEST(SchedulerIpaws, StreamclusterPicksRoundRobin) {
    GpuTestBench b("ipaws", "streamcluster:points=23040,launches=1");
    runClean(b);
    const KernelDecision d = decision(b, 0);
    EXPECT_TRUE(d.rr);
    EXPECT_GE(d.doc, 1.0);
    checkShared(b, 0, d);
}

// K-means kernel 0 (invert_mapping: an 8-line load per warp with 8 features), 6 CTAs = 48 warps
// per SM. The paper: GTO-friendly (concave), and our model agrees on the speed (gto 10570
// cycles, lrr 13454). Holds: while the oldest warps wait for their loads, the younger ones sit
// ready behind the busy LD/ST unit and collect nearly equal unit-busy stall counts, the largest
// on the oldest of them in one scheduler (measured: warp 15, so WOI 16 of 48, about the warps
// that had issued more than their first four instructions); over those the pattern is concave
// (DoC 0.58).
TEST(SchedulerIpaws, KmeansKernel0KeepsGto) {
    GpuTestBench b("ipaws", "kmeans:points=23040,features=8,iterations=1");
    runClean(b);
    const KernelDecision d = decision(b, 0);
    EXPECT_FALSE(d.rr);
    EXPECT_LT(d.doc, 1.0);
    EXPECT_EQ(d.warps, 48u);
    EXPECT_GT(d.woi, 2u) << "more than the oldest warp of each scheduler";
    EXPECT_LT(d.woi, d.warps) << "the warps that never had a turn are left out";
    checkShared(b, 0, d);
}

// The same run with the head-of-greedy-order stall counter (stall_counter=0, the default before
// the unit-busy reading): its count peaks on the oldest warp (whose 8-line loads hold the LD/ST
// unit while it heads GTO's order and nobody can issue), the WOI collapses to one or two warps,
// and a single warp always looks convex: RR, against the paper.
TEST(SchedulerIpaws, KmeansKernel0HeadCounterCollapsesToTheOldestWarp) {
    GpuTestBench b("ipaws:stall_counter=0", "kmeans:points=23040,features=8,iterations=1");
    runClean(b);
    const KernelDecision d = decision(b, 0);
    EXPECT_TRUE(d.rr);
    EXPECT_LE(d.woi, 2u);
}

// The default run judged over every warp (woi=0, the paper's Fig. 8(a) variant): also concave
// (measured DoC 0.31), GTO kept.
TEST(SchedulerIpaws, KmeansKernel0IsConcaveOverAllWarps) {
    GpuTestBench b("ipaws:woi=0", "kmeans:points=23040,features=8,iterations=1");
    runClean(b);
    const KernelDecision d = decision(b, 0);
    EXPECT_FALSE(d.rr);
    EXPECT_LT(d.doc, 1.0);
    EXPECT_EQ(b.sum("sm", ".sched.ipaws_recover_cycles"), 0u) << "no Recover for concave kernels";
}

// BFS (512-thread blocks, 48 warps per SM), one Kernel/Kernel2 pair per level: 18 kernels. The
// paper: GTO-friendly, concave (its Table 3: WOI 32 of 48, a kernel with work to do), and our
// model agrees on the speed (gto 151176 cycles, lrr 207371). Holds where the work is: the two
// widest levels' Kernel (measured: kernels 10 and 12, 64% of gto's cycles; WOI 30 and 26 of 48,
// DoC 0.41 and 0.63) keep GTO. The narrow levels go to RR: most warps have no frontier node and
// exit after 5-7 instructions, so the first warp ends a few hundred cycles in, when every warp
// has issued about the same (flat, convex). Kernel 0 (one source node) is such a kernel; the
// paper's rule decides it the same way, and it costs nothing (gto and lrr differ by 4%).
TEST(SchedulerIpaws, BfsKeepsGtoForTheKernelsThatCarryTheRun) {
    GpuTestBench b("ipaws", "bfs:nodes=23040");
    runClean(b);
    const auto& rec = b.gpu->dispatcher().records();
    std::vector<std::pair<uint64_t, unsigned>> byCycles;
    uint64_t total = 0;
    std::string all;
    for (unsigned k = 0; k < rec.size(); ++k) {
        const uint64_t c = rec[k].endCycle - rec[k].startCycle;
        byCycles.push_back({c, k});
        total += c;
        all += b.stat("gpu.ipaws.kernel" + std::to_string(k) + ".rr") ? 'R' : 'G';
    }
    std::cout << "bfs decisions per kernel: " << all << "\n";
    // The longest kernels, longest first, until they make up half the run: each keeps GTO.
    std::sort(byCycles.rbegin(), byCycles.rend());
    uint64_t covered = 0;
    for (const auto& [cycles, k] : byCycles) {
        if (2 * covered >= total) break;
        covered += cycles;
        const KernelDecision d = decision(b, k);
        EXPECT_FALSE(d.rr) << "kernel " << k << " (" << cycles << " of " << total << " cycles)";
        EXPECT_LT(d.doc, 1.0) << k;
        checkShared(b, k, d);
    }
    // Kernel 0 decides on a trivial warp (the documented difference from the paper's figure).
    const KernelDecision d0 = decision(b, 0);
    EXPECT_TRUE(d0.rr) << "ipaws now keeps GTO for bfs kernel 0: update this test's comment and docs/schedulers.md";
    EXPECT_LT(b.stat("gpu.ipaws.kernel0.cycle") - rec.at(0).startCycle, 1000u) << "the Adapt phase ends on a trivial warp";
}

// Per-SM decisions (the paper's iPAWS_ind_cores): no GPU-wide decision; every SM that ran the
// kernel judged its own pattern and applied it.
TEST(SchedulerIpaws, PerSmDecisions) {
    GpuTestBench b("ipaws:per_sm=1", "lps:nx=128,ny=120,nz=16");
    runClean(b);
    EXPECT_EQ(b.stats.find("gpu.ipaws.kernel0.rr"), nullptr);
    unsigned decided = 0;
    for (unsigned s = 0; s < b.numSms(); ++s) {
        const std::string k = "sm" + std::to_string(s) + ".sched.ipaws.kernel0.";
        if (!b.stats.find(k + "rr")) continue;
        ++decided;
        EXPECT_NE(b.stats.find(k + "doc"), nullptr) << k;
        EXPECT_EQ(b.stat(k + "rr") != 0, b.stats.get(k + "doc") >= 1.0) << k;
    }
    EXPECT_EQ(decided, b.numSms());
    EXPECT_EQ(b.sum("sm", ".sched.ipaws_own_decisions"), decided);
}

// ipaws-ccws: CCWS in the Adapt phase and for concave kernels (its statistics under the SM's
// sched. prefix), the same shared decision mechanism.
TEST(SchedulerIpaws, IpawsCcwsRunsCleanAndDecides) {
    GpuTestBench b("ipaws-ccws", "kmeans:points=23040,features=8,iterations=1");
    runClean(b);
    const KernelDecision d = decision(b, 0);
    checkShared(b, 0, d);
    EXPECT_NE(b.stats.find("sm0.sched.ccws_vta_hits"), nullptr);
    EXPECT_GT(b.sum("sm", ".sched.ccws_vta_hits"), 0u);
}

} // namespace scheduler_ipaws_test
