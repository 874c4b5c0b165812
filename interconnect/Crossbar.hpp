#pragma once
// The SM <-> memory-partition crossbar as a TLM-2.0 AT module: separate request and reply
// subnets (so replies never wait behind requests: no protocol deadlock), each an input-queued
// packet switch (CrossbarSubnet) with finite queues and back-pressure expressed in the AT base
// protocol: a full request input queue withholds END_REQ from the SM, a full reply input queue
// withholds END_RESP from the memory partition. Payloads are forwarded, never copied: the SM's
// payload reaches memSide[ext.partition] with ext.srcPort set, and the answer goes back to
// smSide[ext.srcPort]. All timing is in cycles of the clock domain the crossbar is given (the
// platform builds it from noc.clock_mhz); see CrossbarSubnet.hpp for the per-cycle rule and
// docs/interconnect.md for what is approximated.
// Left out: b_transport and DMI (the model is AT only; debug transport is forwarded), timing
// annotations on incoming calls (the sender's own edge is taken as the arrival time), address
// decoding (the SM's address map decides the partition).
#include <cstdint>
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
#include "interconnect/CrossbarSubnet.hpp"
#include "interconnect/NocParams.hpp"
#include "interconnect/Packet.hpp"

namespace gpusim {

class Crossbar : public sc_core::sc_module, public Tickable {
public:
    Crossbar(sc_core::sc_module_name name, const Config& cfg, StatRegistry& stats,
             ClockDomain& clock, unsigned numSms, unsigned numPartitions);

    static void declare(ParamSchema& s);  // every noc.* parameter

    tlm_utils::multi_passthrough_target_socket<Crossbar> smSide;      // once per SM, SM 0 first
    tlm_utils::multi_passthrough_initiator_socket<Crossbar> memSide;  // once per partition

    void tick(uint64_t cycle) override;
    bool busy() const override;
    bool quiescent() const;         // nothing queued, in flight, held or awaiting a phase
    std::string dumpState() const;  // what is queued where (watchdog dump)

    // Read-only views for tests and tools.
    const CrossbarSubnet& requestNet() const { return reqNet_; }
    const CrossbarSubnet& replyNet() const { return replyNet_; }
    const NocParams& params() const { return params_; }

private:
    tlm::tlm_sync_enum smFw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    tlm::tlm_sync_enum memBw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    unsigned smDbg(int id, Payload& p);

    bool takeRequest(unsigned sm, Payload& p);
    bool takeReply(unsigned partition, Payload& p);
    bool deliverRequest(unsigned partition, const Packet& pkt);
    bool deliverReply(unsigned sm, const Packet& pkt);
    Packet makePacket(Payload& p, uint64_t id, unsigned src, unsigned dst, unsigned flits) const;
    unsigned checkedPort(int id, unsigned count, const char* side) const;

    void end_of_elaboration() override;

    NocParams params_;
    FlitRules flitRules_;
    ClockDomain& clock_;
    unsigned numSms_;
    unsigned numPartitions_;
    std::vector<AtTargetPort> smPorts_;
    std::vector<AtInitiatorPort> memPorts_;
    Counter& reqInputFull_;
    Counter& replyInputFull_;
    CrossbarSubnet reqNet_;    // inputs: SMs, outputs: partitions
    CrossbarSubnet replyNet_;  // inputs: partitions, outputs: SMs
    // The memory port inside send(): a target may complete a request at once (TLM_COMPLETED on
    // BEGIN_REQ), and the initiator side of the protocol cannot refuse that answer.
    int completingPartition_ = -1;
};

} // namespace gpusim
