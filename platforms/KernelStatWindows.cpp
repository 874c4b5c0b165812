#include "platforms/KernelStatWindows.hpp"

#include <algorithm>

#include "common/StatNames.hpp"

namespace gpusim {

namespace {

bool leftOut(const std::string& name) {
    const std::string k = statKind(name);
    return k == "kernel" || k == "stream" || k == "launch" || k == "gpu";
}

void addTo(KernelStatWindows::Figure& into, const KernelStatWindows::Figure& f) {
    into.value += f.value;
    into.count += f.count;
    into.sum += f.sum;
    into.sampled = f.sampled;
}

nlohmann::json figuresJson(const KernelStatWindows::Figures& fs) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [p, f] : fs) {
        if (f.sampled)
            out[p] = {{"count", f.count}, {"mean", f.count > 0 ? f.sum / f.count : 0.0}};
        else
            out[p] = f.value;
    }
    return out;
}

} // namespace

KernelStatWindows::Snapshot KernelStatWindows::take() const {
    Snapshot s;
    for (const auto& [name, st] : stats_.all()) {  // all() settles first
        if (leftOut(name)) continue;
        Entry e{&name, st.get(), 0, 0, 0};
        if (auto* a = dynamic_cast<const Average*>(st.get())) {
            e.count = double(a->count());
            e.sum = a->mean() * e.count;
        } else if (auto* h = dynamic_cast<const Histogram*>(st.get())) {
            e.count = double(h->count());
            e.sum = h->mean() * e.count;
        } else {
            e.value = st->value();
        }
        s.push_back(e);
    }
    return s;
}

KernelStatWindows::Figures KernelStatWindows::difference(const Snapshot& from, const Snapshot& to) const {
    Figures out;
    size_t i = 0;
    for (const Entry& e : to) {
        // Both in registry (name) order; a statistic registered inside the window started at 0.
        while (i < from.size() && *from[i].name < *e.name) ++i;
        const bool had = i < from.size() && from[i].stat == e.stat;
        Figure f;
        f.sampled = dynamic_cast<const Counter*>(e.stat) == nullptr;
        f.value = e.value - (had ? from[i].value : 0);
        f.count = e.count - (had ? from[i].count : 0);
        f.sum = e.sum - (had ? from[i].sum : 0);
        if (f.value == 0 && f.count == 0) continue;
        addTo(out[statPattern(*e.name)], f);
    }
    return out;
}

void KernelStatWindows::update(const CtaDispatcher& d) {
    const auto& recs = d.records();
    Snapshot now = take();
    for (auto it = open_.begin(); it != open_.end();) {
        if (!recs[*it].ended) {
            ++it;
            continue;
        }
        windows_[*it] = difference(starts_[*it], now);
        starts_.erase(*it);
        it = open_.erase(it);
    }
    for (; opened_ < recs.size(); ++opened_) {
        open_.push_back(opened_);
        starts_[opened_] = now;
    }
}

nlohmann::json KernelStatWindows::toJson(const CtaDispatcher& d) const {
    nlohmann::json kernels = nlohmann::json::array();
    std::map<uint64_t, std::pair<size_t, Figures>> streams;
    for (const auto& [i, figures] : windows_) {
        const auto& r = d.records()[i];
        kernels.push_back({{"index", r.index}, {"name", r.name}, {"stream", r.stream}, {"start_cycle", r.startCycle},
                           {"end_cycle", r.endCycle}, {"stats", figuresJson(figures)}});
        auto& s = streams[r.stream];
        ++s.first;
        for (const auto& [p, f] : figures) addTo(s.second[p], f);
    }
    nlohmann::json out = {{"kernel_stats", kernels}};
    if (d.multiStream()) {
        nlohmann::json ss = nlohmann::json::array();
        for (const auto& [stream, s] : streams)
            ss.push_back({{"stream", stream}, {"kernels", s.first}, {"stats", figuresJson(s.second)}});
        out["stream_stats"] = ss;
    }
    return out;
}

} // namespace gpusim
