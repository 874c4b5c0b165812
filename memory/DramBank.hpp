#pragma once
// The state machine of one DRAM bank: idle (precharged), activating (ACT issued, tRCD not yet
// over), row open, precharging (PRE issued, tRP not yet over). It records what the controller
// did to the bank; whether a command is allowed now is the timing checker's business
// (DramTimingChecker), and which command to issue the scheduler's (DramScheduler).
// Also keeps what was read from the open row, for the row-closing hook (DramRowHook).
#include <cstdint>
#include <vector>

#include "memory/DramConfig.hpp"

namespace gpusim {

class DramBank {
public:
    enum class State : uint8_t { Idle, Activating, Active, Precharging };

    State state(uint64_t cycle, const DramTiming& t) const;
    // An ACT was issued and no PRE since (the row may still be activating).
    bool rowOpen() const { return open_; }
    uint64_t openRow() const { return row_; }
    uint64_t activatedAt() const { return actAt_; }

    void activate(uint64_t row, uint64_t cycle);
    void precharge(uint64_t cycle);
    void column(bool write, uint64_t addr);

    const std::vector<uint64_t>& readAddrs() const { return reads_; }
    unsigned writes() const { return writes_; }

private:
    bool open_ = false;
    bool everPrecharged_ = false;
    uint64_t row_ = 0;
    uint64_t actAt_ = 0;
    uint64_t preAt_ = 0;
    std::vector<uint64_t> reads_;  // since the ACT
    unsigned writes_ = 0;
};

const char* bankStateName(DramBank::State s);

} // namespace gpusim
