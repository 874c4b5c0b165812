#pragma once
// Dynamic OAWS (the OAWS paper, Section 4.3):
// - OCW estimation (OcwEstimator) after every serviced divergent load, with delta = CNT/2 for
//   associativity-sensitive loads (DLC: #acc > 1.5 x #sets) and 1 otherwise; Wmax = warp slots.
// - Warps ranked by GTO priority: the OCW highest are locality warps and are predicted 0 misses;
//   the others are thrashing warps, predicted Div_pred x 50% + GTO_prio misses for a divergent
//   load (Div_pred = active threads). Coherent loads of thrashing warps are predicted 1 miss.
// - Eq. 1 qualifies (OawsPolicy); prioritisation is GTO.
// Choices where the paper is silent: GTO_prio is the warp's rank by age among the SM's resident
// warps (0 = oldest; the greedy part of GTO is per scheduler and changes at every stall, the
// oldest-first part is what Figure 4 correlates with MSHR use); OCW and CNT restart from their
// initial values at each kernel launch, like the DLC (reset_per_kernel=0 keeps them).
#include "scheduler/OawsPolicy.hpp"
#include "scheduler/OcwEstimator.hpp"
#include "scheduler/WarpAgeRank.hpp"

namespace gpusim {

class Average;

class OawsDynPolicy : public OawsPolicy {
public:
    struct Params {
        double thrashMissRate = 0.5;
        unsigned dlcEntries = 32;
        unsigned coherentLines = 2;
        double assocFactor = 1.5;
        OcwEstimator::Params ocw;  // wmax is set from the SM's warp slots
        bool resetPerKernel = true;
    };
    explicit OawsDynPolicy(const Params& p)
        : OawsPolicy(p.dlcEntries, p.coherentLines, p.assocFactor), p_(p), ocw_(p.ocw) {}
    std::string name() const override { return "oaws-dyn"; }

    void attach(const SmView& sm) override;
    void registerStats(StatRegistry& stats, const std::string& prefix) override;
    void onCycle(uint64_t cycle, const SmView& sm) override;
    void onWarpStart(unsigned warp) override { ranks_.markDirty(); }
    void onWarpEnd(unsigned warp) override;
    void onKernelStart() override;
    unsigned predictMisses(unsigned warp, const SmView& sm) override;

    const OcwEstimator& ocw() const { return ocw_; }
    bool localityWarp(unsigned warp) const { return ranks_.smRank(warp) < ocw_.ocw(); }

protected:
    void serviced(const LoadServicedEvent& e, bool divergent) override;

private:
    Params p_;
    OcwEstimator ocw_;
    WarpAgeRank ranks_;
    Average* ocwStat_ = nullptr;
    Counter *ocwUp_ = nullptr, *ocwDown_ = nullptr;
    // Serviced divergent loads by the class of their warp (locality / thrashing) and whether
    // they were fully cached: what OCW estimation sees, and what Eq. 1 let the thrashing warps do.
    Counter *locDiv_ = nullptr, *locDivFc_ = nullptr, *thrDiv_ = nullptr, *thrDivFc_ = nullptr;
    Counter* assocUpdates_ = nullptr;  // OCW updates with delta = CNT/2
    Average* divSets_ = nullptr;       // L1D sets touched per divergent load (the Sets register)
};

} // namespace gpusim
