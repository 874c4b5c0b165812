#include "scheduler/CcwsPolicy.hpp"

#include <algorithm>

#include "common/Stats.hpp"

namespace gpusim {

void CcwsPolicy::attach(const SmView& sm) {
    vta_ = VictimTagArray(sm.warpSlots(), p_.vtaEntries, p_.vtaWays, sm.l1LineBytes());
    score_.assign(sm.warpSlots(), p_.baseScore);
    allowed_.assign(sm.warpSlots(), 1);
    sorted_.reserve(sm.warpSlots());
}

void CcwsPolicy::registerStats(StatRegistry& stats, const std::string& prefix) {
    vtaHitStat_ = &stats.counter(prefix + "ccws_vta_hits", "L1D read misses that hit the warp's victim tag array");
    blockedStat_ = &stats.counter(prefix + "ccws_blocked_loads",
                                  "Load issue attempts refused: the warp is past the cumulative LLS cutoff");
    throttledCycles_ = &stats.counter(prefix + "ccws_throttled_cycles",
                                      "Cycles with at least one warp past the LLS cutoff");
}

void CcwsPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    gto_.order(sched, warps, sm);
}

bool CcwsPolicy::canIssue(unsigned warp, const SmView& sm) {
    if (!sm.warp(warp).nextIsLoad || loadsAllowed(warp)) return true;
    if (blockedStat_) blockedStat_->inc();
    return false;
}

void CcwsPolicy::onCycle(uint64_t, const SmView& sm) {
    if (score_.size() != sm.warpSlots()) attach(sm);
    bool above = false;
    for (auto& s : score_) {
        if (s > p_.baseScore) s = std::max<uint64_t>(p_.baseScore, s - std::min<uint64_t>(s, p_.decay));
        above = above || s > p_.baseScore;
    }
    unsigned active = 0;
    for (unsigned w = 0; w < sm.warpSlots(); ++w) active += sm.warp(w).valid;
    cutoff_ = uint64_t(active) * p_.baseScore;
    if (!above) {
        // Every score at the base: the prefix sum reaches the cutoff exactly at the last warp.
        std::fill(allowed_.begin(), allowed_.end(), 1);
        return;
    }
    recomputeCutoff(sm);
}

void CcwsPolicy::recomputeCutoff(const SmView& sm) {
    sorted_.clear();
    for (unsigned w = 0; w < sm.warpSlots(); ++w)
        if (sm.warp(w).valid) sorted_.push_back(w);
    std::sort(sorted_.begin(), sorted_.end(), [&](unsigned a, unsigned b) {
        if (score_[a] != score_[b]) return score_[a] > score_[b];
        const uint64_t aa = sm.warp(a).age, ab = sm.warp(b).age;
        return aa != ab ? aa < ab : a < b;
    });
    std::fill(allowed_.begin(), allowed_.end(), 1);  // empty slots: nothing to gate
    uint64_t sum = 0;
    bool throttled = false;
    for (unsigned w : sorted_) {
        if (sum >= cutoff_) {
            allowed_[w] = 0;
            throttled = true;
        }
        sum += score_[w];
    }
    if (throttled && throttledCycles_) throttledCycles_->inc();
}

void CcwsPolicy::onIssue(unsigned sched, unsigned warp, const SmView& sm) {
    ++instructions_;
    gto_.onIssue(sched, warp, sm);
}

void CcwsPolicy::onL1Access(const L1AccessEvent& e) {
    if (e.isWrite || e.hit || !vta_.probe(e.warp, e.lineAddr)) return;
    ++vtaHits_;
    if (vtaHitStat_) vtaHitStat_->inc();
    const double ratio = double(vtaHits_) / double(std::max<uint64_t>(1, instructions_));
    const double delta = p_.kThrottle * ratio * double(std::max<uint64_t>(cutoff_, p_.baseScore));
    if (e.warp < score_.size()) score_[e.warp] += static_cast<uint64_t>(delta + 0.5);
}

void CcwsPolicy::onL1Evict(uint64_t line, int owner) {
    if (owner >= 0) vta_.insert(static_cast<unsigned>(owner), line);
}

void CcwsPolicy::resetWarp(unsigned warp) {
    if (warp < score_.size()) score_[warp] = p_.baseScore;
    if (warp < allowed_.size()) allowed_[warp] = 1;
    vta_.clearWarp(warp);
}

void CcwsPolicy::onWarpStart(unsigned warp) { resetWarp(warp); }

void CcwsPolicy::onWarpEnd(unsigned warp) {
    resetWarp(warp);
    gto_.onWarpEnd(warp);
}

void CcwsPolicy::onKernelStart() {
    vtaHits_ = 0;
    instructions_ = 0;
}

} // namespace gpusim
