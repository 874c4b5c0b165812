#include "interconnect/Network.hpp"

#include <algorithm>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace gpusim {

namespace {
// Latency histogram: 1-cycle buckets resolve zero-load latencies exactly; loaded latencies
// beyond the range land in the overflow bin and still count in mean/max.
constexpr double kLatencyBucketCycles = 1.0;
constexpr unsigned kLatencyBuckets = 4096;
} // namespace

Network::Params Network::Params::from(const NocParams& p, unsigned maxPacketFlits, bool unboundedSources) {
    Params n;
    n.routerCycles = p.routerCycles;
    n.linkCycles = p.linkCycles;
    n.vcs = p.vcs;
    n.bufferFlits = p.bufferFlits;
    n.speedup = p.speedup;
    n.outputBufferFlits = p.outputBufferFlits;
    n.allocator = p.allocator;
    n.islipIterations = p.islipIterations;
    n.sourceQueuePackets = unboundedSources ? 0 : p.inputQueuePackets;
    n.ejectionVcFlits = p.outputQueuePackets * maxPacketFlits;
    return n;
}

Network::Network(const std::string& prefix, std::unique_ptr<Topology> topo, const Params& p,
                 StatRegistry& stats, DeliverFn deliver, FreedFn freed)
    : prefix_(prefix), topo_(std::move(topo)), params_(p), deliverFn_(std::move(deliver)),
      freedFn_(std::move(freed)),
      packets_(stats.counter(prefix + ".packets", "packets delivered to their sink")),
      flits_(stats.counter(prefix + ".flits", "flits delivered to their sink")),
      latency_(stats.histogram(prefix + ".latency",
                               "NoC cycles from a packet's first possible injection to the delivery of "
                               "its last flit to the consumer",
                               kLatencyBucketCycles, kLatencyBuckets)),
      occupancy_(stats.average(prefix + ".buffer_occupancy",
                               "flits in router input buffers, sampled every NoC cycle the subnet was awake")) {
    const Topology& t = *topo_;
    if (p.linkCycles == 0) throw std::logic_error(prefix + ": zero channel latency");
    if (p.ejectionVcFlits == 0) throw std::logic_error(prefix + ": zero ejection buffer");
    const size_t nr = t.routers().size();
    // [router][inPort] -> the channel feeding it, or -1.
    std::vector<std::vector<int>> inChannel(nr);
    for (size_t r = 0; r < nr; ++r) inChannel[r].assign(t.routers()[r].inPorts, -1);
    for (size_t c = 0; c < t.channels().size(); ++c) {
        const auto& ch = t.channels()[c];
        inChannel[ch.to.router][ch.to.port] = static_cast<int>(c);
    }
    for (size_t c = 0; c < t.channels().size(); ++c) {
        const auto& ch = t.channels()[c];
        channelFlits_.push_back(&stats.counter(
            prefix + ".link." + t.routers()[ch.from.router].name + "." + t.portName(ch.from.router, ch.from.port) +
                ".flits",
            "flits sent on the channel from " + t.routers()[ch.from.router].name + " to " +
                t.routers()[ch.to.router].name + " (utilisation = this / NoC cycles)"));
    }
    // Downstream VCs and credits of every router output port: the input port at the other end
    // of its channel, or the sink's reassembly buffers.
    routers_.reserve(nr);
    for (unsigned r = 0; r < nr; ++r) {
        Router::Setup s;
        s.id = r;
        s.bufferFlits = p.bufferFlits;
        s.delay = p.routerCycles;
        s.speedup = p.speedup;
        s.outputBufferFlits = p.outputBufferFlits;
        s.allocator = p.allocator;
        s.iterations = p.islipIterations;
        for (unsigned i = 0; i < t.routers()[r].inPorts; ++i) {
            s.inVcs.push_back(t.inputVcs({r, i}, p.vcs));
            const int c = inChannel[r][i];
            s.inUpstream.push_back(c >= 0 ? std::optional(t.channels()[static_cast<size_t>(c)].from) : std::nullopt);
        }
        // Per output: where a flit leaving there goes (a channel index, channels + sink index,
        // or nowhere) and the channel's counter; the VCs and credits downstream.
        for (unsigned o = 0; o < t.routers()[r].outPorts; ++o) {
            const int c = t.channelFrom({r, o});
            const int sink = t.sinkAt({r, o});
            s.outTarget.push_back(c >= 0      ? static_cast<uint32_t>(c)
                                  : sink >= 0 ? static_cast<uint32_t>(t.channels().size() + static_cast<size_t>(sink))
                                              : Router::kUnconnected);
            s.outFlits.push_back(c >= 0 ? channelFlits_[static_cast<size_t>(c)] : nullptr);
            if (c >= 0) {
                const PortRef to = t.channels()[static_cast<size_t>(c)].to;
                s.outVcs.push_back(t.inputVcs(to, p.vcs));
                s.outCredits.push_back(p.bufferFlits);
            } else {
                // A sink port (or an unconnected one, never routed to).
                s.outVcs.push_back(p.vcs);
                s.outCredits.push_back(sink >= 0 ? p.ejectionVcFlits : 0);
            }
        }
        routers_.emplace_back(s, t);
    }
    sources_.resize(t.sources().size());
    for (size_t i = 0; i < sources_.size(); ++i) {
        Source& s = sources_[i];
        s.port = t.sources()[i];
        const bool perVc = t.injectionVc(static_cast<unsigned>(i), 0) >= 0;
        s.classes.resize(perVc ? routers_[s.port.router].vcsAt(s.port.port) : 1);
        s.nClasses = static_cast<unsigned>(s.classes.size());
        s.router = &routers_[s.port.router];
        s.single = s.nClasses == 1 && s.router->vcsAt(s.port.port) == 1;
        s.curBuf = &s.router->inputBuffer(s.port.port, 0);
        s.flits = &stats.counter(prefix + ".inject" + std::to_string(i) + ".flits",
                                 "flits injected by source " + std::to_string(i) + " (utilisation = this / NoC cycles)");
    }
    sinks_.resize(t.sinks().size());
    for (size_t j = 0; j < sinks_.size(); ++j) {
        sinks_[j].port = t.sinks()[j];
        sinks_[j].vcs.resize(p.vcs);
        sinks_[j].flits = &stats.counter(prefix + ".eject" + std::to_string(j) + ".flits",
                                         "flits ejected to sink " + std::to_string(j) +
                                             " (utilisation = this / NoC cycles)");
    }
    nRouters_ = static_cast<unsigned>(routers_.size());
    nSources_ = static_cast<unsigned>(sources_.size());
    nSinks_ = static_cast<unsigned>(sinks_.size());
    nChannels_ = static_cast<uint32_t>(t.channels().size());
    for (const auto& ch : t.channels()) channelTo_.push_back({&routers_[ch.to.router], ch.to.port});
}

