// Whole-GPU runs on fermi15 with a TLM-2.0 AT protocol checker on every link (15 SM->NoC,
// 6 NoC->L2, 6 L2->memory): instruction counts against hand counts from the kernel listings,
// statistics that must agree across levels of the memory system, and clean protocol and payload
// bookkeeping at the end. One Gpu per test case (one SystemC simulation per process).
#include <gtest/gtest.h>

#include <string>

#include "tb/common/GpuTestBench.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace gpu_run_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

// ---- Hand counts, from the modelled SASS listings in workloads/builtin/Atax.cpp and
// workloads/builtin/VectorAdd.cpp (docs/workloads.md), not from workload code.
//
// Both use blocks of 256 threads (8 warps) and a grid of ceil(n / 256) blocks, so
// ceil(n / 256) * 8 warps per kernel; a warp covers threads 32w .. 32w+31 and has a lane in range
// (thread index < n) iff 32w < n, so ceil(n / 32) warps have one and the rest have none.
constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
constexpr uint64_t warpsPerKernel(uint64_t n) { return ceilDiv(n, 256) * 8; }
constexpr uint64_t warpsInRange(uint64_t n) { return ceilDiv(n, 32); }

// atax, per warp, in each of its two kernels:
//   4  before the guard, every warp:          S2R, S2R, IMAD, ISETP
//   1  accumulator load, if a lane in range:  LD acc[t]
//   7n loop body, n iterations, same:         LD A, LD vec, FFMA, ST acc, IADD, ISETP, BRA
//   1  EXIT, every warp
// = 7n + 6 for a warp with a lane in range, 4 + 1 = 5 for a warp without.
constexpr uint64_t ataxInstructions(uint64_t n) {
    const uint64_t active = warpsInRange(n), idle = warpsPerKernel(n) - active;
    return 2 * (active * (7 * n + 6) + idle * 5);
}
static_assert(ataxInstructions(256) == 2 * 8 * 1798);  // 28768: 1 CTA, 8 warps, all in range
static_assert(ataxInstructions(100) == 2 * (4 * 706 + 4 * 5));

// vectoradd, per warp: S2R, S2R, IMAD, ISETP; if a lane in range LD a, LD b, FADD, ST c; EXIT
// = 9 with a lane in range, 5 without.
constexpr uint64_t vectorAddInstructions(uint64_t n) {
    const uint64_t active = warpsInRange(n), idle = warpsPerKernel(n) - active;
    return active * 9 + idle * 5;
}
static_assert(vectorAddInstructions(1000) == 32 * 9);         // 4 CTAs, warp 31 partial (992..999)
static_assert(vectorAddInstructions(900) == 29 * 9 + 3 * 5);  // warps 29..31 have no lane < 900

// Every protocol checker clean, nothing left open, every payload back in the pool.
void expectCleanEnd(const GpuTestBench& b) {
    const unsigned links = b.numSms() + 2 * b.numPartitions();
    EXPECT_EQ(b.checkers.size(), links) << "a checker on every link";
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_EQ(b.checkers.openTransactions(), 0u) << b.checkers.report();
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
    EXPECT_TRUE(b.gpu->dispatcher().done());
}

} // namespace

TEST(GpuRun, CheckersAreInstalledOnEveryLinkByName) {
    GpuTestBench b("lrr", "vectoradd:n=64");
    ASSERT_EQ(b.numSms(), 15u);
    ASSERT_EQ(b.numPartitions(), 6u);
    for (unsigned i = 0; i < b.numSms(); ++i)
        EXPECT_NE(b.checkers.find("sm" + std::to_string(i) + "->noc"), nullptr) << i;
    for (unsigned j = 0; j < b.numPartitions(); ++j) {
        EXPECT_NE(b.checkers.find("noc->l2." + std::to_string(j)), nullptr) << j;
        EXPECT_NE(b.checkers.find("l2." + std::to_string(j) + "->mem"), nullptr) << j;
    }
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, vectorAddInstructions(64));
    expectCleanEnd(b);
    // The one CTA ran on some SM, and its traffic crossed that SM's checker, the NoC->L2 checkers
    // and, since the L2 starts cold, the L2->memory checkers.
    EXPECT_EQ(b.checkers.transactions("sm", "->noc"), b.checkers.transactions("noc->l2.", ""));
    EXPECT_GT(b.checkers.transactions("l2.", "->mem"), 0u);
}

