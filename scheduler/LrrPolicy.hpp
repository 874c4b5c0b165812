#pragma once
// Loose round-robin (the CCWS paper's LRR): warps take turns in slot order, starting after the
// warp that issued last on this scheduler; a warp that cannot issue on its turn lets the next
// one try (the issue stage walks the order until one qualifies).
#include <array>

#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

class LrrPolicy : public SchedulerPolicy {
public:
    std::string name() const override { return "lrr"; }
    // No onCycle, and order() is a function of the warps and the last issuer.
    bool idleWhileStalled() const override { return true; }
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;

private:
    static constexpr unsigned kSchedulers = 2;
    std::array<int, kSchedulers> last_{-1, -1};
};

} // namespace gpusim
