#pragma once
// An input-buffered virtual-channel router, BookSim's model reduced to what the performance
// model needs. Plain C++ driven by tick(cycle) from Network; no SystemC.
//
// Per input port: one flit FIFO of noc.buffer_flits per virtual channel, filled by the
// upstream channel under credit-based flow control. Per output port: the state of each
// downstream VC (held by a packet or free, credits = free slots downstream) and an output
// buffer between the switch and the channel.
//
// Timing, per NoC cycle c (Network calls receive()/credit() for arrivals due at c first):
//  - a flit written into an input buffer at c may traverse the switch from c + R on
//    (R = noc.router_cycles: route computation, VC allocation, switch allocation and traversal
//    as one pipeline delay, as for every flit of a packet);
//  - switch allocation (SwitchAllocator) matches inputs to outputs; an input VC may request its
//    output if its front flit is ready and a downstream credit is left; a head flit not yet
//    holding an output VC requests its routed port if a downstream VC there is free and has a
//    credit, and takes the lowest such VC when it wins (VC allocation combined with switch
//    allocation, so a VC is never held by a packet that lost the switch). The tail releases
//    the output VC. A winner leaves its input buffer (a credit goes upstream) and goes onto the
//    output channel in the same cycle;
//  - with internal speed-up S > 1 there are S allocation rounds per cycle (each input and each
//    output moves at most one flit per round), winners go into an output buffer of
//    noc.output_buffer_flits (allocation needs room there instead of a credit), and each output
//    sends at most one flit per cycle from the head of its buffer when that flit's downstream
//    VC has a credit.
// So a flit arriving at c leaves on the channel at c + R at the earliest, and a packet holds
// an output VC from its head to its tail (wormhole per VC; flits of packets on different VCs
// interleave on a channel).
// Left out: separate RC/VA/SA pipeline stages with speculation, adaptive routing, per-VC
// buffer sharing, credit delay different from the channel latency.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/RingQueue.hpp"
#include "common/Stats.hpp"
#include "interconnect/Flit.hpp"
#include "interconnect/NocParams.hpp"
#include "interconnect/RoundRobinArbiter.hpp"
#include "interconnect/SwitchAllocator.hpp"
#include "interconnect/Topology.hpp"

namespace gpusim {

class Router {
public:
    struct Setup {
        unsigned id = 0;                      // index in the topology
        std::vector<unsigned> inVcs;          // per input port
        // Per input port fed by a channel: the sender's router and output port, which counts
        // credits and gets one for every slot freed here. Slots freed at the other inputs (empty:
        // a source interface reads the buffer directly) are not credited in tick(). An empty
        // list: every input credited to router 0, port 0 (a router tested alone).
        std::vector<std::optional<PortRef>> inUpstream;
        std::vector<unsigned> outVcs;         // per output port: VCs downstream
        std::vector<unsigned> outCredits;     // per output port: buffer slots per downstream VC
        unsigned bufferFlits = 8;
        unsigned delay = 1;                   // R
        unsigned speedup = 1;
        unsigned outputBufferFlits = 8;
        AllocatorKind allocator = AllocatorKind::Islip;
        unsigned iterations = 1;
        // Per output port: the target a flit leaving there is labelled with (FlitEvent::target;
        // kUnconnected: no flit may leave there), and the counter of the channel it crosses (or
        // null). Empty: every output is target 0, uncounted (a router tested alone).
        std::vector<uint32_t> outTarget;
        std::vector<Counter*> outFlits;
    };
    static constexpr uint32_t kUnconnected = UINT32_MAX;

    Router(const Setup& s, const Topology& topo);

