#pragma once
// The controller's timing checker: from the commands issued so far, the earliest cycle at which
// a command may be issued to a bank. Enforces, in command-clock cycles (B = burst cycles):
//   same bank:  ACT->RD/WR tRCD, ACT->PRE tRAS, ACT->ACT tRC, PRE->ACT tRP, RD->PRE tRTP,
//               WR->PRE tWL + B + tWR (write recovery after the data)
//   any bank:   ACT->ACT tRRD, column->column tCCD, WR->RD tWL + B + tCDLR (write-to-read),
//               RD->WR tRTW (read-to-write turnaround), and the data bus: a command's burst
//               [cycle + tCL or tWL, + B) starts no earlier than the previous burst ended.
// One command per cycle on the command bus is the controller's rule (it issues at most one).
// Leaves out: tFAW, bank groups (tCCDL), refresh, power-down.
#include <cstdint>
#include <vector>

#include "memory/DramCommand.hpp"
#include "memory/DramConfig.hpp"

namespace gpusim {

class DramTimingChecker {
public:
    DramTimingChecker(const DramTiming& t, unsigned banks);

    uint64_t earliest(DramCmd cmd, unsigned bank) const;
    bool allowed(DramCmd cmd, unsigned bank, uint64_t cycle) const { return earliest(cmd, bank) <= cycle; }
    void record(DramCmd cmd, unsigned bank, uint64_t cycle);

    // The cycle after the last data beat of a column command issued at `cycle`.
    uint64_t dataEnd(DramCmd cmd, uint64_t cycle) const;
    const DramTiming& timing() const { return t_; }

private:
    static constexpr int64_t kNever = INT64_MIN / 4;
    struct BankTimes {
        int64_t act = kNever, pre = kNever, rd = kNever, wr = kNever;
    };
    DramTiming t_;
    std::vector<BankTimes> banks_;
    int64_t lastAct_ = kNever, lastCol_ = kNever, lastRd_ = kNever, lastWr_ = kNever;
    int64_t busFree_ = 0;  // first cycle the data bus is free
};

} // namespace gpusim
