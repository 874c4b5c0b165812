#pragma once
// Per-warp register scoreboard: a register written by an instruction in flight blocks any later
// instruction of the same warp that reads (RAW) or writes (WAW) it. Register 255 is SASS's zero
// register (RZ) and never blocks.
#include <bitset>
#include <vector>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

class Scoreboard {
public:
    static constexpr unsigned kRegisters = 256;
    static constexpr uint16_t kZeroRegister = 255;

    explicit Scoreboard(unsigned warps) : pending_(warps) {}
    void reserve(unsigned warp, uint16_t reg);
    void release(unsigned warp, uint16_t reg);
    bool pending(unsigned warp, uint16_t reg) const;
    // True if any source or destination of `inst` is pending.
    bool hazard(unsigned warp, const WarpInstruction& inst) const;
    bool empty(unsigned warp) const { return pending_[warp].none(); }
    void clear(unsigned warp) { pending_[warp].reset(); }

private:
    static bool tracked(uint16_t reg) { return reg != kNoReg && reg != kZeroRegister; }
    std::vector<std::bitset<kRegisters>> pending_;
};

} // namespace gpusim
