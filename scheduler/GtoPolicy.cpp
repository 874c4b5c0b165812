#include "scheduler/GtoPolicy.hpp"

#include <algorithm>

namespace gpusim {

const GtoPolicy::AgeOrder& GtoPolicy::ages(unsigned sched, const std::vector<unsigned>& warps, const SmView& sm) {
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
        for (const auto& [w, age] : c.members) c.isMember[w / 64] &= ~(uint64_t(1) << (w % 64));
        c.members.clear();
        for (unsigned w : warps) {
            c.members.emplace_back(w, sm.warp(w).age);
            if (w / 64 >= c.isMember.size()) c.isMember.resize(w / 64 + 1, 0);
            c.isMember[w / 64] |= uint64_t(1) << (w % 64);
        }
        c.sorted.assign(c.members.begin(), c.members.end());
        std::sort(c.sorted.begin(), c.sorted.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second < b.second : a.first < b.first;
        });
        c.oldestFirst.clear();
        for (const auto& [w, age] : c.sorted) c.oldestFirst.push_back(w);
    }
    return c;
}

int GtoPolicy::greedy(unsigned sched, const AgeOrder& c) const {
    const int g = last_.at(sched);
    if (g < 0) return -1;
    const unsigned w = static_cast<unsigned>(g);
    return w / 64 < c.isMember.size() && (c.isMember[w / 64] >> (w % 64) & 1) ? g : -1;
}

void GtoPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    const AgeOrder& c = ages(sched, warps, sm);
    // The greedy warp first (if it is among them), then the rest oldest first.
    const int g = greedy(sched, c);
    size_t k = 0;
    if (g >= 0) warps[k++] = static_cast<unsigned>(g);
    for (unsigned w : c.oldestFirst)
        if (static_cast<int>(w) != g) warps[k++] = w;
}

const std::vector<unsigned>& GtoPolicy::orderView(unsigned sched, const std::vector<unsigned>& warps,
                                                  const SmView& sm, int& first) {
    const AgeOrder& c = ages(sched, warps, sm);
    first = greedy(sched, c);
    return c.oldestFirst;
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
