#pragma once
// End-of-run output: the JSON document written by --stats (every statistic with its description
// and unit, the resolved configuration, workload and scheduler with parameters, seed, host time
// and rate, per-kernel statistics and the time series when recorded) and the
// short human summary printed after a run.
#include <string>

#include <nlohmann/json.hpp>

#include "common/Config.hpp"
#include "common/Stats.hpp"
#include "modules/CtaDispatcher.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/KernelStatWindows.hpp"
#include "platforms/StatSampler.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "workloads/Workload.hpp"

namespace gpusim {

struct RunRecord {
    const Config& cfg;
    const PolicyChoice& policy;
    const Workload& workload;
    const StatRegistry& stats;
    const CtaDispatcher& dispatcher;
    RunResult result;
    uint64_t seed;
    // Written into the document when given (--sample-interval; per-kernel statistics).
    const StatSampler* sampler = nullptr;
    const KernelStatWindows* kernelWindows = nullptr;
};

// The headline figures, derived from the registry (also embedded in the JSON as "summary").
nlohmann::json summaryOf(const RunRecord& r);
nlohmann::json reportJson(const RunRecord& r);
// reportJson(r).dump(2), with `workloadReport` (unless null) as workload.report, written without
// building the statistics as JSON (what --stats writes; issue 19).
std::string reportText(const RunRecord& r, const nlohmann::json& workloadReport);
std::string summaryText(const RunRecord& r);

} // namespace gpusim
