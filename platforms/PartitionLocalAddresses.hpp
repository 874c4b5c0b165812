#pragma once
// A zero-time pass-through on one partition's memory link (GpuOptions::memoryAddresses =
// PartitionLocal, for a user's memory): the memory receives each request's partition-local
// address (AddressMap::localAddress: the partition-selecting chunk bits squeezed out, so each
// partition's addresses are dense and a row-interleaved controller of the user's spreads them
// over its banks and rows as it would a memory of its own), and the L2 gets the global address
// back with the answer (BEGIN_RESP on the backward path, or TLM_COMPLETED / TLM_UPDATED with
// BEGIN_RESP returned to BEGIN_REQ). Every phase, delay and return value passes through
// unchanged; nothing is queued here. A request of another partition is a ModelError (the L2
// never sends one). The global address is recomputed from the local one and the partition, so a
// memory must not change the address (the generic payload leaves it to the initiator and the
// interconnect).
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/AddressMap.hpp"
#include "common/LinkInterposer.hpp"

namespace gpusim {

class PartitionLocalAddresses : public sc_core::sc_module, public LinkInterposer {
public:
    // link: the link's name, for errors ("l2.<partition>->mem").
    PartitionLocalAddresses(sc_core::sc_module_name name, const AddressMap& map, unsigned partition,
                            std::string link);

    tlm::tlm_target_socket<32>& in() override { return in_; }
    tlm::tlm_initiator_socket<32>& out() override { return out_; }

private:
    tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    void toGlobal(tlm::tlm_generic_payload& p) const;

    tlm_utils::simple_target_socket<PartitionLocalAddresses> in_;
    tlm_utils::simple_initiator_socket<PartitionLocalAddresses> out_;
    const AddressMap& map_;
    unsigned partition_;
    std::string link_;
};

} // namespace gpusim
