#include "platforms/RunSummary.hpp"

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/StatNames.hpp"

namespace gpusim {

namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

// Weighted means over every histogram/average whose name ends with one of `suffixes` (per-SM
// load latency), for all of them in one pass over the registry instead of a pass per figure
// (issue 19). The order of the additions is the registry's, as one pass per suffix had.
class WeightedMeans {
public:
    WeightedMeans(const StatRegistry& s, std::initializer_list<const char*> suffixes)
        : suffixes_(suffixes.begin(), suffixes.end()), sum_(suffixes_.size(), 0.0), n_(suffixes_.size(), 0.0) {
        for (const auto& [name, st] : s.all())
            for (size_t k = 0; k < suffixes_.size(); ++k) {
                const std::string& x = suffixes_[k];
                if (name.size() < x.size() || name.compare(name.size() - x.size(), x.size(), x)) continue;
                if (auto* h = dynamic_cast<const Histogram*>(st.get())) {
                    sum_[k] += h->mean() * double(h->count());
                    n_[k] += double(h->count());
                } else if (auto* a = dynamic_cast<const Average*>(st.get())) {
                    sum_[k] += a->mean() * double(a->count());
                    n_[k] += double(a->count());
                }
            }
    }
    double operator()(const char* suffix) const {
        for (size_t k = 0; k < suffixes_.size(); ++k)
            if (suffixes_[k] == suffix) return ratio(sum_[k], n_[k]);
        throw std::logic_error(std::string("WeightedMeans: ") + suffix + " was not gathered");
    }

private:
    std::vector<std::string> suffixes_;
    std::vector<double> sum_, n_;
};

// StatRegistry::sum(prefix, suffix) of every suffix the summary asks of the SMs' statistics, in
// one pass over them: with a pass per figure the summary was half of what writing `--stats`
// costs (issue 19). Each total adds in the registry's order, as sum() does: the same doubles.
class SmTotals {
public:
    SmTotals(const StatRegistry& s, std::initializer_list<const char*> suffixes)
        : suffixes_(suffixes.begin(), suffixes.end()), totals_(suffixes_.size(), 0.0) {
        const std::string prefix = "sm";
        const auto& all = s.all();
        for (auto it = all.lower_bound(prefix); it != all.end(); ++it) {
            const std::string& n = it->first;
            if (n.compare(0, prefix.size(), prefix) != 0) break;
            for (size_t k = 0; k < suffixes_.size(); ++k) {
                const std::string& x = suffixes_[k];
                if (n.size() >= prefix.size() + x.size() && n.compare(n.size() - x.size(), x.size(), x) == 0)
                    totals_[k] += it->second->value();
            }
        }
    }
    double operator()(const char* suffix) const {
        for (size_t k = 0; k < suffixes_.size(); ++k)
            if (suffixes_[k] == suffix) return totals_[k];
        throw std::logic_error(std::string("SmTotals: ") + suffix + " was not summed");
    }

private:
    std::vector<std::string> suffixes_;
    std::vector<double> totals_;
};

} // namespace

