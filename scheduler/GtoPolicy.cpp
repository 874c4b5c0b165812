#include "scheduler/GtoPolicy.hpp"

#include <algorithm>

namespace gpusim {

const GtoPolicy::AgeOrder& GtoPolicy::ages(unsigned sched, const std::vector<unsigned>& warps, const SmView& sm) {
    AgeOrder& c = byAge_.at(sched);
    // The scheduler's set version moves whenever one of its warps starts or ends; while it stands
    // still, the warps asked about (every caller passes the scheduler's members) and their ages
    // are those of the last call. Version 0 (an SmView that does not keep one) compares the ages.
    const uint64_t version = sm.schedulerSetVersion(sched);
    if (version != 0 && version == c.version && c.oldestFirst.size() == warps.size()) return c;
    c.version = version;
    // The ages now, and whether any slot's differs from what the order was built on.
    const unsigned slots = sm.warpSlots();
    if (c.ageOf.size() < slots) c.ageOf.resize(slots, kNotMember);
    if (freshAge_.size() < slots) freshAge_.resize(slots, kNotMember);
    bool changed = warps.size() != c.oldestFirst.size();
    for (unsigned w : warps) {
        const uint64_t age = sm.warp(w).age;
        freshAge_[w] = age;
        changed |= age != c.ageOf[w];
    }
    if (!changed) {
        for (unsigned w : warps) freshAge_[w] = kNotMember;
        return c;
    }
    // The order is (age, slot) ascending. A warp that stays keeps its place among those that
    // stay, so the new order is the old one without the leavers, merged with the newcomers
    // (usually one, younger than all): no sort of the whole list at each warp start and end.
    const auto older = [this](unsigned a, unsigned b) {
        return freshAge_[a] != freshAge_[b] ? freshAge_[a] < freshAge_[b] : a < b;
    };
    added_.clear();
    for (unsigned w : warps)
        if (c.ageOf[w] != freshAge_[w]) added_.push_back(w);
    std::sort(added_.begin(), added_.end(), older);
    merged_.clear();
    auto next = added_.begin();
    for (unsigned w : c.oldestFirst) {
        if (freshAge_[w] != c.ageOf[w]) {  // left (or its slot holds a newer warp)
            c.ageOf[w] = kNotMember;
            continue;
        }
        while (next != added_.end() && older(*next, w)) merged_.push_back(*next++);
        merged_.push_back(w);
    }
    merged_.insert(merged_.end(), next, added_.end());
    for (unsigned w : added_) c.ageOf[w] = freshAge_[w];
    for (unsigned w : warps) freshAge_[w] = kNotMember;
    c.oldestFirst.swap(merged_);
    return c;
}

int GtoPolicy::greedy(unsigned sched, const AgeOrder& c) const {
    const int g = last_.at(sched);
    if (g < 0) return -1;
    const unsigned w = static_cast<unsigned>(g);
    return w < c.ageOf.size() && c.ageOf[w] != kNotMember ? g : -1;
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
