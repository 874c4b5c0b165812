#pragma once
// Fermi's coalescing rule for global/local accesses: the active lanes' addresses are grouped
// into the aligned lines (128 B on Fermi) they touch; each distinct line is one L1D access.
// Accesses come out in the order of the lowest lane that touches them (deterministic). An access
// that straddles a line boundary (unaligned vector access) touches both lines. Each access also
// says which 32-byte chunks of its line the lanes touch (a store's sectors).
// What a store carries (sm.store_bytes): the bytes its lanes touch, or, as GPGPU-Sim's Fermi
// coalescer sends it, the smallest aligned segment (halving the line down to 32 B while the
// touched chunks lie in one half) that holds the touched chunks. Approximation: GPGPU-Sim uses
// 32-B (1-byte data) and 64-B (2-byte data) segments as separate accesses; we keep one access per
// line and size it by the same halving.
#include <array>
#include <cstdint>
#include <vector>

#include "common/StoreChunks.hpp"
#include "modules/SmConfig.hpp"
#include "workloads/WarpInstruction.hpp"

namespace gpusim {

struct LineAccess {
    uint64_t lineAddr = 0;   // aligned to the line size
    uint32_t laneMask = 0;   // lanes served by this line
    uint32_t bytes = 0;      // bytes touched in the line (sum over lanes, clipped to the line),
                             // or a store's segment (StoreBytes::Segment)
    uint32_t chunks = 0;     // 32-byte chunks touched (bit i: bytes 32i .. 32i+31 of the line);
                             // a sectored L2 writes only these sectors of a store
};


// The smallest aligned segment of a `lineBytes` line, at least one chunk, holding `chunks`.
uint32_t segmentBytes(uint32_t chunks, unsigned lineBytes);

class Coalescer {
public:
    // atomicSegment: the granule of a global atomic's requests (0: the line).
    explicit Coalescer(unsigned lineBytes, StoreBytes store = StoreBytes::Touched, unsigned atomicSegment = 0)
        : line_(lineBytes), store_(store), atomicSegment_(atomicSegment ? atomicSegment : lineBytes) {}
    // Appends to `out` (cleared first).
    void coalesce(const WarpInstruction& inst, std::vector<LineAccess>& out) const;
    // A global atomic's requests: one per aligned atomic segment (sm.atomic_segment_bytes: 32,
    // GPGPU-Sim's Fermi coalescer for an access bypassing the L1, as atomics do; or the line),
    // but lanes on overlapping bytes go to separate requests (each read-modify-write of one address
    // is applied apart at the L2), in the order of their lowest lane. `lineAddr` is the line's,
    // `chunks` the 32-B chunks touched; `bytes` is the lanes' touched bytes (their operands).
    void coalesceAtomic(const WarpInstruction& inst, std::vector<LineAccess>& out) const;

private:
    // The common case of a contiguous run of active lanes at consecutive addresses (lane i at
    // the run's first address + i * access size), e.g. a[i] in a streaming kernel: its lines
    // follow from the run's byte range, with one comparison per lane instead of the walk's
    // per-lane bookkeeping (issue 19). The same accesses, masks and order as the walk. False,
    // `out` untouched, for any other access.
    bool coalesceLinear(const WarpInstruction& inst, unsigned size, std::vector<LineAccess>& out) const;
    // Any access: lane by lane, each lane's line(s) found or appended.
    void walk(const WarpInstruction& inst, unsigned size, uint64_t mask, std::vector<LineAccess>& out) const;
    void touch(uint64_t line, unsigned lane, uint64_t offset, uint32_t bytes, std::vector<LineAccess>& out) const;
    unsigned line_;
    // The walk's index of its lines: line -> position in `out`, open addressing over twice the
    // most lines one access can touch (32 lanes, two lines each), entries of older walks told
    // apart by a generation. A divergent gather's lanes each find their line without a scan of
    // every line so far (issue 19). Scratch: the coalescer is one SM's, used by one thread.
    static constexpr unsigned kIndexBits = 7, kIndexSlots = 1u << kIndexBits;
    mutable std::array<uint64_t, kIndexSlots> indexLine_{};
    mutable std::array<uint32_t, kIndexSlots> indexGen_{}, indexPos_{};
    mutable uint32_t gen_ = 0;
    StoreBytes store_;
    unsigned atomicSegment_;
};

} // namespace gpusim
