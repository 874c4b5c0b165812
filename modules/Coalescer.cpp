#include "modules/Coalescer.hpp"

#include <algorithm>

namespace gpusim {

void Coalescer::touch(uint64_t line, unsigned lane, uint32_t bytes, std::vector<LineAccess>& out) const {
    for (auto& a : out) {
        if (a.lineAddr == line) {
            a.laneMask |= 1u << lane;
            a.bytes = std::min<uint32_t>(a.bytes + bytes, line_);
            return;
        }
    }
    out.push_back({line, 1u << lane, bytes});
}

void Coalescer::coalesce(const WarpInstruction& inst, std::vector<LineAccess>& out) const {
    out.clear();
    const uint64_t mask = ~uint64_t(line_ - 1);
    const unsigned size = std::max<unsigned>(inst.accessBytes, 1);
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!(inst.activeMask & (1u << lane))) continue;
        const uint64_t a = inst.addr[lane];
        const uint64_t first = a & mask, last = (a + size - 1) & mask;
        if (first == last) {
            touch(first, lane, size, out);
        } else {
            const uint32_t head = static_cast<uint32_t>(last - a);
            touch(first, lane, head, out);
            touch(last, lane, size - head, out);
        }
    }
}

} // namespace gpusim
