#include "scheduler/MascarPolicy.hpp"

#include <algorithm>

#include "common/Stats.hpp"

namespace gpusim {

void MascarPolicy::registerStats(StatRegistry& stats, const std::string& prefix) {
    saturatedCycles_ = &stats.counter(prefix + "mascar_saturated_cycles",
                                      "Cycles in compute-priority mode (memory subsystem saturated)");
    ownerChanges_ = &stats.counter(prefix + "mascar_owner_changes", "Times a new owner warp was chosen");
    blocked_ = &stats.counter(prefix + "mascar_blocked_memory",
                              "Memory instruction issue attempts refused: saturated and not the owner");
    if (p_.sendGate)
        held_ = &stats.counter(prefix + "mascar_held_accesses",
                               "L1D accesses held back from going below the L1D: saturated and not the "
                               "owner's (send_gate 1), retries included");
}

int MascarPolicy::oldestMemoryWarp(const SmView& sm) const {
    int best = -1;
    for (unsigned w = 0; w < sm.warpSlots(); ++w) {
        const WarpView& v = sm.warp(w);
        if (!v.valid || !isMemory(v)) continue;
        if (best < 0 || v.age < sm.warp(static_cast<unsigned>(best)).age) best = static_cast<int>(w);
    }
    return best;
}

bool MascarPolicy::ownerShouldPass(const SmView& sm) const {
    if (owner_ < 0) return true;
    const WarpView& v = sm.warp(static_cast<unsigned>(owner_));
    if (!v.valid) return true;
    return v.hasInstruction && !isMemory(v) && v.pendingLoads > 0;
}

void MascarPolicy::onCycle(uint64_t, const SmView& sm) {
    const bool sat = saturatedNow(sm);
    if (sat && !saturated_) owner_ = lastMemoryIssuer_;
    saturated_ = sat;
    if (!sat) {
        owner_ = -1;
        return;
    }
    if (saturatedCycles_) saturatedCycles_->inc();
    if (ownerShouldPass(sm)) {
        const int next = oldestMemoryWarp(sm);
        if (next >= 0 && next != owner_ && ownerChanges_) ownerChanges_->inc();
        owner_ = next;
    }
}

void MascarPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    gto_.order(sched, warps, sm);
    if (!saturated_) {
        // Stable partition, memory warps first, through a member scratch vector: no allocation
        // per cycle (std::stable_partition takes a temporary buffer).
        scratch_.clear();
        for (unsigned w : warps)
            if (!isMemory(sm.warp(w))) scratch_.push_back(w);
        auto out = warps.begin();
        for (unsigned w : warps)
            if (isMemory(sm.warp(w))) *out++ = w;
        std::copy(scratch_.begin(), scratch_.end(), out);
        return;
    }
    auto it = std::find(warps.begin(), warps.end(), static_cast<unsigned>(owner_));
    if (owner_ >= 0 && it != warps.end()) std::rotate(warps.begin(), it, it + 1);
}

bool MascarPolicy::canIssue(unsigned warp, const SmView& sm) {
    const bool mem = isMemory(sm.warp(warp));
    if (memoryIssue_.size() <= warp) memoryIssue_.resize(sm.warpSlots(), 0);
    if (mem && saturated_ && !p_.sendGate && static_cast<int>(warp) != owner_) {
        if (blocked_) blocked_->inc();
        return false;
    }
    memoryIssue_[warp] = mem;
    return true;
}

bool MascarPolicy::maySendBelowL1(unsigned warp) {
    if (!view_ || !saturatedNow(*view_) || static_cast<int>(warp) == owner_) return true;
    if (held_) held_->inc();
    return false;
}

void MascarPolicy::onIssue(unsigned sched, unsigned warp, const SmView& sm) {
    if (warp < memoryIssue_.size() && memoryIssue_[warp]) lastMemoryIssuer_ = static_cast<int>(warp);
    gto_.onIssue(sched, warp, sm);
}

void MascarPolicy::onWarpEnd(unsigned warp) {
    if (owner_ == static_cast<int>(warp)) owner_ = -1;
    if (lastMemoryIssuer_ == static_cast<int>(warp)) lastMemoryIssuer_ = -1;
    gto_.onWarpEnd(warp);
}

} // namespace gpusim
