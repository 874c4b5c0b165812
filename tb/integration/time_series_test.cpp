// Statistics over time (StatSampler, `gpusim run --sample-interval`): samples worked out by hand
// on a one-SM GPU running one warp of independent ALU instructions, and the run's statistics
// unchanged by sampling (the same file with and without --sample-interval).
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "common/Config.hpp"
#include "common/Stats.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"
#include "platforms/StatSampler.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "tb/common/ProcessRunner.hpp"
#include "tb/unit/modules/ModuleTestHelpers.hpp"
#include "tb/unit/modules/SmTestBench.hpp"

namespace time_series_test {

using namespace gpusim;
using namespace gpusim::test;
using nlohmann::json;

// fermi15 cut to one SM: no L1I (l1i.size_bytes 0: every fetch hits), ALU 2 units x interval 2,
// so a warp of independent ALU instructions issues one per cycle. As in the SM tests
// (tb/unit/modules/sm_core_test.cpp): the dispatcher places the CTA at cycle 1 after the SM's
// tick, the SM fetches at 2 and issues the first instruction at 3; instruction i (of 1000) issues
// at 3 + i, EXIT at 1003.
TEST(TimeSeries, OneWarpOfAluInstructionsSampledEveryHundredCycles) {
    Config cfg(gpuSchema());
    cfg.loadFile(resolvePlatform("fermi15"));
    cfg.setFromString("gpu.num_sms=1");
    cfg.validate();
    const PolicyChoice policy = PolicyRegistry::builtin().parse("gto");
    ScriptWorkload wl;
    wl.add(std::make_unique<ScriptKernel>("alu", 1, 32, [](uint64_t, unsigned) {
        Program p;
        for (unsigned i = 0; i < 1000; ++i) p.push_back(alu(8 * i, kNoReg));
        p.push_back(exitInst(8000));
        return p;
    }));
    StatRegistry stats;
    Gpu gpu("gpu", cfg, policy, wl, stats);
    StatSamplerParams sp;
    sp.intervalCycles = 100;
    sp.coreClockMhz = 1400;
    sp.dramBurstBytes = 64;
    StatSampler sampler(stats, gpu.smViews(), sp);
    Gpu::RunOptions ro;
    ro.sampler = &sampler;
    const RunResult r = gpu.run(ro);
    ASSERT_EQ(r.instructions, 1001u);  // 1000 ALU + EXIT
    ASSERT_GT(r.cycles, 1003u);
    ASSERT_LT(r.cycles, 1100u);        // the warp's end and the drain take a few cycles past EXIT
    const json ts = sampler.toJson();
    EXPECT_EQ(ts["interval_cycles"], 100);
    const json& c = ts["columns"];
    // Rows at 100, 200, ..., 1000 and the run's last cycle.
    ASSERT_EQ(c["cycle"].size(), 11u);
    for (unsigned k = 0; k < 10; ++k) EXPECT_EQ(c["cycle"][k], 100 * (k + 1));
    EXPECT_EQ(c["cycle"][10], r.cycles);
    // (0, 100]: issues at 3..100, 98 instructions; then 100 per interval; (1000, end]: 998 and
    // 999 at 1001, 1002, EXIT at 1003: 3 instructions.
    EXPECT_DOUBLE_EQ(c["ipc"][0].get<double>(), 0.98);
    for (unsigned k = 1; k < 10; ++k) EXPECT_DOUBLE_EQ(c["ipc"][k].get<double>(), 1.0) << k;
    EXPECT_DOUBLE_EQ(c["ipc"][10].get<double>(), 3.0 / double(r.cycles - 1000));
    EXPECT_EQ(c["sm0.ipc"], c["ipc"]);  // one SM
    // One warp resident from cycle 1 until it ends, after EXIT: none at the last cycle.
    for (unsigned k = 0; k < 10; ++k) EXPECT_EQ(c["active_warps"][k], 1) << k;
    EXPECT_EQ(c["active_warps"][10], 0);
    // No loads, no L2 or DRAM traffic, no packets: rates null (no denominator), bandwidth 0.
    for (unsigned k = 0; k < 11; ++k) {
        EXPECT_TRUE(c["l1d_miss_rate"][k].is_null()) << k;
        EXPECT_TRUE(c["l2_miss_rate"][k].is_null()) << k;
        EXPECT_TRUE(c["dram_row_hit_rate"][k].is_null()) << k;
        EXPECT_TRUE(c["noc_req_latency"][k].is_null()) << k;
        EXPECT_EQ(c["dram_bandwidth_gbps"][k], 0.0) << k;
    }
}

// Sampling reads the registry every interval (and settles the SMs' late counts); the run's
// statistics, kernels and per-kernel statistics are the same as without it, bit for bit.
TEST(TimeSeries, SamplingChangesNoStatistic) {
    gpusim::tb::ScratchDir dir;
    const std::string a = (dir.path() / "a.json").string(), b = (dir.path() / "b.json").string();
    const std::vector<std::string> run = {"run", "-q", "-w", "atax:n=128"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = run;
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    ASSERT_EQ(gpusim::tb::runGpusim(with({"--stats", a})).status, 0);
    ASSERT_EQ(gpusim::tb::runGpusim(with({"--stats", b, "--sample-interval", "97"})).status, 0);
    const json ja = json::parse(gpusim::tb::readFile(a)), jb = json::parse(gpusim::tb::readFile(b));
    EXPECT_EQ(ja["stats"], jb["stats"]);
    EXPECT_EQ(ja["kernels"], jb["kernels"]);
    EXPECT_EQ(ja["kernel_stats"], jb["kernel_stats"]);
    EXPECT_FALSE(ja.contains("time_series"));
    // 41623 cycles in intervals of 97: 429 full ones and the last partial (41613, 41623].
    const json& c = jb["time_series"]["columns"];
    ASSERT_EQ(c["cycle"].size(), 430u);
    EXPECT_EQ(c["cycle"][429], ja["summary"]["cycles"]);
    // The intervals' instructions add up to the run's.
    double issued = 0, prev = 0;
    for (size_t k = 0; k < 430; ++k) {
        const double cyc = c["cycle"][k].get<double>();
        issued += c["ipc"][k].get<double>() * (cyc - prev);
        prev = cyc;
    }
    EXPECT_NEAR(issued, ja["summary"]["warp_instructions"].get<double>(), 1e-6);
}

TEST(TimeSeries, BadIntervalsExitTwo) {
    auto r = gpusim::tb::runGpusim({"run", "-q", "-w", "vectoradd:n=64", "--sample-interval", "-5", "--stats", "/dev/null"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--sample-interval: -5 is negative"), std::string::npos) << r.err;
    r = gpusim::tb::runGpusim({"run", "-q", "-w", "vectoradd:n=64", "--sample-interval", "100"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--sample-interval: the time series goes into --stats"), std::string::npos) << r.err;
}

} // namespace time_series_test
