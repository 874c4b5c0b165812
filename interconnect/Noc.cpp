#include "interconnect/Noc.hpp"

#include <sstream>
#include <stdexcept>

#include "common/GpuExtension.hpp"
#include "common/SimError.hpp"
#include "common/SimTime.hpp"
#include "interconnect/TopologyFactory.hpp"

namespace gpusim {

namespace {
// Periods are rounded to the kernel's time resolution, so the platform's conversion of
// noc.clock_mhz may differ from ours by a unit; anything larger is a wrong domain.
constexpr double kPeriodTolerance = 1e-3;
// A state dump lists this many of the requests an L2 has not answered, oldest first.
constexpr size_t kNocDumpedAnswers = 4;
} // namespace

void Noc::declare(ParamSchema& s) { NocParams::declare(s); }

Noc::Noc(sc_core::sc_module_name name, const NocParams& params, StatRegistry& stats, ClockDomain& clock,
         unsigned numSms, unsigned numPartitions, unsigned maxDataBytes)
    : sc_module(name),
      smSide("smSide"),
      memSide("memSide"),
      params_(params),
      flitRules_{params_.flitBytes, params_.readRequestFlits, params_.headerFlits, params_.writeAckFlits,
                 params_.controlBytes},
      clock_(clock),
      numSms_(numSms),
      numPartitions_(numPartitions),
      numClusters_((numSms + params_.smsPerCluster - 1) / params_.smsPerCluster),
      smPorts_(numSms),
      memPorts_(numPartitions),
      retryNext_(numClusters_, 0),
      reqInputFull_(stats.counter("noc.req.input_full_cycles",
                                  "NoC cycles in which some SM held a request back (injection queue full)")),
      replyInputFull_(stats.counter(
          "noc.reply.input_full_cycles",
          "NoC cycles in which some partition held a reply back (injection queue full)")),
      cycles_(stats.counter("noc.cycles",
                            "NoC cycles from time 0 to the last edge the NoC was awake (divide flit "
                            "counts by this for throughput and channel utilisation)")) {
    if (numSms == 0 || numPartitions == 0) throw std::logic_error(std::string(basename()) + ": no SMs or no partitions");
    // Cycle counts are meaningful only in the NoC clock; a platform that hands us another
    // domain would silently rescale every noc.* latency.
    const double ratio = clock.period() / params_.period();
    if (ratio < 1.0 - kPeriodTolerance || ratio > 1.0 + kPeriodTolerance)
        throw std::logic_error(std::string(basename()) + ": clock domain period " +
                               clock.period().to_string() + " differs from noc.clock_mhz (" +
                               params_.period().to_string() + ")");
    const Network::Params np = Network::Params::from(params_, flitRules_.maxFlits(maxDataBytes), false);
    reqNet_ = std::make_unique<Network>(
        "noc.req", makeGpuSubnet(params_, numClusters_, numPartitions, Subnet::Request), np, stats,
        [this](unsigned j, const Packet& p) { return deliverRequest(j, p); },
        [this](unsigned c) { retryCluster(c); });
    replyNet_ = std::make_unique<Network>(
        "noc.reply", makeGpuSubnet(params_, numClusters_, numPartitions, Subnet::Reply), np, stats,
        [this](unsigned, const Packet& p) { return deliverReply(p); },
        [this](unsigned j) {
            // A partition that answers again inside END_RESP and is held counts through setOnHeld.
            if (memPorts_[j].retryHeldResponse()) --heldResponses_;
            if (memPorts_[j].hasHeldResponse()) replyNet_->notifyWhenFreed(j);
        });

    smSide.register_nb_transport_fw(this, &Noc::smFw);
    smSide.register_transport_dbg(this, &Noc::smDbg);
    memSide.register_nb_transport_bw(this, &Noc::memBw);

    for (unsigned i = 0; i < numSms; ++i) {
        smPorts_[i].bind("sm" + std::to_string(i) + "->noc",
            BwPeerFn([this, i] { return smSide[static_cast<int>(i)]; }),
            [this, i](Payload& p) { return takeRequest(i, p); },
            [this] { clock_.wake(); });  // a sink may have been waiting for END_RESP
        smPorts_[i].setOnHeld([this] { ++heldRequests_; });  // a BEGIN_REQ the injection queue had no room for
    }
    for (unsigned j = 0; j < numPartitions; ++j) {
        memPorts_[j].bind("noc->l2." + std::to_string(j),
            FwPeerFn([this, j] { return memSide[static_cast<int>(j)]; }),
            [this, j](Payload& p) { return takeReply(j, p); },
            [this] { clock_.wake(); });  // a sink may have been waiting for END_REQ
        memPorts_[j].setOnHeld([this] { ++heldResponses_; });
    }
    clock.add(this);
}

void Noc::end_of_elaboration() {
    if (smSide.size() != numSms_ || memSide.size() != numPartitions_)
        throw ModelError(std::string(name()) + ": built for " + std::to_string(numSms_) + " SMs and " +
                         std::to_string(numPartitions_) + " partitions but bound to " +
                         std::to_string(smSide.size()) + " and " + std::to_string(memSide.size()));
}

void Noc::portFault(int id, unsigned count, const char* side) const {
    throw ModelError(std::string(name()) + ": call on " + side + " socket index " + std::to_string(id) +
                     " beyond the " + std::to_string(count) + " declared");
}

tlm::tlm_sync_enum Noc::smFw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    return smPorts_[checkedPort(id, numSms_, "smSide")].nbTransportFw(p, ph, t);
}

