// Whole-GPU runs with each NoC topology behind the same TLM boundary, a TLM-2.0 protocol
// checker on every link (SM->NoC, NoC->L2, L2->memory):
//  - fermi15 as shipped (15 SMs, crossbar, 6 partitions);
//  - a fermi30-like butterfly: 30 SMs in 15 clusters of 2 sharing an injection port, a 4-ary
//    2-fly, 6 partitions;
//  - an owl28-like mesh: 28 SMs and 8 memory controllers on a 6x6 mesh at 650 MHz, the diamond
//    placement of docs/interconnect.md.
// atax (small n) must give its hand-counted instruction total, the NoC's packet and flit counts
// must agree with what the SMs sent, and the end of the run must be clean. One GPU per test
// case (one SystemC simulation per process).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/GpuTestBench.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace noc_gpu_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

// atax instruction count per warp and kernel, from the modelled SASS listing (see
// gpu_run_test.cpp): 7n + 6 for a warp with a thread in range, 5 for one without.
constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
constexpr uint64_t ataxInstructions(uint64_t n) {
    const uint64_t warps = ceilDiv(n, 256) * 8, active = ceilDiv(n, 32);
    return 2 * (active * (7 * n + 6) + (warps - active) * 5);
}
// vectoradd: 9 per warp with a thread in range, 5 without.
constexpr uint64_t vectorAddInstructions(uint64_t n) {
    const uint64_t warps = ceilDiv(n, 256) * 8, active = ceilDiv(n, 32);
    return active * 9 + (warps - active) * 5;
}

const std::vector<std::string> kButterfly30 = {"gpu.num_sms=30", "noc.sms_per_cluster=2", "noc.topology=butterfly"};
const std::vector<std::string> kMesh28 = {"gpu.num_sms=28",        "mem.partitions=8",
                                          "noc.topology=mesh",     "noc.mesh.rows=6",
                                          "noc.mesh.cols=6",       "noc.mesh.mc_nodes=8,9,13,16,19,22,26,27",
                                          "noc.clock_mhz=650"};

void expectCleanEnd(const GpuTestBench& b) {
    EXPECT_EQ(b.checkers.size(), b.numSms() + 2 * b.numPartitions()) << "a checker on every link";
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_EQ(b.checkers.openTransactions(), 0u) << b.checkers.report();
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
    EXPECT_TRUE(b.gpu->dispatcher().done());
}

// Every request the SMs sent crossed the request subnet once and came back once; with 128-byte
// lines and 32-byte flits a read is 1 flit out and 5 back, a write ack 1 flit back.
void expectNocTrafficMatchesTheSms(const GpuTestBench& b) {
    const uint64_t reads = b.sum("sm", ".noc.reads"), writes = b.sum("sm", ".noc.writes");
    EXPECT_GT(reads, 0u);
    EXPECT_EQ(b.stat("noc.req.packets"), reads + writes);
    EXPECT_EQ(b.stat("noc.reply.packets"), reads + writes);
    EXPECT_EQ(b.stat("noc.reply.flits"), 5 * reads + 1 * writes);
    EXPECT_EQ(b.sum("noc.req.eject", ".flits"), b.stat("noc.req.flits"));
    EXPECT_EQ(b.sum("noc.req.inject", ".flits"), b.stat("noc.req.flits"));
    EXPECT_EQ(b.checkers.transactions("sm", "->noc"), reads + writes);
    EXPECT_EQ(b.checkers.transactions("noc->l2.", ""), reads + writes);
    EXPECT_GT(b.stat("noc.cycles"), 0u);
}

const Histogram& hist(const GpuTestBench& b, const std::string& name) {
    return dynamic_cast<const Histogram&>(*b.stats.find(name));
}

} // namespace

TEST(NocGpu, Fermi15CrossbarRunsAtax) {
    GpuTestBench b("gto", "atax:n=256");
    ASSERT_EQ(b.cfg.getString("noc.topology"), "crossbar");
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, ataxInstructions(256));
    expectNocTrafficMatchesTheSms(b);
    // The first request of the run meets an empty network: R + L = 4 cycles over one router.
    EXPECT_EQ(hist(b, "noc.req.latency").percentile(0), 4.0);
    expectCleanEnd(b);
}

