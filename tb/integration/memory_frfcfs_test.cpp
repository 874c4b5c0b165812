// Whole-GPU runs on fermi15 with the FR-FCFS GDDR5 controllers (the platform's default memory
// model) and a TLM protocol checker on every link: the workloads complete, the protocol is
// clean, traffic is conserved between the L2 slices and the DRAM, and the statistics and JSON
// carry the DRAM figures. Small problem sizes (CI budget).
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tb/common/GpuTestBench.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace memory_frfcfs_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

// Every protocol checker clean, nothing left open, every payload back in the pool.
void expectCleanEnd(const GpuTestBench& b, unsigned links) {
    EXPECT_EQ(b.checkers.size(), links) << "a checker on every link";
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_EQ(b.checkers.openTransactions(), 0u) << b.checkers.report();
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
    EXPECT_TRUE(b.gpu->dispatcher().done());
}

// L2 read misses either merged into an MSHR entry in flight or became exactly one DRAM read
// (write merges are writes counted in mshr_merges); every write-back is one DRAM write; every
// DRAM request is a row hit, miss or conflict; commands agree with requests.
void expectConservation(const GpuTestBench& b) {
    const uint64_t readMisses = b.sum("l2.slice", ".read_misses");
    const uint64_t merges = b.sum("l2.slice", ".mshr_merges");
    const uint64_t writeMerges = b.sum("l2.slice", ".write_merges");
    const uint64_t dramReads = b.sum("mem", ".reads");
    const uint64_t dramWrites = b.sum("mem", ".writes");
    EXPECT_GT(dramReads, 0u);
    EXPECT_EQ(readMisses, dramReads + (merges - writeMerges));
    EXPECT_EQ(dramWrites, b.sum("l2.slice", ".writebacks"));
    EXPECT_EQ(b.sum("mem", ".row_hits") + b.sum("mem", ".row_misses") + b.sum("mem", ".row_conflicts"),
              dramReads + dramWrites);
    EXPECT_EQ(b.sum("mem", ".cmd_act"), b.sum("mem", ".row_misses") + b.sum("mem", ".row_conflicts"));
    EXPECT_EQ(b.sum("mem", ".cmd_pre"), b.sum("mem", ".row_conflicts"));
    // 128-byte lines on 64-byte GDDR5 bursts (8 bytes x 8 beats): two column commands each.
    EXPECT_EQ(b.sum("mem", ".cmd_rd"), 2 * dramReads);
    EXPECT_EQ(b.sum("mem", ".cmd_wr"), 2 * dramWrites);
    EXPECT_EQ(b.checkers.transactions("l2.", "->mem"), dramReads + dramWrites);
}

} // namespace

TEST(MemoryFrFcfs, Fermi15UsesTheGddr5ControllerByDefault) {
    GpuTestBench b("gto", "vectoradd:n=64");
    EXPECT_EQ(b.cfg.getString("memory.model"), "frfcfs");
    EXPECT_EQ(b.cfg.getString("dram.preset"), "gddr5");
    EXPECT_EQ(b.cfg.getInt("dram.banks"), 16);
    EXPECT_EQ(b.cfg.getInt("dram.queue_size"), 32);
    EXPECT_EQ(b.cfg.getInt("dram.bus_bytes"), 8);
    EXPECT_DOUBLE_EQ(b.cfg.getDouble("dram.clock_mhz"), 924.0);
    ASSERT_NO_THROW(b.run());
    expectCleanEnd(b, b.numSms() + 2 * b.numPartitions());
    expectConservation(b);
}

TEST(MemoryFrFcfs, AtaxEndToEnd) {
    GpuTestBench b("gto", "atax:n=128");
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_FALSE(r.truncated);
    EXPECT_EQ(r.instructions, 2u * (4 * (7 * 128 + 6) + 4 * 5));  // see gpu_run_test
    expectCleanEnd(b, b.numSms() + 2 * b.numPartitions());
    expectConservation(b);
    EXPECT_GT(b.sum("mem", ".row_hits"), 0u);
    // atax's data (n = 128) fits the L2: nothing is evicted, so no write-back reaches DRAM
    // (dirty lines are not flushed at the end). BackPressureFromTheController covers writes.
    EXPECT_EQ(b.sum("mem", ".writes"), 0u);
}

TEST(MemoryFrFcfs, VectorAddEndToEnd) {
    GpuTestBench b("lrr", "vectoradd:n=4096");
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, (4096u / 32) * 9);
    expectCleanEnd(b, b.numSms() + 2 * b.numPartitions());
    expectConservation(b);
    // Streaming over fresh lines: every L2 read misses, and the controllers see mostly row hits
    // (consecutive lines of a partition share a 2 KB row).
    EXPECT_EQ(b.sum("l2.slice", ".read_hits"), 0u);
    EXPECT_GT(b.sum("mem", ".row_hits"), b.sum("mem", ".row_misses") + b.sum("mem", ".row_conflicts"));
}

