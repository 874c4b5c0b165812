#include "platforms/Report.hpp"

#include <cstdio>
#include <sstream>

namespace gpusim {

namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

// Weighted mean over every histogram/average named prefix*suffix (per-SM load latency).
double weightedMean(const StatRegistry& s, const std::string& suffix) {
    double sum = 0, n = 0;
    for (const auto& [name, st] : s.all()) {
        if (name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix)) continue;
        if (auto* h = dynamic_cast<const Histogram*>(st.get())) {
            sum += h->mean() * double(h->count());
            n += double(h->count());
        } else if (auto* a = dynamic_cast<const Average*>(st.get())) {
            sum += a->mean() * double(a->count());
            n += double(a->count());
        }
    }
    return ratio(sum, n);
}

} // namespace

nlohmann::json summaryOf(const RunRecord& r) {
    const StatRegistry& s = r.stats;
    const double l1Hits = s.sum("sm", ".l1d.read_hits");
    const double l1Reads = l1Hits + s.sum("sm", ".l1d.read_misses") + s.sum("sm", ".l1d.mshr_merges");
    const double l2Hits = s.sum("l2.", ".read_hits");
    const double l2Reads = l2Hits + s.sum("l2.", ".read_misses");
    return {
        {"cycles", r.result.cycles},
        {"warp_instructions", r.result.instructions},
        {"ipc", ratio(double(r.result.instructions), double(r.result.cycles))},
        {"l1d_read_hit_rate", ratio(l1Hits, l1Reads)},
        {"l2_read_hit_rate", ratio(l2Hits, l2Reads)},
        {"l1d_mshr_stall_cycles", s.sum("sm", ".l1d.mshr_stall_cycles")},
        {"l1d_miss_queue_stall_cycles", s.sum("sm", ".l1d.miss_queue_stall_cycles")},
        {"ldst_coalescing_stall_cycles", s.sum("sm", ".ldst.coalescing_stall_cycles")},
        {"avg_load_latency_cycles", weightedMean(s, ".ldst.load_latency")},
        {"noc_request_packets", s.sum("noc.req.", "packets")},
        {"noc_reply_packets", s.sum("noc.reply.", "packets")},
        {"truncated", r.result.truncated},
    };
}

nlohmann::json reportJson(const RunRecord& r) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& k : r.dispatcher.records())
        kernels.push_back({{"name", k.name}, {"start_cycle", k.startCycle}, {"end_cycle", k.endCycle}, {"ctas", k.ctas}});
    return {
        {"gpusim_version", GPUSIM_VERSION},
        {"platform", r.cfg.platformName()},
        {"config", r.cfg.toJson()},
        {"workload", {{"name", r.workload.name()}, {"params", r.workload.params()}}},
        {"scheduler", r.policy.toJson()},
        {"seed", r.seed},
        {"host_seconds", r.result.hostSeconds},
        {"sim_rate_cycles_per_second", ratio(double(r.result.cycles), r.result.hostSeconds)},
        {"kernels", kernels},
        {"summary", summaryOf(r)},
        {"stats", r.stats.toJson()},
    };
}

std::string summaryText(const RunRecord& r) {
    const auto j = summaryOf(r);
    char buf[2048];
    std::snprintf(buf, sizeof buf,
                  "gpusim: %s / %s / %s%s\n"
                  "  cycles                 %llu\n"
                  "  warp instructions      %llu\n"
                  "  IPC                    %.4f\n"
                  "  L1D read hit rate      %.2f %%\n"
                  "  L2 read hit rate       %.2f %%\n"
                  "  L1D MSHR stall cycles  %.0f\n"
                  "  avg load latency       %.1f cycles\n"
                  "  NoC packets            %.0f requests, %.0f replies\n"
                  "  host time              %.2f s (%.0f cycles/s)\n",
                  r.cfg.platformName().c_str(), r.policy.info->name.c_str(), r.workload.name().c_str(),
                  r.result.truncated ? "  [TRUNCATED by --max-cycles]" : "",
                  static_cast<unsigned long long>(r.result.cycles),
                  static_cast<unsigned long long>(r.result.instructions), j["ipc"].get<double>(),
                  100 * j["l1d_read_hit_rate"].get<double>(), 100 * j["l2_read_hit_rate"].get<double>(),
                  j["l1d_mshr_stall_cycles"].get<double>(), j["avg_load_latency_cycles"].get<double>(),
                  j["noc_request_packets"].get<double>(), j["noc_reply_packets"].get<double>(),
                  r.result.hostSeconds, ratio(double(r.result.cycles), r.result.hostSeconds));
    return buf;
}

} // namespace gpusim
