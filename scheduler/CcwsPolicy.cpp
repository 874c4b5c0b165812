#include "scheduler/CcwsPolicy.hpp"

#include <algorithm>

#include "common/Stats.hpp"

namespace gpusim {

void CcwsPolicy::attach(const SmView& sm) {
    vta_ = VictimTagArray(sm.warpSlots(), p_.vtaEntries, p_.vtaWays, sm.l1LineBytes());
    score_.assign(sm.warpSlots(), p_.baseScore);
    allowed_.assign(sm.warpSlots(), 1);
    warpHits_.assign(sm.warpSlots(), 0);
    warpIssued_.assign(sm.warpSlots(), 0);
    residentHits_ = residentIssued_ = 0;
    sorted_.reserve(sm.warpSlots());
}

void CcwsPolicy::registerStats(StatRegistry& stats, const std::string& prefix) {
    vtaHitStat_ = &stats.counter(prefix + "ccws_vta_hits", "New L1D read misses that hit the warp's victim tag array");
    blockedStat_ = &stats.counter(prefix + "ccws_blocked_loads",
                                  "Load issue attempts refused: the warp is past the cumulative LLS cutoff");
    throttledCycles_ = &stats.counter(prefix + "ccws_throttled_cycles",
                                      "Cycles with at least one warp past the LLS cutoff");
    cappedStat_ = &stats.counter(prefix + "ccws_capped_updates",
                                 "Score updates (VTA hit or decay) cut down by the per-warp cap");
}

void CcwsPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    gto_.order(sched, warps, sm);
    if (p_.scoreFirst)
        std::stable_sort(warps.begin(), warps.end(), [&](unsigned a, unsigned b) { return score_[a] > score_[b]; });
}

bool CcwsPolicy::canIssue(unsigned warp, const SmView& sm) {
    if (!sm.warp(warp).nextIsLoad || loadsAllowed(warp)) return true;
    if (blockedStat_) blockedStat_->inc();
    return false;
}

double CcwsPolicy::hitsPerInstruction() const {
    return double(residentHits_) / double(std::max<uint64_t>(1, residentIssued_));
}

// Before the first cycle the cutoff is not known yet; one warp's base score stands for it.
uint64_t CcwsPolicy::effectiveCutoff() const { return std::max<uint64_t>(cutoff_, p_.baseScore); }

uint64_t CcwsPolicy::scoreCap() const {
    if (p_.scoreCap <= 0) return 0;
    return static_cast<uint64_t>(hitsPerInstruction() * p_.scoreCap * double(effectiveCutoff()) + 0.5);
}

void CcwsPolicy::addPoints(unsigned warp, int64_t points) {
    const int64_t s = int64_t(score_[warp]) + points;
    if (s <= int64_t(p_.baseScore)) {
        score_[warp] = p_.baseScore;
        return;
    }
    score_[warp] = uint64_t(s);
    if (p_.scoreCap <= 0) return;
    const uint64_t cap = scoreCap();
    if (score_[warp] > cap) {
        score_[warp] = cap;
        if (cappedStat_) cappedStat_->inc();
    }
}

void CcwsPolicy::onCycle(uint64_t, const SmView& sm) {
    if (score_.size() != sm.warpSlots()) attach(sm);
    bool above = false;
    for (unsigned w = 0; w < score_.size(); ++w) {
        // Only scores above the base decay (one below it, put there by the cap, waits for a hit).
        if (score_[w] > p_.baseScore) addPoints(w, -int64_t(p_.decay));
        above = above || score_[w] > p_.baseScore;
    }
    unsigned active = 0;
    for (unsigned w = 0; w < sm.warpSlots(); ++w) active += sm.warp(w).valid;
    cutoff_ = uint64_t(active) * p_.baseScore;
    if (!above) {
        // No score above the base: the prefix sum reaches the cutoff at the last warp at the
        // earliest, so every warp may load.
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
    if (warp < warpIssued_.size()) {
        ++warpIssued_[warp];
        ++residentIssued_;
    }
    gto_.onIssue(sched, warp, sm);
}

void CcwsPolicy::onL1Access(const L1AccessEvent& e) {
    if (e.isWrite) {
        vta_.invalidate(e.lineAddr);  // the line's data changed: its old tag is no lost locality
        return;
    }
    if (e.hit || (e.merged && !p_.probeMerged)) return;
    if (e.warp >= score_.size() || !vta_.probe(e.warp, e.lineAddr, p_.probeRemoves)) return;
    ++warpHits_[e.warp];
    ++residentHits_;
    ++vtaHits_;
    if (vtaHitStat_) vtaHitStat_->inc();
    const double delta = p_.kThrottle * hitsPerInstruction() * double(effectiveCutoff());
    addPoints(e.warp, static_cast<int64_t>(delta + 0.5));
}

void CcwsPolicy::onL1Evict(uint64_t line, int owner) {
    if (owner >= 0) vta_.insert(static_cast<unsigned>(owner), line);
}

void CcwsPolicy::resetWarp(unsigned warp) {
    if (warp < score_.size()) score_[warp] = p_.baseScore;
    if (warp < allowed_.size()) allowed_[warp] = 1;
    if (warp < warpHits_.size()) {
        // The ratio is over the resident warps: an ended warp's counts leave the totals.
        residentHits_ -= warpHits_[warp];
        residentIssued_ -= warpIssued_[warp];
        warpHits_[warp] = warpIssued_[warp] = 0;
    }
    vta_.clearWarp(warp);
}

void CcwsPolicy::onWarpStart(unsigned warp) { resetWarp(warp); }

void CcwsPolicy::onWarpEnd(unsigned warp) {
    resetWarp(warp);
    gto_.onWarpEnd(warp);
}

void CcwsPolicy::onKernelStart() {
    // Every warp of the previous kernel has ended, so the totals are 0 already; clearing them
    // keeps a kernel from inheriting counts of a warp whose end was not reported.
    std::fill(warpHits_.begin(), warpHits_.end(), 0);
    std::fill(warpIssued_.begin(), warpIssued_.end(), 0);
    residentHits_ = residentIssued_ = 0;
}

} // namespace gpusim
