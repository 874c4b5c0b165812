#pragma once
// Greedy-then-oldest (the CCWS paper's GTO): keep issuing from the warp that issued last until
// it cannot issue, then the oldest ready warp (smallest launch age). Per scheduler.
#include <array>

#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

class GtoPolicy : public SchedulerPolicy {
public:
    std::string name() const override { return "gto"; }
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void onWarpEnd(unsigned warp) override;

private:
    static constexpr unsigned kSchedulers = 2;
    std::array<int, kSchedulers> last_{-1, -1};
};

} // namespace gpusim
