#pragma once
// Per-CTA barriers (__syncthreads): a barrier opens when every live warp of the CTA has arrived.
// A warp that exits stops counting, so a CTA whose other warps wait is released when the last
// straggler exits instead of arrives (as the hardware's barrier counts only active warps).
#include <vector>

namespace gpusim {

class BarrierUnit {
public:
    explicit BarrierUnit(unsigned ctaSlots) : live_(ctaSlots, 0), arrived_(ctaSlots, 0) {}

    void ctaStart(unsigned cta, unsigned warps) {
        live_.at(cta) = warps;
        arrived_.at(cta) = 0;
    }
    // Returns true if this arrival opens the barrier (the caller releases the waiting warps).
    bool arrive(unsigned cta) {
        ++arrived_.at(cta);
        return openIfComplete(cta);
    }
    // Returns true if this exit opens the barrier for the warps already waiting.
    bool warpExit(unsigned cta) {
        --live_.at(cta);
        return arrived_.at(cta) > 0 && openIfComplete(cta);
    }
    unsigned waiting(unsigned cta) const { return arrived_.at(cta); }
    unsigned live(unsigned cta) const { return live_.at(cta); }

private:
    bool openIfComplete(unsigned cta) {
        if (arrived_[cta] < live_[cta]) return false;
        arrived_[cta] = 0;
        return true;
    }
    std::vector<unsigned> live_, arrived_;
};

} // namespace gpusim
