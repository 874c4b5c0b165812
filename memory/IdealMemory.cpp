#include "memory/IdealMemory.hpp"

#include <sstream>

#include "common/SimTime.hpp"
#include "common/Stats.hpp"

namespace gpusim {

namespace {
// Latency histogram buckets in DRAM cycles: fine enough for a controller's queueing tail, and
// the overflow bin plus exact min/max cover anything longer.
constexpr double kDramLatencyBucketCycles = 8;
constexpr unsigned kDramLatencyBuckets = 128;
} // namespace

IdealMemory::IdealMemory(sc_core::sc_module_name name, const IdealMemoryParams& params, StatRegistry& stats,
                         ClockDomain& clock, unsigned index)
    : sc_module(name),
      socket("socket"),
      clock_(clock),
      latency_(params.latencyCycles),
      reads_(stats.counter("mem" + std::to_string(index) + ".reads", "Read requests served")),
      writes_(stats.counter("mem" + std::to_string(index) + ".writes",
                            "Write requests (L2 write-backs) served")),
      latencyHist_(stats.histogram("mem" + std::to_string(index) + ".latency",
                                   "DRAM cycles from a request's arrival to its answer",
                                   kDramLatencyBucketCycles, kDramLatencyBuckets)) {
    socket.register_nb_transport_fw(this, &IdealMemory::nbTransportFw);
    port_.bind("l2." + std::to_string(index) + "->mem", BwPeerFn([this] { return socket.operator->(); }),
               [this](Payload& p) { return take(p); },
               // The next answer may have been waiting for this one to finish.
               [this] { clock_.wake(); });
    clock.add(this);
}

tlm::tlm_sync_enum IdealMemory::nbTransportFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    return port_.nbTransportFw(p, ph, t);
}

bool IdealMemory::take(Payload& p) {
    const uint64_t now = simNow();
    // Counted from the edge at or before arrival, so a request sent on a DRAM edge is answered
    // exactly `latency_` cycles later.
    const uint64_t arrivalEdge = now / clock_.period().value();
    pending_.push_back({&p, now, arrivalEdge + latency_});
    (p.is_write() ? writes_ : reads_).inc();
    clock_.wake();
    return true;  // unlimited bandwidth: never back-pressures
}

void IdealMemory::tick(uint64_t cycle) {
    // Every answer due this cycle goes out while the initiator keeps completing them at once;
    // one that it holds (END_RESP later) blocks the rest, as the AT protocol requires.
    while (!pending_.empty() && pending_.front().readyCycle <= cycle && port_.canRespond()) {
        const Pending d = pending_.front();
        pending_.pop_front();
        d.payload->set_response_status(tlm::TLM_OK_RESPONSE);
        const uint64_t now = simNow();
        latencyHist_.sample(double(now - d.acceptPs) / double(clock_.period().value()));
        port_.respond(*d.payload);
    }
}

bool IdealMemory::busy() const {
    // Blocked on END_RESP: the END_RESP callback wakes the domain, no need to tick meanwhile.
    return !pending_.empty() && port_.canRespond();
}

bool IdealMemory::quiescent() const { return pending_.empty() && port_.canRespond() && !port_.hasQueuedPhase(); }

std::string IdealMemory::dumpState() const {
    std::ostringstream os;
    os << pending_.size() << " pending";
    if (!pending_.empty())
        os << " (oldest 0x" << std::hex << pending_.front().payload->get_address() << std::dec
           << " due at cycle " << pending_.front().readyCycle << ")";
    if (!port_.canRespond()) os << ", an answer awaits END_RESP";
    return os.str();
}

} // namespace gpusim
