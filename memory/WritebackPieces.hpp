#pragma once
// How a write-back of a sectored line is cut into memory writes: every run of consecutive dirty
// sectors becomes pieces whose length (in sectors) is a power of two and whose first sector is a
// multiple of that length, each as long as those two rules allow, lowest first. With
// power-of-two sectors in a power-of-two line (l2.sector_bytes and l2.line_bytes are validated
// so) each piece's length in bytes is a power of two and its address a multiple of it, which
// memories that take only aligned power-of-two bursts require; only dirty bytes are written, so
// no byte enables are needed. Examples, four sectors: 0b1111 -> (0, 4); 0b0111 -> (0, 2) (2, 1);
// 0b0110 -> (1, 1) (2, 1); 0b1010 -> (1, 1) (3, 1). An unsectored line is one sector: one piece.
#include <algorithm>
#include <bit>
#include <cstdint>

namespace gpusim {

// Calls f(firstSector, sectors) for each piece of the dirty-sector mask `dirty` (bit i: sector i).
template <class F>
void forEachWritebackPiece(uint64_t dirty, F&& f) {
    while (dirty != 0) {
        const unsigned first = static_cast<unsigned>(std::countr_zero(dirty));
        const unsigned run = static_cast<unsigned>(std::countr_one(dirty >> first));
        unsigned n = std::bit_floor(run);
        if (first != 0) n = std::min(n, 1u << std::countr_zero(first));  // aligned to its length
        f(first, n);
        const uint64_t bits = n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
        dirty &= ~(bits << first);
    }
}

} // namespace gpusim
