#pragma once
// What the platform needs from the memory behind one partition's L2 (ideal or FR-FCFS): a
// TLM-2.0 AT target socket (base protocol, back-pressure by late END_REQ), the end-of-run
// invariant and a watchdog dump. makePartitionMemory builds the model `memory.model` names; a
// user's own target can be bound to the L2's memory socket instead.
#include <memory>
#include <string>

#include <tlm>

namespace gpusim {

class AddressMap;
class ClockDomain;
struct PartitionMemoryParams;
class StatRegistry;

class PartitionMemory {
public:
    virtual ~PartitionMemory() = default;
    virtual tlm::tlm_target_socket<32>& target() = 0;
    // Nothing queued, in flight or awaiting a phase.
    virtual bool quiescent() const = 0;
    // What is outstanding, one line without the module name.
    virtual std::string dumpState() const = 0;
    virtual const char* moduleName() const = 0;
};

// `memory.model`: frfcfs -> DramController, ideal -> IdealMemory; statistics under mem<index>.
std::unique_ptr<PartitionMemory> makePartitionMemory(const std::string& name, const PartitionMemoryParams& params,
                                                     StatRegistry& stats, ClockDomain& dramClock,
                                                     const AddressMap& map, unsigned index);

} // namespace gpusim
