#include "modules/SetIndex.hpp"

#include <bit>
#include <stdexcept>

namespace gpusim {

SetIndex::SetIndex(SetIndexing kind, unsigned sets, unsigned lineBytes)
    : kind_(kind), sets_(sets), lineShift_(static_cast<unsigned>(std::countr_zero(lineBytes))) {
    if (kind == SetIndexing::FermiHash && ((sets != 32 && sets != 64) || lineBytes != 128))
        throw std::invalid_argument("fermi-hash set index needs 32 or 64 sets of 128-byte lines");
}

unsigned SetIndex::operator()(uint64_t addr) const {
    if (kind_ == SetIndexing::Linear) return static_cast<unsigned>((addr >> lineShift_) % sets_);
    // The hash is defined on byte-address bits, for 128-byte lines.
    const uint64_t lower = (addr >> lineShift_) & 0x1f;
    uint64_t upper = (addr & 0xe000) >> 13;   // bits 13, 14, 15
    upper |= (addr & 0x20000) >> 14;          // bit 17
    upper |= (addr & 0x80000) >> 15;          // bit 19
    uint64_t set = lower ^ upper;
    if (sets_ == 64) set |= (addr & 0x1000) >> 7;  // bit 12 as set bit 5
    return static_cast<unsigned>(set);
}

} // namespace gpusim
