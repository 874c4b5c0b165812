#include "modules/Scoreboard.hpp"

#include <stdexcept>
#include <string>

namespace gpusim {

void Scoreboard::reserve(unsigned warp, uint16_t reg) {
    if (!tracked(reg)) return;
    if (reg >= kRegisters) throw std::out_of_range("register R" + std::to_string(reg) + " beyond the scoreboard");
    pending_.at(warp).set(reg);
}

void Scoreboard::release(unsigned warp, uint16_t reg) {
    if (!tracked(reg)) return;
    pending_.at(warp).reset(reg);
}

bool Scoreboard::pending(unsigned warp, uint16_t reg) const {
    return tracked(reg) && reg < kRegisters && pending_.at(warp).test(reg);
}

bool Scoreboard::hazard(unsigned warp, const WarpInstruction& inst) const {
    for (unsigned i = 0; i < inst.numSrc; ++i)
        if (pending(warp, inst.src[i])) return true;
    for (unsigned i = 0; i < inst.numDst; ++i)
        if (pending(warp, inst.dst[i])) return true;
    return false;
}

} // namespace gpusim
