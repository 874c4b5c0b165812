#pragma once
// A user's memory for the co-simulation tests: accepts every request at once and answers it
// `latency` later, one response at a time, in order (an AT target written against the base
// protocol only, as a user would write it).
#include <cstdint>
#include <deque>
#include <utility>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace gpusim::tb {

struct FixedLatencyTarget : sc_core::sc_module {
    tlm_utils::simple_target_socket<FixedLatencyTarget> socket{"socket"};
    sc_core::sc_time latency;
    std::deque<std::pair<tlm::tlm_generic_payload*, sc_core::sc_time>> queue;
    bool open = false;
    uint64_t reads = 0, writes = 0;
    sc_core::sc_event ev;
    FixedLatencyTarget(sc_core::sc_module_name n, sc_core::sc_time l) : sc_module(n), latency(l) {
        socket.register_nb_transport_fw(this, &FixedLatencyTarget::fw);
        SC_HAS_PROCESS(FixedLatencyTarget);
        SC_METHOD(respond);
        sensitive << ev;
        dont_initialize();
    }
    bool idle() const { return queue.empty() && !open; }
    tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
        if (ph == tlm::END_RESP) {
            open = false;
            ev.notify(sc_core::SC_ZERO_TIME);
            return tlm::TLM_COMPLETED;
        }
        (p.is_read() ? reads : writes)++;
        queue.emplace_back(&p, sc_core::sc_time_stamp() + latency);
        ev.notify(latency);
        ph = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    void respond() {
        while (!open && !queue.empty() && queue.front().second <= sc_core::sc_time_stamp()) {
            tlm::tlm_generic_payload* p = queue.front().first;
            queue.pop_front();
            p->set_response_status(tlm::TLM_OK_RESPONSE);
            tlm::tlm_phase ph = tlm::BEGIN_RESP;
            sc_core::sc_time t = sc_core::SC_ZERO_TIME;
            open = socket->nb_transport_bw(*p, ph, t) == tlm::TLM_ACCEPTED;
        }
        if (!open && !queue.empty()) ev.notify(queue.front().second - sc_core::sc_time_stamp());
    }
};

} // namespace gpusim::tb