TEST(GpuRun, AtaxLrrInstructionCountMatchesTheKernelDefinition) {
    constexpr uint64_t n = 256;
    GpuTestBench b("lrr", "atax:n=256");
    RunResult r;
    ASSERT_NO_THROW(r = b.run()) << "run() checks the end-of-run invariants";
    EXPECT_FALSE(r.truncated);
    EXPECT_EQ(r.instructions, ataxInstructions(n));
    EXPECT_EQ(b.stat("gpu.warp_instructions"), ataxInstructions(n));
    uint64_t perSm = 0;
    for (unsigned i = 0; i < b.numSms(); ++i) perSm += b.stat("sm" + std::to_string(i) + ".issued");
    EXPECT_EQ(perSm, ataxInstructions(n));
    EXPECT_EQ(b.sum("sm", ".warps"), 2 * warpsPerKernel(n));
    EXPECT_EQ(b.sum("sm", ".ctas"), 2 * ceilDiv(n, 256));
    EXPECT_EQ(b.stat("gpu.cycles"), r.cycles);

    // Memory instructions and their coalesced line accesses, per warp and kernel (n = 256: n is a
    // multiple of 32 and every array starts 256-byte aligned, so 32 consecutive floats are one
    // 128-byte line):
    //   loads  1 + 2n   (acc, then A and vec every iteration)
    //   stores n        (acc every iteration), one line each
    //   kernel 1 lines read: 1 (acc) + n * (32 (A: each lane its own row) + 1 (vec: broadcast))
    //   kernel 2 lines read: 1 (acc) + n * (1 (A: a row segment) + 1 (vec))
    const uint64_t warps = warpsPerKernel(n);
    EXPECT_EQ(b.sum("sm", ".ldst.loads"), 2 * warps * (1 + 2 * n));
    EXPECT_EQ(b.sum("sm", ".ldst.stores"), 2 * warps * n);
    const uint64_t lineReads = warps * (1 + n * 33) + warps * (1 + n * 2);
    EXPECT_EQ(b.sum("sm", ".l1d.read_hits") + b.sum("sm", ".l1d.read_misses") + b.sum("sm", ".l1d.mshr_merges"),
              lineReads);
    EXPECT_EQ(b.sum("sm", ".ldst.line_accesses"), lineReads + 2 * warps * n);
    expectCleanEnd(b);
}

TEST(GpuRun, AtaxLrrMemoryTrafficAgreesAcrossLevels) {
    GpuTestBench b("lrr", "atax:n=256");
    ASSERT_NO_THROW(b.run());
    const uint64_t l1Misses = b.sum("sm", ".l1d.read_misses");  // each allocated an MSHR entry
    const uint64_t smReads = b.sum("sm", ".noc.reads");
    const uint64_t smWrites = b.sum("sm", ".noc.writes");
    // An L2 read is a hit or a miss (merges into an in-flight MSHR entry count as misses).
    const uint64_t l2Reads = b.sum("l2.slice", ".read_hits") + b.sum("l2.slice", ".read_misses");
    const uint64_t l2Writes = b.sum("l2.slice", ".write_hits") + b.sum("l2.slice", ".write_misses");
    EXPECT_GT(l1Misses, 0u);
    EXPECT_EQ(l1Misses, smReads) << "one NoC read per L1D MSHR allocation";
    EXPECT_EQ(smReads, l2Reads) << "every SM read reaches exactly one L2 slice";
    EXPECT_EQ(smWrites, b.sum("sm", ".l1d.writes"));
    EXPECT_EQ(smWrites, l2Writes);
    EXPECT_EQ(b.sum("l2.slice", ".accesses"), l2Reads + l2Writes);
    // The checkers count the same transactions at each boundary.
    EXPECT_EQ(b.checkers.transactions("sm", "->noc"), smReads + smWrites);
    EXPECT_EQ(b.checkers.transactions("noc->l2.", ""), smReads + smWrites);
    EXPECT_EQ(b.stat("noc.req.packets"), smReads + smWrites);
    EXPECT_EQ(b.stat("noc.reply.packets"), smReads + smWrites);
    // Below the L2: line reads for misses, write-backs for dirty victims.
    const uint64_t memReads = b.sum("mem", ".reads"), memWrites = b.sum("mem", ".writes");
    EXPECT_EQ(b.checkers.transactions("l2.", "->mem"), memReads + memWrites);
    EXPECT_EQ(memWrites, b.sum("l2.slice", ".writebacks"));
    EXPECT_LE(memReads, b.sum("l2.slice", ".read_misses"));
    EXPECT_GT(memReads, 0u);
    expectCleanEnd(b);
}

TEST(GpuRun, AtaxGtoWithPartialAndEmptyWarps) {
    constexpr uint64_t n = 100;  // warp 3 partly in range, warps 4..7 not at all
    GpuTestBench b("gto", "atax:n=100");
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, ataxInstructions(n));
    EXPECT_EQ(b.stat("gpu.warp_instructions"), ataxInstructions(n));
    expectCleanEnd(b);
}

