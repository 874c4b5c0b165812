#include "FixedLatencyMemory.hpp"

using namespace sc_core;

FixedLatencyMemory::FixedLatencyMemory(sc_module_name name, sc_time latency, sc_time interval,
                                       const gpusim::AddressMap& map, gpusim::StatRegistry& stats,
                                       const std::string& prefix)
    : sc_module(name), socket("socket"), latency_(latency), interval_(interval), map_(map),
      openRow_(map.dramGeometry().banks, ~uint64_t(0)),
      rowHits_(stats.counter(prefix + ".row_hits", "Requests to the row last used in their bank")),
      rowMisses_(stats.counter(prefix + ".row_misses", "Requests to another row of their bank")),
      reads_(stats.counter(prefix + ".reads", "Read requests answered")),
      writes_(stats.counter(prefix + ".writes", "Write requests answered")),
      latencyNs_(stats.average(prefix + ".latency_ns", "BEGIN_REQ to BEGIN_RESP, ns")) {
    socket.register_nb_transport_fw(this, &FixedLatencyMemory::nbTransportFw);
    SC_HAS_PROCESS(FixedLatencyMemory);
    SC_METHOD(acceptHeld);
    sensitive << acceptEvent_;
    dont_initialize();
    SC_METHOD(sendResponses);
    sensitive << respondEvent_;
    dont_initialize();
}

tlm::tlm_sync_enum FixedLatencyMemory::nbTransportFw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph,
                                                     sc_time& t) {
    if (ph == tlm::BEGIN_REQ) {
        if (held_) SC_REPORT_ERROR(name(), "BEGIN_REQ before END_REQ of the previous request");
        const sc_time now = sc_time_stamp() + t;
        if (now < nextAccept_) {  // back-pressure: END_REQ when the interval has passed
            held_ = &p;
            heldArrival_ = now;
            acceptEvent_.notify(nextAccept_ - sc_time_stamp());
            return tlm::TLM_ACCEPTED;
        }
        accept(p, now);
        ph = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    if (ph == tlm::END_RESP) {
        respOpen_ = false;
        respondEvent_.notify(SC_ZERO_TIME);
        return tlm::TLM_COMPLETED;
    }
    SC_REPORT_ERROR(name(), "unexpected phase on the forward path");
    return tlm::TLM_COMPLETED;
}

void FixedLatencyMemory::accept(tlm::tlm_generic_payload& p, const sc_time& arrival) {
    const sc_time now = sc_time_stamp();
    const gpusim::DramCoord at = map_.decodeLocal(p.get_address());  // a partition-local address
    (openRow_[at.bank] == at.row ? rowHits_ : rowMisses_).inc();
    openRow_[at.bank] = at.row;
    nextAccept_ = now + interval_;
    queue_.push_back({&p, arrival, now + latency_});
    if (queue_.size() == 1) respondEvent_.notify(latency_);
}

void FixedLatencyMemory::acceptHeld() {
    tlm::tlm_generic_payload& p = *held_;
    held_ = nullptr;
    accept(p, heldArrival_);
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_time t = SC_ZERO_TIME;
    socket->nb_transport_bw(p, ph, t);
}

void FixedLatencyMemory::sendResponses() {
    while (!respOpen_ && !queue_.empty() && queue_.front().ready <= sc_time_stamp()) {
        Pending d = queue_.front();
        queue_.pop_front();
        (d.p->is_read() ? reads_ : writes_).inc();
        latencyNs_.sample((sc_time_stamp() - d.arrival).to_seconds() * 1e9);
        d.p->set_response_status(tlm::TLM_OK_RESPONSE);
        tlm::tlm_phase ph = tlm::BEGIN_RESP;
        sc_time t = SC_ZERO_TIME;
        const tlm::tlm_sync_enum r = socket->nb_transport_bw(*d.p, ph, t);
        // TLM_ACCEPTED: the initiator sends END_RESP later; TLM_UPDATED must carry END_RESP.
        respOpen_ = r == tlm::TLM_ACCEPTED;
    }
    if (!respOpen_ && !queue_.empty()) respondEvent_.notify(queue_.front().ready - sc_time_stamp());
}
