#include "modules/Scoreboard.hpp"

#include <stdexcept>
#include <string>

namespace gpusim {

void Scoreboard::reserve(unsigned warp, uint16_t reg) {
    if (!tracked(reg)) return;
    if (reg >= kRegisters) throw std::out_of_range("register number " + std::to_string(reg) + " beyond the scoreboard");
    Warp& w = pending_.at(warp);
    if (!w.bits.test(reg)) {
        w.bits.set(reg);
        ++w.count;
    }
}

void Scoreboard::release(unsigned warp, uint16_t reg) {
    if (!tracked(reg)) return;
    Warp& w = pending_.at(warp);
    if (w.bits.test(reg)) {
        w.bits.reset(reg);
        --w.count;
    }
}

bool Scoreboard::pending(unsigned warp, uint16_t reg) const {
    return reg < kRegisters && pending_.at(warp).bits.test(reg);
}

} // namespace gpusim
