#pragma once
// An observer of row closings: called just before the controller precharges an open row, with
// which parts of it were read (by demand requests) while it was open. Installed with
// DramController::setRowHook; the default hook does nothing. OWL's opportunistic prefetch, which
// must issue reads while the row is still open, is not built on this hook but is a controller
// option of its own (memory/OwlPrefetcher.hpp, DramController::enablePrefetch).
#include <cstdint>
#include <vector>

namespace gpusim {

struct RowClosing {
    unsigned partition;
    unsigned bank;
    uint64_t row;
    uint64_t cycle;                    // DRAM cycle of the PRE about to be issued
    uint64_t activatedCycle;           // DRAM cycle of the ACT that opened it
    std::vector<uint64_t> readAddrs;   // global addresses of the reads served from the row, in order
    unsigned writes;                   // write requests served from the row
};

class DramRowHook {
public:
    virtual ~DramRowHook() = default;
    virtual void rowClosing(const RowClosing& row) = 0;
};

class NoRowHook : public DramRowHook {
public:
    void rowClosing(const RowClosing&) override {}
};

} // namespace gpusim
