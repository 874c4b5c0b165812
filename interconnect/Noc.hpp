#pragma once
// The SM <-> memory-partition network-on-chip as a TLM-2.0 AT module, whatever the topology
// (noc.topology: crossbar, butterfly or mesh). Inside are two flit-level subnets (Network):
// the request subnet (sources: SM clusters, sinks: partitions) and the reply subnet (the other
// way), so replies never wait behind requests and the request/reply protocol cannot deadlock.
//
// The TLM boundary is the same for every topology:
//  - smSide, a multi target socket bound once per SM (SM 0 first); SM i injects through the
//    network interface of its cluster i / noc.sms_per_cluster;
//  - memSide, a multi initiator socket bound once per partition (partition 0 first).
// A request on smSide[i] gets GpuExtension::srcPort = i and goes to memSide[ext.partition];
// its answer (BEGIN_RESP on memSide[j]) returns on smSide[ext.srcPort]. Payloads are
// forwarded, never copied. Back-pressure in the AT base protocol: a full injection queue
// withholds END_REQ from the SM (requests) or END_RESP from the partition (replies); towards
// the targets the next packet goes out on a socket only after END_REQ (partition) or the end
// of the previous response (SM), and a packet that cannot be delivered stays in its sink's
// reassembly buffer, whose credits then stop the network behind it. Nothing is dropped.
// All timing is in cycles of the NoC clock domain the module is given (noc.clock_mhz).
// Left out: b_transport and DMI (the model is AT only; debug transport is forwarded untimed),
// timing annotations on incoming calls (the call time is the arrival time), address decoding
// (the SM's address map decides the partition).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>

#include "common/AtPorts.hpp"
#include "common/ClockDomain.hpp"
#include "common/Config.hpp"
#include "common/Stats.hpp"
#include "interconnect/Network.hpp"
#include "interconnect/NocParams.hpp"
#include "interconnect/Packet.hpp"

namespace gpusim {

class Noc : public sc_core::sc_module, public Tickable {
public:
    // maxDataBytes: the largest data transfer (the L1 line); sizes the reassembly buffers.
    Noc(sc_core::sc_module_name name, const NocParams& params, StatRegistry& stats, ClockDomain& clock,
        unsigned numSms, unsigned numPartitions, unsigned maxDataBytes = 128);

    static void declare(ParamSchema& s);  // every noc.* parameter

    tlm_utils::multi_passthrough_target_socket<Noc> smSide;      // once per SM, SM 0 first
    tlm_utils::multi_passthrough_initiator_socket<Noc> memSide;  // once per partition

    void tick(uint64_t cycle) override;
    bool busy() const override;
    bool quiescent() const;         // nothing queued, in flight, held or awaiting a phase
    // How the NoC finishes partition j's answers (tlm.response_completion; Gpu sets it per link).
    void setResponseCompletion(unsigned partition, ResponseCompletion c) {
        memPorts_.at(partition).setResponseCompletion(c);
    }
    std::string dumpState() const;  // what is queued where (watchdog dump)

    // Read-only views for tests and tools.
    const Network& requestNet() const { return *reqNet_; }
    const Network& replyNet() const { return *replyNet_; }
    const NocParams& params() const { return params_; }
    unsigned clusters() const { return numClusters_; }
    unsigned clusterOf(unsigned sm) const { return sm / params_.smsPerCluster; }

private:
    tlm::tlm_sync_enum smFw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    tlm::tlm_sync_enum memBw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    unsigned smDbg(int id, Payload& p);

    bool takeRequest(unsigned sm, Payload& p);
    bool takeReply(unsigned partition, Payload& p);
    Network::Delivery deliverRequest(unsigned partition, const Packet& pkt);
    Network::Delivery deliverReply(const Packet& pkt);
    void retryCluster(unsigned cluster);
    Packet makePacket(Payload& p, uint64_t id, unsigned src, unsigned dst, unsigned flits) const;
    // Inline: once per TLM call from either side; the message is built out of line.
    unsigned checkedPort(int id, unsigned count, const char* side) const {
        if (id < 0 || static_cast<unsigned>(id) >= count) [[unlikely]]
            portFault(id, count, side);
        return static_cast<unsigned>(id);
    }
    [[noreturn, gnu::cold, gnu::noinline]] void portFault(int id, unsigned count, const char* side) const;

    void end_of_elaboration() override;

    NocParams params_;
    FlitRules flitRules_;
    ClockDomain& clock_;
    unsigned numSms_;
    unsigned numPartitions_;
    unsigned numClusters_;
    std::vector<AtTargetPort> smPorts_;
    std::vector<AtInitiatorPort> memPorts_;
    std::vector<unsigned> retryNext_;  // per cluster: the SM whose held request goes first
    // SM ports holding a request (END_REQ withheld) and partition ports holding a reply
    // (END_RESP withheld), kept as holds begin and end: the per-cycle full-input counters read
    // these instead of looking at every port (issue 19).
    unsigned heldRequests_ = 0, heldResponses_ = 0;
    Counter& reqInputFull_;
    Counter& replyInputFull_;
    Counter& cycles_;
    uint64_t lastCycle_ = 0;
    std::unique_ptr<Network> reqNet_;    // sources: SM clusters, sinks: partitions
    std::unique_ptr<Network> replyNet_;  // sources: partitions, sinks: SM clusters
    // The memory port inside send(): a target may complete a request at once (TLM_COMPLETED on
    // BEGIN_REQ), and the initiator side of the protocol cannot refuse that answer.
    int completingPartition_ = -1;
};

} // namespace gpusim
