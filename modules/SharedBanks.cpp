#include "modules/SharedBanks.hpp"

#include <algorithm>
#include <bit>

namespace gpusim {

SharedBanks::SharedBanks(unsigned banks, unsigned bankBytes)
    : banks_(std::max(1u, banks)), bankBytes_(std::max(1u, bankBytes)) {
    head_.assign(banks_, -1);
    count_.assign(banks_, 0);
}

unsigned SharedBanks::lanesPerPart(unsigned accessBytes) const {
    const unsigned size = std::max(1u, accessBytes);
    const unsigned fit = std::max(1u, banks_ * bankBytes_ / size);
    return std::min<unsigned>(kWarpSize, std::bit_floor(fit));
}

unsigned SharedBanks::passes(const WarpInstruction& inst) {
    const unsigned size = std::max<unsigned>(inst.accessBytes, 1);
    const unsigned lanes = lanesPerPart(size);
    unsigned total = 0;
    for (unsigned first = 0; first < kWarpSize; first += lanes) {
        const uint32_t partMask = lanes >= 32 ? ~0u : ((1u << lanes) - 1) << first;
        uint32_t active = inst.activeMask & partMask;
        if (!active) continue;
        unsigned worst = 0;
        word_.clear();
        next_.clear();
        for (; active; active &= active - 1) {
            const unsigned lane = static_cast<unsigned>(std::countr_zero(active));
            const uint64_t a = inst.addr[lane];
            const uint64_t last = (a + size - 1) / bankBytes_;
            for (uint64_t w = a / bankBytes_; w <= last; ++w) {
                const unsigned bank = static_cast<unsigned>(w % banks_);
                // Only distinct words cost a pass: lanes on one word share its delivery. A
                // bank's chain is as long as its conflict degree, so a conflict-free part
                // costs one look per word.
                bool seen = false;
                for (int32_t i = head_[bank]; i >= 0 && !seen; i = next_[size_t(i)]) seen = word_[size_t(i)] == w;
                if (seen) continue;
                next_.push_back(head_[bank]);
                head_[bank] = static_cast<int32_t>(word_.size());
                word_.push_back(w);
                worst = std::max(worst, ++count_[bank]);
            }
        }
        for (uint64_t w : word_) {
            const unsigned bank = static_cast<unsigned>(w % banks_);
            head_[bank] = -1;
            count_[bank] = 0;
        }
        total += worst;
    }
    return std::max(1u, total);
}

} // namespace gpusim
