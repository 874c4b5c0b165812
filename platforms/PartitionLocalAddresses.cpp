#include "platforms/PartitionLocalAddresses.hpp"

#include <sstream>
#include <utility>

#include "common/AtPorts.hpp"

namespace gpusim {

PartitionLocalAddresses::PartitionLocalAddresses(sc_core::sc_module_name name, const AddressMap& map,
                                                 unsigned partition, std::string link)
    : sc_module(name), in_("in"), out_("out"), map_(map), partition_(partition), link_(std::move(link)) {
    in_.register_nb_transport_fw(this, &PartitionLocalAddresses::fw);
    out_.register_nb_transport_bw(this, &PartitionLocalAddresses::bw);
}

void PartitionLocalAddresses::toGlobal(tlm::tlm_generic_payload& p) const {
    p.set_address(map_.globalAddress(partition_, p.get_address()));
}

tlm::tlm_sync_enum PartitionLocalAddresses::fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph,
                                               sc_core::sc_time& t) {
    const bool request = ph == tlm::BEGIN_REQ;
    if (request) {
        if (map_.partition(p.get_address()) != partition_) {
            std::ostringstream os;
            os << "request of partition " << map_.partition(p.get_address()) << " on the link of partition "
               << partition_;
            linkError(link_, os.str(), p);
        }
        p.set_address(map_.localAddress(p.get_address()));
    }
    const tlm::tlm_sync_enum r = out_->nb_transport_fw(p, ph, t);
    // Answered within the call: the L2 takes the answer on return.
    if (request && (r == tlm::TLM_COMPLETED || (r == tlm::TLM_UPDATED && ph == tlm::BEGIN_RESP))) toGlobal(p);
    return r;
}

tlm::tlm_sync_enum PartitionLocalAddresses::bw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph,
                                               sc_core::sc_time& t) {
    if (ph == tlm::BEGIN_RESP) toGlobal(p);
    return in_->nb_transport_bw(p, ph, t);
}

} // namespace gpusim
