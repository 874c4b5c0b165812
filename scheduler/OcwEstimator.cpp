#include "scheduler/OcwEstimator.hpp"

#include <algorithm>

namespace gpusim {

OcwEstimator::OcwEstimator(const Params& p) : p_(p) {
    p_.wmax = std::max(p_.wmax, p_.ocwMin);
    reset();
}

void OcwEstimator::reset() {
    ocw_ = std::clamp(p_.ocwInit, p_.ocwMin, p_.wmax);
    cnt_ = std::min(p_.cntInit, p_.cmax);
}

void OcwEstimator::setWmax(unsigned wmax) {
    p_.wmax = std::max(wmax, p_.ocwMin);
    ocw_ = std::min(ocw_, p_.wmax);
}

int OcwEstimator::update(bool fullyCached, bool assocSensitive) {
    if (fullyCached) {
        if (cnt_ >= p_.cmax) {  // (D): saturated at Wmax
            if (ocw_ >= p_.wmax) return 0;
        } else {
            ++cnt_;
        }
        if (cnt_ >= p_.cmax && ocw_ < p_.wmax) {  // (B)
            ++ocw_;
            cnt_ = 0;
            return +1;
        }
        return 0;
    }
    if (cnt_ == 0) {  // (D): at the floor
        if (ocw_ <= p_.ocwMin) return 0;
    } else {
        const unsigned delta = assocSensitive ? (cnt_ + 1) / 2 : 1;
        cnt_ -= std::min(delta, cnt_);
    }
    if (cnt_ == 0 && ocw_ > p_.ocwMin) {  // (E)
        --ocw_;
        cnt_ = p_.cmax;
        return -1;
    }
    return 0;
}

} // namespace gpusim
