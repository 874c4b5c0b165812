#pragma once
// Cache-Conscious Wavefront Scheduling (the CCWS paper, Sections 3.1-3.3; numbers from the OAWS
// paper's Table 3), on top of GTO ordering:
// - Lost intra-warp locality detector: a per-warp victim tag array (VictimTagArray, 16 entries per
//   warp, 8-way) takes the tag of every line the L1D evicts, under the warp that brought the line
//   in; every L1D read miss of a warp probes that warp's part; a hit is a "VTA hit".
// - Locality scoring: every warp starts at the base score (100). A VTA hit raises its warp's
//   lost-locality score (LLS); scores fall by one point per cycle until they are back at the base.
// - Cutoff: warps sorted by LLS, largest first, take the cumulative cutoff (active warps x base
//   score) in turn; the warps that come after the prefix sum has reached it have their Can-Issue
//   bit cleared for loads (other instructions still issue).
// Source of the increment (not in the CCWS text in shared/papers, which gives only its inputs;
// from the original MICRO 2012 paper): dLLS = K_THROTTLE x (VTA hits / instructions issued) x
// cutoff, with K_THROTTLE = 8 and the hit and instruction totals counted in this SM since the
// kernel started. Choices where the papers are silent: ties in LLS go to the older warp; a miss
// merged into an in-flight MSHR entry is a miss and probes the VTA too; stores do not probe;
// a warp slot's VTA part and score are cleared when a new warp takes the slot.
#include <vector>

#include "scheduler/GtoPolicy.hpp"
#include "scheduler/VictimTagArray.hpp"

namespace gpusim {

class Counter;

class CcwsPolicy : public SchedulerPolicy {
public:
    struct Params {
        unsigned baseScore = 100;
        double kThrottle = 8;
        unsigned vtaEntries = 16;
        unsigned vtaWays = 8;
        unsigned decay = 1;  // points per cycle
    };
    explicit CcwsPolicy(const Params& p) : p_(p) {}
    std::string name() const override { return "ccws"; }

    void attach(const SmView& sm) override;
    void registerStats(StatRegistry& stats, const std::string& prefix) override;
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    bool canIssue(unsigned warp, const SmView& sm) override;
    void onCycle(uint64_t cycle, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void onL1Access(const L1AccessEvent& e) override;
    void onL1Evict(uint64_t lineAddr, int ownerWarp) override;
    void onWarpStart(unsigned warp) override;
    void onWarpEnd(unsigned warp) override;
    void onKernelStart() override;

    // For tests and statistics.
    uint64_t score(unsigned warp) const { return warp < score_.size() ? score_[warp] : 0; }
    bool loadsAllowed(unsigned warp) const { return warp < allowed_.size() && allowed_[warp]; }
    uint64_t cutoff() const { return cutoff_; }
    uint64_t vtaHits() const { return vtaHits_; }
    const VictimTagArray& vta() const { return vta_; }

private:
    void resetWarp(unsigned warp);
    void recomputeCutoff(const SmView& sm);

    Params p_;
    GtoPolicy gto_;
    VictimTagArray vta_;
    std::vector<uint64_t> score_;
    std::vector<uint8_t> allowed_;
    std::vector<unsigned> sorted_;  // scratch, no allocation per cycle
    uint64_t cutoff_ = 0;
    uint64_t vtaHits_ = 0, instructions_ = 0;
    Counter *vtaHitStat_ = nullptr, *blockedStat_ = nullptr, *throttledCycles_ = nullptr;
};

} // namespace gpusim
