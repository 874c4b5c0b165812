#pragma once
// One direction of the crossbar (the request subnet or the reply subnet): an input-queued
// switch with finite input and output queues, packet-granular round-robin arbitration per
// output, serialisation of a packet's flits on the output channel, and a fixed traversal
// latency. Plain C++ driven by tick(cycle): no SystemC, no TLM, so it is tested cycle by cycle
// and the TLM glue (Crossbar) stays thin.
//
// Timing rule, per NoC cycle c, in this order:
//  1. delivery: each output hands its head packet to the consumer if the packet is ready
//     (readyCycle <= c) and the consumer takes it; at most one packet per output per cycle;
//  2. arbitration: each output that is not serialising and has room in its queue (packets in
//     flight count) grants, round-robin after its last winner, one of the inputs whose head
//     packet is ready and addressed to it. The winner occupies the output and its input for
//     `flits` cycles (c .. c+flits-1) and is ready in the output queue at
//     c + flits - 1 + latencyCycles. An input whose head lost (or waits for a full output) keeps
//     it at the head: head-of-line blocking is real;
//  3. release: an input whose head finished crossing (last flit at c) frees its slot and the
//     owner is told (it may retry a transaction it held back).
// Left out: flits as separate entities (wormhole/virtual cut-through buffers in flits), virtual
// channels and credits with their own delay, iSLIP/VOQ, speedup. Those belong to the flit-level
// router family that will replace this class behind the same Crossbar glue.
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "common/Stats.hpp"
#include "interconnect/Packet.hpp"
#include "interconnect/RoundRobinArbiter.hpp"

namespace gpusim {

class CrossbarSubnet {
public:
    // Hands a ready packet to whatever sits behind output `out`; false: not this cycle.
    using DeliverFn = std::function<bool(unsigned out, const Packet&)>;
    // A slot of input `in` was freed.
    using FreedFn = std::function<void(unsigned in)>;

    struct Geometry {
        unsigned inputs = 0;
        unsigned outputs = 0;
        unsigned inputQueuePackets = 0;
        unsigned outputQueuePackets = 0;
        unsigned latencyCycles = 0;
    };

    // Statistics are registered as <statPrefix>.packets, .flits, .latency and
    // .out<j>.busy_cycles; `period` converts kernel time to cycles for the latency histogram.
    CrossbarSubnet(const std::string& statPrefix, const Geometry& g, uint64_t period,
                   StatRegistry& stats, DeliverFn deliver, FreedFn freed);

    bool canAccept(unsigned in) const { return inputs_[in].q.size() < geo_.inputQueuePackets; }
    // Appends to the input queue. Capacity is the caller's rule (canAccept); going over it is
    // allowed for a transaction that the TLM protocol gives no way to refuse.
    void accept(unsigned in, const Packet& p);

    void tick(uint64_t cycle, uint64_t now);

    bool empty() const;
    unsigned inputOccupancy(unsigned in) const { return static_cast<unsigned>(inputs_[in].q.size()); }
    unsigned outputOccupancy(unsigned out) const {
        return static_cast<unsigned>(outputs_[out].q.size());
    }
    const Geometry& geometry() const { return geo_; }
    // One line per non-empty port: what waits where, for the watchdog dump.
    std::string dump(uint64_t cycle) const;

private:
    struct Input {
        std::deque<Packet> q;   // head included while it is crossing
        bool crossing = false;
        uint64_t lastFlitCycle = 0;
    };
    struct Output {
        std::deque<Packet> q;   // in flight and arrived, in crossing order
        uint64_t freeFrom = 0;  // first cycle the channel is not serialising a packet
        RoundRobinArbiter arbiter;
        Counter* busyCycles = nullptr;
        explicit Output(unsigned inputs) : arbiter(inputs) {}
    };

    void deliver(uint64_t cycle, uint64_t now);
    void arbitrate(uint64_t cycle);
    void release(uint64_t cycle);
    bool headWants(const Input& in, unsigned out, uint64_t cycle) const;

    std::string prefix_;
    Geometry geo_;
    uint64_t period_;
    DeliverFn deliverFn_;
    FreedFn freedFn_;
    std::vector<Input> inputs_;
    std::vector<Output> outputs_;
    Counter& packets_;
    Counter& flits_;
    Histogram& latency_;
};

} // namespace gpusim
