#include "modules/LruReplacement.hpp"

#include <bit>

namespace gpusim {

bool LruReplacement::onHit(unsigned set, unsigned way, uint64_t) {
    touch(set, way);
    return false;
}

unsigned LruReplacement::lruWay(unsigned set, uint64_t candidates) const {
    // The candidates in ascending way order, the first smallest stamp kept (one bit per step and
    // the set's stamps by pointer: this runs on every L1D miss, issue 19).
    const uint64_t* const stamps = &stamp_[idx(set, 0)];
    unsigned best = ways_;
    uint64_t bestStamp = 0;
    for (uint64_t c = candidates & (ways_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << ways_) - 1); c; c &= c - 1) {
        const unsigned w = static_cast<unsigned>(std::countr_zero(c));
        if (best == ways_ || stamps[w] < bestStamp) {
            best = w;
            bestStamp = stamps[w];
        }
    }
    return best;
}

unsigned LruReplacement::victim(unsigned set, uint64_t candidates) { return lruWay(set, candidates); }

} // namespace gpusim
