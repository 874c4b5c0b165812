#include "modules/SetIndex.hpp"

#include <bit>
#include <stdexcept>

namespace gpusim {

SetIndex::SetIndex(SetIndexing kind, unsigned sets, unsigned lineBytes)
    : kind_(kind), sets_(sets), lineShift_(static_cast<unsigned>(std::countr_zero(lineBytes))) {
    if (kind == SetIndexing::FermiHash && ((sets != 32 && sets != 64) || lineBytes != 128))
        throw std::invalid_argument("fermi-hash set index needs 32 or 64 sets of 128-byte lines");
    lowMask_ = sets == 64 ? 0x3f : 0x1f;
    for (unsigned b = 0; b < upper_.size(); ++b) {  // b: address bits 13-19
        const unsigned bits1315 = b & 0x7, bit17 = b >> 4 & 1, bit19 = b >> 6 & 1;
        upper_[b] = static_cast<uint8_t>(bits1315 | bit17 << 3 | bit19 << 4);
    }
}

} // namespace gpusim
