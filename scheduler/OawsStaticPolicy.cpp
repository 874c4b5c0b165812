#include "scheduler/OawsStaticPolicy.hpp"

namespace gpusim {

unsigned OawsStaticPolicy::predictMisses(unsigned warp, const SmView& sm) {
    const WarpView& v = sm.warp(warp);
    if (!dlc_.contains(v.nextPc)) return 1;
    return scaled(v.nextActiveLanes, smr_);
}

} // namespace gpusim