inline uint32_t Network::allocSlot(const Packet& p) {
    if (!freeSlots_.empty()) {
        const uint32_t s = freeSlots_.back();
        freeSlots_.pop_back();
        slots_[s] = p;
        return s;
    }
    slots_.push_back(p);
    return static_cast<uint32_t>(slots_.size() - 1);
}

void Network::inject(const Packet& p) {
    if (p.src >= nSources_ || p.dst >= nSinks_)
        throw std::logic_error(prefix_ + ": packet " + std::to_string(p.id) + " for a missing terminal");
    if (p.flits == 0 || p.flits > params_.ejectionVcFlits || p.flits > 65535)
        throw std::logic_error(prefix_ + ": packet " + std::to_string(p.id) + " of " + std::to_string(p.flits) +
                               " flits does not fit the " + std::to_string(params_.ejectionVcFlits) +
                               "-flit ejection buffer");
    Source& s = sources_[p.src];
    // One class (no virtual output queues: injectionVc is -1 for every packet of the source)
    // without asking the topology, a virtual call per packet (issue 19).
    unsigned cls = 0;
    if (s.nClasses > 1) {
        const int vc = topo_->injectionVc(p.src, p.dst);
        cls = vc >= 0 ? static_cast<unsigned>(vc) : 0;
    }
    s.classes[cls].push_back(allocSlot(p));
    ++s.queued;
    ++queuedPackets_;
    ++inside_;
}

void Network::tick(uint64_t cycle) {
    arrive(cycle);
    eject(cycle);
    injectFlits(cycle);
    const uint64_t at = cycle + params_.linkCycles;
    for (unsigned r = 0; r < nRouters_; ++r) {
        Router& router = routers_[r];
        if (router.idle() || cycle < router.wakeAt()) continue;
        const unsigned before = router.buffered();
        router.tick(cycle, at, flitsInFlight_, creditsInFlight_);
        // Every flit that left an input buffer.
        const unsigned left = before - router.buffered();
        buffered_ -= left;
        progress_ += left;
    }
    occupancy_.sampleLevel(buffered_);
}

void Network::arrive(uint64_t cycle) {
    const uint32_t nChannels = nChannels_;
    // The front read in place (neither receive() nor sinkReceive() touches the queue).
    while (!flitsInFlight_.empty() && flitsInFlight_.front().flit.ready <= cycle) {
        const FlitEvent& e = flitsInFlight_.front();
        if (e.target < nChannels) {
            const ChannelEnd& to = channelTo_[e.target];
            to.router->receive(to.port, e.flit, cycle);
            ++buffered_;
        } else {
            sinkReceive(static_cast<unsigned>(e.target - nChannels), e.flit);
        }
        flitsInFlight_.pop_front();
    }
    while (!creditsInFlight_.empty() && creditsInFlight_.front().at <= cycle) {
        const CreditEvent& c = creditsInFlight_.front();
        routers_[c.router].credit(c.port, c.vc, c.n);
        creditsInFlight_.pop_front();
    }
}

