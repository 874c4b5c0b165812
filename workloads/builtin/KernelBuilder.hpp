#pragma once
// The instruction runs most built-in kernels open and loop with, so a kernel's body states only
// its access pattern: the thread-index prologue (S2R of blockIdx and threadIdx, the IMAD forming
// the global index, the ISETP of the bounds check) and a counted loop's back edge (IADD, ISETP,
// BRA). Each returns the run as instructions the body yields in one statement:
//
//     for (const auto& op : globalIndex1d(all)) co_yield op;
//
// because a helper cannot co_yield for its caller: only the coroutine body itself suspends.
// Registers default to the numbering the kernels share (blockIdx and threadIdx in r0 upward,
// the indices after them); a run takes consecutive static slots from `firstSlot`.
// Leaves out: prologues that differ (a linear CTA id over a 2-D grid, a grid stride, threadIdx
// only); those kernels write theirs out instruction by instruction.
#include <array>
#include <cstdint>

#include "workloads/InstructionFactory.hpp"

namespace gpusim {

inline constexpr unsigned kIndex1dSlots = 4;
inline constexpr unsigned kIndex2dSlots = 6;
inline constexpr unsigned kBoundsCheck2dSlots = 2;
inline constexpr unsigned kBackEdgeSlots = 3;

struct Index1dRegs {
    uint16_t cta = 0, tid = 1, index = 2, pred = 3;
};

// index = blockIdx.x * blockDim.x + threadIdx.x; pred = index < N:
//   S2R cta <- SR_CTAID.X; S2R tid <- SR_TID.X; IMAD index <- cta, tid; ISETP pred <- index
inline std::array<inst::Plain, kIndex1dSlots> globalIndex1d(uint32_t mask, Index1dRegs r = {},
                                                            unsigned firstSlot = 0) {
    return {inst::alu(sassPc(firstSlot), mask, {r.cta}, {}),
            inst::alu(sassPc(firstSlot + 1), mask, {r.tid}, {}),
            inst::alu(sassPc(firstSlot + 2), mask, {r.index}, {r.cta, r.tid}),
            inst::alu(sassPc(firstSlot + 3), mask, {r.pred}, {r.index})};
}

struct Index2dRegs {
    uint16_t ctaX = 0, ctaY = 1, tidX = 2, tidY = 3, x = 4, y = 5;
};

// x = blockIdx.x * blockDim.x + threadIdx.x, y likewise:
//   S2R SR_CTAID.X, SR_CTAID.Y, SR_TID.X, SR_TID.Y; IMAD x <- ctaX, tidX; IMAD y <- ctaY, tidY
inline std::array<inst::Plain, kIndex2dSlots> globalIndex2d(uint32_t mask, Index2dRegs r = {},
                                                            unsigned firstSlot = 0) {
    return {inst::alu(sassPc(firstSlot), mask, {r.ctaX}, {}),
            inst::alu(sassPc(firstSlot + 1), mask, {r.ctaY}, {}),
            inst::alu(sassPc(firstSlot + 2), mask, {r.tidX}, {}),
            inst::alu(sassPc(firstSlot + 3), mask, {r.tidY}, {}),
            inst::alu(sassPc(firstSlot + 4), mask, {r.x}, {r.ctaX, r.tidX}),
            inst::alu(sassPc(firstSlot + 5), mask, {r.y}, {r.ctaY, r.tidY})};
}

// pred = x < X && y < Y after globalIndex2d: ISETP pred <- x; ISETP pred <- y, pred
inline std::array<inst::Plain, kBoundsCheck2dSlots> boundsCheck2d(uint32_t mask, uint16_t pred = 6,
                                                                  Index2dRegs r = {},
                                                                  unsigned firstSlot = kIndex2dSlots) {
    return {inst::alu(sassPc(firstSlot), mask, {pred}, {r.x}),
            inst::alu(sassPc(firstSlot + 1), mask, {pred}, {r.y, pred})};
}

// The end of `for (...; counter < bound; counter++)`: IADD counter; ISETP pred <- counter (and
// the bound's register when the bound is not a constant); BRA on pred. Every iteration yields it,
// the last one included (the branch then falls through).
inline std::array<inst::Plain, kBackEdgeSlots> backEdge(uint32_t mask, unsigned firstSlot, uint16_t counter,
                                                        uint16_t pred, uint16_t bound = kNoReg) {
    const inst::Regs compared = bound == kNoReg ? inst::Regs{counter} : inst::Regs{counter, bound};
    return {inst::alu(sassPc(firstSlot), mask, {counter}, {counter}),
            inst::alu(sassPc(firstSlot + 1), mask, {pred}, compared),
            inst::alu(sassPc(firstSlot + 2), mask, {}, {pred})};
}

} // namespace gpusim
