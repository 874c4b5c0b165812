#include "modules/Coalescer.hpp"

#include <algorithm>

namespace gpusim {

void Coalescer::touch(uint64_t line, unsigned lane, uint64_t offset, uint32_t bytes, std::vector<LineAccess>& out) const {
    const unsigned first = static_cast<unsigned>(offset / kChunkBytes);
    const unsigned last = static_cast<unsigned>((offset + bytes - 1) / kChunkBytes);
    uint32_t chunks = 0;  // bits first .. last, those below 32
    if (first < 32)
        chunks = uint32_t(((uint64_t(2) << std::min(last, 31u)) - 1) & ~((uint64_t(1) << first) - 1));
    auto add = [&](LineAccess& a) {
        a.laneMask |= 1u << lane;
        a.bytes = std::min<uint32_t>(a.bytes + bytes, line_);
        a.chunks |= chunks;
    };
    // Neighbouring lanes mostly share the line touched last: try it before the scan. Either way
    // a line is in `out` once, in the order of its first lane.
    if (!out.empty() && out.back().lineAddr == line) return add(out.back());
    for (auto& a : out)
        if (a.lineAddr == line) return add(a);
    out.push_back({line, 1u << lane, bytes, chunks});
}

uint32_t segmentBytes(uint32_t chunks, unsigned lineBytes) {
    unsigned size = std::max(1u, lineBytes / kChunkBytes), lo = 0;  // in chunks
    while (size > 1) {
        const unsigned half = size / 2;
        const uint64_t halfMask = (uint64_t(1) << half) - 1;
        const bool low = chunks & (halfMask << lo), high = chunks & (halfMask << (lo + half));
        if (low == high) break;  // both halves (or, for no chunk, neither): keep this size
        if (high) lo += half;
        size = half;
    }
    return size * kChunkBytes;
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
            touch(first, lane, a - first, size, out);
        } else {
            const uint32_t head = static_cast<uint32_t>(last - a);
            touch(first, lane, a - first, head, out);
            touch(last, lane, 0, size - head, out);
        }
    }
    if (store_ == StoreBytes::Segment && inst.op == OpClass::Store)
        for (auto& a : out) a.bytes = segmentBytes(a.chunks, line_);
}

} // namespace gpusim
