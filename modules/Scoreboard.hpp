#pragma once
// Per-warp register scoreboard: a register written by an instruction in flight blocks any later
// instruction of the same warp that reads (RAW) or writes (WAW) it. One table covers the four
// register files of WarpInstruction.hpp's namespace (R, UR, P, UP): a uniform register or
// predicate is one entry per warp, as the hardware holds one value for all lanes. The constant
// registers RZ, URZ, PT and UPT never block: reserve() does not mark them.
#include <bitset>
#include <vector>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

class Scoreboard {
public:
    static constexpr unsigned kRegisters = kRegisterSpace;
    static constexpr uint16_t kZeroRegister = gpusim::kZeroRegister;

    explicit Scoreboard(unsigned warps) : pending_(warps) {}
    void reserve(unsigned warp, uint16_t reg);
    void release(unsigned warp, uint16_t reg);
    bool pending(unsigned warp, uint16_t reg) const;
    // True if any source or destination of `inst` is pending. Inline, without the bounds checks
    // of pending(): asked at every change of a warp's readiness; a warp slot and a register
    // number come from the SM, which sized the table and reserved through reserve(). The
    // constant registers need no test here: reserve() never sets their entries.
    bool hazard(unsigned warp, const WarpInstruction& inst) const {
        const Warp& wp = pending_[warp];
        if (wp.count == 0) return false;
        const std::bitset<kRegisters>& p = wp.bits;
        for (unsigned i = 0; i < inst.numSrc; ++i)
            if (blocks(p, inst.src[i])) return true;
        for (unsigned i = 0; i < inst.numDst; ++i)
            if (blocks(p, inst.dst[i])) return true;
        return false;
    }
    bool empty(unsigned warp) const { return pending_[warp].count == 0; }
    void clear(unsigned warp) { pending_[warp] = Warp{}; }

private:
    // The count of set bits answers "anything pending?" with one compare: hazard() asks it
    // first, and most warps have nothing in flight when it does.
    struct Warp {
        std::bitset<kRegisters> bits;
        uint16_t count = 0;
    };
    static bool tracked(uint16_t reg) { return reg != kNoReg && !isConstantRegister(reg); }
    // kNoReg (0xffff) fails the bound.
    static bool blocks(const std::bitset<kRegisters>& p, uint16_t reg) { return reg < kRegisters && p[reg]; }
    std::vector<Warp> pending_;
};

} // namespace gpusim
