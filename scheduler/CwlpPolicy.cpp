#include "scheduler/CwlpPolicy.hpp"

#include <algorithm>

#include "common/Stats.hpp"

namespace gpusim {

void CwlpPolicy::registerStats(StatRegistry& stats, const std::string& prefix) {
    const std::string p = prefix + "cwlp.";
    windows_ = &stats.counter(p + "lis_windows", "Complete LIS windows of L1D accesses");
    localityWindows_ = &stats.counter(p + "lis_locality_windows",
                                      "LIS windows that showed locality (more than the threshold "
                                      "predicted reuses): no reordering until the next window");
    reorderedCycles_ = &stats.counter(p + "reordered_cycles",
                                      "Scheduler cycles whose warp order was the reordered one (Fig. 9)");
    reorderedIssues_ = &stats.counter(p + "reordered_issues", "Instructions issued from a reordered queue");
    alternatingIssues_ = &stats.counter(p + "alternating_issues",
                                        "Instructions issued from a reordered queue whose latency class "
                                        "differs from the scheduler's previous issue");
}

bool CwlpPolicy::isLong(const WarpView& w) const {
    if (p_.longClass == 1) return w.pendingLoads > 0;
    return w.hasInstruction && (w.nextIsLoad || w.nextIsStore);
}

void CwlpPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    if (classAtOrder_.size() < sm.warpSlots()) classAtOrder_.assign(sm.warpSlots(), kNone);
    for (unsigned w : warps) classAtOrder_[w] = isLong(sm.warp(w)) ? kLong : kShort;
    reordered_.at(sched) = lis_.reorder();
    if (!lis_.reorder()) {
        lrr_.order(sched, warps, sm);
        return;
    }
    if (reorderedCycles_) reorderedCycles_->inc();
    const int8_t last = lastClass_.at(sched);
    std::sort(warps.begin(), warps.end(), [&](unsigned a, unsigned b) {
        // XOR with the last issued class: 1 (differs) goes first.
        const bool da = last != kNone && classAtOrder_[a] != last;
        const bool db = last != kNone && classAtOrder_[b] != last;
        if (da != db) return da;
        const uint64_t aa = sm.warp(a).age, ab = sm.warp(b).age;
        if (aa != ab) return aa < ab;
        return a < b;
    });
}

void CwlpPolicy::onIssue(unsigned sched, unsigned warp, const SmView& sm) {
    lrr_.onIssue(sched, warp, sm);
    // The class the warp had when it was ordered, i.e. of the instruction just issued (the view
    // already shows the next one).
    const int8_t cls = warp < classAtOrder_.size() ? classAtOrder_[warp] : kNone;
    if (reordered_.at(sched)) {
        if (reorderedIssues_) reorderedIssues_->inc();
        if (alternatingIssues_ && lastClass_.at(sched) != kNone && cls != lastClass_.at(sched))
            alternatingIssues_->inc();
    }
    lastClass_.at(sched) = cls;
}

void CwlpPolicy::onL1Access(const L1AccessEvent& e) {
    if (e.isWrite) return;
    if (lis_.onAccess(e.hit, e.reusePredicted)) {
        if (windows_) windows_->inc();
        if (localityWindows_ && lis_.locality()) localityWindows_->inc();
    }
}

} // namespace gpusim
