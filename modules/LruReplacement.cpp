#include "modules/LruReplacement.hpp"

namespace gpusim {

bool LruReplacement::onHit(unsigned set, unsigned way, uint64_t) {
    touch(set, way);
    return false;
}

unsigned LruReplacement::lruWay(unsigned set, uint64_t candidates) const {
    unsigned best = ways_;
    for (unsigned w = 0; w < ways_; ++w) {
        if (!(candidates >> w & 1u)) continue;
        if (best == ways_ || stamp_[idx(set, w)] < stamp_[idx(set, best)]) best = w;
    }
    return best;
}

unsigned LruReplacement::victim(unsigned set, uint64_t candidates) { return lruWay(set, candidates); }

} // namespace gpusim
