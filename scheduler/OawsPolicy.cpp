#include "scheduler/OawsPolicy.hpp"

#include <cmath>

#include "common/Stats.hpp"

namespace gpusim {

void OawsPolicy::attach(const SmView& sm) {
    pending_.assign(sm.warpSlots(), 0);
    charged_.assign(sm.warpSlots(), 0);
    pendingValid_.assign(sm.warpSlots(), 0);
}

void OawsPolicy::registerStats(StatRegistry& stats, const std::string& prefix) {
    blocked_ = &stats.counter(prefix + "oaws_blocked_loads",
                              "Load issue attempts refused by Eq. 1 (predicted misses exceed free MSHRs)");
    qualifiedDivergent_ = &stats.counter(prefix + "oaws_divergent_issued",
                                         "Loads issued whose PC the DLC classifies as divergent");
}

unsigned OawsPolicy::scaled(unsigned lanes, double rate) {
    return static_cast<unsigned>(std::ceil(double(lanes) * rate - 1e-9));
}

void OawsPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    gto_.order(sched, warps, sm);
}

bool OawsPolicy::canIssue(unsigned warp, const SmView& sm) {
    const WarpView& v = sm.warp(warp);
    // A load without an active lane fetches nothing (and is serviced before onIssue runs, so it
    // must not be charged to Miss_inflight).
    if (!v.nextIsLoad || v.nextActiveLanes == 0) return true;
    if (pending_.size() != sm.warpSlots()) attach(sm);
    const unsigned pred = predictMisses(warp, sm);
    const long avail = long(sm.mshrFree()) - long(inflight_);
    if (long(pred) > avail) {
        if (blocked_) blocked_->inc();
        return false;
    }
    pending_[warp] = pred;
    pendingValid_[warp] = 1;
    if (qualifiedDivergent_ && dlc_.contains(v.nextPc)) qualifiedDivergent_->inc();
    return true;
}

void OawsPolicy::onIssue(unsigned sched, unsigned warp, const SmView& sm) {
    gto_.onIssue(sched, warp, sm);
    if (warp >= pendingValid_.size() || !pendingValid_[warp]) return;
    pendingValid_[warp] = 0;
    inflight_ += pending_[warp];
    charged_[warp] += pending_[warp];
}

void OawsPolicy::onLoadServiced(const LoadServicedEvent& e) {
    if (e.warp < charged_.size()) {
        inflight_ -= std::min(inflight_, charged_[e.warp]);
        charged_[e.warp] = 0;
    }
    const bool divergent = dlc_.record(e.pc, e.accesses, e.setsTouched);
    serviced(e, divergent);
}

void OawsPolicy::onWarpEnd(unsigned warp) {
    gto_.onWarpEnd(warp);
    if (warp < charged_.size()) {
        inflight_ -= std::min(inflight_, charged_[warp]);
        charged_[warp] = 0;
        pendingValid_[warp] = 0;
    }
}

void OawsPolicy::onKernelStart() { dlc_.clear(); }

} // namespace gpusim
