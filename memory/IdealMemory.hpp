#pragma once
// An ideal memory partition (OWL's "PMEM" experiment, DESIGN.md section 7): every request is
// answered exactly `mem.ideal_latency_cycles` DRAM clock cycles after the DRAM edge at or before
// its arrival, in arrival order, with unlimited bandwidth (any number of requests accepted and
// answered per cycle). Leaves out everything a DRAM has: banks, rows, timing constraints, bus
// turnaround, queue limits, refresh. It carries no data (answers leave the data buffer as is).
#include <cstdint>
#include <deque>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/AtPorts.hpp"
#include "common/ClockDomain.hpp"
#include "memory/IdealMemoryParams.hpp"
#include "memory/PartitionMemory.hpp"

namespace gpusim {

class StatRegistry;
class Counter;
class Histogram;

class IdealMemory : public sc_core::sc_module, public Tickable, public PartitionMemory {
public:
    IdealMemory(sc_core::sc_module_name name, const IdealMemoryParams& params, StatRegistry& stats,
                ClockDomain& clock, unsigned index);

    tlm_utils::simple_target_socket<IdealMemory> socket;

    void tick(uint64_t cycle) override;
    bool busy() const override;
    bool quiescent() const override;
    std::string dumpState() const override;
    tlm::tlm_target_socket<32>& target() override { return socket; }
    const char* moduleName() const override { return name(); }

private:
    struct Pending {
        Payload* payload;
        uint64_t acceptPs;
        uint64_t readyCycle;  // the DRAM edge at which the answer is sent
    };
    tlm::tlm_sync_enum nbTransportFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    bool take(Payload& p);

    ClockDomain& clock_;
    uint64_t latency_;
    AtTargetPort port_;
    // Arrival order; ready cycles never decrease along it because arrivals come in time order.
    std::deque<Pending> pending_;
    Counter& reads_;
    Counter& writes_;
    Histogram& latencyHist_;
};

} // namespace gpusim
