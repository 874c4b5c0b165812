#include "memory/DramTimingChecker.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpusim {

DramTimingChecker::DramTimingChecker(const DramTiming& t, unsigned banks)
    : memo_(size_t(banks) * kCmds), t_(t), banks_(banks) {
    if (t.bankGroups > 1) {
        if (banks % t.bankGroups != 0) throw std::logic_error("DRAM bank groups do not divide the banks");
        groups_.resize(t.bankGroups);
        banksPerGroup_ = banks / t.bankGroups;
    }
}

uint64_t DramTimingChecker::compute(DramCmd cmd, unsigned bank) const {
    const BankTimes& b = banks_[bank];
    const int64_t burst = t_.burstCycles();
    int64_t e = 0;
    switch (cmd) {
    case DramCmd::Act:
        e = std::max({b.pre + t_.tRP, b.act + t_.tRC, lastAct_ + t_.tRRD});
        break;
    case DramCmd::Pre:
        e = std::max({b.act + t_.tRAS, b.rd + t_.tRTP, b.wr + t_.tWL + burst + t_.tWR});
        break;
    case DramCmd::Rd:
        e = std::max({b.act + t_.tRCD, lastCol_ + t_.tCCD, lastWr_ + t_.tWL + burst + t_.tCDLR,
                      busFree_ - int64_t(t_.tCL)});
        break;
    case DramCmd::Wr:
        e = std::max({b.act + t_.tRCD, lastCol_ + t_.tCCD, lastRd_ + t_.tRTW, busFree_ - int64_t(t_.tWL)});
        break;
    }
    if (!groups_.empty()) {
        const GroupTimes& g = groups_[bank / banksPerGroup_];
        if (isColumn(cmd)) e = std::max(e, g.col + int64_t(t_.tCCDL));
        if (cmd == DramCmd::Pre) e = std::max(e, g.rd + int64_t(t_.tRTPL));
    }
    return e > 0 ? uint64_t(e) : 0;
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
    ++epoch_;  // every memo entry is stale
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
        GroupTimes& g = groups_[bank / banksPerGroup_];
        g.col = c;
        if (cmd == DramCmd::Rd) g.rd = c;
    }
}

} // namespace gpusim
