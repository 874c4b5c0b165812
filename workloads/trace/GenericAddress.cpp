#include "workloads/trace/GenericAddress.hpp"

namespace gpusim {

MemSpace genericSpaceOf(uint64_t address, const GenericWindows& w) {
    // Both bases are needed for the shared window: the local base is its end.
    if (w.sharedBase != 0 && w.localBase != 0 && address >= w.sharedBase && address < w.localBase)
        return MemSpace::Shared;
    // Written as an offset so that a base near 2^64 cannot wrap the window's end.
    if (w.localBase != 0 && address >= w.localBase && address - w.localBase < kGenericLocalWindowBytes)
        return MemSpace::Local;
    return MemSpace::Global;
}

GenericResolution resolveGeneric(uint32_t activeMask, const std::array<uint64_t, kWarpSize>& addr,
                                 const GenericWindows& w) {
    GenericResolution r;
    if (activeMask == 0 || !w.any()) return r;
    const unsigned first = static_cast<unsigned>(__builtin_ctz(activeMask));
    r.space = genericSpaceOf(addr[first], w);
    for (unsigned lane = first + 1; lane < kWarpSize && !r.mixed; ++lane)
        if ((activeMask >> lane & 1u) && genericSpaceOf(addr[lane], w) != r.space) r.mixed = true;
    return r;
}

} // namespace gpusim
