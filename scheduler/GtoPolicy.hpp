#pragma once
// Greedy-then-oldest (the CCWS paper's GTO): keep issuing from the warp that issued last until
// it cannot issue, then the oldest ready warp (smallest launch age). Per scheduler.
//
// The age order of a scheduler's warps changes only when a warp starts or ends, so it is kept
// per scheduler and re-sorted only when the set of (slot, age) pairs it is asked about differs
// from the last one (checked in O(warps) each call, which stays correct when a composing policy
// does not forward onWarpStart/onWarpEnd; the ages are compared only when the SM's warp-set
// version moved). Ties in age fall back to the slot number.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

class GtoPolicy : public SchedulerPolicy {
public:
    std::string name() const override { return "gto"; }
    // No onCycle, and order() is a function of the warps and the last issuer.
    bool idleWhileStalled() const override { return true; }
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void onWarpEnd(unsigned warp) override;

private:
    static constexpr unsigned kSchedulers = 2;
    std::array<int, kSchedulers> last_{-1, -1};
    struct AgeOrder {
        std::vector<std::pair<unsigned, uint64_t>> members;  // (slot, age) in the order asked
        std::vector<unsigned> oldestFirst;
        uint64_t version = 0;  // SmView::warpSetVersion() when the ages were last compared
    };
    std::array<AgeOrder, kSchedulers> byAge_;
};

} // namespace gpusim
