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
    unsigned operator()(uint64_t addr) const;

private:
    SetIndexing kind_;
    unsigned sets_;
    unsigned lineShift_;
};

} // namespace gpusim
