#pragma once
// Fermi's coalescing rule for global/local accesses: the active lanes' addresses are grouped
// into the aligned lines (128 B on Fermi) they touch; each distinct line is one L1D access.
// Accesses come out in the order of the lowest lane that touches them (deterministic). An access
// that straddles a line boundary (unaligned vector access) touches both lines.
#include <cstdint>
#include <vector>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

struct LineAccess {
    uint64_t lineAddr = 0;   // aligned to the line size
    uint32_t laneMask = 0;   // lanes served by this line
    uint32_t bytes = 0;      // bytes touched in the line (sum over lanes, clipped to the line)
};

class Coalescer {
public:
    explicit Coalescer(unsigned lineBytes) : line_(lineBytes) {}
    // Appends to `out` (cleared first).
    void coalesce(const WarpInstruction& inst, std::vector<LineAccess>& out) const;

private:
    void touch(uint64_t line, unsigned lane, uint32_t bytes, std::vector<LineAccess>& out) const;
    unsigned line_;
};

} // namespace gpusim