nlohmann::json summaryOf(const RunRecord& r) {
    const StatRegistry& s = r.stats;
    const SmTotals sm(s, {".l1d.read_hits", ".l1d.read_hits_intra_warp", ".l1d.read_hits_intra_thread",
                          ".l1d.read_misses", ".l1d.mshr_merges", ".active_cycles", ".issue.ldst_stall_cycles",
                          ".ldst.divergent_loads", ".ldst.coherent_loads", ".l1d.mshr_stall_cycles",
                          ".l1d.miss_queue_stall_cycles", ".ldst.coalescing_stall_cycles",
                          ".l1d.reservation_fail_cycles", ".ldst.reexec_stall_cycles",
                          ".ldst.fully_cached_divergent_loads", ".ldst.fully_cached_coherent_loads"});
    const WeightedMeans mean(s, {".row_hit_rate", ".bank_parallelism", ".ldst.occlusion_cycles",
                                 ".ldst.occlusion_cycles_coherent", ".ldst.occlusion_cycles_divergent",
                                 ".ldst.load_access_cycles", ".ldst.load_access_cycles_coherent",
                                 ".ldst.load_access_cycles_divergent", ".l1d.mshr_occupancy", ".ldst.load_latency"});
    const double l1Hits = sm(".l1d.read_hits");
    const double l1Intra = sm(".l1d.read_hits_intra_warp");
    const double l1IntraThread = sm(".l1d.read_hits_intra_thread");
    const double l1Reads = l1Hits + sm(".l1d.read_misses") + sm(".l1d.mshr_merges");
    const double l2Hits = s.sum("l2.", ".read_hits");
    const double l2Reads = l2Hits + s.sum("l2.", ".read_misses");
    // Accel-Sim counts every global atomic's L2 lookup as a read access (a hit when its sector
    // is present); the data reads' rate above keeps its own meaning (docs/memory.md).
    const double l2AtomicHits = s.sum("l2.", ".atomic_hits");
    const double l2ReadsWithAtomics = l2Reads + l2AtomicHits + s.sum("l2.", ".atomic_misses");
    const double smActive = sm(".active_cycles");
    const double schedLdst = sm(".issue.ldst_stall_cycles");
    const double divLoads = sm(".ldst.divergent_loads");
    const double cohLoads = sm(".ldst.coherent_loads");
    return {
        {"cycles", r.result.cycles},
        {"warp_instructions", r.result.instructions},
        {"ipc", ratio(double(r.result.instructions), double(r.result.cycles))},
        {"l1d_read_hit_rate", ratio(l1Hits, l1Reads)},
        {"l1d_read_miss_rate", l1Reads > 0 ? 1.0 - ratio(l1Hits, l1Reads) : 0.0},
        // The CCWS paper's Fig. 11 breakdown of L1D reads: hits on a line the reading warp brought
        // in (intra-warp) and on one another warp brought in (inter-warp); with the miss rate they sum to 1.
        {"l1d_read_intra_warp_hit_rate", ratio(l1Intra, l1Reads)},
        {"l1d_read_inter_warp_hit_rate", ratio(l1Hits - l1Intra, l1Reads)},
        // The intra-warp hits split as the paper splits them: a lane re-reading the line
        // (intra-thread) or only lanes new to it (inter-thread within the warp).
        {"l1d_read_intra_thread_hit_rate", ratio(l1IntraThread, l1Reads)},
        {"l1d_read_intra_warp_inter_thread_hit_rate", ratio(l1Intra - l1IntraThread, l1Reads)},
        {"l2_read_hit_rate", ratio(l2Hits, l2Reads)},
        {"l2_read_hit_rate_with_atomics", ratio(l2Hits + l2AtomicHits, l2ReadsWithAtomics)},
        // Requests served from an open row, over every FR-FCFS controller (0 with ideal memory).
        {"dram_row_hit_rate", mean(".row_hit_rate")},
        // Banks with a request outstanding, over cycles where any has, every controller weighted
        // by its busy cycles (the OWL paper's BLP).
        {"dram_bank_parallelism", mean(".bank_parallelism")},
        {"l1d_mshr_stall_cycles", sm(".l1d.mshr_stall_cycles")},
        {"l1d_miss_queue_stall_cycles", sm(".l1d.miss_queue_stall_cycles")},
        {"ldst_coalescing_stall_cycles", sm(".ldst.coalescing_stall_cycles")},
        // The OAWS paper's LD/ST stall breakdown (its Figs. 2 and 9), summed over SMs:
        // LDST_COAL, LDST_MSHR, LDST_ICNT, plus line-reservation failures (allocate-on-miss),
        // MASCAR's re-execution-queue stalls, and cycles the schedulers issued nothing while a
        // ready memory instruction waited for the LD/ST unit.
        {"ldst_stalls",
         {{"LDST_COAL", sm(".ldst.coalescing_stall_cycles")},
          {"LDST_MSHR", sm(".l1d.mshr_stall_cycles")},
          {"LDST_ICNT", sm(".l1d.miss_queue_stall_cycles")},
          {"LDST_RSRV", sm(".l1d.reservation_fail_cycles")},
          {"MASCAR_REPLAY", sm(".ldst.reexec_stall_cycles")},
          {"SCHED_LDST", schedLdst},
          {"sched_ldst_fraction_of_active", ratio(schedLdst, smActive)}}},
        {"avg_occlusion_cycles", mean(".ldst.occlusion_cycles")},
        {"avg_occlusion_cycles_coherent", mean(".ldst.occlusion_cycles_coherent")},
        {"avg_occlusion_cycles_divergent", mean(".ldst.occlusion_cycles_divergent")},
        // The OAWS paper's L1D access latency (its Fig. 3), of which the occlusion time is a part.
        {"avg_load_access_cycles", mean(".ldst.load_access_cycles")},
        {"avg_load_access_cycles_coherent", mean(".ldst.load_access_cycles_coherent")},
        {"avg_load_access_cycles_divergent", mean(".ldst.load_access_cycles_divergent")},
        {"divergent_loads", divLoads},
        {"coherent_loads", cohLoads},
        {"fully_cached_divergent_fraction", ratio(sm(".ldst.fully_cached_divergent_loads"), divLoads)},
        {"fully_cached_coherent_fraction", ratio(sm(".ldst.fully_cached_coherent_loads"), cohLoads)},
        {"avg_mshr_occupancy", mean(".l1d.mshr_occupancy")},
        {"avg_load_latency_cycles", mean(".ldst.load_latency")},
        {"noc_request_packets", s.sum("noc.req.", "packets")},
        {"noc_reply_packets", s.sum("noc.reply.", "packets")},
        {"truncated", r.result.truncated},
    };
}

