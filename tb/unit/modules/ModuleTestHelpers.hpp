#pragma once
// Instruction builders shared by the modules/ unit tests.
#include <cstdint>
#include <initializer_list>

#include "workloads/WarpInstruction.hpp"

namespace gpusim::test {

constexpr uint32_t kAllLanes = 0xffffffffu;

inline WarpInstruction alu(uint64_t pc, uint16_t dst, std::initializer_list<uint16_t> srcs = {},
                           OpClass op = OpClass::Alu) {
    WarpInstruction i;
    i.pc = pc;
    i.op = op;
    i.activeMask = kAllLanes;
    if (dst != kNoReg) {
        i.numDst = 1;
        i.dst[0] = dst;
    }
    for (uint16_t s : srcs) i.src[i.numSrc++] = s;
    return i;
}

// A memory instruction whose lane l accesses base + l * stride (active lanes per `mask`).
inline WarpInstruction mem(OpClass op, uint64_t pc, uint64_t base, uint64_t stride, uint8_t bytes = 4,
                           uint32_t mask = kAllLanes, MemSpace space = MemSpace::Global) {
    WarpInstruction i;
    i.pc = pc;
    i.op = op;
    i.space = space;
    i.activeMask = mask;
    i.accessBytes = bytes;
    for (unsigned l = 0; l < kWarpSize; ++l) i.addr[l] = base + l * stride;
    return i;
}

inline WarpInstruction load(uint64_t pc, uint16_t dst, uint64_t base, uint64_t stride,
                            std::initializer_list<uint16_t> srcs = {}, MemSpace space = MemSpace::Global) {
    WarpInstruction i = mem(OpClass::Load, pc, base, stride, 4, kAllLanes, space);
    i.numDst = 1;
    i.dst[0] = dst;
    for (uint16_t s : srcs) i.src[i.numSrc++] = s;
    return i;
}

inline WarpInstruction store(uint64_t pc, uint64_t base, uint64_t stride, std::initializer_list<uint16_t> srcs = {}) {
    WarpInstruction i = mem(OpClass::Store, pc, base, stride);
    for (uint16_t s : srcs) i.src[i.numSrc++] = s;
    return i;
}

inline WarpInstruction bar(uint64_t pc) {
    WarpInstruction i;
    i.pc = pc;
    i.op = OpClass::Barrier;
    i.activeMask = kAllLanes;
    return i;
}

inline WarpInstruction exitInst(uint64_t pc) {
    WarpInstruction i;
    i.pc = pc;
    i.op = OpClass::Exit;
    i.activeMask = kAllLanes;
    return i;
}

} // namespace gpusim::test
