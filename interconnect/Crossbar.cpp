#include "interconnect/Crossbar.hpp"

#include <sstream>
#include <stdexcept>

#include "common/GpuExtension.hpp"
#include "common/SimError.hpp"

namespace gpusim {

namespace {
// Periods are rounded to the kernel's time resolution, so the platform's conversion of
// noc.clock_mhz may differ from ours by a unit; anything larger is a wrong domain.
constexpr double kPeriodTolerance = 1e-3;

CrossbarSubnet::Geometry geometry(const NocParams& p, unsigned inputs, unsigned outputs) {
    return {inputs, outputs, p.inputQueuePackets, p.outputQueuePackets, p.latencyCycles};
}
} // namespace

void Crossbar::declare(ParamSchema& s) { NocParams::declare(s); }

Crossbar::Crossbar(sc_core::sc_module_name name, const Config& cfg, StatRegistry& stats,
                   ClockDomain& clock, unsigned numSms, unsigned numPartitions)
    : sc_module(name),
      smSide("smSide"),
      memSide("memSide"),
      params_(NocParams::fromConfig(cfg)),
      flitRules_{params_.flitBytes, params_.readRequestFlits},
      clock_(clock),
      numSms_(numSms),
      numPartitions_(numPartitions),
      smPorts_(numSms),
      memPorts_(numPartitions),
      reqInputFull_(stats.counter("noc.req.input_full_cycles",
                                  "NoC cycles in which some SM held a request back (input queue full)")),
      replyInputFull_(stats.counter(
          "noc.reply.input_full_cycles",
          "NoC cycles in which some partition held a reply back (input queue full)")),
      reqNet_("noc.req", geometry(params_, numSms, numPartitions), clock.period().value(), stats,
              [this](unsigned j, const Packet& p) { return deliverRequest(j, p); },
              [this](unsigned i) { smPorts_[i].retryHeldRequest(); }),
      replyNet_("noc.reply", geometry(params_, numPartitions, numSms), clock.period().value(), stats,
                [this](unsigned i, const Packet& p) { return deliverReply(i, p); },
                [this](unsigned j) { memPorts_[j].retryHeldResponse(); }) {
    // Cycle counts are meaningful only in the NoC clock; a platform that hands us another
    // domain would silently rescale every noc.* latency.
    const double ratio = clock.period() / params_.period();
    if (ratio < 1.0 - kPeriodTolerance || ratio > 1.0 + kPeriodTolerance)
        throw std::logic_error(std::string(basename()) + ": clock domain period " +
                               clock.period().to_string() + " differs from noc.clock_mhz (" +
                               params_.period().to_string() + ")");

    smSide.register_nb_transport_fw(this, &Crossbar::smFw);
    smSide.register_transport_dbg(this, &Crossbar::smDbg);
    memSide.register_nb_transport_bw(this, &Crossbar::memBw);

    for (unsigned i = 0; i < numSms; ++i) {
        smPorts_[i].bind(
            [this, i](Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
                return smSide[static_cast<int>(i)]->nb_transport_bw(p, ph, t);
            },
            [this, i](Payload& p) { return takeRequest(i, p); },
            [this] { clock_.wake(); });  // an output may have been waiting for END_RESP
    }
    for (unsigned j = 0; j < numPartitions; ++j) {
        memPorts_[j].bind(
            [this, j](Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
                return memSide[static_cast<int>(j)]->nb_transport_fw(p, ph, t);
            },
            [this, j](Payload& p) { return takeReply(j, p); },
            [this] { clock_.wake(); });  // an output may have been waiting for END_REQ
    }
    clock.add(this);
}

void Crossbar::end_of_elaboration() {
    if (smSide.size() != numSms_ || memSide.size() != numPartitions_)
        throw ModelError(std::string(name()) + ": built for " + std::to_string(numSms_) + " SMs and " +
                         std::to_string(numPartitions_) + " partitions but bound to " +
                         std::to_string(smSide.size()) + " and " + std::to_string(memSide.size()));
}

unsigned Crossbar::checkedPort(int id, unsigned count, const char* side) const {
    if (id < 0 || static_cast<unsigned>(id) >= count)
        throw ModelError(std::string(name()) + ": call on " + side + " socket index " +
                         std::to_string(id) + " beyond the " + std::to_string(count) + " declared");
    return static_cast<unsigned>(id);
}

tlm::tlm_sync_enum Crossbar::smFw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    return smPorts_[checkedPort(id, numSms_, "smSide")].nbTransportFw(p, ph, t);
}

tlm::tlm_sync_enum Crossbar::memBw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    return memPorts_[checkedPort(id, numPartitions_, "memSide")].nbTransportBw(p, ph, t);
}

unsigned Crossbar::smDbg(int, Payload& p) {
    // Debug accesses take no time and bypass the queues; route them like a request.
    GpuExtension* e = nullptr;
    p.get_extension(e);
    if (!e || e->partition < 0 || static_cast<unsigned>(e->partition) >= numPartitions_) return 0;
    return memSide[e->partition]->transport_dbg(p);
}

