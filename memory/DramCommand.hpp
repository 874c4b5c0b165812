#pragma once
// DRAM commands and the controller's command log: every command issued, with its cycle, bank,
// row and column, so a test can replay the log through an independent timing checker. The log
// records only when enabled (tests, tracing); a run leaves it off.
#include <cstdint>
#include <vector>

namespace gpusim {

enum class DramCmd : uint8_t { Act, Pre, Rd, Wr };

inline const char* dramCmdName(DramCmd c) {
    switch (c) {
    case DramCmd::Act: return "ACT";
    case DramCmd::Pre: return "PRE";
    case DramCmd::Rd: return "RD";
    case DramCmd::Wr: return "WR";
    }
    return "?";
}

inline bool isColumn(DramCmd c) { return c == DramCmd::Rd || c == DramCmd::Wr; }

struct DramCommandRecord {
    uint64_t cycle;        // DRAM command-clock cycle it was issued on
    DramCmd cmd;
    unsigned bank;
    uint64_t row;          // the row opened (ACT), closed (PRE) or accessed (RD/WR)
    uint64_t column;       // byte offset in the row of the burst (RD/WR), else 0
    uint64_t request;      // arrival sequence number of the request it was issued for
};

class DramCommandLog {
public:
    void enable(bool on) { on_ = on; }
    bool enabled() const { return on_; }
    void add(const DramCommandRecord& r) {
        if (on_) log_.push_back(r);
    }
    const std::vector<DramCommandRecord>& records() const { return log_; }

private:
    bool on_ = false;
    std::vector<DramCommandRecord> log_;
};

} // namespace gpusim
