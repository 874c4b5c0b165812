#include "scheduler/OawsDynPolicy.hpp"

#include "common/Stats.hpp"

namespace gpusim {

void OawsDynPolicy::attach(const SmView& sm) {
    OawsPolicy::attach(sm);
    ocw_.setWmax(sm.warpSlots());
    ranks_.markDirty();
}

void OawsDynPolicy::registerStats(StatRegistry& stats, const std::string& prefix) {
    OawsPolicy::registerStats(stats, prefix);
    ocwStat_ = &stats.average(prefix + "oaws_ocw", "Estimated optimal cached warps, sampled every cycle");
    ocwUp_ = &stats.counter(prefix + "oaws_ocw_increases", "OCW increments (CNT saturated)");
    ocwDown_ = &stats.counter(prefix + "oaws_ocw_decreases", "OCW decrements (CNT reached 0)");
    locDiv_ = &stats.counter(prefix + "oaws_locality_divergent_loads", "Divergent loads serviced for locality warps");
    locDivFc_ = &stats.counter(prefix + "oaws_locality_divergent_fully_cached",
                               "Divergent loads of locality warps that were fully cached");
    thrDiv_ = &stats.counter(prefix + "oaws_thrashing_divergent_loads", "Divergent loads serviced for thrashing warps");
    thrDivFc_ = &stats.counter(prefix + "oaws_thrashing_divergent_fully_cached",
                               "Divergent loads of thrashing warps that were fully cached");
    assocUpdates_ = &stats.counter(prefix + "oaws_assoc_sensitive_updates",
                                   "OCW updates by an associativity-sensitive load (delta = CNT/2)");
    divSets_ = &stats.average(prefix + "oaws_divergent_sets", "L1D sets touched per serviced divergent load");
}

void OawsDynPolicy::onCycle(uint64_t, const SmView& sm) {
    ranks_.refresh(sm);
    if (ocwStat_) ocwStat_->sample(double(ocw_.ocw()));
}

void OawsDynPolicy::onWarpEnd(unsigned warp) {
    ranks_.markDirty();
    OawsPolicy::onWarpEnd(warp);
}

void OawsDynPolicy::onKernelStart() {
    OawsPolicy::onKernelStart();
    if (p_.resetPerKernel) ocw_.reset();
}

unsigned OawsDynPolicy::predictMisses(unsigned warp, const SmView& sm) {
    const unsigned rank = ranks_.smRank(warp);
    if (rank < ocw_.ocw()) return 0;  // locality warp: predicted fully cached
    const WarpView& v = sm.warp(warp);
    if (!dlc_.contains(v.nextPc)) return 1;
    return scaled(v.nextActiveLanes, p_.thrashMissRate) + (rank == WarpAgeRank::kNone ? 0 : rank);
}

void OawsDynPolicy::serviced(const LoadServicedEvent& e, bool divergent) {
    if (!divergent) return;
    const bool assoc = dlc_.associativitySensitive(e.pc);
    if (locDiv_) {
        const bool loc = localityWarp(e.warp);
        (loc ? locDiv_ : thrDiv_)->inc();
        if (e.fullyCached) (loc ? locDivFc_ : thrDivFc_)->inc();
        if (assoc) assocUpdates_->inc();
        divSets_->sample(double(e.setsTouched));
    }
    const int d = ocw_.update(e.fullyCached, assoc);
    if (d > 0 && ocwUp_) ocwUp_->inc();
    if (d < 0 && ocwDown_) ocwDown_->inc();
}

} // namespace gpusim
