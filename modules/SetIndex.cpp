#include "modules/SetIndex.hpp"

#include <bit>
#include <stdexcept>

namespace gpusim {

SetIndex::SetIndex(SetIndexing kind, unsigned sets, unsigned lineBytes)
    : kind_(kind), sets_(sets), lineShift_(static_cast<unsigned>(std::countr_zero(lineBytes))) {
    if (kind == SetIndexing::FermiHash && ((sets != 32 && sets != 64) || lineBytes != 128))
        throw std::invalid_argument("fermi-hash set index needs 32 or 64 sets of 128-byte lines");
}

} // namespace gpusim