tlm::tlm_sync_enum Noc::memBw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    return memPorts_[checkedPort(id, numPartitions_, "memSide")].nbTransportBw(p, ph, t);
}

unsigned Noc::smDbg(int, Payload& p) {
    // Debug accesses take no time and bypass the network; route them like a request.
    const GpuExtension* e = findGpuExt(p);
    if (!e || e->partition < 0 || static_cast<unsigned>(e->partition) >= numPartitions_) return 0;
    return memSide[e->partition]->transport_dbg(p);
}

Packet Noc::makePacket(Payload& p, uint64_t id, unsigned src, unsigned dst, unsigned flits) const {
    Packet pkt;
    pkt.payload = &p;
    pkt.id = id;
    pkt.src = src;
    pkt.dst = dst;
    pkt.flits = flits;
    pkt.entryTime = simNow();
    // First edge strictly after the arrival, as ClockDomain::wake() schedules it: the same
    // answer whichever delta cycle (and so whichever process order) the arrival came in.
    pkt.readyCycle = pkt.entryTime / clock_.period().value() + 1;
    return pkt;
}

bool Noc::takeRequest(unsigned sm, Payload& p) {
    GpuExtension& e = gpuExt(p);
    if (e.partition < 0 || static_cast<unsigned>(e.partition) >= numPartitions_)
        throw ModelError(std::string(name()) + ": request " + std::to_string(e.requestId) +
                         " from SM port " + std::to_string(sm) + " is addressed to partition " +
                         std::to_string(e.partition) + ", but there are " +
                         std::to_string(numPartitions_) + " partitions");
    const unsigned cluster = clusterOf(sm);
    if (!reqNet_->canAccept(cluster)) {
        reqNet_->notifyWhenFreed(cluster);  // retryCluster, when a packet there is in
        return false;
    }
    e.srcPort = static_cast<int>(sm);
    reqNet_->inject(makePacket(p, e.requestId, cluster, static_cast<unsigned>(e.partition),
                               flitRules_.requestFlits(e)));
    clock_.wake();
    return true;
}

void Noc::retryCluster(unsigned cluster) {
    // The SMs of a cluster share its injection queue; held requests retry round-robin so
    // neither SM of a pair can starve the other.
    const unsigned per = params_.smsPerCluster, first = cluster * per;
    unsigned& next = retryNext_[cluster];
    for (unsigned k = 0; k < per; ++k) {
        const unsigned sm = first + (next + k) % per;
        if (sm >= numSms_ || !smPorts_[sm].hasHeldRequest()) continue;
        if (!smPorts_[sm].retryHeldRequest()) continue;
        --heldRequests_;
        if (!smPorts_[sm].hasHeldRequest()) next = (sm - first + 1) % per;
    }
    // A request still held (`next` moved past it, or its retry was refused) is offered again when
    // the next packet of the cluster is in, as it was when every packet's end called this.
    for (unsigned sm = first; sm < first + per && sm < numSms_; ++sm)
        if (smPorts_[sm].hasHeldRequest()) {
            reqNet_->notifyWhenFreed(cluster);
            break;
        }
}

