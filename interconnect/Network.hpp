#pragma once
// One subnet at flit level: the routers and channels of a Topology, a network interface per
// source terminal (packet queue, one flit per cycle into its router's input buffer) and per
// sink terminal (reassembly buffer per VC, whole packets handed to the consumer). Plain C++
// driven by tick(cycle); the TLM glue (Noc) and the synthetic-traffic testbench both drive it.
//
// Per NoC cycle c, in this order:
//  1. arrivals: flits and credits whose channel latency (noc.link_cycles) ends at c are
//     written into router input buffers, sink buffers and output-VC credit counters;
//  2. ejection: each sink hands at most one complete packet to the consumer (the first, in
//     completion order, the consumer takes; Delivery::SinkBusy ends the search at that sink);
//     its buffer slots are credited back to the router
//     (arriving noc.link_cycles later);
//  3. injection: each source puts at most one flit of its current packet into its router input
//     port if the chosen VC has a free slot (the interface sees its router's buffer directly).
//     A packet may start at c >= Packet::readyCycle; when its tail is in, its queue slot is
//     free (FreedFn, for a source whose owner asked with notifyWhenFreed);
//  4. routers: allocation and traversal (Router.hpp); flits leaving at c arrive at c + L
//     (L = noc.link_cycles), at the next router or at the sink; freed input slots are credited
//     upstream, arriving at c + L.
// Zero load: a packet of F flits created at c over H routers is delivered at
// c + H * (R + L) + F - 1.
// Every flit is checked on arrival at its sink (right packet, right order, no gap); a
// violation is a std::logic_error (a model bug), so loss and duplication cannot go unnoticed.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/RingQueue.hpp"
#include "common/Stats.hpp"
#include "interconnect/Packet.hpp"
#include "interconnect/Router.hpp"
#include "interconnect/Topology.hpp"

namespace gpusim {

class Network {
public:
    struct Params {
        unsigned routerCycles = 3;
        unsigned linkCycles = 1;
        unsigned vcs = 1;
        unsigned bufferFlits = 8;
        unsigned speedup = 1;
        unsigned outputBufferFlits = 8;
        AllocatorKind allocator = AllocatorKind::Islip;
        unsigned islipIterations = 1;
        unsigned sourceQueuePackets = 0;  // packets per source interface; 0: unbounded
        unsigned ejectionVcFlits = 10;    // sink buffer per VC; must hold the largest packet

        static Params from(const NocParams& p, unsigned maxPacketFlits, bool unboundedSources);
    };
    // What the consumer behind a sink did with a complete packet. Refused: not this packet this
    // cycle (a later one of the same sink may go). SinkBusy: not this cycle, and no other packet
    // of this sink either (the consumer's refusal does not depend on the packet): ejection stops
    // asking at this sink, which saves a call per waiting packet per cycle where a blocked
    // target holds many (issue 19).
    enum class Delivery : uint8_t { Taken, Refused, SinkBusy };
    // Hands a complete packet to whatever sits behind sink `sink`.
    using DeliverFn = std::function<Delivery(unsigned sink, const Packet&)>;
    // A source interface finished injecting a packet (its queue has room again), told to an owner
    // that asked for it (notifyWhenFreed).
    using FreedFn = std::function<void(unsigned source)>;

    // Statistics are registered under `prefix` (see docs/interconnect.md).
    Network(const std::string& prefix, std::unique_ptr<Topology> topo, const Params& p,
            StatRegistry& stats, DeliverFn deliver, FreedFn freed);

    bool canAccept(unsigned src) const {
        return params_.sourceQueuePackets == 0 || sources_[src].queued < params_.sourceQueuePackets;
    }
    unsigned sourceOccupancy(unsigned src) const { return sources_[src].queued; }
    // The next packet of `src` to finish injecting calls FreedFn once: an owner that held a packet
    // back for want of room (canAccept false) asks, and asks again if its retry finds none. Only
    // then: a call per packet with nothing held cost about 0.5 % of a run (issue 19).
    void notifyWhenFreed(unsigned src) { sources_[src].notifyFreed = true; }
    // Queues a packet at its source (p.src, p.dst, p.flits, p.readyCycle). Capacity is the
    // caller's rule (canAccept); going over it is allowed for a transaction the TLM protocol
    // gives no way to refuse.
    void inject(const Packet& p);
    void tick(uint64_t cycle);

    bool empty() const { return inside_ == 0; }
    uint64_t packetsInside() const { return inside_; }
    const Topology& topology() const { return *topo_; }
    const Params& params() const { return params_; }
    std::string dump(uint64_t cycle) const;

