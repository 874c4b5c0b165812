// The GPU's results do not depend on other SystemC processes: a co-simulated IP's clock (here a
// method re-armed every 333 ps that touches nothing of the GPU's) beside a fermi15 run leaves
// every statistic as `gpusim run` gives it alone. Before the clock hub (common/ClockHub.hpp) the
// kernel's order of the GPU's same-instant clock edges moved with such a process's timed events
// and so did back-pressure: this run's cycles came out different. One simulation per process:
// the reference is the CLI's run, in a child process.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <systemc>

#include "tb/common/GpuTestBench.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace clock_hub_gpu_test {

using namespace gpusim;
using namespace gpusim::tb;

class OtherIpClock : public sc_core::sc_module {
public:
    OtherIpClock(sc_core::sc_module_name n, unsigned periodPs) : sc_module(n), period_(periodPs, sc_core::SC_PS) {
        SC_HAS_PROCESS(OtherIpClock);
        SC_METHOD(edge);
    }
    uint64_t edges = 0;

private:
    void edge() {
        ++edges;
        next_trigger(period_);
    }
    sc_core::sc_time period_;
};

TEST(ClockHubGpu, AnotherIpsClockLeavesEveryStatisticAsTheGpuAloneGivesIt) {
    const std::string workload = "vectoradd:n=65536";
    ScratchDir dir;
    const auto statsFile = dir / "alone.json";
    const ProcessResult alone = runGpusim(
        {"run", "-q", "--platform", "fermi15", "--scheduler", "gto", "--workload", workload, "--stats", statsFile.string()});
    ASSERT_EQ(alone.status, 0) << alone.err;
    const nlohmann::json ref = nlohmann::json::parse(readFile(statsFile))["stats"];

    OtherIpClock other("other_ip_clock", 333);
    GpuTestBench b("gto", workload);
    b.run();
    EXPECT_GT(other.edges, 1000u);  // it did run beside the GPU
    ASSERT_GT(ref["gpu.cycles"].get<uint64_t>(), 0u);
    size_t compared = 0;
    for (const auto& [name, value] : ref.items()) {
        if (!value.is_number()) continue;  // histograms: their counts are numbers of their own
        EXPECT_DOUBLE_EQ(b.stats.get(name), value.get<double>()) << name;
        ++compared;
    }
    EXPECT_GT(compared, 100u);
}

} // namespace clock_hub_gpu_test