Packet Crossbar::makePacket(Payload& p, uint64_t id, unsigned src, unsigned dst,
                            unsigned flits) const {
    Packet pkt;
    pkt.payload = &p;
    pkt.id = id;
    pkt.src = src;
    pkt.dst = dst;
    pkt.flits = flits;
    pkt.entryTime = sc_core::sc_time_stamp().value();
    // First edge strictly after the arrival, as ClockDomain::wake() schedules it: the same
    // answer whichever delta cycle (and so whichever process order) the arrival came in.
    pkt.readyCycle = pkt.entryTime / clock_.period().value() + 1;
    return pkt;
}

bool Crossbar::takeRequest(unsigned sm, Payload& p) {
    GpuExtension& e = gpuExt(p);
    if (e.partition < 0 || static_cast<unsigned>(e.partition) >= numPartitions_)
        throw ModelError(std::string(name()) + ": request " + std::to_string(e.requestId) +
                         " from SM port " + std::to_string(sm) + " is addressed to partition " +
                         std::to_string(e.partition) + ", but there are " +
                         std::to_string(numPartitions_) + " partitions");
    if (!reqNet_.canAccept(sm)) return false;
    e.srcPort = static_cast<int>(sm);
    reqNet_.accept(sm, makePacket(p, e.requestId, sm, static_cast<unsigned>(e.partition),
                                  flitRules_.requestFlits(e)));
    clock_.wake();
    return true;
}

bool Crossbar::takeReply(unsigned partition, Payload& p) {
    GpuExtension& e = gpuExt(p);
    if (e.srcPort < 0 || static_cast<unsigned>(e.srcPort) >= numSms_)
        throw ModelError(std::string(name()) + ": reply " + std::to_string(e.requestId) +
                         " from partition " + std::to_string(partition) +
                         " names source port " + std::to_string(e.srcPort) + ", but there are " +
                         std::to_string(numSms_) + " SM ports");
    // An answer returned with TLM_COMPLETED to our own BEGIN_REQ cannot be refused: take it
    // over capacity (deliverRequest bounds the overshoot).
    if (!replyNet_.canAccept(partition) && completingPartition_ != static_cast<int>(partition))
        return false;
    replyNet_.accept(partition, makePacket(p, e.requestId, partition,
                                           static_cast<unsigned>(e.srcPort),
                                           flitRules_.replyFlits(p, e)));
    clock_.wake();
    return true;
}

bool Crossbar::deliverRequest(unsigned partition, const Packet& pkt) {
    AtInitiatorPort& port = memPorts_[partition];
    // Over capacity only after a target completed a request at once (see takeReply); holding
    // further requests to that partition until the surplus drains keeps the overshoot to one.
    if (!port.canSend() || replyNet_.inputOccupancy(partition) > params_.inputQueuePackets)
        return false;
    completingPartition_ = static_cast<int>(partition);
    port.send(*pkt.payload);
    completingPartition_ = -1;
    return true;
}

bool Crossbar::deliverReply(unsigned sm, const Packet& pkt) {
    AtTargetPort& port = smPorts_[sm];
    if (!port.canRespond()) return false;
    port.respond(*pkt.payload);
    return true;
}

void Crossbar::tick(uint64_t cycle) {
    // Sampled at the edge, before this cycle frees any slot: the held transaction waited
    // through the cycle that just ended.
    for (const auto& port : smPorts_)
        if (port.hasHeldRequest()) {
            reqInputFull_.inc();
            break;
        }
    for (const auto& port : memPorts_)
        if (port.hasHeldResponse()) {
            replyInputFull_.inc();
            break;
        }
    const uint64_t now = sc_core::sc_time_stamp().value();
    reqNet_.tick(cycle, now);
    replyNet_.tick(cycle, now);
}

// A held transaction implies a full (non-empty) input queue, so queue contents alone decide.
// Work blocked on a peer's END_REQ/END_RESP keeps the domain ticking; cheap next to the SMs.
bool Crossbar::busy() const { return !reqNet_.empty() || !replyNet_.empty(); }

bool Crossbar::quiescent() const {
    if (!reqNet_.empty() || !replyNet_.empty()) return false;
    for (const auto& port : smPorts_)
        if (port.hasHeldRequest() || !port.canRespond()) return false;
    for (const auto& port : memPorts_)
        if (port.hasHeldResponse() || !port.canSend()) return false;
    return true;
}

std::string Crossbar::dumpState() const {
    std::ostringstream os;
    os << name() << " at NoC cycle " << clock_.cycle() << (quiescent() ? " (quiescent)" : "") << "\n";
    os << reqNet_.dump(clock_.cycle()) << replyNet_.dump(clock_.cycle());
    for (unsigned i = 0; i < numSms_; ++i) {
        if (smPorts_[i].hasHeldRequest()) os << "noc.sm" << i << ": request held, END_REQ withheld\n";
        if (!smPorts_[i].canRespond()) os << "noc.sm" << i << ": reply sent, awaiting END_RESP\n";
    }
    for (unsigned j = 0; j < numPartitions_; ++j) {
        if (!memPorts_[j].canSend()) os << "noc.mem" << j << ": request sent, awaiting END_REQ\n";
        if (memPorts_[j].hasHeldResponse())
            os << "noc.mem" << j << ": reply held, END_RESP withheld\n";
    }
    return os.str();
}

} // namespace gpusim
