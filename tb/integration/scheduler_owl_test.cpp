// The OWL variants (owl-cta, owl-locality, owl-blp, owl) and the lrr baseline each run a whole
// fermi15 GPU to completion with a TLM protocol checker on every link, on vectoradd with
// n = 61440 (240 CTAs of 8 warps: 15 SMs x 6 resident CTAs (48 warp slots / 8) = 90 at a time,
// so each SM holds 3 groups of 2 CTAs at min_warps = 8, and CTAs turn over). Checked: all work
// done (the same warp instructions for every policy), a clean end, the mechanisms acting
// (group switches for the OWL schedulers; prefetches issued and some used by L2 hits with
// `owl` or dram.prefetch=owl, none otherwise). IPCs are printed, not asserted (see
// docs/schedulers.md for the measured values).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tb/common/GpuTestBench.hpp"

namespace scheduler_owl_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

constexpr const char* kWorkload = "vectoradd:n=61440";
// Per warp: S2R, S2R, IMAD, ISETP, LD, LD, FADD, ST, EXIT = 9; 240 CTAs x 8 warps.
constexpr uint64_t kInstructions = 240ull * 8 * 9;

RunResult runAndCheck(GpuTestBench& b, const std::string& label) {
    RunResult r;
    EXPECT_NO_THROW(r = b.run()) << "run() checks the end-of-run invariants";
    EXPECT_FALSE(r.truncated);
    EXPECT_EQ(r.instructions, kInstructions);
    EXPECT_EQ(b.checkers.size(), b.numSms() + 2 * b.numPartitions()) << "a checker on every link";
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_EQ(b.checkers.openTransactions(), 0u) << b.checkers.report();
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
    EXPECT_TRUE(b.gpu->dispatcher().done());
    std::printf("[owl] %-28s cycles %llu IPC %.4f switches %llu resumes %llu prefetched %llu useful %llu "
                "stopped %llu held_pre %llu l2_read_hits %llu dram_reads %llu\n",
                label.c_str(), static_cast<unsigned long long>(r.cycles),
                r.cycles ? double(r.instructions) / double(r.cycles) : 0.0,
                static_cast<unsigned long long>(b.sum("sm", ".sched.owl_group_switches")),
                static_cast<unsigned long long>(b.sum("sm", ".sched.owl_resumes")),
                static_cast<unsigned long long>(b.sum("mem", ".prefetch_lines")),
                static_cast<unsigned long long>(b.sum("l2.slice", ".prefetch_useful")),
                static_cast<unsigned long long>(b.sum("mem", ".prefetch_stopped_by_demand")),
                static_cast<unsigned long long>(b.sum("mem", ".prefetch_held_pre_cycles")),
                static_cast<unsigned long long>(b.sum("l2.slice", ".read_hits")),
                static_cast<unsigned long long>(b.sum("mem", ".reads")));
    return r;
}

void expectNoPrefetch(const GpuTestBench& b) {
    EXPECT_EQ(b.sum("mem", ".prefetch_lines"), 0u);
    EXPECT_EQ(b.sum("l2.slice", ".prefetch_fills"), 0u);
    EXPECT_EQ(b.stats.find("mem0.prefetch_lines"), nullptr) << "prefetch off registers nothing";
}

} // namespace

TEST(SchedulerOwl, LrrBaseline) {
    GpuTestBench b("lrr", kWorkload);
    runAndCheck(b, "lrr");
    expectNoPrefetch(b);
    EXPECT_EQ(b.stats.find("sm0.sched.owl_group_switches"), nullptr);
}

TEST(SchedulerOwl, CtaAware) {
    GpuTestBench b("owl-cta", kWorkload);
    runAndCheck(b, "owl-cta");
    EXPECT_GT(b.sum("sm", ".sched.owl_group_switches"), 0u);
    EXPECT_EQ(b.sum("sm", ".sched.owl_resumes"), 0u) << "CTA-Aware never goes back up a priority order";
    EXPECT_GT(b.sum("sm", ".sched.owl_regroups"), 0u);
    expectNoPrefetch(b);
}

TEST(SchedulerOwl, Locality) {
    GpuTestBench b("owl-locality", kWorkload);
    runAndCheck(b, "owl-locality");
    EXPECT_GT(b.sum("sm", ".sched.owl_group_switches"), 0u);
    EXPECT_GT(b.sum("sm", ".sched.owl_resumes"), 0u);
    expectNoPrefetch(b);
}

TEST(SchedulerOwl, Blp) {
    GpuTestBench b("owl-blp", kWorkload);
    runAndCheck(b, "owl-blp");
    EXPECT_GT(b.sum("sm", ".sched.owl_group_switches"), 0u);
    expectNoPrefetch(b);
}

TEST(SchedulerOwl, OwlPrefetchesAndTheL2UsesSome) {
    GpuTestBench b("owl", kWorkload);
    runAndCheck(b, "owl");
    EXPECT_GT(b.sum("sm", ".sched.owl_group_switches"), 0u);
    const uint64_t lines = b.sum("mem", ".prefetch_lines");
    EXPECT_GT(lines, 0u);
    EXPECT_GT(b.sum("l2.slice", ".prefetch_fills"), 0u);
    EXPECT_GT(b.sum("l2.slice", ".prefetch_useful"), 0u);
    // Every line read is installed, dropped as redundant, or dropped for a full queue.
    EXPECT_EQ(b.sum("l2.slice", ".prefetch_fills") + b.sum("l2.slice", ".prefetch_redundant") +
                  b.sum("l2.slice", ".prefetch_dropped"),
              lines);
    EXPECT_LE(b.sum("l2.slice", ".prefetch_useful"), b.sum("l2.slice", ".prefetch_fills"));
}

// The key alone turns the prefetch on under any scheduler.
TEST(SchedulerOwl, PrefetchKeyWithLrr) {
    GpuTestBench b("lrr", kWorkload, {"dram.prefetch=owl"});
    runAndCheck(b, "lrr + dram.prefetch=owl");
    EXPECT_GT(b.sum("mem", ".prefetch_lines"), 0u);
    EXPECT_GT(b.sum("l2.slice", ".prefetch_useful"), 0u);
}

} // namespace scheduler_owl_test
