#pragma once
// A user's memory model at the L2-to-DRAM socket of one partition: a TLM-2.0 AT target (base
// protocol) that answers every request `latency` after accepting it and accepts at most one
// request per `interval` (its bandwidth). A request arriving earlier is back-pressured the
// protocol's way: BEGIN_REQ returns TLM_ACCEPTED and END_REQ follows when the interval has passed.
// Responses leave in acceptance order, one at a time (the next BEGIN_RESP waits for the previous
// response's END_RESP or TLM_COMPLETED). No data; banks and rows only counted, not timed: the
// GPU hands it partition-local addresses (GpuOptions::memoryAddresses), which the GPU's address
// map decodes into the bank and row its own controller would use, and each request is counted
// as a row hit or miss of an open-page DRAM (the row last used in its bank). The point is the
// binding.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/AddressMap.hpp"
#include "common/Stats.hpp"

class FixedLatencyMemory : public sc_core::sc_module {
public:
    FixedLatencyMemory(sc_core::sc_module_name name, sc_core::sc_time latency, sc_core::sc_time interval,
                       const gpusim::AddressMap& map, gpusim::StatRegistry& stats, const std::string& statPrefix);

    tlm_utils::simple_target_socket<FixedLatencyMemory> socket;

    // Nothing held, queued or awaiting END_RESP.
    bool idle() const { return !held_ && queue_.empty() && !respOpen_; }

private:
    struct Pending {
        tlm::tlm_generic_payload* p;
        sc_core::sc_time arrival, ready;
    };
    tlm::tlm_sync_enum nbTransportFw(tlm::tlm_generic_payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    void accept(tlm::tlm_generic_payload& p, const sc_core::sc_time& arrival);
    void acceptHeld();      // SC_METHOD: the interval has passed, accept the held request
    void sendResponses();   // SC_METHOD: BEGIN_RESP for every ready request, in order

    sc_core::sc_time latency_, interval_;
    sc_core::sc_time nextAccept_ = sc_core::SC_ZERO_TIME;
    tlm::tlm_generic_payload* held_ = nullptr;
    sc_core::sc_time heldArrival_;
    std::deque<Pending> queue_;
    bool respOpen_ = false;
    sc_core::sc_event acceptEvent_, respondEvent_;
    const gpusim::AddressMap& map_;
    std::vector<uint64_t> openRow_;  // per bank; ~0: none open yet
    gpusim::Counter& rowHits_;
    gpusim::Counter& rowMisses_;
    gpusim::Counter& reads_;
    gpusim::Counter& writes_;
    gpusim::Average& latencyNs_;
};
