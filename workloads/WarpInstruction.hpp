#pragma once
// One warp instruction as the SM sees it: what a trace line or a built-in kernel produces.
// Register numbers are architectural registers of one namespace for the per-thread, uniform and
// predicate register files (below; the scoreboard tracks them per warp); memory operations carry
// one address per active lane.
#include <array>
#include <cstdint>

namespace gpusim {

enum class OpClass : uint8_t {
    Alu,      // integer/FP pipeline (FFMA, IADD, ISETP, BRA, MOV, ...)
    Sfu,      // special-function unit (MUFU: sin, rcp, ...)
    Load,     // memory read
    Store,    // memory write
    Barrier,  // __syncthreads (BAR.SYNC)
    Exit,     // end of the warp
    // Matrix multiply-accumulate on the SM's tensor pipeline (HMMA, IMMA, ... in traces). Explicit
    // value: the packed trace store keeps OpClass in 4 bits and 6 is left for another class
    // appended beside it, so neither addition renumbers the other.
    Tensor = 7
};

// Constant and Texture (issue 18) are loads through the SM's constant and texture caches
// (modules/ConstantCache.hpp, TextureCache.hpp); added last so the values before them keep theirs.
enum class MemSpace : uint8_t { Global, Shared, Local, Constant, Texture };

inline constexpr unsigned kWarpSize = 32;
inline constexpr uint16_t kNoReg = 0xffff;

// Register numbers in WarpInstruction::dst / src: one namespace for the SM's four register
// files, so that the scoreboard tracks each without a second field.
//   0 .. 255    R0 .. R255, per-thread registers; R255 is RZ (reads zero, writes are dropped)
//   256 .. 319  UR0 .. UR63, uniform registers (one value for the whole warp); UR63 is URZ
//   320 .. 327  P0 .. P7, per-thread predicates; P7 is PT (always true)
//   328 .. 335  UP0 .. UP7, uniform predicates; UP7 is UPT
// RZ, URZ, PT and UPT are constants: writing or reading them creates no dependence.
inline constexpr uint16_t kZeroRegister = 255;
inline constexpr uint16_t kUniformRegisterBase = 256;
inline constexpr uint16_t kPredicateBase = 320;
inline constexpr uint16_t kUniformPredicateBase = 328;
inline constexpr unsigned kRegisterSpace = 336;
inline constexpr uint16_t kUniformZeroRegister = kUniformRegisterBase + 63;
inline constexpr uint16_t kTruePredicate = kPredicateBase + 7;
inline constexpr uint16_t kUniformTruePredicate = kUniformPredicateBase + 7;

constexpr bool isConstantRegister(uint16_t r) {
    return r == kZeroRegister || r == kUniformZeroRegister || r == kTruePredicate || r == kUniformTruePredicate;
}
// Per-thread vector registers (R0 .. R255), the ones read through the register file's banks.
constexpr bool isVectorRegister(uint16_t r) { return r < kUniformRegisterBase; }

struct WarpInstruction {
    uint64_t pc = 0;
    OpClass op = OpClass::Alu;
    MemSpace space = MemSpace::Global;
    uint32_t activeMask = 0;              // bit i = lane i executes
    uint8_t numDst = 0, numSrc = 0;
    std::array<uint16_t, 2> dst{kNoReg, kNoReg};
    std::array<uint16_t, 4> src{kNoReg, kNoReg, kNoReg, kNoReg};
    uint8_t accessBytes = 0;              // bytes per lane for Load/Store (1, 2, 4, 8, 16)
    // A global atomic (issue 18), done at the L2 slice, not the L1D: a flag, not an OpClass, so
    // the issue stage, scoreboard and LD/ST unit keep treating it by what it returns. Load: ATOM
    // (the old value comes back to dst, which stays busy until the L2 answers); Store: RED (no
    // result, nothing waits). Meaningful only for the Global space.
    bool atomic = false;
    // Per-lane byte address, valid for active lanes; every reader skips the others, whose
    // entries are unspecified (the SM's instruction buffer does not clear them between uses).
    std::array<uint64_t, kWarpSize> addr{};

    bool isMemory() const { return op == OpClass::Load || op == OpClass::Store; }
    unsigned activeLanes() const { return static_cast<unsigned>(__builtin_popcount(activeMask)); }
};

} // namespace gpusim
