#include "scheduler/GtoPolicy.hpp"

#include <algorithm>

namespace gpusim {

const GtoPolicy::AgeOrder& GtoPolicy::ages(unsigned sched, const std::vector<unsigned>& warps, const SmView& sm) {
    AgeOrder& c = byAge_.at(sched);
    // The scheduler's set version moves whenever one of its warps starts or ends; while it stands
    // still, the warps asked about (every caller passes the scheduler's members) and their ages
    // are those of the last call. Version 0 (an SmView that does not keep one) compares the ages.
    const uint64_t version = sm.schedulerSetVersion(sched);
    if (current(c, version, warps.size())) return c;
    c.version = version;
    const unsigned slots = sm.warpSlots();
    if (c.ageOf.size() < slots) c.ageOf.resize(slots, kNotMember);
    if (seen_.size() < slots) {
        seen_.resize(slots, 0);
        addedAge_.resize(slots, kNotMember);
    }
    // One pass over the warps asked about: a warp whose age is not the one its slot was ordered
    // by is a newcomer (a new slot, or a slot that holds a newer warp). `stamp_` marks this call's
    // warps, so nothing has to be cleared afterwards.
    ++stamp_;
    added_.clear();
    size_t stayed = 0;
    for (unsigned w : warps) {
        const uint64_t age = sm.warp(w).age;
        seen_[w] = stamp_;
        if (age == c.ageOf[w]) {
            ++stayed;
        } else {
            addedAge_[w] = age;
            added_.push_back(w);
        }
    }
    if (added_.empty() && stayed == c.oldestFirst.size()) return c;
    // The order is (age, slot) ascending. A warp that stays keeps its place among those that
    // stay, so the new order is the old one without the leavers, merged with the newcomers
    // (usually one, younger than all): no sort of the whole list at each warp start and end.
    if (stayed != c.oldestFirst.size()) {
        // Leavers: members not asked about, or whose slot now holds a newcomer.
        size_t k = 0;
        for (unsigned w : c.oldestFirst) {
            if (seen_[w] == stamp_ && addedAge_[w] == kNotMember) {
                c.oldestFirst[k++] = w;
                continue;
            }
            if (seen_[w] != stamp_) c.ageOf[w] = kNotMember;
        }
        c.oldestFirst.resize(k);
        if (added_.empty()) return c;
    }
    // (age, slot) order; a newcomer's age is in addedAge_, a staying warp's in c.ageOf.
    const auto precedes = [](uint64_t ageA, unsigned a, uint64_t ageB, unsigned b) {
        return ageA != ageB ? ageA < ageB : a < b;
    };
    std::sort(added_.begin(), added_.end(),
              [&](unsigned a, unsigned b) { return precedes(addedAge_[a], a, addedAge_[b], b); });
    const auto before = [&](unsigned added, unsigned stays) {
        return precedes(addedAge_[added], added, c.ageOf[stays], stays);
    };
    if (c.oldestFirst.empty() || !before(added_.front(), c.oldestFirst.back())) {
        // Every newcomer after every warp that stays (the usual case: the youngest warps).
        c.oldestFirst.insert(c.oldestFirst.end(), added_.begin(), added_.end());
    } else {
        merged_.clear();
        auto next = added_.begin();
        for (unsigned w : c.oldestFirst) {
            while (next != added_.end() && before(*next, w)) merged_.push_back(*next++);
            merged_.push_back(w);
        }
        merged_.insert(merged_.end(), next, added_.end());
        c.oldestFirst.swap(merged_);
    }
    for (unsigned w : added_) {
        c.ageOf[w] = addedAge_[w];
        addedAge_[w] = kNotMember;
    }
    return c;
}

void GtoPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    const AgeOrder& c = ages(sched, warps, sm);
    // The greedy warp first (if it is among them), then the rest oldest first.
    const int g = greedy(sched, c);  // ages() refused a scheduler past kSchedulers
    size_t k = 0;
    if (g >= 0) warps[k++] = static_cast<unsigned>(g);
    for (unsigned w : c.oldestFirst)
        if (static_cast<int>(w) != g) warps[k++] = w;
}

void GtoPolicy::onIssue(unsigned sched, unsigned warp, const SmView&) {
    last_.at(sched) = static_cast<int>(warp);
}

GtoPolicy::AgeOrder* GtoPolicy::currentBefore(unsigned warp, uint64_t& version) {
    if (!sm_) return nullptr;
    const unsigned sched = warp % sm_->schedulers();
    if (sched >= byAge_.size()) return nullptr;
    AgeOrder& c = byAge_[sched];
    version = sm_->schedulerSetVersion(sched);
    if (c.version == 0 || version == 0 || c.version + 1 != version) return nullptr;
    return &c;
}

void GtoPolicy::onWarpStart(unsigned warp) {
    uint64_t version = 0;
    AgeOrder* c = currentBefore(warp, version);
    if (!c) return;
    const uint64_t age = sm_->warp(warp).age;
    // Only a slot not listed, younger than every listed warp: else the comparison decides.
    if (warp >= c->ageOf.size() || c->ageOf[warp] != kNotMember) return;
    if (!c->oldestFirst.empty() && c->ageOf[c->oldestFirst.back()] >= age) return;
    c->oldestFirst.push_back(warp);
    c->ageOf[warp] = age;
    c->version = version;
}

void GtoPolicy::onWarpEnd(unsigned warp) {
    // A new warp may reuse the slot; it must not inherit the greedy position.
    for (auto& l : last_)
        if (l == static_cast<int>(warp)) l = -1;
    uint64_t version = 0;
    AgeOrder* c = currentBefore(warp, version);
    if (!c || warp >= c->ageOf.size() || c->ageOf[warp] == kNotMember) return;
    const auto it = std::find(c->oldestFirst.begin(), c->oldestFirst.end(), warp);
    if (it == c->oldestFirst.end()) return;
    c->oldestFirst.erase(it);
    c->ageOf[warp] = kNotMember;
    c->version = version;
}

} // namespace gpusim
