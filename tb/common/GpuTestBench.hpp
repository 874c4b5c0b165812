#pragma once
// A whole GPU for an integration test: fermi15 (optionally with overrides), a scheduler, a
// workload, a statistics registry and a TLM protocol checker on every link. One per test case:
// only one SystemC simulation may run in a process.
#include <memory>
#include <string>
#include <vector>

#include "common/Config.hpp"
#include "common/Stats.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "tb/common/TlmProtocolChecker.hpp"
#include "workloads/Workload.hpp"

namespace gpusim::tb {

struct GpuTestBench {
    Config cfg{gpuSchema()};
    PolicyChoice policy;
    std::unique_ptr<Workload> workload;
    StatRegistry stats;
    ProtocolCheckers checkers;
    std::unique_ptr<Gpu> gpu;

    GpuTestBench(const std::string& scheduler, const std::string& workloadSpec,
                 const std::vector<std::string>& sets = {}, const std::string& platform = "fermi15") {
        cfg.loadFile(resolvePlatform(platform));
        for (const auto& s : sets) cfg.setFromString(s);
        cfg.validate();
        policy = PolicyRegistry::builtin().parse(scheduler);
        workload = WorkloadRegistry::builtin().create(workloadSpec, /*seed=*/1);
        gpu = std::make_unique<Gpu>("gpu", cfg, policy, *workload, stats, checkers.hook());
    }

    RunResult run(uint64_t maxCycles = 0) {
        Gpu::RunOptions opt;
        opt.maxCycles = maxCycles;
        return gpu->run(opt);
    }

    uint64_t stat(const std::string& name) const { return static_cast<uint64_t>(stats.get(name)); }
    uint64_t sum(const std::string& prefix, const std::string& suffix) const {
        return static_cast<uint64_t>(stats.sum(prefix, suffix));
    }
    unsigned numSms() const { return static_cast<unsigned>(cfg.getInt("gpu.num_sms")); }
    unsigned numPartitions() const { return static_cast<unsigned>(cfg.getInt("mem.partitions")); }
};

} // namespace gpusim::tb
