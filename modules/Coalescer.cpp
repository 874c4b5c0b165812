#include "modules/Coalescer.hpp"

#include <algorithm>

namespace gpusim {

namespace {
// The 32-byte chunks a lane's `bytes` at `offset` in the line touch (those below chunk 32).
inline uint32_t chunkMask(uint64_t offset, uint32_t bytes) {
    const unsigned first = static_cast<unsigned>(offset / kChunkBytes);
    const unsigned last = static_cast<unsigned>((offset + bytes - 1) / kChunkBytes);
    if (first >= 32) return 0;
    return uint32_t(((uint64_t(2) << std::min(last, 31u)) - 1) & ~((uint64_t(1) << first) - 1));
}
} // namespace

// Flattened: the append of a new line (vector's emplace_back, which g++ kept out of line) cost
// 27 host instructions per line of a divergent warp, 0.3 % of the divergent bench run (issue 19).
[[gnu::flatten]] void Coalescer::touch(uint64_t line, unsigned lane, uint64_t offset, uint32_t bytes, std::vector<LineAccess>& out) const {
    const uint32_t chunks = chunkMask(offset, bytes);
    auto add = [&](LineAccess& a) {
        a.laneMask |= 1u << lane;
        a.bytes = std::min<uint32_t>(a.bytes + bytes, line_);
        a.chunks |= chunks;
    };
    // Neighbouring lanes mostly share the line touched last: try it before the scan. Either way
    // a line is in `out` once, in the order of its first lane.
    if (!out.empty() && out.back().lineAddr == line) return add(out.back());
    for (unsigned h = static_cast<unsigned>((line * 0x9E3779B97F4A7C15ull) >> (64 - kIndexBits));; h = (h + 1) % kIndexSlots) {
        if (indexGen_[h] != gen_) {
            indexGen_[h] = gen_;
            indexLine_[h] = line;
            indexPos_[h] = static_cast<uint32_t>(out.size());
            out.push_back({line, 1u << lane, bytes, chunks});
            return;
        }
        if (indexLine_[h] == line) return add(out[indexPos_[h]]);
    }
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

bool Coalescer::coalesceLinear(const WarpInstruction& inst, unsigned size, std::vector<LineAccess>& out) const {
    const uint32_t active = inst.activeMask;
    if (active == 0 || size > line_) return false;  // a lane over more than two lines: the walk
    const unsigned lo = static_cast<unsigned>(__builtin_ctz(active));
    const uint32_t run = active >> lo;
    if (run & (run + 1)) return false;  // a gap in the active lanes
    const unsigned n = kWarpSize - static_cast<unsigned>(__builtin_clz(run));
    const uint64_t base = inst.addr[lo];
    if (n == kWarpSize) {
        // A full warp (nearly every access of a streaming kernel): the constant bound lets g++
        // unroll the comparisons (issue 19).
#pragma GCC unroll 32
        for (unsigned l = 1; l < kWarpSize; ++l)
            if (inst.addr[l] != base + uint64_t(l) * size) return false;
    } else {
        uint64_t expect = base;
        for (unsigned l = lo + 1; l < lo + n; ++l)
            if (inst.addr[l] != (expect += size)) return false;
    }
    const uint64_t end = base + uint64_t(n) * size;  // one past the last byte
    if (end < base || end > UINT64_MAX - line_) return false;  // the top of the address space: the walk
    // Lane lo + j holds bytes [base + j * size, + size): a line's lanes and bytes follow from the
    // part of [base, end) inside it. Per lane, the walk adds each lane's bytes in the line (the
    // sum is that part's length, at most a line) and ORs each lane's chunks (contiguous pieces,
    // so the union is the chunks of the whole part). Lines come in address order, which is the
    // order of their lowest lanes as addresses grow with the lane.
    for (uint64_t line = base & ~uint64_t(line_ - 1); line < end; line += line_) {
        const uint64_t from = std::max(line, base), to = std::min(line + line_, end);
        const unsigned j0 = lo + static_cast<unsigned>((from - base) / size);
        const unsigned j1 = lo + static_cast<unsigned>((to - 1 - base) / size);
        const uint32_t lanes = uint32_t(((uint64_t(2) << j1) - 1) & ~((uint64_t(1) << j0) - 1));
        const uint32_t bytes = static_cast<uint32_t>(to - from);
        out.push_back({line, lanes, bytes, chunkMask(from - line, bytes)});
    }
    return true;
}

void Coalescer::coalesce(const WarpInstruction& inst, std::vector<LineAccess>& out) const {
    out.clear();
    const uint64_t mask = ~uint64_t(line_ - 1);
    const unsigned size = std::max<unsigned>(inst.accessBytes, 1);
    if (!coalesceLinear(inst, size, out)) walk(inst, size, mask, out);
    if (store_ == StoreBytes::Segment && inst.op == OpClass::Store)
        for (auto& a : out) a.bytes = segmentBytes(a.chunks, line_);
}

void Coalescer::walk(const WarpInstruction& inst, unsigned size, uint64_t mask, std::vector<LineAccess>& out) const {
    // A new index (out is empty here): entries of earlier walks no longer count.
    if (++gen_ == 0) {
        indexGen_.fill(0);
        gen_ = 1;
    }
    for (uint32_t lanes = inst.activeMask; lanes; lanes &= lanes - 1) {
        const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
        const uint64_t a = inst.addr[lane];
        const uint64_t first = a & mask, last = (a + size - 1) & mask;
        if (first == last) {
            // The common case inline: a lane inside the line the previous lane touched.
            if (!out.empty() && out.back().lineAddr == first) {
                LineAccess& b = out.back();
                b.laneMask |= 1u << lane;
                b.bytes = std::min<uint32_t>(b.bytes + size, line_);
                b.chunks |= chunkMask(a - first, size);
                continue;
            }
            touch(first, lane, a - first, size, out);
        } else {
            const uint32_t head = static_cast<uint32_t>(last - a);
            touch(first, lane, a - first, head, out);
            touch(last, lane, 0, size - head, out);
        }
    }
}

void Coalescer::coalesceAtomic(const WarpInstruction& inst, std::vector<LineAccess>& out) const {
    out.clear();
    const uint64_t mask = ~uint64_t(line_ - 1);
    const unsigned size = std::max<unsigned>(inst.accessBytes, 1);
    // Lanes whose bytes overlap (the same address) must be applied one after the other: a lane
    // joins the first request of its line that has no lane on its bytes, else opens a new one
    // (GPGPU-Sim's memory_coalescing_arch_atomic). Scanning a request's lanes is at most 32 x 32.
    auto overlaps = [&](const LineAccess& a, uint64_t addr) {
        for (uint32_t m = a.laneMask; m; m &= m - 1) {
            const uint64_t o = inst.addr[static_cast<unsigned>(__builtin_ctz(m))];
            if (o < addr + size && addr < o + size) return true;
        }
        return false;
    };
    for (uint32_t lanes = inst.activeMask; lanes; lanes &= lanes - 1) {
        const unsigned lane = static_cast<unsigned>(__builtin_ctz(lanes));
        const uint64_t a = inst.addr[lane];
        const uint64_t line = a & mask;
        // An atomic is naturally aligned, so it never straddles a line; clip one that would.
        const uint32_t bytes = static_cast<uint32_t>(std::min<uint64_t>(size, line + line_ - a));
        const uint32_t chunks = chunkMask(a - line, bytes);
        const uint64_t segment = a & ~uint64_t(atomicSegment_ - 1);
        LineAccess* into = nullptr;
        for (auto& acc : out)
            if (acc.lineAddr == line &&
                (inst.addr[static_cast<unsigned>(__builtin_ctz(acc.laneMask))] & ~uint64_t(atomicSegment_ - 1)) ==
                    segment &&
                !overlaps(acc, a)) {
                into = &acc;
                break;
            }
        if (!into) {
            out.push_back({line, 0, 0, 0});
            into = &out.back();
        }
        into->laneMask |= 1u << lane;
        into->bytes = std::min<uint32_t>(into->bytes + bytes, line_);
        into->chunks |= chunks;
    }
}

} // namespace gpusim