// Out of line and cold: building the message in sinkReceive gave every flit's call the frame of
// the string code (issue 19).
void Network::sinkFault(unsigned sink, const Flit& f, const char* why) const {
    throw std::logic_error(prefix_ + ": sink " + std::to_string(sink) + " vc " + std::to_string(f.vc) + ": flit " +
                           std::to_string(f.seq) + " of packet " + std::to_string(slots_[f.slot].id) + ": " + why);
}

inline void Network::sinkReceive(unsigned sink, const Flit& f) {
    Sink& s = sinks_[sink];
    // The VC checked against the count every sink has (params_.vcs) rather than by vcs.at(),
    // whose size() divides by a SinkVc's size at every flit (issue 19).
    if (f.vc >= params_.vcs) [[unlikely]]
        sinkFault(sink, f, "on a VC the sink does not have");
    SinkVc& v = s.vcs[f.vc];
    if (f.dst != sink) [[unlikely]]
        sinkFault(sink, f, "delivered to the wrong sink");
    if (f.head()) {
        // The packet's own destination and length, read from the table once per packet: every
        // later flit is checked to be of this packet (slot and sequence), so they hold for it.
        const Packet& p = slots_[f.slot];
        if (p.dst != sink) [[unlikely]]
            sinkFault(sink, f, "delivered to the wrong sink");
        if (v.slot >= 0) [[unlikely]]
            sinkFault(sink, f, "head while another packet is incomplete (flit lost)");
        v.slot = f.slot;
        v.nextSeq = 0;
        v.flits = p.flits;
    }
    if (v.slot != static_cast<int64_t>(f.slot) || f.seq != v.nextSeq) [[unlikely]]
        sinkFault(sink, f, "out of order, lost or duplicated");
    if (++v.held > params_.ejectionVcFlits) [[unlikely]]
        sinkFault(sink, f, "ejection buffer overflow (credit protocol broken)");
    ++v.nextSeq;
    s.flits->inc();
    if (f.tail != (v.nextSeq == v.flits)) [[unlikely]]
        sinkFault(sink, f, "tail flag does not match the packet size");
    if (f.tail) {
        s.complete.emplace_back(f.slot, f.vc);
        ++completePackets_;
        v.slot = -1;
    }
}

void Network::eject(uint64_t cycle) {
    if (completePackets_ == 0) return;
    const uint64_t at = cycle + params_.linkCycles;
    for (unsigned j = 0; j < nSinks_; ++j) {
        Sink& s = sinks_[j];
        for (auto it = s.complete.begin(); it != s.complete.end(); ++it) {
            const uint32_t slot = it->first;
            const unsigned vc = it->second;
            const Packet p = slots_[slot];  // a copy: the consumer may inject re-entrantly
            const Delivery d = deliverFn_(j, p);
            if (d == Delivery::SinkBusy) break;
            if (d == Delivery::Refused) continue;
            s.complete.erase(it);
            --completePackets_;
            s.vcs[vc].held -= p.flits;
            creditsInFlight_.push_back({at, s.port.router, s.port.port, vc, p.flits});
            packets_.inc();
            flits_.inc(p.flits);
            latency_.sample(double(cycle - p.readyCycle));
            freeSlots_.push_back(slot);
            --inside_;
            ++progress_;
            break;
        }
    }
}

inline bool Network::startPacket(Source& s, uint64_t cycle) {
    Router& router = *s.router;
    const unsigned in = s.port.port;
    if (s.single) {
        // One class and one VC (a crossbar's or butterfly's FIFO interface): the round-robin
        // below reduces to its front packet on VC 0.
        RingQueue<uint32_t>& q = s.classes.front();
        // The buffer first: a source blocked behind it (the usual case in a loaded subnet) is
        // refused without a look into the packet table.
        if (s.curBuf->full() || q.empty() || slots_[q.front()].readyCycle > cycle) return false;
        s.cur = q.front();
        q.pop_front();
    } else {
        // Classes round-robin; with one class the VC is the first (round-robin) with a free slot,
        // with virtual output queues it is the class's own VC.
        const unsigned nc = s.nClasses;
        for (unsigned k = 1; k <= nc && s.cur < 0; ++k) {
            const unsigned c = (s.rrClass + k) % nc;
            if (s.classes[c].empty() || slots_[s.classes[c].front()].readyCycle > cycle) continue;
            int vc = -1;
            if (nc > 1) {
                if (router.freeSlots(in, c) > 0) vc = static_cast<int>(c);
            } else {
                const unsigned nv = router.vcsAt(in);
                for (unsigned m = 1; m <= nv && vc < 0; ++m) {
                    const unsigned v = (s.rrVc + m) % nv;
                    if (router.freeSlots(in, v) > 0) vc = static_cast<int>(v);
                }
            }
            if (vc < 0) continue;
            s.rrClass = c;
            s.rrVc = static_cast<unsigned>(vc);
            s.cur = s.classes[c].front();
            s.classes[c].pop_front();
            s.curVc = static_cast<unsigned>(vc);
            s.curBuf = &router.inputBuffer(in, s.curVc);
        }
        if (s.cur < 0) return false;
    }
    const Packet& p = slots_[static_cast<size_t>(s.cur)];
    s.curDst = p.dst;
    s.curFlits = p.flits;
    s.curSeq = 0;
    return true;
}