    // A flit arrives in input port `in`, VC f.vc, at `cycle`. Inline: twice per flit per hop
    // (injection and channel arrival), and the call was a fifth of its cost (issue 19).
    void receive(unsigned in, Flit f, uint64_t cycle) {
        f.ready = cycle + delay_;
        InPort& ip = in_[in];
        ip.vcs[f.vc].buf.push(f);  // throws if the upstream ignored its credits
        ++ip.flits;
        inBusy_.set(in);
        ++buffered_;
        if (f.ready < wakeAt_) wakeAt_ = f.ready;
    }
    // `n` slots of downstream VC `vc` behind output `out` were freed. Inline: once per flit per
    // hop in a multi-stage network.
    void credit(unsigned out, unsigned vc, unsigned n) {
        OutVc& ov = out_[out].vcs[vc];
        ov.credits += n;
        wakeAt_ = 0;
        unparkIfFree(out, ov);
    }
    unsigned freeSlots(unsigned in, unsigned vc) const {
        const auto& b = in_[in].vcs[vc].buf;
        return b.capacity() - b.size();
    }
    unsigned vcsAt(unsigned in) const { return in_[in].nVcs; }
    // The buffer of VC `vc` at input `in`: a source interface reads its fill directly.
    const Ring<Flit>& inputBuffer(unsigned in, unsigned vc) const { return in_[in].vcs[vc].buf; }

    // Allocation, traversal and channel output for cycle `cycle`: appends the flits put on
    // output channels to `flights` and the credits of the slots freed at credited inputs to
    // `credits`, both arriving at `at` (written there directly, not through lists copied again
    // by the caller, issue 19). The flits that left the input buffers in all: buffered() before
    // the call less after it.
    void tick(uint64_t cycle, uint64_t at, RingQueue<FlitEvent>& flights, RingQueue<CreditEvent>& credits);

    bool idle() const { return buffered_ == 0 && outBuffered_ == 0; }
    // No tick before this cycle can move anything: the last one found no input that could
    // request, and nothing has arrived since (a flit or a credit ends the wait). The network
    // skips the router's ticks until then.
    uint64_t wakeAt() const { return wakeAt_; }
    unsigned buffered() const { return buffered_; }  // flits in input buffers
    unsigned outputCredits(unsigned out, unsigned vc) const { return out_[out].vcs[vc].credits; }
    bool outputVcHeld(unsigned out, unsigned vc) const { return out_[out].vcs[vc].held; }
    // Input `in` is parked: skipped by allocation until its head's output changes (see parked_).
    bool parked(unsigned in) const { return parked_.test(in); }
    // Non-empty buffers and held VCs, one line each; `describe` names a flit's packet.
    std::string dump(const std::string& name, const std::function<std::string(const Flit&)>& describe) const;

private:
    struct InVc {
        Ring<Flit> buf;
        bool active = false;   // holds outPort/outVc for the packet at the front
        unsigned outPort = 0, outVc = 0;
        // wants() of this round's request phase. The grant phase reads it instead of asking
        // again (a third of the calls): a grant changes only its own output's state, and each
        // output goes to one input a round, so no other input's answer for its matched output
        // can have changed in between.
        int want = -1;
    };
    struct InPort {
        std::vector<InVc> vcs;
        unsigned nVcs;       // vcs.size(), without the division by an InVc's size
        unsigned flits = 0;  // buffered over its VCs: an empty port is skipped without a look
        bool credited = true;  // Setup::inUpstream has a sender for this input
        PortRef upstream;      // that sender
        bool parkable = false;  // one VC, in a router with one VC behind every output (oneVc_)
        RoundRobinArbiter vcArb;
        explicit InPort(unsigned n) : nVcs(n), vcArb(n) {}
    };
    struct OutVc {
        bool held = false;
        unsigned credits = 0;
    };
    struct OutPort {
        std::vector<OutVc> vcs;
        Ring<Flit> obuf;
        bool waiters = false;  // some input is parked on this output (waiters_)
    };

