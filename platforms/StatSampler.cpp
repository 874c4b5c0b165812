#include "platforms/StatSampler.hpp"

#include <cmath>
#include <limits>

namespace gpusim {

namespace {

constexpr double kNull = std::numeric_limits<double>::quiet_NaN();

double rate(double a, double b) { return b > 0 ? a / b : kNull; }

// A mean over the interval's samples: the sums are read as mean x count (the registry keeps no
// public sum), exact to about 1e-13; six decimals keep that noise out of the file.
double meanOf(double sum, double n) { return n > 0 ? std::round(sum / n * 1e6) / 1e6 : kNull; }

// A counter's value, or an average's or histogram's sample count and sum.
double valueOf(const Stat* s) { return s ? s->value() : 0.0; }
void samplesOf(const Stat* s, double& sum, double& n) {
    if (auto* a = dynamic_cast<const Average*>(s)) {
        n += double(a->count());
        sum += a->mean() * double(a->count());
    } else if (auto* h = dynamic_cast<const Histogram*>(s)) {
        n += double(h->count());
        sum += h->mean() * double(h->count());
    }
}
double total(const std::vector<const Stat*>& v) {
    double t = 0;
    for (const Stat* s : v) t += valueOf(s);
    return t;
}

const char* const kDescriptions[][2] = {
    {"cycle", "the interval's last core cycle; the interval is (previous row's cycle, this cycle]"},
    {"ipc", "warp instructions issued in the interval per core cycle, all SMs"},
    {"l1d_miss_rate", "L1D read misses and MSHR merges over reads in the interval, all SMs"},
    {"l2_miss_rate", "L2 data read misses over data reads in the interval, all slices"},
    {"dram_bandwidth_gbps", "DRAM RD and WR bursts x bytes per burst over the interval's time, GB/s"},
    {"dram_row_hit_rate", "requests served from an open row over requests served in the interval"},
    {"noc_req_latency", "mean NoC cycles of the request packets delivered in the interval"},
    {"noc_reply_latency", "mean NoC cycles of the reply packets delivered in the interval"},
    {"active_warps", "warps resident and not exited at the interval's last cycle, all SMs"},
};

} // namespace

StatSampler::StatSampler(const StatRegistry& stats, std::vector<const SmView*> sms, const StatSamplerParams& params)
    : stats_(stats), sms_(std::move(sms)), params_(params) {
    for (const auto& d : kDescriptions) names_.push_back(d[0]);
    for (size_t i = 0; i < sms_.size(); ++i)
        for (const char* c : {".ipc", ".l1d_miss_rate", ".active_warps"}) names_.push_back("sm" + std::to_string(i) + c);
    columns_.resize(names_.size());
}

// Every statistic is registered when the GPU is built, before the first sample.
void StatSampler::resolve() {
    resolved_ = true;
    for (size_t i = 0; i < sms_.size(); ++i) {
        const std::string p = "sm" + std::to_string(i) + ".";
        issued_.push_back(stats_.find(p + "issued"));
        l1Hits_.push_back(stats_.find(p + "l1d.read_hits"));
        l1Misses_.push_back(stats_.find(p + "l1d.read_misses"));
        l1Misses_.push_back(stats_.find(p + "l1d.mshr_merges"));  // two per SM: misses, merges
    }
    for (const auto& [name, st] : stats_.all()) {
        const Stat* s = st.get();
        if (name.rfind("l2.", 0) == 0) {
            if (name.ends_with(".read_hits")) l2Hits_.push_back(s);
            if (name.ends_with(".read_misses")) l2Misses_.push_back(s);
        } else if (name.rfind("mem", 0) == 0) {
            if (name.ends_with(".cmd_rd") || name.ends_with(".cmd_wr")) bursts_.push_back(s);
            if (name.ends_with(".row_hits")) rowHits_.push_back(s);
            if (name.ends_with(".row_misses") || name.ends_with(".row_conflicts")) rowOthers_.push_back(s);
        }
    }
    reqLatency_ = stats_.find("noc.req.latency");
    replyLatency_ = stats_.find("noc.reply.latency");
}

StatSampler::Totals StatSampler::read() const {
    Totals t;
    for (size_t i = 0; i < sms_.size(); ++i) {
        t.smIssued.push_back(valueOf(issued_[i]));
        t.smL1Hits.push_back(valueOf(l1Hits_[i]));
        t.smL1Misses.push_back(valueOf(l1Misses_[2 * i]) + valueOf(l1Misses_[2 * i + 1]));
        t.issued += t.smIssued.back();
        t.l1Hits += t.smL1Hits.back();
        t.l1Misses += t.smL1Misses.back();
    }
    t.l2Hits = total(l2Hits_);
    t.l2Misses = total(l2Misses_);
    t.bursts = total(bursts_);
    t.rowHits = total(rowHits_);
    t.rowOthers = total(rowOthers_);
    samplesOf(reqLatency_, t.reqLatSum, t.reqLatN);
    samplesOf(replyLatency_, t.replyLatSum, t.replyLatN);
    return t;
}

void StatSampler::sample(uint64_t cycle) {
    if (!resolved_) resolve();
    stats_.settle();
    const Totals now = read();
    const Totals& p = prev_;
    if (p.smIssued.empty()) prev_.smIssued = prev_.smL1Hits = prev_.smL1Misses = std::vector<double>(sms_.size(), 0.0);
    const double cycles = double(cycle - last_);
    const double seconds = cycles / (params_.coreClockMhz * 1e6);
    const double l1Hits = now.l1Hits - p.l1Hits, l1Misses = now.l1Misses - p.l1Misses;
    const double l2Hits = now.l2Hits - p.l2Hits, l2Misses = now.l2Misses - p.l2Misses;
    const double rowHits = now.rowHits - p.rowHits, rowOthers = now.rowOthers - p.rowOthers;
    unsigned activeAll = 0;
    std::vector<unsigned> active(sms_.size(), 0);
    for (size_t i = 0; i < sms_.size(); ++i) {
        for (unsigned w = 0; w < sms_[i]->warpSlots(); ++w) {
            const WarpView& v = sms_[i]->warp(w);
            if (v.valid && !v.exited) ++active[i];
        }
        activeAll += active[i];
    }
    std::vector<double> row = {
        double(cycle),
        (now.issued - p.issued) / cycles,
        rate(l1Misses, l1Hits + l1Misses),
        rate(l2Misses, l2Hits + l2Misses),
        params_.dramBurstBytes > 0 ? (now.bursts - p.bursts) * params_.dramBurstBytes / seconds / 1e9 : kNull,
        rate(rowHits, rowHits + rowOthers),
        meanOf(now.reqLatSum - p.reqLatSum, now.reqLatN - p.reqLatN),
        meanOf(now.replyLatSum - p.replyLatSum, now.replyLatN - p.replyLatN),
        double(activeAll),
    };
    for (size_t i = 0; i < sms_.size(); ++i) {
        const double h = now.smL1Hits[i] - prev_.smL1Hits[i], m = now.smL1Misses[i] - prev_.smL1Misses[i];
        row.push_back((now.smIssued[i] - prev_.smIssued[i]) / cycles);
        row.push_back(rate(m, h + m));
        row.push_back(double(active[i]));
    }
    for (size_t c = 0; c < row.size(); ++c) columns_[c].push_back(row[c]);
    prev_ = now;
    last_ = cycle;
}

nlohmann::json StatSampler::toJson() const {
    nlohmann::json cols = nlohmann::json::object(), descs = nlohmann::json::object();
    for (size_t c = 0; c < names_.size(); ++c) {
        nlohmann::json v = nlohmann::json::array();
        for (double x : columns_[c]) {
            if (std::isnan(x)) v.push_back(nullptr);
            else if (c == 0 || names_[c].find("active_warps") != std::string::npos) v.push_back(uint64_t(x));
            else v.push_back(x);
        }
        cols[names_[c]] = std::move(v);
    }
    for (const auto& d : kDescriptions) descs[d[0]] = d[1];
    descs["sm<i>.ipc"] = "ipc of SM i";
    descs["sm<i>.l1d_miss_rate"] = "l1d_miss_rate of SM i";
    descs["sm<i>.active_warps"] = "active_warps of SM i";
    return {{"interval_cycles", params_.intervalCycles}, {"columns", cols}, {"descriptions", descs}};
}

} // namespace gpusim
