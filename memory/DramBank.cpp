#include "memory/DramBank.hpp"

#include <stdexcept>

namespace gpusim {

DramBank::State DramBank::state(uint64_t cycle, const DramTiming& t) const {
    if (open_) return cycle < actAt_ + t.tRCD ? State::Activating : State::Active;
    if (everPrecharged_ && cycle < preAt_ + t.tRP) return State::Precharging;
    return State::Idle;
}

void DramBank::activate(uint64_t row, uint64_t cycle) {
    if (open_) throw std::logic_error("ACT to a bank with an open row");
    open_ = true;
    row_ = row;
    actAt_ = cycle;
    reads_.clear();
    writes_ = 0;
}

void DramBank::precharge(uint64_t cycle) {
    if (!open_) throw std::logic_error("PRE to a bank without an open row");
    open_ = false;
    everPrecharged_ = true;
    preAt_ = cycle;
}

void DramBank::column(bool write, uint64_t addr) {
    if (!open_) throw std::logic_error("column command to a bank without an open row");
    if (write)
        ++writes_;
    else
        reads_.push_back(addr);
}

const char* bankStateName(DramBank::State s) {
    switch (s) {
    case DramBank::State::Idle: return "idle";
    case DramBank::State::Activating: return "activating";
    case DramBank::State::Active: return "active";
    case DramBank::State::Precharging: return "precharging";
    }
    return "?";
}

} // namespace gpusim