TEST(GpuRun, VectorAddGtoCompletesWithTheExpectedCounts) {
    constexpr uint64_t n = 1000;
    GpuTestBench b("gto", "vectoradd:n=1000");
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_FALSE(r.truncated);
    EXPECT_EQ(r.instructions, vectorAddInstructions(n));
    EXPECT_EQ(b.stat("gpu.warp_instructions"), vectorAddInstructions(n));
    // Streaming, no reuse: every warp with a lane in range reads one line of a and one of b
    // (misses) and writes one line of c.
    EXPECT_EQ(b.sum("sm", ".l1d.read_misses"), 2 * warpsInRange(n));
    EXPECT_EQ(b.sum("sm", ".l1d.read_hits"), 0u);
    EXPECT_EQ(b.sum("sm", ".noc.reads"), 2 * warpsInRange(n));
    EXPECT_EQ(b.sum("sm", ".noc.writes"), warpsInRange(n));
    EXPECT_EQ(b.sum("sm", ".ctas"), ceilDiv(n, 256));
    expectCleanEnd(b);
}

TEST(GpuRun, VectorAddGtoWithWarpsOutOfRange) {
    constexpr uint64_t n = 900;
    GpuTestBench b("gto", "vectoradd:n=900");
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, vectorAddInstructions(n));
    EXPECT_EQ(b.sum("sm", ".noc.writes"), warpsInRange(n));
    expectCleanEnd(b);
}

// Queues of one, two MSHRs and a 2 KB L2: every late END_REQ path (L2 input full, NoC input full,
// L2 miss queue), held answers in the NoC, write-backs of dirty victims. The protocol must hold
// and the counts must not change.
TEST(GpuRun, BackPressureInTheMemorySystemKeepsTheProtocol) {
    constexpr uint64_t n = 256;
    GpuTestBench b("gto", "atax:n=256",
                   {"l2.input_queue=1", "l2.response_queue=1", "l2.miss_queue=1", "l2.mshr_entries=2",
                    "l2.mshr_max_merge=1", "l1d.miss_queue=1", "noc.input_queue_packets=1",
                    "noc.output_queue_packets=1", "l2.size_bytes=2048", "l2.ways=2",
                    "mem.ideal_latency_cycles=1"});
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, ataxInstructions(n));
    // The paths were really taken.
    EXPECT_GT(b.sum("l2.slice", ".input_full_cycles"), 0u);
    EXPECT_GT(b.stat("noc.req.input_full_cycles"), 0u);
    EXPECT_GT(b.stat("noc.reply.input_full_cycles"), 0u);
    EXPECT_GT(b.sum("l2.slice", ".writebacks"), 0u);
    EXPECT_EQ(b.sum("mem", ".writes"), b.sum("l2.slice", ".writebacks"));
    EXPECT_EQ(b.sum("sm", ".l1d.read_misses"), b.sum("l2.slice", ".read_hits") + b.sum("l2.slice", ".read_misses"));
    // ...and crossed the checkers: late END_REQ from the NoC to the SMs and from the L2 to the NoC,
    // answers the NoC held (reply input full) with END_RESP sent later to the L2.
    EXPECT_GT(b.checkers.paths("sm", "->noc").endReqLate, 0u);
    EXPECT_GT(b.checkers.paths("noc->l2.", "").endReqLate, 0u);
    EXPECT_GT(b.checkers.paths("noc->l2.", "").endRespLate, 0u);
    expectCleanEnd(b);
}

// SMs at 500 MHz behind a 5 GHz NoC and L2 with one-entry answer queues: the SM holds answers
// (TLM_ACCEPTED to BEGIN_RESP, END_RESP later), the other direction of back-pressure.
TEST(GpuRun, SlowSmsHoldAnswersAndKeepTheProtocol) {
    GpuTestBench b("gto", "vectoradd:n=4096",
                   {"sm.clock_mhz=500", "noc.clock_mhz=5000", "l2.clock_mhz=5000", "l2.tag_latency_cycles=1",
                    "sm.response_queue=1", "gpu.num_sms=2"});
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, vectorAddInstructions(4096));
    EXPECT_GT(b.sum("sm", ".noc.answer_full_cycles"), 0u) << "no answer was ever held: the path is not covered";
    EXPECT_GT(b.checkers.paths("sm", "->noc").endRespLate, 0u);
    expectCleanEnd(b);
}

// The checkers observe only: the same run without them (the gpusim executable, which installs
// none) gives the same statistics, histograms included.
TEST(GpuRun, CheckersDoNotChangeTheResult) {
    GpuTestBench b("lrr", "atax:n=128");
    ASSERT_NO_THROW(b.run());
    expectCleanEnd(b);
    ScratchDir dir;
    const std::string statsPath = (dir / "stats.json").string();
    const std::vector<std::string> args = {"run", "--platform", "fermi15", "--scheduler", "lrr", "--workload",
                                           "atax:n=128", "--quiet", "--stats", statsPath};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    const auto doc = nlohmann::json::parse(readFile(statsPath), nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(doc.is_object() && doc.contains("stats"));
    const nlohmann::json mine = b.stats.toJson();
    EXPECT_EQ(mine.size(), doc["stats"].size());
    for (const auto& [name, value] : doc["stats"].items())
        EXPECT_EQ(mine.value(name, nlohmann::json()), value) << name;
}

} // namespace gpu_run_test
