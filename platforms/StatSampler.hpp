#pragma once
// Statistics over time (`gpusim run --sample-interval CYCLES`): every CYCLES core cycles, and once
// more at the run's last cycle, the GPU's figures over the interval just ended, as columns of one
// table (the "time_series" of the statistics file; AerialVision's view of a run):
//   cycle                  the interval's last core cycle (intervals are (previous, cycle])
//   ipc                    warp instructions issued in the interval / its core cycles
//   l1d_miss_rate          L1D read misses and MSHR merges / reads (the summary's definition)
//   l2_miss_rate           L2 data read misses / data reads
//   dram_bandwidth_gbps    RD and WR bursts x bytes per burst / the interval's time (FR-FCFS
//                          memory; null with the ideal memory, which has no bursts)
//   dram_row_hit_rate      row hits / (hits + misses + conflicts) of the requests served
//   noc_req_latency, noc_reply_latency   mean NoC cycles of the packets delivered in the interval
//   active_warps           warps resident and not exited at the interval's last cycle, all SMs
//   sm<i>.ipc, sm<i>.l1d_miss_rate, sm<i>.active_warps   the same per SM
// A rate whose denominator is 0 in an interval (no reads, no packets) is null, not 0.
// The sampler reads the registry (settling what units count late, which changes no figure) in the
// supervisor's tick, after every unit of the core cycle; it changes nothing the model does, so a
// run's statistics are the same with and without it. Off (no sampler) it costs nothing per cycle:
// the supervisor's one comparison per cycle serves the progress line and the sampler together. The other clocks' units are read as they stand at that core edge.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/Stats.hpp"
#include "scheduler/SmView.hpp"

namespace gpusim {

struct StatSamplerParams {
    uint64_t intervalCycles = 0;  // >= 1
    double coreClockMhz = 0;
    double dramBurstBytes = 0;    // 0: no bursts to count (ideal memory)
};

class StatSampler {
public:
    StatSampler(const StatRegistry& stats, std::vector<const SmView*> sms, const StatSamplerParams& params);

    uint64_t interval() const { return params_.intervalCycles; }
    // The interval ending at `cycle` (the supervisor calls it at every multiple of the interval,
    // after every unit of that core cycle).
    void sample(uint64_t cycle);
    // The last, partial interval (nothing if `cycle` was just sampled).
    void finish(uint64_t cycle) {
        if (cycle > last_) sample(cycle);
    }
    // {"interval_cycles": N, "columns": {name: [values...]}, "descriptions": {name: text}}
    nlohmann::json toJson() const;

private:
    // The registry's figures the columns are made of, summed over their instances.
    struct Totals {
        double issued = 0, l1Hits = 0, l1Misses = 0, l2Hits = 0, l2Misses = 0, bursts = 0;
        double rowHits = 0, rowOthers = 0, reqLatSum = 0, reqLatN = 0, replyLatSum = 0, replyLatN = 0;
        std::vector<double> smIssued, smL1Hits, smL1Misses;
    };
    void resolve();
    Totals read() const;

    const StatRegistry& stats_;
    std::vector<const SmView*> sms_;
    StatSamplerParams params_;
    bool resolved_ = false;
    std::vector<const Stat*> issued_, l1Hits_, l1Misses_, l2Hits_, l2Misses_, bursts_, rowHits_, rowOthers_;
    const Stat *reqLatency_ = nullptr, *replyLatency_ = nullptr;
    Totals prev_;
    uint64_t last_ = 0;
    std::vector<std::string> names_;
    std::vector<std::vector<double>> columns_;  // one per name, NaN for null
};

} // namespace gpusim
