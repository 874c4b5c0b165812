#pragma once
// The controller's timing checker: from the commands issued so far, the earliest cycle at which
// a command may be issued to a bank. Enforces, in command-clock cycles (B = burst cycles):
//   same bank:  ACT->RD/WR tRCD, ACT->PRE tRAS, ACT->ACT tRC, PRE->ACT tRP, RD->PRE tRTP,
//               WR->PRE tWL + B + tWR (write recovery after the data)
//   any bank:   ACT->ACT tRRD, column->column tCCD, WR->RD tWL + B + tCDLR (write-to-read),
//               RD->WR tRTW (read-to-write turnaround), and the data bus: a command's burst
//               [cycle + tCL or tWL, + B) starts no earlier than the previous burst ended.
//   bank group (dram.bank_groups > 1): column->column tCCDL, RD->PRE tRTPL (GPGPU-Sim's
//               CCDL and RTPL counters per group; group = bank / (banks / groups)).
// One command per cycle on the command bus is the controller's rule (it issues at most one).
// Leaves out: tFAW, refresh, power-down.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "memory/DramCommand.hpp"
#include "memory/DramConfig.hpp"

namespace gpusim {

class DramTimingChecker {
public:
    DramTimingChecker(const DramTiming& t, unsigned banks);

    // The latest of a per-bank bound (this bank's own commands, and its bank group's) and a
    // per-command bound over all banks. The bank's part is memoised until a command goes to the
    // bank (or a column command to its group), the global part recomputed at each record(): the
    // scheduler asks the same (command, bank) for many queued requests every cycle, and after a
    // command only that bank's answers change their own part (issue 19).
    uint64_t earliest(DramCmd cmd, unsigned bank) const {
        const unsigned c = static_cast<unsigned>(cmd);
        Memo& m = memo_[bank * kCmds + c];
        if (m.epoch != bankEpoch_[bank]) {
            m.value = computeBank(cmd, bank);
            m.epoch = bankEpoch_[bank];
        }
        const int64_t e = std::max(m.value, global_[c]);
        return e > 0 ? uint64_t(e) : 0;
    }
    bool allowed(DramCmd cmd, unsigned bank, uint64_t cycle) const { return earliest(cmd, bank) <= cycle; }
    // The per-command part of earliest() alone, the same for every bank: no bank's `cmd` is
    // legal before it.
    uint64_t globalEarliest(DramCmd cmd) const {
        const int64_t e = global_[static_cast<unsigned>(cmd)];
        return e > 0 ? uint64_t(e) : 0;
    }
    void record(DramCmd cmd, unsigned bank, uint64_t cycle);

    // The cycle after the last data beat of a column command issued at `cycle`.
    uint64_t dataEnd(DramCmd cmd, uint64_t cycle) const;
    const DramTiming& timing() const { return t_; }

private:
    int64_t computeBank(DramCmd cmd, unsigned bank) const;
    void computeGlobal();
    static constexpr unsigned kCmds = 4;
    // A memo entry is valid while its epoch is its bank's: record() moves the bank's epoch
    // instead of rewriting its entries.
    struct Memo {
        int64_t value = 0;
        uint64_t epoch = 0;
    };
    mutable std::vector<Memo> memo_;  // [bank][cmd]
    std::vector<uint64_t> bankEpoch_;  // from 1: a fresh memo entry (epoch 0) is stale
    std::array<int64_t, kCmds> global_{};  // [cmd]: the bound from every bank's commands
    static constexpr int64_t kNever = INT64_MIN / 4;
    struct BankTimes {
        int64_t act = kNever, pre = kNever, rd = kNever, wr = kNever;
    };
    DramTiming t_;
    std::vector<BankTimes> banks_;
    struct GroupTimes {
        int64_t col = kNever, rd = kNever;
    };
    std::vector<GroupTimes> groups_;  // empty: no bank groups
    unsigned banksPerGroup_ = 1;
    int64_t lastAct_ = kNever, lastCol_ = kNever, lastRd_ = kNever, lastWr_ = kNever;
    int64_t busFree_ = 0;  // first cycle the data bus is free
};

} // namespace gpusim
