#include "scheduler/LocalityInfoScore.hpp"

namespace gpusim {

bool LocalityInfoScore::onAccess(bool hit, bool predicted) {
    if (!hit && !p_.countMisses) return false;
    ++count_;
    if (hit && predicted) ++ones_;
    if (count_ < p_.window) return false;
    decided_ = true;
    locality_ = ones_ > p_.threshold;
    ones_ = count_ = 0;  // the fine-grained clean-up: the next window starts empty
    return true;
}

} // namespace gpusim
