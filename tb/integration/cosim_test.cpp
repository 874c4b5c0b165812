// The co-simulation entry points of the Gpu (docs/cosimulation.md) on fermi15, with a protocol
// checker on every link: a hosted launch through the ControlTarget at time 0 is the command
// line's run, statistic for statistic; launches in sequence keep the caches warm and report per
// launch; with GpuOptions::externalMemory a user's AT target behind every partition answers every
// L2 miss. Workloads are small (vectoradd, n = 4096: 16 CTAs of 256 threads).
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/Config.hpp"
#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "platforms/ControlTarget.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "tb/common/FixedLatencyTarget.hpp"
#include "tb/common/ProcessRunner.hpp"
#include "tb/common/TlmProtocolChecker.hpp"
#include "workloads/Workload.hpp"

namespace gpusim::tb {
namespace cosim_test {

using namespace sc_core;
using Ctl = ControlTarget;

const char* kSpec = "vectoradd:n=4096";

struct Platform {
    Config cfg{gpuSchema()};
    PolicyChoice policy;
    StatRegistry stats;
    ProtocolCheckers checkers;
    Platform() {
        cfg.loadFile(resolvePlatform("fermi15"));
        cfg.validate();
        policy = PolicyRegistry::builtin().parse("gto");
    }
};

// Drives the control registers from one thread, with zero access latency.
struct Driver : sc_module {
    tlm_utils::simple_initiator_socket<Driver> bus{"bus"};
    std::function<void(Driver&)> body;
    bool ran = false;
    Driver(sc_module_name n, std::function<void(Driver&)> b) : sc_module(n), body(std::move(b)) {
        SC_HAS_PROCESS(Driver);
        SC_THREAD(run);
    }
    void run() {
        body(*this);
        ran = true;
        sc_stop();
    }
    uint32_t access(tlm::tlm_command cmd, uint32_t reg, uint32_t v = 0) {
        tlm::tlm_generic_payload p;
        p.set_command(cmd);
        p.set_address(reg);
        p.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
        p.set_data_length(4);
        p.set_streaming_width(4);
        sc_time d = SC_ZERO_TIME;
        bus->b_transport(p, d);
        EXPECT_EQ(p.get_response_status(), tlm::TLM_OK_RESPONSE);
        return v;
    }
    uint32_t rd(uint32_t reg) { return access(tlm::TLM_READ_COMMAND, reg); }
    void wr(uint32_t reg, uint32_t v) { access(tlm::TLM_WRITE_COMMAND, reg, v); }
};

std::vector<std::unique_ptr<Workload>> table(const std::vector<std::string>& specs) {
    std::vector<std::unique_ptr<Workload>> t;
    for (const auto& s : specs) t.push_back(WorkloadRegistry::builtin().create(s, 1));
    return t;
}

void expectCleanLinks(const Platform& p) {
    EXPECT_EQ(p.checkers.violationCount(), 0u) << p.checkers.report();
    EXPECT_EQ(p.checkers.openTransactions(), 0u) << p.checkers.report();
}

TEST(Cosim, HostedLaunchAtTimeZeroIsTheCommandLineRun) {
    ScratchDir dir;
    const ProcessResult cli = runGpusim({"run", "--workload", kSpec, "--scheduler", "gto", "-q", "--stats",
                                         (dir / "s.json").string()});
    ASSERT_EQ(cli.status, 0) << cli.err;
    const nlohmann::json cliStats = nlohmann::json::parse(readFile(dir / "s.json"))["stats"];

    Platform p;
    Gpu gpu("gpu", p.cfg, p.policy, p.stats, p.checkers.hook());
    Ctl ctl("ctl", gpu, table({kSpec}));
    Driver drv("drv", [&](Driver& d) {
        d.wr(Ctl::kControl, 1);  // at time 0: the launch counts cycles from edge 0, as run() does
        wait(ctl.launchEnded());
        EXPECT_EQ(d.rd(Ctl::kStatus), uint32_t(Ctl::kDone));
    });
    drv.bus.bind(ctl.socket);
    sc_start();
    ASSERT_TRUE(drv.ran);
    expectCleanLinks(p);

    EXPECT_EQ(ctl.lastResult().cycles, cliStats["gpu.cycles"].get<uint64_t>());
    EXPECT_EQ(ctl.lastResult().instructions, cliStats["gpu.warp_instructions"].get<uint64_t>());
    // Every statistic of the command line's run has the same value here; the dispatcher's
    // kernel<i>.* appear under launch0.
    const nlohmann::json hosted = p.stats.toJson();
    size_t compared = 0;
    for (const auto& [name, value] : cliStats.items()) {
        const std::string here = name.rfind("kernel", 0) == 0 ? "launch0." + name : name;
        ASSERT_TRUE(hosted.contains(here)) << here;
        EXPECT_EQ(hosted[here], value) << name;
        ++compared;
    }
    EXPECT_GT(compared, 100u);
    EXPECT_EQ(hosted["gpu.launches"], 1);
}

TEST(Cosim, LaunchesInSequenceReportPerLaunchAndKeepCachesWarm) {
    Platform p;
    Gpu gpu("gpu", p.cfg, p.policy, p.stats, p.checkers.hook());
    Ctl ctl("ctl", gpu, table({kSpec, "bicg:n=128"}));
    std::vector<uint64_t> memRequests;  // requests on the L2-to-memory links after each launch
    Driver drv("drv", [&](Driver& d) {
        for (uint32_t w : {0u, 0u, 1u}) {
            d.wr(Ctl::kWorkload, w);
            d.wr(Ctl::kControl, 1);
            EXPECT_EQ(d.rd(Ctl::kStatus), uint32_t(Ctl::kRunning));
            wait(ctl.launchEnded());
            EXPECT_EQ(d.rd(Ctl::kStatus), uint32_t(Ctl::kDone));
            memRequests.push_back(p.checkers.transactions("l2.", "->mem"));
            wait(1, SC_US);  // the GPU idles between launches
        }
    });
    drv.bus.bind(ctl.socket);
    sc_start();
    ASSERT_TRUE(drv.ran);
    expectCleanLinks(p);
    EXPECT_EQ(ctl.readRegister(Ctl::kLaunches), 3u);
    EXPECT_EQ(p.stats.get("gpu.launches"), 3);
    // vectoradd n = 4096 reads a and b once: 2 x 4096 x 4 B / 128 B = 256 line misses from a cold
    // L2; c's 128 lines are written into the L2 (write-validate) and stay there (48 KiB in all,
    // no eviction), so no write reaches memory. The second launch finds everything cached: still
    // 256 requests after it.
    ASSERT_EQ(memRequests.size(), 3u);
    EXPECT_EQ(memRequests[0], 256u);
    EXPECT_EQ(memRequests[1], 256u);
    // Every workload allocates from the same device base, so bicg's A (128 x 128 x 4 B = 64 KiB)
    // covers the 48 KiB vectoradd left cached and goes beyond it: more lines come from memory.
    EXPECT_GT(memRequests[2], 256u);
    // 4096 threads / 256 per CTA = 16 CTAs in each vectoradd launch.
    EXPECT_EQ(p.stats.get("launch0.kernel0.ctas"), 16);
    EXPECT_EQ(p.stats.get("launch1.kernel0.ctas"), 16);
    // The same instructions whatever the timing; the warm second launch is faster.
    EXPECT_EQ(p.stats.get("launch0.warp_instructions"), p.stats.get("launch1.warp_instructions"));
    EXPECT_LT(p.stats.get("launch1.cycles"), p.stats.get("launch0.cycles"));
    EXPECT_EQ(p.stats.get("gpu.cycles"),
              p.stats.get("launch0.cycles") + p.stats.get("launch1.cycles") + p.stats.get("launch2.cycles"));
    EXPECT_EQ(p.stats.get("launch2.cycles"), double(ctl.lastResult().cycles));
}

void runExternalMemory(const std::vector<std::string>& sets) {
    Platform p;
    for (const auto& kv : sets) p.cfg.setFromString(kv);
    p.cfg.validate();
    std::unique_ptr<Workload> wl = WorkloadRegistry::builtin().create(kSpec, 1);
    GpuOptions opt;
    opt.externalMemory = true;
    Gpu gpu("gpu", p.cfg, p.policy, *wl, p.stats, p.checkers.hook(), opt);
    ASSERT_EQ(gpu.partitions(), 6u);  // fermi15: mem.partitions = 6
    std::vector<std::unique_ptr<FixedLatencyTarget>> mems;
    for (unsigned j = 0; j < gpu.partitions(); ++j) {
        mems.push_back(std::make_unique<FixedLatencyTarget>(("user_mem" + std::to_string(j)).c_str(),
                                                            sc_time(150, SC_NS)));
        gpu.memorySocket(j).bind(mems.back()->socket);
    }
    EXPECT_NE(p.checkers.find("l2.0->mem"), nullptr) << "the user's link is checked too";
    const RunResult r = gpu.run({});
    EXPECT_FALSE(r.truncated);
    expectCleanLinks(p);
    uint64_t reads = 0, writes = 0;
    for (const auto& m : mems) {
        reads += m->reads;
        writes += m->writes;
        EXPECT_TRUE(m->queue.empty() && !m->open);
    }
    // As above: 256 cold line reads, no write-backs; nothing of the built-in memory exists.
    EXPECT_EQ(reads, 256u);
    EXPECT_EQ(writes, 0u);
    EXPECT_EQ(p.stats.find("mem0.reads"), nullptr);
    EXPECT_EQ(p.stats.sum("l2.slice", ".read_misses"), 256);
    EXPECT_EQ(p.stats.get("kernel0.ctas"), 16);
}

TEST(Cosim, ExternalMemoryAnswersEveryL2Miss) { runExternalMemory({}); }

// Two slices per partition: the user's target sits behind each partition's slice arbiter; the
// slices split the lines, so the count of line misses is the same.
TEST(Cosim, ExternalMemoryBehindTwoSlicesPerPartition) { runExternalMemory({"l2.slices_per_partition=2"}); }

TEST(Cosim, MemorySocketNeedsExternalMemoryAndRunNeedsAWorkload) {
    Platform p;
    std::unique_ptr<Workload> wl = WorkloadRegistry::builtin().create(kSpec, 1);
    Gpu cli("cli", p.cfg, p.policy, *wl, p.stats);
    EXPECT_THROW(cli.memorySocket(0), ModelError);
    EXPECT_THROW(cli.launch(*wl, nullptr), ModelError);
}

TEST(Cosim, HostedGpuRefusesRunAndALaunchWhileRunning) {
    Platform p;
    std::unique_ptr<Workload> wl = WorkloadRegistry::builtin().create(kSpec, 1);
    Gpu gpu("gpu", p.cfg, p.policy, p.stats);
    EXPECT_THROW(gpu.run({}), ModelError);
    EXPECT_FALSE(gpu.launchRunning());
    gpu.launch(*wl, nullptr);
    EXPECT_TRUE(gpu.launchRunning());
    EXPECT_THROW(gpu.launch(*wl, nullptr), ModelError);
}

} // namespace cosim_test
} // namespace gpusim::tb
