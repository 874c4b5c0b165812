// CWLP on the whole fermi15 GPU with a small K-means (points = 2048: each of the 3 kernels has
// ceil(2048 / 256) = 8 rounded up to a square, 9 CTAs of 8 warps, at most one per SM on 15 SMs):
// `lpc` (LPC replacement, LRR order) and `cwlp` (LPC + locality-score reordering) against `lrr`,
// the paper's base.
//
// The paper's Fig. 10 has LPC lowering KMN's L1D miss rate. On our model that holds at this size
// and at the default points = 4096, but not at points = 1024 (measured when this test was
// written, sum of sm*.l1d.read_misses, lrr -> lpc: 1024: 11547 -> 12329, +6.8 %; 2048: 28442 ->
// 24731, -13 %; 4096: 66979 -> 64243, -4.1 %). Split by kernel (iterations = 1 against 2),
// invert_mapping, whose load gives every lane its own 136-byte point so that each line is read
// by the same PC on consecutive loop iterations, gains (2048: 8638 -> 3663; 4096: 26915 ->
// 20777) and kmeansPoint loses a little (9902 -> 10534; 20032 -> 21733). invert_mapping's
// compulsory misses are 34 lines per warp (32 lanes x 136 B): at 2048, 8 CTAs x 8 warps x 34 =
// 2176, and LRU thrashes (8638, 4x) where LPC keeps the lines being walked (3663). At 1024 LRU is
// already close to compulsory (1643 against 4 x 8 x 34 = 1088), nothing is left to win and LPC's
// cost shows (2425): a protected line is never aged, it keeps its protection after the warp has
// moved past it until another PC hits it or its whole set is protected, and the lines still
// being walked, not yet protected, go first. Nothing was tuned; the size was chosen to show the paper's direction and
// the 1024 inversion is documented in docs/schedulers.md ("lpc and cwlp"). If the check below
// starts failing, the model changed: update this comment and the docs, not the policy.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/GpuTestBench.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace scheduler_cwlp_test {

using namespace gpusim;
using namespace gpusim::tb;
using nlohmann::json;

namespace {

const std::string kWorkload = "kmeans:points=2048";

struct CliRun {
    json stats;
    uint64_t cycles = 0, instructions = 0;
    double sum(const std::string& suffix) const {
        double s = 0;
        for (const auto& [k, v] : stats.items())
            if (k.rfind("sm", 0) == 0 && k.size() > suffix.size() &&
                k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0)
                s += v.get<double>();
        return s;
    }
};

CliRun runCli(const ScratchDir& dir, const std::string& scheduler, const std::vector<std::string>& sets = {}) {
    const auto file = (dir / (scheduler + std::to_string(sets.size()) + ".json")).string();
    std::vector<std::string> args = {"run", "-q", "--platform", "fermi15", "--scheduler", scheduler,
                                     "--workload", kWorkload, "--stats", file};
    for (const auto& s : sets) {
        args.push_back("--set");
        args.push_back(s);
    }
    const ProcessResult r = runGpusim(args);
    EXPECT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    CliRun run;
    const json j = json::parse(readFile(file), nullptr, false);
    if (j.is_discarded()) {
        ADD_FAILURE() << file << " is not JSON";
        return run;
    }
    run.stats = j["stats"];
    run.cycles = j["summary"]["cycles"].get<uint64_t>();
    run.instructions = j["summary"]["warp_instructions"].get<uint64_t>();
    return run;
}

void runClean(GpuTestBench& b) {
    RunResult r;
    ASSERT_NO_THROW(r = b.run()) << "run() checks the end-of-run invariants";
    EXPECT_FALSE(r.truncated);
    EXPECT_GT(r.instructions, 0u);
    EXPECT_EQ(b.checkers.size(), b.numSms() + 2 * b.numPartitions()) << "a checker on every link";
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_EQ(b.checkers.openTransactions(), 0u) << b.checkers.report();
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
}

} // namespace

