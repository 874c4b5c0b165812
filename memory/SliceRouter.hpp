#pragma once
// Two (or more) L2 slices behind one NoC port (GPGPU-Sim's sub-partitions): the NoC still
// addresses the partition, and this router sends each request to the slice that owns its
// address (AddressMap::subPartition) and merges the slices' answers onto the one NoC link.
// It is a zero-time TLM-2.0 AT pass-through with no queue of its own:
//  - a request goes straight to its slice; a late END_REQ from the slice is passed back, so a
//    full slice blocks the NoC link (head-of-line, as one NoC port in front of both slices);
//  - an answer goes straight to the NoC when the link has no answer open; otherwise the slice
//    gets TLM_ACCEPTED (END_RESP withheld) and the answer is passed on, slices in round-robin
//    order, a delta cycle after the open one ends (never from inside the NoC's own call).
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/AddressMap.hpp"
#include "common/AtPorts.hpp"

namespace gpusim {

class SliceRouter : public sc_core::sc_module {
public:
    SliceRouter(sc_core::sc_module_name name, const AddressMap& map, unsigned slices);

    tlm_utils::simple_target_socket<SliceRouter> nocSide;
    // One per slice, slice k of the partition at index k.
    std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket_tagged<SliceRouter>>> sliceSide;

    bool quiescent() const;
    std::string dumpState() const;

private:
    tlm::tlm_sync_enum nocFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    tlm::tlm_sync_enum sliceBw(int k, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    tlm::tlm_sync_enum toNoc(Payload& p, tlm::tlm_phase ph);
    tlm::tlm_sync_enum toSlice(unsigned k, Payload& p, tlm::tlm_phase ph);
    void forwardHeldAnswer();  // SC_METHOD on held_

    const AddressMap& map_;
    unsigned n_;
    Payload* reqOpen_ = nullptr;       // request awaiting END_REQ from its slice
    int respOpen_ = -1;                // slice whose answer awaits END_RESP from the NoC
    std::vector<Payload*> heldAnswer_;  // per slice: an answer we have not passed on yet
    unsigned next_ = 0;                // round-robin among held answers
    sc_core::sc_event held_;
};

} // namespace gpusim
