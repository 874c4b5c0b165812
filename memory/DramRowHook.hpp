#pragma once
// The controller's hook for a memory-side prefetcher (OWL's opportunistic prefetch, DESIGN.md
// sections 5 and 7): called just before the controller precharges an open row, with which parts
// of it were read while it was open. A policy implements this interface and installs it with
// DramController::setRowHook; the controller's core does not change. The default hook does
// nothing. What a prefetcher would do with the information (issue extra reads to the row while
// it is open, fill them into the L2) is the policy issue's work.
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