TEST(NocGpu, Fermi30ButterflyWithClustersRunsAtax) {
    GpuTestBench b("gto", "atax:n=256", kButterfly30);
    ASSERT_EQ(b.numSms(), 30u);
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, ataxInstructions(256));
    expectNocTrafficMatchesTheSms(b);
    // Two stages: 2 * (R + L) = 8 cycles at zero load; 15 injection ports on the request side.
    EXPECT_EQ(hist(b, "noc.req.latency").percentile(0), 8.0);
    EXPECT_NE(b.stats.find("noc.req.inject14.flits"), nullptr);
    EXPECT_EQ(b.stats.find("noc.req.inject15.flits"), nullptr);
    expectCleanEnd(b);
}

TEST(NocGpu, Fermi30ButterflySmsShareTheirClusterPort) {
    // 64 CTAs over 30 SMs: many clusters have both SMs sending through their shared port.
    GpuTestBench b("gto", "vectoradd:n=16384", kButterfly30);
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, vectorAddInstructions(16384));
    unsigned bothBusy = 0;
    for (unsigned c = 0; c < 15; ++c) {
        const uint64_t a = b.stat("sm" + std::to_string(2 * c) + ".noc.reads") + b.stat("sm" + std::to_string(2 * c) + ".noc.writes");
        const uint64_t d = b.stat("sm" + std::to_string(2 * c + 1) + ".noc.reads") +
                           b.stat("sm" + std::to_string(2 * c + 1) + ".noc.writes");
        // Cluster c's injection port carries exactly what SMs 2c and 2c+1 sent (flits: reads 1,
        // writes 1 + data).
        EXPECT_EQ(b.stat("noc.req.inject" + std::to_string(c) + ".flits") > 0, a + d > 0) << "cluster " << c;
        EXPECT_EQ(b.stat("noc.reply.eject" + std::to_string(c) + ".flits") > 0, a + d > 0) << "cluster " << c;
        bothBusy += a > 0 && d > 0;
    }
    EXPECT_GE(bothBusy, 5u);
    expectNocTrafficMatchesTheSms(b);
    expectCleanEnd(b);
}

TEST(NocGpu, Owl28MeshRunsAtax) {
    GpuTestBench b("gto", "atax:n=256", kMesh28);
    ASSERT_EQ(b.numPartitions(), 8u);
    RunResult r;
    ASSERT_NO_THROW(r = b.run());
    EXPECT_EQ(r.instructions, ataxInstructions(256));
    expectNocTrafficMatchesTheSms(b);
    // The nearest SM-partition pairs are neighbours (2 routers: 8 cycles); the farthest are 6
    // hops apart (7 routers).
    EXPECT_GE(hist(b, "noc.req.latency").percentile(0), 8.0);
    EXPECT_GT(b.sum("noc.req.link.", ".flits"), b.stat("noc.req.flits")) << "requests crossed router-to-router links";
    expectCleanEnd(b);
}

TEST(NocGpu, NocStatisticsInTheJsonReport) {
    ScratchDir dir;
    const std::string statsPath = (dir / "stats.json").string();
    std::vector<std::string> args = {"run", "--platform", "fermi15", "--workload", "atax:n=128", "--quiet", "--stats", statsPath};
    for (const auto& s : kButterfly30) {
        args.push_back("--set");
        args.push_back(s);
    }
    const ProcessResult p = runGpusim(args);
    ASSERT_EQ(p.status, 0) << commandLine(args) << "\n" << p.err;
    const auto j = nlohmann::json::parse(readFile(statsPath));
    EXPECT_EQ(j["config"]["noc.topology"], "butterfly");
    const auto& s = j["stats"];
    for (const char* subnet : {"noc.req", "noc.reply"}) {
        const std::string n(subnet);
        for (const char* key : {"mean", "p50", "p99", "max", "count"})
            EXPECT_TRUE(s[n + ".latency"].contains(key)) << n << ".latency." << key;
        EXPECT_GT(s[n + ".flits"].get<uint64_t>(), 0u) << n;
        EXPECT_TRUE(s[n + ".buffer_occupancy"].contains("mean")) << n;
        EXPECT_TRUE(s.contains(n + ".link.s0r0.p0.flits")) << n << ": per-link counters";
    }
    EXPECT_GT(s["noc.cycles"].get<uint64_t>(), 0u);
    EXPECT_EQ(j["summary"]["noc_request_packets"], s["noc.req.packets"]);
}

} // namespace noc_gpu_test