namespace {

// The document without its statistics.
nlohmann::json reportSkeleton(const RunRecord& r) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const auto& k : r.dispatcher.records()) {
        nlohmann::json j = {{"name", k.name}, {"start_cycle", k.startCycle}, {"end_cycle", k.endCycle},
                            {"ctas", k.ctas}, {"stream", k.stream}};
        // Records are in start order; with several streams that need not be launch order.
        if (r.dispatcher.multiStream()) {
            j["index"] = k.index;
            j["warp_instructions"] = k.warpInstructions;
        }
        kernels.push_back(std::move(j));
    }
    // What each statistic means, beside its value: `gpusim stats` prints them; the statistics
    // themselves stay as they were (the regression goldens hold only those).
    nlohmann::json descriptions = nlohmann::json::object(), units = nlohmann::json::object();
    for (const auto& [name, st] : r.stats.all()) {
        descriptions[name] = st->description();
        units[name] = statUnit(name);
    }
    nlohmann::json doc = {
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
        {"descriptions", descriptions},
        {"units", units},
    };
    if (r.kernelWindows) doc.update(r.kernelWindows->toJson(r.dispatcher));
    if (r.sampler) doc["time_series"] = r.sampler->toJson();
    return doc;
}

} // namespace

nlohmann::json reportJson(const RunRecord& r) {
    nlohmann::json j = reportSkeleton(r);
    j["stats"] = r.stats.toJson();
    return j;
}

std::string reportText(const RunRecord& r, const nlohmann::json& workloadReport) {
    nlohmann::json j = reportSkeleton(r);
    if (!workloadReport.is_null()) j["workload"]["report"] = workloadReport;
    j["stats"] = nullptr;  // a placeholder, replaced by the statistics' text
    std::string text = j.dump(2);
    // A top-level member starts a line indented by two spaces; a string value cannot hold a line
    // break (dump escapes it), so this line is the placeholder's.
    static const std::string placeholder = "\n  \"stats\": null";
    const size_t at = text.find(placeholder);
    if (at == std::string::npos) throw std::logic_error("reportText: no statistics placeholder");
    std::string stats;
    JsonText out(stats, 2);
    r.stats.writeJson(out);
    text.replace(at + placeholder.size() - 4, 4, stats);
    return text;
}

