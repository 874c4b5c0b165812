#pragma once
// Constructors for the warp instructions built-in kernels yield, one per instruction class, so
// kernel code states only what differs between instructions (PC, mask, registers, addresses).
//
// Each returns a small description, not a WarpInstruction: `co_yield` in a WarpProgram writes the
// description straight into the SM's instruction (writeTo), so a ~330-byte instruction is
// neither zero-initialised nor copied per pull. A description also converts to a
// WarpInstruction for code and tests that want a value.
//
// Memory operations take a lane -> address function evaluated for active lanes; inactive lanes'
// addresses are left as they were (0 in a converted value). Non-memory instructions leave `addr`
// untouched: the SM reads addresses only of active lanes of memory instructions.
#include <array>
#include <bit>
#include <cstdint>
#include <stdexcept>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

// SASS encodes one instruction in 16 bytes (Volta onward, and what Accel-Sim traces show), so
// static instruction k of a kernel sits at PC k * 16.
inline constexpr uint64_t kSassInstructionBytes = 16;
constexpr uint64_t sassPc(unsigned staticIndex) { return uint64_t(staticIndex) * kSassInstructionBytes; }

namespace inst {

// A short register list written `{r4, r5}`. Not std::initializer_list: GCC 12 miscompiles an
// initializer_list temporary inside a co_yield operand ("array used as initializer").
struct Regs {
    static constexpr unsigned kMax = 4;  // FFMA-class instructions read at most 3, plus a predicate
    std::array<uint16_t, kMax> reg{kNoReg, kNoReg, kNoReg, kNoReg};
    uint8_t count = 0;

    constexpr Regs() = default;
    template <class... R>
        requires(sizeof...(R) >= 1 && sizeof...(R) <= kMax)
    constexpr Regs(R... regs) : reg{static_cast<uint16_t>(regs)...}, count(sizeof...(R)) {}
};

// An instruction without memory access (ALU, SFU, tensor, barrier, exit).
struct Plain {
    uint64_t pc;
    OpClass op;
    uint32_t mask;
    Regs dst, src;

    // Always inline: a few stores at every co_yield, and g++ left it out of line in some
    // kernels when the unity batch around them changed (issue 19).
    [[gnu::always_inline]] void writeTo(WarpInstruction& in) const {
        if (dst.count > in.dst.size())
            throw std::logic_error("built-in kernel: instruction has too many destination registers");
        in.pc = pc;
        in.op = op;
        in.space = MemSpace::Global;
        in.activeMask = mask;
        in.numDst = dst.count;
        in.numSrc = src.count;
        in.dst = {dst.reg[0], dst.reg[1]};
        in.src = src.reg;
        in.accessBytes = 0;
        in.atomic = false;
    }
    operator WarpInstruction() const {
        WarpInstruction in;
        writeTo(in);
        return in;
    }
};

template <class AddrOfLane>
struct Memory {
    Plain base;
    MemSpace space;
    uint8_t bytes;
    AddrOfLane addrOfLane;
    bool atomic = false;

    void writeTo(WarpInstruction& in) const {
        base.writeTo(in);
        in.space = space;
        in.accessBytes = bytes;
        in.atomic = atomic;
        // Only active lanes are written (nothing reads the others; WarpInstruction::addr). A full
        // warp, the common case, without the per-lane mask test (issue 19).
        if (base.mask == ~uint32_t(0)) {
            // Unrolled: the loop's count, test and branch were half of each lane's instructions
            // (issue 19).
#pragma GCC unroll 8
            for (unsigned lane = 0; lane < kWarpSize; ++lane) in.addr[lane] = addrOfLane(lane);
        } else {
            for (uint32_t m = base.mask; m; m &= m - 1) {
                const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
                in.addr[lane] = addrOfLane(lane);
            }
        }
    }
    operator WarpInstruction() const {
        WarpInstruction in;  // inactive lanes' addresses stay 0 in a value
        writeTo(in);
        return in;
    }
};

inline Plain alu(uint64_t pc, uint32_t mask, Regs dst, Regs src) { return {pc, OpClass::Alu, mask, dst, src}; }
inline Plain sfu(uint64_t pc, uint32_t mask, Regs dst, Regs src) { return {pc, OpClass::Sfu, mask, dst, src}; }
inline Plain tensor(uint64_t pc, uint32_t mask, Regs dst, Regs src) { return {pc, OpClass::Tensor, mask, dst, src}; }
inline Plain barrier(uint64_t pc, uint32_t mask) { return {pc, OpClass::Barrier, mask, {}, {}}; }
inline Plain exit(uint64_t pc, uint32_t mask) { return {pc, OpClass::Exit, mask, {}, {}}; }

template <class AddrOfLane>
Memory<AddrOfLane> load(uint64_t pc, uint32_t mask, Regs dst, Regs src, uint8_t bytes, AddrOfLane addrOfLane,
                        MemSpace space = MemSpace::Global) {
    return {{pc, OpClass::Load, mask, dst, src}, space, bytes, addrOfLane};
}
// A store's sources are its address and data registers; it writes no register.
template <class AddrOfLane>
Memory<AddrOfLane> store(uint64_t pc, uint32_t mask, Regs src, uint8_t bytes, AddrOfLane addrOfLane,
                         MemSpace space = MemSpace::Global) {
    return {{pc, OpClass::Store, mask, {}, src}, space, bytes, addrOfLane};
}

// Global atomics (done at the L2): ATOM returns the old value to `dst` (load-like: the register
// stays busy until the L2 answers); RED returns nothing (store-like), what nvcc emits for an
// atomicAdd whose result is unused.
template <class AddrOfLane>
Memory<AddrOfLane> atom(uint64_t pc, uint32_t mask, Regs dst, Regs src, uint8_t bytes, AddrOfLane addrOfLane) {
    return {{pc, OpClass::Load, mask, dst, src}, MemSpace::Global, bytes, addrOfLane, true};
}
template <class AddrOfLane>
Memory<AddrOfLane> red(uint64_t pc, uint32_t mask, Regs src, uint8_t bytes, AddrOfLane addrOfLane) {
    return {{pc, OpClass::Store, mask, {}, src}, MemSpace::Global, bytes, addrOfLane, true};
}

} // namespace inst
} // namespace gpusim
