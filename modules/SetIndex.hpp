#pragma once
// L1D set-index functions. Linear: line address modulo sets. Fermi hash: the function GPGPU-Sim
// uses for Fermi's L1D (after Nugteren et al., HPCA 2014): set bits 7-11 of the address XORed
// with bits {13,14,15,17,19}; a 64-set (48 KB) cache prepends address bit 12.
#include <array>
#include <cstdint>

#include "modules/SmConfig.hpp"

namespace gpusim {

class SetIndex {
public:
    SetIndex(SetIndexing kind, unsigned sets, unsigned lineBytes);
    // Inline: once per L1D access, and the call was a third of its cost (issue 19).
    unsigned operator()(uint64_t addr) const {
        if (kind_ == SetIndexing::Linear) return static_cast<unsigned>((addr >> lineShift_) % sets_);
        // The hash is defined on byte-address bits, for 128-byte lines: bits 7-11 (and bit 12 as
        // set bit 5 with 64 sets, lowMask_) XORed with the upper term, which depends on bits 13-19
        // only and is read from a table (half the instructions of gathering its five bits, and
        // this runs several times per L1D access, issue 19).
        return static_cast<unsigned>(((addr >> 7) & lowMask_) ^ upper_[(addr >> 13) & 0x7f]);
    }

private:
    SetIndexing kind_;
    unsigned sets_;
    unsigned lineShift_;
    uint64_t lowMask_ = 0;
    // Fermi hash: bits 13, 14, 15, 17, 19 of the address as bits 0-4, by address bits 13-19.
    std::array<uint8_t, 128> upper_{};
};

} // namespace gpusim
