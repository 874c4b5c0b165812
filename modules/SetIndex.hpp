#pragma once
// L1D set-index functions. Linear: line address modulo sets. Fermi hash: the function GPGPU-Sim
// uses for Fermi's L1D (after Nugteren et al., HPCA 2014): set bits 7-11 of the address XORed
// with bits {13,14,15,17,19}; a 64-set (48 KB) cache prepends address bit 12.
#include <cstdint>

#include "modules/SmConfig.hpp"

namespace gpusim {

class SetIndex {
public:
    SetIndex(SetIndexing kind, unsigned sets, unsigned lineBytes);
    // Inline: once per L1D access, and the call was a third of its cost (issue 19).
    unsigned operator()(uint64_t addr) const {
        if (kind_ == SetIndexing::Linear) return static_cast<unsigned>((addr >> lineShift_) % sets_);
        // The hash is defined on byte-address bits, for 128-byte lines.
        const uint64_t lower = (addr >> lineShift_) & 0x1f;
        uint64_t upper = (addr & 0xe000) >> 13;  // bits 13, 14, 15
        upper |= (addr & 0x20000) >> 14;         // bit 17
        upper |= (addr & 0x80000) >> 15;         // bit 19
        uint64_t set = lower ^ upper;
        if (sets_ == 64) set |= (addr & 0x1000) >> 7;  // bit 12 as set bit 5
        return static_cast<unsigned>(set);
    }

private:
    SetIndexing kind_;
    unsigned sets_;
    unsigned lineShift_;
};

} // namespace gpusim