    // The output a VC may send its front flit to this round, or -1. Inlined into tick(): called
    // for every busy input VC every round.
    [[gnu::always_inline]] int wants(const InVc& v, uint64_t cycle) const;
    int freeOutVc(const OutPort& o) const;
    // The flit at the front of input `i`'s VC `v` (which holds output v.outPort) crosses the
    // switch: a credit upstream, onto the channel (or the output buffer), the VC released at a tail.
    // Inlined into tick()'s two callers (matched and express): as a call it cost 1.1 % of the
    // divergent bench run (issue 19, measured).
    [[gnu::always_inline]] void traverse(unsigned i, InPort& ip, InVc& v, uint64_t at, RingQueue<FlitEvent>& flights,
                                         RingQueue<CreditEvent>& credits);
    // Cold and out of line: the message's string code stays out of depart()'s callers.
    [[noreturn, gnu::cold, gnu::noinline]] void unconnected(unsigned o) const;
    // A flit leaves on output `o` (its VC already set), arriving at `at`.
    void depart(unsigned o, const Flit& f, uint64_t at, RingQueue<FlitEvent>& flights) {
        const uint32_t target = outTarget_[o];
        if (target == kUnconnected) [[unlikely]]
            unconnected(o);
        FlitEvent& e = flights.pushSlot();
        e.flit = f;
        e.flit.ready = at;  // on the channel: its arrival (FlitEvent)
        e.target = target;
        if (Counter* c = outFlits_[o]) c->inc();
    }

    unsigned id_;
    const Topology& topo_;
    unsigned delay_, speedup_;
    bool queued_;  // speed-up > 1: output buffers, credits taken when a flit leaves one
    std::vector<InPort> in_;
    std::vector<OutPort> out_;
    // The topology's route from this router to each sink, tabulated at construction (routing is
    // deterministic and oblivious): a head flit's output without a virtual call.
    std::vector<unsigned> route_;
    std::vector<uint32_t> outTarget_;  // Setup::outTarget
    std::vector<Counter*> outFlits_;   // Setup::outFlits
    SwitchAllocator alloc_;
    std::vector<int> match_;         // scratch
    bool oneVc_ = false;             // speed-up 1 and one VC behind every output
    unsigned buffered_ = 0, outBuffered_ = 0;
    uint64_t wakeAt_ = 0;
    // Inputs holding flits and outputs with a non-empty output buffer: the per-cycle loops visit
    // only these, in ascending order as a scan of every port would (most ports of a crossbar
    // serving a few busy SMs are empty).
    SwitchAllocator::Mask inBusy_, outBusy_;
    // Parked inputs (parkable ones only): the front is a head, ready, whose output is held by
    // another packet or has no credit. Nothing but that output becoming free with a credit (a
    // tail passing while a credit is left, or a credit while it is not held) can change the
    // answer of wants(), so the request and grant phases skip the input until then instead of
    // asking again every cycle (most head checks in a crossbar serving many sources, issue 19).
    // waiters_[o]: the inputs parked on output o.
    SwitchAllocator::Mask parked_;
    // Express inputs of this round (parkable ones only): the front is a ready body flit of the
    // packet that holds its output's one VC, and that VC has a credit. No other input can request
    // that output (its one VC is held) and this input requests nothing else (one VC), so every
    // allocator would match the pair, in its first iteration, leaving both pointers where the
    // head's match (also a first-iteration one: an input with one request is matched in the
    // first iteration or not at all) put them. So the flit crosses without a request and without
    // the allocator. Most flits of a loaded crossbar are body flits (four of a reply's five,
    // issue 19).
    SwitchAllocator::Mask express_;
    std::vector<SwitchAllocator::Mask> waiters_;
    // Output `out` (its VC `ov`) changed: its waiters go back to allocation if it is now free
    // with a credit. Called where either can change (a tail leaves, a credit comes); a credit to
    // a held output changes nothing for them (in a butterfly it comes for every flit).
    void unparkIfFree(unsigned out, const OutVc& ov) {
        OutPort& op = out_[out];
        if (!op.waiters || ov.held || ov.credits == 0) return;
        op.waiters = false;
        parked_.moveOut(waiters_[out]);
    }
};

} // namespace gpusim