void Network::injectFlits(uint64_t cycle) {
    if (queuedPackets_ == 0) return;
    // The bounds in locals: the loop visits every source each cycle, and sources_.size() (a
    // division by the record's size) was recomputed at each, past the stores of the loop body.
    // The sources are fixed at construction; freedFn_ only queues packets.
    Source* const sources = sources_.data();
    const unsigned nSources = nSources_;
    for (unsigned i = 0; i < nSources; ++i) {
        Source& s = sources[i];
        if (s.queued == 0) continue;
        if (s.cur < 0 && !startPacket(s, cycle)) continue;
        // The interface sees its router's buffer directly: a source blocked behind a full buffer
        // (most visits of a loaded subnet) costs one look.
        if (s.curBuf->full()) continue;
        Flit f;
        f.slot = static_cast<uint32_t>(s.cur);
        f.dst = s.curDst;
        f.seq = s.curSeq;
        f.vc = static_cast<uint16_t>(s.curVc);
        f.tail = s.curSeq + 1u == s.curFlits;
        s.router->receive(s.port.port, f, cycle);
        ++buffered_;
        ++progress_;
        s.flits->inc();
        ++s.curSeq;
        if (f.tail) {
            s.cur = -1;
            --s.queued;
            --queuedPackets_;
            if (s.notifyFreed) [[unlikely]] {
                s.notifyFreed = false;
                if (freedFn_) freedFn_(i);
            }
        }
    }
}

std::string Network::describe(const Flit& f) const {
    const Packet& p = slots_[f.slot];
    return "#" + std::to_string(p.id) + "." + std::to_string(f.seq) + (f.tail ? "t" : "");
}

std::string Network::dump(uint64_t cycle) const {
    std::ostringstream os;
    if (inside_ == 0) return os.str();
    os << prefix_ << ": " << topo_->describe() << ", " << inside_ << " packets inside at cycle " << cycle << "\n";
    for (size_t i = 0; i < sources_.size(); ++i) {
        const Source& s = sources_[i];
        if (s.queued == 0) continue;
        os << prefix_ << ".src" << i << " [" << s.queued;
        if (params_.sourceQueuePackets) os << "/" << params_.sourceQueuePackets;
        os << "]";
        if (s.cur >= 0) {
            const Packet& p = slots_[static_cast<size_t>(s.cur)];
            os << " injecting #" << p.id << " flit " << s.curSeq << "/" << p.flits << " on vc" << s.curVc;
        }
        os << ":";
        for (const auto& q : s.classes)
            for (uint32_t slot : q) {
                const Packet& p = slots_[slot];
                os << " #" << p.id << "(" << p.src << "->" << p.dst << "," << p.flits << "f,ready@" << p.readyCycle << ")";
            }
        os << "\n";
    }
    for (size_t r = 0; r < routers_.size(); ++r)
        os << routers_[r].dump(prefix_ + "." + topo_->routers()[r].name, [this](const Flit& f) { return describe(f); });
    if (!flitsInFlight_.empty()) os << prefix_ << ": " << flitsInFlight_.size() << " flits on channels\n";
    for (size_t j = 0; j < sinks_.size(); ++j) {
        const Sink& s = sinks_[j];
        for (size_t v = 0; v < s.vcs.size(); ++v)
            if (s.vcs[v].held)
                os << prefix_ << ".sink" << j << ".vc" << v << " [" << s.vcs[v].held << "/" << params_.ejectionVcFlits << "]\n";
        if (!s.complete.empty()) {
            os << prefix_ << ".sink" << j << " complete, awaiting the consumer:";
            for (const auto& [slot, vc] : s.complete) os << " #" << slots_[slot].id;
            os << "\n";
        }
    }
    return os.str();
}

} // namespace gpusim