std::string summaryText(const RunRecord& r) {
    const auto j = summaryOf(r);
    const auto& st = j["ldst_stalls"];
    auto d = [](const nlohmann::json& v) { return v.get<double>(); };
    char buf[4096];
    std::string dramHits = "n/a (ideal memory)";
    if (r.cfg.getString("memory.model") != "ideal") {
        std::snprintf(buf, sizeof buf, "%.2f %%", 100 * d(j["dram_row_hit_rate"]));
        dramHits = buf;
    }
    std::snprintf(buf, sizeof buf,
                  "gpusim: %s / %s / %s%s\n"
                  "  cycles                 %llu\n"
                  "  warp instructions      %llu\n"
                  "  IPC                    %.4f\n"
                  "  L1D read hit rate      %.2f %%\n"
                  "  L2 read hit rate       %.2f %%\n"
                  "  DRAM row-buffer hits   %s\n"
                  "  L1D MSHR stall cycles  %.0f\n"
                  "  avg load latency       %.1f cycles\n"
                  "  NoC packets            %.0f requests, %.0f replies\n",
                  r.cfg.platformName().c_str(), r.policy.info->name.c_str(), r.workload.name().c_str(),
                  r.result.truncated ? "  [TRUNCATED by --max-cycles]" : "",
                  static_cast<unsigned long long>(r.result.cycles),
                  static_cast<unsigned long long>(r.result.instructions), j["ipc"].get<double>(),
                  100 * j["l1d_read_hit_rate"].get<double>(), 100 * j["l2_read_hit_rate"].get<double>(),
                  dramHits.c_str(), j["l1d_mshr_stall_cycles"].get<double>(), j["avg_load_latency_cycles"].get<double>(),
                  j["noc_request_packets"].get<double>(), j["noc_reply_packets"].get<double>());
    std::string out = buf;
    std::snprintf(buf, sizeof buf,
                  "  L1D read miss rate     %.2f %%\n"
                  "  LD/ST stall cycles (summed over SMs; OAWS Fig. 2 breakdown)\n"
                  "    LDST_COAL            %10.0f  coalescing: further accesses of one instruction\n"
                  "    LDST_MSHR            %10.0f  no MSHR entry or merge room\n"
                  "    LDST_ICNT            %10.0f  miss queue to the NoC full\n"
                  "    line reservation     %10.0f  every way of the set reserved (allocate-on-miss)\n"
                  "    re-execution queue   %10.0f  oldest parked access blocked (MASCAR)\n"
                  "    schedulers on LD/ST  %10.0f  no issue, a ready memory instruction waited (%.1f %% of SM active cycles)\n"
                  "  load occlusion         %.2f cycles/load (coherent %.2f, divergent %.2f)\n"
                  "  fully cached loads     divergent %.2f %% of %.0f, coherent %.2f %% of %.0f\n"
                  "  avg MSHR occupancy     %.2f entries\n"
                  "  host time              %.2f s (%.0f cycles/s)\n",
                  100 * d(j["l1d_read_miss_rate"]), d(st["LDST_COAL"]), d(st["LDST_MSHR"]), d(st["LDST_ICNT"]),
                  d(st["LDST_RSRV"]), d(st["MASCAR_REPLAY"]), d(st["SCHED_LDST"]),
                  100 * d(st["sched_ldst_fraction_of_active"]), d(j["avg_occlusion_cycles"]),
                  d(j["avg_occlusion_cycles_coherent"]), d(j["avg_occlusion_cycles_divergent"]),
                  100 * d(j["fully_cached_divergent_fraction"]), d(j["divergent_loads"]),
                  100 * d(j["fully_cached_coherent_fraction"]), d(j["coherent_loads"]), d(j["avg_mshr_occupancy"]),
                  r.result.hostSeconds, ratio(double(r.result.cycles), r.result.hostSeconds));
    out += buf;
    if (r.dispatcher.multiStream()) {
        out += "  kernels, in start order:\n    kernel  stream       start         end  warp instructions  name\n";
        for (const auto& k : r.dispatcher.records()) {
            std::snprintf(buf, sizeof buf, "    %6zu  %6llu  %10llu  %10s  %17llu  %s\n", k.index,
                          static_cast<unsigned long long>(k.stream), static_cast<unsigned long long>(k.startCycle),
                          k.ended ? std::to_string(k.endCycle).c_str() : "-",
                          static_cast<unsigned long long>(k.warpInstructions), k.name.c_str());
            out += buf;
        }
    }
    return out;
}

} // namespace gpusim
