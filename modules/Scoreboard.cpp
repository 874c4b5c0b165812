#include "modules/Scoreboard.hpp"

#include <stdexcept>
#include <string>

namespace gpusim {

void Scoreboard::reserve(unsigned warp, uint16_t reg) {
    if (!tracked(reg)) return;
    if (reg >= kRegisters) throw std::out_of_range("register number " + std::to_string(reg) + " beyond the scoreboard");
    pending_.at(warp).set(reg);
}

void Scoreboard::release(unsigned warp, uint16_t reg) {
    if (!tracked(reg)) return;
    pending_.at(warp).reset(reg);
}

bool Scoreboard::pending(unsigned warp, uint16_t reg) const {
    return reg < kRegisters && pending_.at(warp).test(reg);
}

} // namespace gpusim
