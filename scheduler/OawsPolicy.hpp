#pragma once
// What static and dynamic OAWS share (the OAWS paper, Sections 4.1-4.2): GTO prioritisation, the
// divergent load classifier, and the qualification of Eq. 1 for global/local loads:
//     Miss_pred(pc, w) <= Avail_mshr - Miss_inflight
// Avail_mshr is the L1D's free MSHR entries; Miss_inflight sums the predicted misses of loads
// issued whose accesses have not all been through the L1D yet (added at issue, removed when the
// load is serviced: "decreased only when a load instruction retires from memory pipeline"; from
// then on its misses show in Avail_mshr). Stores are never held (they use no MSHR). A load whose
// PC is not in the DLC is coherent and predicted to miss once (Section 4.1.1). Subclasses predict
// divergent loads. In this model the LD/ST unit holds one instruction at a time and a memory
// instruction issues only when it is free, so Miss_inflight is non-zero only between issue and
// service, and Eq. 1 reduces to Miss_pred <= free MSHR entries when the decision is made.
#include <vector>

#include "scheduler/DivergentLoadClassifier.hpp"
#include "scheduler/GtoPolicy.hpp"

namespace gpusim {

class Counter;

class OawsPolicy : public SchedulerPolicy {
public:
    OawsPolicy(unsigned dlcEntries, unsigned coherentLines, double assocFactor)
        : dlc_(dlcEntries, coherentLines, assocFactor) {}

    void attach(const SmView& sm) override;
    void registerStats(StatRegistry& stats, const std::string& prefix) override;
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    bool canIssue(unsigned warp, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void onLoadServiced(const LoadServicedEvent& e) override;
    void onWarpEnd(unsigned warp) override;
    void onKernelStart() override;

    // Predicted misses of the warp's next instruction, a global/local load.
    virtual unsigned predictMisses(unsigned warp, const SmView& sm) = 0;

    unsigned missInflight() const { return inflight_; }
    const DivergentLoadClassifier& dlc() const { return dlc_; }

protected:
    // Called after the DLC saw a serviced load (`divergent`: it is recorded there).
    virtual void serviced(const LoadServicedEvent& e, bool divergent) {}
    // ceil(lanes x rate): a 17-lane warp at 50% needs 9 entries, not 8 (never under-predict).
    static unsigned scaled(unsigned lanes, double rate);

    DivergentLoadClassifier dlc_;
    GtoPolicy gto_;

private:
    unsigned inflight_ = 0;
    std::vector<unsigned> pending_;  // prediction of the load being issued, per slot
    std::vector<unsigned> charged_;  // prediction counted in inflight_, per slot
    std::vector<uint8_t> pendingValid_;
    Counter *blocked_ = nullptr, *qualifiedDivergent_ = nullptr;
};

} // namespace gpusim