    // For measurement: flits that moved (injected, crossed a switch, delivered) so far; flits
    // now in router input buffers; flits that left router r's output channel c (index into
    // topology().channels()).
    uint64_t progress() const { return progress_; }
    uint64_t bufferedFlits() const { return buffered_; }
    uint64_t channelFlits(size_t channel) const { return channelFlits_[channel]->get(); }
    uint64_t deliveredFlits() const { return flits_.get(); }
    uint64_t deliveredPackets() const { return packets_.get(); }
    const Router& router(unsigned r) const { return routers_[r]; }

private:
    struct Source {
        PortRef port;
        std::vector<RingQueue<uint32_t>> classes;  // 1, or one per VC with virtual output queues
        unsigned nClasses = 1;  // classes.size(), read without the division by a queue's size
        unsigned queued = 0;
        unsigned rrClass = 0;
        int64_t cur = -1;  // slot being injected
        uint16_t curSeq = 0;
        unsigned curVc = 0;
        // Of the packet being injected, read once at its start: its destination, its length and
        // the router buffer its VC writes into (routers_ and their buffers never move after
        // construction).
        uint32_t curDst = 0;
        unsigned curFlits = 0;
        const Ring<Flit>* curBuf = nullptr;
        Router* router = nullptr;  // routers_[port.router]
        bool single = false;       // one class and one VC
        bool notifyFreed = false;  // notifyWhenFreed
        unsigned rrVc = 0;
        Counter* flits = nullptr;
    };
    struct SinkVc {
        unsigned held = 0;     // flits buffered (credit accounting)
        int64_t slot = -1;     // packet being reassembled
        uint16_t nextSeq = 0;
        uint16_t flits = 0;    // its length (Packet::flits, at most 65535)
    };
    struct Sink {
        PortRef port;
        std::vector<SinkVc> vcs;
        // (slot, vc) in completion order. A vector: it holds a packet or two, and a deque's
        // iteration and erase cost more than moving them (issue 19).
        std::vector<std::pair<uint32_t, unsigned>> complete;
        Counter* flits = nullptr;
    };
    // The router input at the far end of a channel (routers_ never moves after construction).
    struct ChannelEnd {
        Router* router;
        unsigned port;
    };

    void arrive(uint64_t cycle);
    void eject(uint64_t cycle);
    void injectFlits(uint64_t cycle);
    // Takes the source's next packet if one is ready and may start (a VC with a free slot); false
    // if none. Inlined into injectFlits, its one caller.
    [[gnu::always_inline]] bool startPacket(Source& s, uint64_t cycle);
    // Inlined into arrive(), its one caller: once per flit, and its prologue and epilogue were a
    // quarter of its cost (issue 19).
    [[gnu::always_inline]] void sinkReceive(unsigned sink, const Flit& f);
    [[noreturn, gnu::cold, gnu::noinline]] void sinkFault(unsigned sink, const Flit& f, const char* why) const;
    // Inlined into inject(), its one caller (issue 19).
    [[gnu::always_inline]] uint32_t allocSlot(const Packet& p);
    std::string describe(const Flit& f) const;

    std::string prefix_;
    std::unique_ptr<Topology> topo_;
    Params params_;
    DeliverFn deliverFn_;
    FreedFn freedFn_;
    std::vector<Router> routers_;
    std::vector<Source> sources_;
    std::vector<Sink> sinks_;
    // The sizes of routers_, sources_, sinks_ and the topology's channels, fixed at construction:
    // a vector's size() divides by the element's size, and the per-cycle loops asked for them at
    // every iteration (issue 19).
    unsigned nRouters_ = 0, nSources_ = 0, nSinks_ = 0;
    uint32_t nChannels_ = 0;
    std::vector<ChannelEnd> channelTo_;  // per channel
    // Totals kept so that a cycle with nothing to inject or eject skips the per-terminal loops.
    unsigned queuedPackets_ = 0;    // sum of sources_[].queued
    unsigned completePackets_ = 0;  // sum of sinks_[].complete.size()
    // Packet table, indexed by flit.slot; freed slots are reused. A vector (a deque's indexing
    // cost about 10 instructions a flit, issue 19): a callback may inject (and so grow it), so no
    // reference into it is held across a call to deliverFn_ or freedFn_ (eject copies the packet).
    std::vector<Packet> slots_;
    std::vector<uint32_t> freeSlots_;
    RingQueue<FlitEvent> flitsInFlight_;  // target: channel index, or channels + sink index
    RingQueue<CreditEvent> creditsInFlight_;
    uint64_t inside_ = 0, progress_ = 0, buffered_ = 0;
    Counter& packets_;
    Counter& flits_;
    Histogram& latency_;
    Average& occupancy_;
    std::vector<Counter*> channelFlits_;
};

} // namespace gpusim