// Queues of one everywhere below the L2, a 2-entry DRAM queue: late END_REQ from the controller.
TEST(MemoryFrFcfs, BackPressureFromTheControllerKeepsTheProtocol) {
    GpuTestBench b("gto", "atax:n=64",
                   {"dram.queue_size=1", "l2.miss_queue=1", "l2.size_bytes=2048", "l2.ways=2", "dram.scheduler=fcfs"});
    ASSERT_NO_THROW(b.run());
    expectCleanEnd(b, b.numSms() + 2 * b.numPartitions());
    expectConservation(b);
    EXPECT_GT(b.sum("mem", ".queue_full_cycles"), 0u);
    EXPECT_GT(b.sum("l2.slice", ".writebacks"), 0u);
}

// Two L2 slices per partition (GPGPU-Sim's sub-partitions) in front of each controller: the
// NoC still addresses 6 partitions; routers and arbiters add 4 links per partition, each
// checked.
TEST(MemoryFrFcfs, TwoSlicesPerPartition) {
    GpuTestBench b("gto", "atax:n=128", {"l2.slices_per_partition=2", "l2.size_bytes=65536"});
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, 2u * (4 * (7 * 128 + 6) + 4 * 5));
    const unsigned parts = b.numPartitions();
    expectCleanEnd(b, b.numSms() + 2 * parts + 4 * parts);
    expectConservation(b);
    for (unsigned i = 0; i < 2 * parts; ++i)
        EXPECT_GT(b.stat("l2.slice" + std::to_string(i) + ".accesses"), 0u) << "slice " << i;
    EXPECT_EQ(b.checkers.transactions("noc->l2.", ""), b.checkers.transactions("l2.", ".router->slice0") +
                                                           b.checkers.transactions("l2.", ".router->slice1") +
                                                           b.checkers.transactions("l2.", ".router->slice2") +
                                                           b.checkers.transactions("l2.", ".router->slice3") +
                                                           b.checkers.transactions("l2.", ".router->slice4") +
                                                           b.checkers.transactions("l2.", ".router->slice5") +
                                                           b.checkers.transactions("l2.", ".router->slice6") +
                                                           b.checkers.transactions("l2.", ".router->slice7") +
                                                           b.checkers.transactions("l2.", ".router->slice8") +
                                                           b.checkers.transactions("l2.", ".router->slice9") +
                                                           b.checkers.transactions("l2.", ".router->slice10") +
                                                           b.checkers.transactions("l2.", ".router->slice11"));
}

// The ideal memory is still selectable, and both models give the same instruction count.
TEST(MemoryFrFcfs, IdealMemoryStillSelectable) {
    GpuTestBench b("gto", "vectoradd:n=512", {"memory.model=ideal"});
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, (512u / 32) * 9);
    EXPECT_EQ(b.stats.find("mem0.row_hits"), nullptr) << "no DRAM statistics with the ideal memory";
    EXPECT_GT(b.sum("mem", ".reads"), 0u);
    expectCleanEnd(b, b.numSms() + 2 * b.numPartitions());
}

// The JSON written by the CLI carries the DRAM statistics of every controller and the summary
// its row-buffer hit rate.
TEST(MemoryFrFcfs, StatsJsonCarriesDramStatistics) {
    ScratchDir dir;
    const std::string path = (dir / "s.json").string();
    const std::vector<std::string> args = {"run", "--platform", "fermi15", "--scheduler", "gto", "--workload",
                                           "vectoradd:n=2048", "--quiet", "--stats", path};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    const nlohmann::json j = nlohmann::json::parse(readFile(path));
    const auto& s = j["stats"];
    double hits = 0, reqs = 0;
    for (int i = 0; i < 6; ++i) {
        const std::string m = "mem" + std::to_string(i) + ".";
        for (const char* k : {"reads", "writes", "row_hits", "row_misses", "row_conflicts", "cmd_act", "cmd_pre",
                              "cmd_rd", "cmd_wr", "row_hit_rate", "bus_utilisation", "bank_parallelism",
                              "read_queue_latency", "read_service_latency", "write_queue_latency",
                              "write_service_latency", "latency", "queue_full_cycles"})
            EXPECT_TRUE(s.contains(m + k)) << m + k;
        hits += s[m + "row_hits"].get<double>();
        reqs += s[m + "reads"].get<double>() + s[m + "writes"].get<double>();
    }
    ASSERT_GT(reqs, 0);
    EXPECT_NEAR(j["summary"]["dram_row_hit_rate"].get<double>(), hits / reqs, 1e-9);
    EXPECT_EQ(j["config"]["memory.model"], "frfcfs");
}

} // namespace memory_frfcfs_test
