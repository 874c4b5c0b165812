#include "scheduler/GtoPolicy.hpp"

#include <algorithm>

namespace gpusim {

void GtoPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    AgeOrder& c = byAge_.at(sched);
    // The SM's warp-set version moves whenever a warp starts or ends; while it stands still the
    // scheduler's members (the SM passes all of them, in slot order) and their ages are those of
    // the last call. Version 0 (an SmView that does not keep one) compares every time.
    const uint64_t version = sm.warpSetVersion();
    bool same = version != 0 && version == c.version && c.members.size() == warps.size();
    if (!same) {
        same = c.members.size() == warps.size();
        for (size_t i = 0; same && i < warps.size(); ++i)
            same = c.members[i].first == warps[i] && c.members[i].second == sm.warp(warps[i]).age;
    }
    c.version = version;
    if (!same) {
        c.members.clear();
        for (unsigned w : warps) c.members.emplace_back(w, sm.warp(w).age);
        auto sorted = c.members;
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second < b.second : a.first < b.first;
        });
        c.oldestFirst.clear();
        for (const auto& [w, age] : sorted) c.oldestFirst.push_back(w);
    }
    // The greedy warp first (if it is among them), then the rest oldest first.
    const int greedy = last_.at(sched);
    const bool hasGreedy = greedy >= 0 && std::find(warps.begin(), warps.end(), static_cast<unsigned>(greedy)) != warps.end();
    size_t k = 0;
    if (hasGreedy) warps[k++] = static_cast<unsigned>(greedy);
    for (unsigned w : c.oldestFirst)
        if (!hasGreedy || w != static_cast<unsigned>(greedy)) warps[k++] = w;
}

void GtoPolicy::onIssue(unsigned sched, unsigned warp, const SmView&) {
    last_.at(sched) = static_cast<int>(warp);
}

void GtoPolicy::onWarpEnd(unsigned warp) {
    // A new warp may reuse the slot; it must not inherit the greedy position.
    for (auto& l : last_)
        if (l == static_cast<int>(warp)) l = -1;
}

} // namespace gpusim