bool Noc::takeReply(unsigned partition, Payload& p) {
    GpuExtension& e = gpuExt(p);
    if (e.srcPort < 0 || static_cast<unsigned>(e.srcPort) >= numSms_)
        throw ModelError(std::string(name()) + ": reply " + std::to_string(e.requestId) +
                         " from partition " + std::to_string(partition) +
                         " names source port " + std::to_string(e.srcPort) + ", but there are " +
                         std::to_string(numSms_) + " SM ports");
    // An answer returned with TLM_COMPLETED to our own BEGIN_REQ cannot be refused: take it
    // over capacity (deliverRequest bounds the overshoot).
    if (!replyNet_->canAccept(partition) && completingPartition_ != static_cast<int>(partition)) {
        replyNet_->notifyWhenFreed(partition);  // the held answer is offered again then
        return false;
    }
    Packet pkt = makePacket(p, e.requestId, partition, clusterOf(static_cast<unsigned>(e.srcPort)),
                            flitRules_.replyFlits(p, e));
    pkt.smPort = static_cast<unsigned>(e.srcPort);
    replyNet_->inject(pkt);
    clock_.wake();
    return true;
}

Network::Delivery Noc::deliverRequest(unsigned partition, const Packet& pkt) {
    AtInitiatorPort& port = memPorts_[partition];
    // Over capacity only after a target completed a request at once (see takeReply); holding
    // further requests to that partition until the surplus drains keeps the overshoot to one.
    // Neither condition depends on the packet: the partition's other packets wait too.
    if (!port.canSend() || replyNet_->sourceOccupancy(partition) > params_.inputQueuePackets)
        return Network::Delivery::SinkBusy;
    completingPartition_ = static_cast<int>(partition);
    port.send(*pkt.payload);
    completingPartition_ = -1;
    return Network::Delivery::Taken;
}

Network::Delivery Noc::deliverReply(const Packet& pkt) {
    // With clusters, the sink is shared: the packet names its SM, and a packet for the cluster's
    // other SM may still go.
    AtTargetPort& port = smPorts_[pkt.smPort];
    if (!port.canRespond()) return Network::Delivery::Refused;
    port.respond(*pkt.payload);
    return Network::Delivery::Taken;
}

void Noc::tick(uint64_t cycle) {
    cycles_.inc(cycle - lastCycle_);
    lastCycle_ = cycle;
    // Sampled at the edge, before this cycle frees any slot: the held transaction waited
    // through the cycle that just ended.
    if (heldRequests_) reqInputFull_.inc();
    if (heldResponses_) replyInputFull_.inc();
    reqNet_->tick(cycle);
    replyNet_->tick(cycle);
}

// A held transaction implies a full (non-empty) injection queue, so network contents alone
// decide. Work blocked on a peer's END_REQ/END_RESP keeps the domain ticking; cheap next to
// the SMs.
bool Noc::busy() const { return !reqNet_->empty() || !replyNet_->empty(); }

bool Noc::quiescent() const {
    if (!reqNet_->empty() || !replyNet_->empty()) return false;
    for (const auto& port : smPorts_)
        if (port.hasHeldRequest() || !port.canRespond() || port.hasQueuedPhase()) return false;
    for (const auto& port : memPorts_)
        if (port.hasHeldResponse() || !port.canSend() || port.outstanding() != 0) return false;
    return true;
}

std::string Noc::dumpState() const {
    std::ostringstream os;
    const uint64_t c = clock_.cycle();
    os << name() << " (" << reqNet_->topology().describe() << ") at NoC cycle " << c
       << (quiescent() ? " (quiescent)" : "") << "\n";
    os << reqNet_->dump(c) << replyNet_->dump(c);
    for (unsigned i = 0; i < numSms_; ++i) {
        if (smPorts_[i].hasHeldRequest()) os << "noc.sm" << i << ": request held, END_REQ withheld\n";
        if (!smPorts_[i].canRespond()) os << "noc.sm" << i << ": reply sent, awaiting END_RESP\n";
    }
    for (unsigned j = 0; j < numPartitions_; ++j) {
        if (!memPorts_[j].canSend()) os << "noc.mem" << j << ": request sent, awaiting END_REQ\n";
        if (memPorts_[j].hasHeldResponse()) os << "noc.mem" << j << ": reply held, END_RESP withheld\n";
        if (memPorts_[j].outstanding())
            os << memPorts_[j].link() << ": " << memPorts_[j].outstanding() << " awaiting an answer: "
               << memPorts_[j].describeOutstanding(kNocDumpedAnswers) << "\n";
    }
    return os.str();
}

} // namespace gpusim