TEST(SchedulerCwlp, LpcAgainstLrrOnKmeans) {
    ScratchDir dir;
    const CliRun lrr = runCli(dir, "lrr");
    const CliRun lpc = runCli(dir, "lpc");
    const double lrrMisses = lrr.sum(".l1d.read_misses"), lpcMisses = lpc.sum(".l1d.read_misses");
    std::cout << kWorkload << ": L1D read misses lrr " << lrrMisses << ", lpc " << lpcMisses << "; cycles lrr "
              << lrr.cycles << ", lpc " << lpc.cycles << "; lpc protected victims "
              << lpc.sum(".l1d.lpc.protected_victims") << "\n";
    EXPECT_EQ(lpc.instructions, lrr.instructions);
    // LPC acted: lines were predicted reused and victims chosen past the LRU line.
    EXPECT_GT(lpc.sum(".l1d.lpc.predicted_hits"), 0.0);
    EXPECT_GT(lpc.sum(".l1d.lpc.protected_victims"), 0.0);
    EXPECT_EQ(lrr.sum(".l1d.lpc.protected_victims"), 0.0);  // LRU has no LPC statistics
    // The paper's direction (Fig. 10), which holds at this size (see the top of this file).
    EXPECT_LT(lpcMisses, lrrMisses) << "lpc no longer has fewer L1D misses than lrr on " << kWorkload
                                    << ": the model changed; update this test's comment and docs/schedulers.md";

    // l1d.replacement=lpc under lrr is the same machine as --scheduler lpc: identical statistics.
    const CliRun keyed = runCli(dir, "lrr", {"l1d.replacement=lpc"});
    EXPECT_EQ(keyed.cycles, lpc.cycles);
    EXPECT_EQ(keyed.sum(".l1d.read_misses"), lpcMisses);
    EXPECT_EQ(keyed.sum(".l1d.lpc.protected_victims"), lpc.sum(".l1d.lpc.protected_victims"));
}

TEST(SchedulerCwlp, SchedulerChoiceOverridesTheKey) {
    // cwlp asks for LPC; l1d.replacement=lru does not take it away (the scheduler wins).
    ScratchDir dir;
    const CliRun cwlp = runCli(dir, "cwlp", {"l1d.replacement=lru"});
    EXPECT_GT(cwlp.sum(".l1d.lpc.predicted_hits"), 0.0);
}

TEST(SchedulerCwlp, LpcWholeGpu) {
    GpuTestBench b("lpc", kWorkload);
    runClean(b);
    const uint64_t hits = b.sum("sm", ".l1d.read_hits"), reuse = b.sum("sm", ".l1d.lpc.reuse_hits"),
                   predicted = b.sum("sm", ".l1d.lpc.predicted_hits");
    // A predicted hit is a reuse hit (r_use 1 now and before) and a reuse hit is a hit.
    EXPECT_LE(predicted, reuse);
    EXPECT_LE(reuse, hits);
    EXPECT_GT(predicted, 0u);
    EXPECT_EQ(b.sum("sm", ".sched.cwlp.reordered_cycles"), 0u);  // no reordering statistic
}

TEST(SchedulerCwlp, CwlpWholeGpu) {
    GpuTestBench b("cwlp", kWorkload);
    runClean(b);
    uint64_t windows = 0, expected = 0;
    for (unsigned s = 0; s < b.numSms(); ++s) {
        const std::string sm = "sm" + std::to_string(s);
        // count_misses = 1: every read access that reached the tags enters the window, so an
        // SM closes floor((hits + new misses + merges) / 10) windows.
        const uint64_t reads = b.stat(sm + ".l1d.read_hits") + b.stat(sm + ".l1d.read_misses") +
                               b.stat(sm + ".l1d.mshr_merges");
        EXPECT_EQ(b.stat(sm + ".sched.cwlp.lis_windows"), reads / 10) << sm;
        windows += b.stat(sm + ".sched.cwlp.lis_windows");
        expected += reads / 10;
    }
    EXPECT_EQ(windows, expected);
    // Both decisions occur on K-means: some windows show locality (no reordering), others not.
    const uint64_t locality = b.sum("sm", ".sched.cwlp.lis_locality_windows");
    EXPECT_GT(locality, 0u);
    EXPECT_LT(locality, windows);
    EXPECT_GT(b.sum("sm", ".sched.cwlp.reordered_cycles"), 0u);
    const uint64_t reorderedIssues = b.sum("sm", ".sched.cwlp.reordered_issues");
    EXPECT_GT(reorderedIssues, 0u);
    EXPECT_LE(b.sum("sm", ".sched.cwlp.alternating_issues"), reorderedIssues);
    EXPECT_GT(b.sum("sm", ".l1d.lpc.predicted_hits"), 0u);  // the LPC part is installed
}

} // namespace scheduler_cwlp_test
