#pragma once
// Static Wavefront Limiting (the CCWS paper's SWL, Section 1.4; the OAWS paper's SWL-Best uses
// it with a per-benchmark count, its Table 3): only the `warps` oldest resident warps may issue,
// in GTO order; the others wait until an older warp ends. The limit applies to the whole SM by
// default (the CCWS paper's "cap on the number of wavefronts that are actively scheduled" on a
// core); per_scheduler=1 applies it to each issue scheduler instead (GPGPU-Sim's swl scheduler).
// A warp waiting at a barrier or past its EXIT does not hold one of the places (GPGPU-Sim's
// sort_warps_by_oldest_dynamic_id puts waiting warps last): otherwise a CTA with more warps than
// the limit would never reach its barrier.
#include <memory>
#include <vector>

#include "scheduler/GtoPolicy.hpp"
#include "scheduler/WarpAgeRank.hpp"

namespace gpusim {

class Counter;

class SwlPolicy : public SchedulerPolicy {
public:
    SwlPolicy(unsigned warps, bool perScheduler) : limit_(warps), perScheduler_(perScheduler) {}
    std::string name() const override { return "swl"; }
    void registerStats(StatRegistry& stats, const std::string& prefix) override;
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    bool canIssue(unsigned warp, const SmView& sm) override;
    void onCycle(uint64_t cycle, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override { gto_.onIssue(sched, warp, sm); }
    void onWarpStart(unsigned) override { ranks_.markDirty(); }
    void onWarpEnd(unsigned warp) override;

    // Whether the warp is among the limited set (after the last onCycle).
    bool active(unsigned warp) const;

private:
    unsigned limit_;
    bool perScheduler_;
    GtoPolicy gto_;
    WarpAgeRank ranks_;
    std::vector<char> active_;    // per slot, from the last onCycle
    std::vector<unsigned> taken_;  // scratch: places given per scheduler (or [0] SM-wide)
    Counter* blocked_ = nullptr;
};

} // namespace gpusim
