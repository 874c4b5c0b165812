#include "memory/DramTimingChecker.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpusim {

DramTimingChecker::DramTimingChecker(const DramTiming& t, unsigned banks)
    : memo_(size_t(banks) * kCmds), bankEpoch_(banks, 1), t_(t), banks_(banks) {
    if (t.bankGroups > 1) {
        if (banks % t.bankGroups != 0) throw std::logic_error("DRAM bank groups do not divide the banks");
        groups_.resize(t.bankGroups);
        banksPerGroup_ = banks / t.bankGroups;
    }
    computeGlobal();
}

int64_t DramTimingChecker::computeBank(DramCmd cmd, unsigned bank) const {
    const BankTimes& b = banks_[bank];
    const int64_t burst = t_.burstCycles();
    int64_t e = kNever;
    switch (cmd) {
    case DramCmd::Act: e = std::max(b.pre + t_.tRP, b.act + t_.tRC); break;
    case DramCmd::Pre: e = std::max({b.act + t_.tRAS, b.rd + t_.tRTP, b.wr + t_.tWL + burst + t_.tWR}); break;
    case DramCmd::Rd:
    case DramCmd::Wr: e = b.act + t_.tRCD; break;
    }
    if (!groups_.empty()) {
        const GroupTimes& g = groups_[bank / banksPerGroup_];
        if (isColumn(cmd)) e = std::max(e, g.col + int64_t(t_.tCCDL));
        if (cmd == DramCmd::Pre) e = std::max(e, g.rd + int64_t(t_.tRTPL));
    }
    return e;
}

void DramTimingChecker::computeGlobal() {
    const int64_t burst = t_.burstCycles();
    global_[static_cast<unsigned>(DramCmd::Act)] = lastAct_ + t_.tRRD;
    global_[static_cast<unsigned>(DramCmd::Pre)] = kNever;
    global_[static_cast<unsigned>(DramCmd::Rd)] =
        std::max({lastCol_ + t_.tCCD, lastWr_ + t_.tWL + burst + t_.tCDLR, busFree_ - int64_t(t_.tCL)});
    global_[static_cast<unsigned>(DramCmd::Wr)] =
        std::max({lastCol_ + t_.tCCD, lastRd_ + t_.tRTW, busFree_ - int64_t(t_.tWL)});
}

uint64_t DramTimingChecker::dataEnd(DramCmd cmd, uint64_t cycle) const {
    if (!isColumn(cmd)) throw std::logic_error("dataEnd of a row command");
    return cycle + (cmd == DramCmd::Rd ? t_.tCL : t_.tWL) + t_.burstCycles();
}

void DramTimingChecker::record(DramCmd cmd, unsigned bank, uint64_t cycle) {
    if (!allowed(cmd, bank, cycle))
        throw std::logic_error(std::string("DRAM timing violated by ") + dramCmdName(cmd));
    BankTimes& b = banks_.at(bank);
    const int64_t c = int64_t(cycle);
    ++bankEpoch_[bank];  // this bank's memo entries are stale
    switch (cmd) {
    case DramCmd::Act: b.act = lastAct_ = c; break;
    case DramCmd::Pre: b.pre = c; break;
    case DramCmd::Rd:
        b.rd = lastRd_ = lastCol_ = c;
        busFree_ = int64_t(dataEnd(cmd, cycle));
        break;
    case DramCmd::Wr:
        b.wr = lastWr_ = lastCol_ = c;
        busFree_ = int64_t(dataEnd(cmd, cycle));
        break;
    }
    if (!groups_.empty() && isColumn(cmd)) {
        const unsigned first = bank / banksPerGroup_ * banksPerGroup_;
        GroupTimes& g = groups_[bank / banksPerGroup_];
        g.col = c;
        if (cmd == DramCmd::Rd) g.rd = c;
        for (unsigned k = first; k < first + banksPerGroup_; ++k) ++bankEpoch_[k];  // the group's bounds moved
    }
    computeGlobal();
}

} // namespace gpusim
