#include "interconnect/Router.hpp"

#include <bit>
#include <sstream>
#include <stdexcept>

namespace gpusim {

Router::Router(const Setup& s, const Topology& topo)
    : id_(s.id), topo_(topo), delay_(s.delay), speedup_(s.speedup), queued_(s.speedup > 1),
      alloc_(s.allocator, static_cast<unsigned>(s.inVcs.size()), static_cast<unsigned>(s.outVcs.size()),
             s.iterations),
      inBusy_(static_cast<unsigned>(s.inVcs.size())), outBusy_(static_cast<unsigned>(s.outVcs.size())),
      parked_(static_cast<unsigned>(s.inVcs.size())), express_(static_cast<unsigned>(s.inVcs.size())),
      waiters_(s.outVcs.size(), SwitchAllocator::Mask(static_cast<unsigned>(s.inVcs.size()))) {
    if (s.delay == 0 || s.speedup == 0 || s.bufferFlits == 0 || s.outputBufferFlits == 0)
        throw std::logic_error("router with a zero delay, speed-up or buffer");
    if (!s.inUpstream.empty() && s.inUpstream.size() != s.inVcs.size())
        throw std::logic_error("router: upstream ports do not match the input ports");
    for (unsigned n : s.inVcs) {
        in_.emplace_back(n);
        if (!s.inUpstream.empty()) {
            const std::optional<PortRef>& up = s.inUpstream[in_.size() - 1];
            in_.back().credited = up.has_value();
            in_.back().upstream = up.value_or(PortRef{});
        }
        in_.back().vcs.resize(n);
        for (auto& v : in_.back().vcs) v.buf = Ring<Flit>(s.bufferFlits);
    }
    for (size_t o = 0; o < s.outVcs.size(); ++o) {
        out_.emplace_back();
        out_.back().vcs.assign(s.outVcs[o], OutVc{false, s.outCredits[o]});
        // Without speed-up a flit that wins the switch goes straight onto the channel: the
        // buffer stays empty (one slot, so that wants()'s room test passes).
        out_.back().obuf = Ring<Flit>(queued_ ? s.outputBufferFlits : 1);
    }
    for (unsigned d = 0; d < topo.sinks().size(); ++d) route_.push_back(topo.route(id_, d));
    outTarget_ = s.outTarget.empty() ? std::vector<uint32_t>(out_.size(), 0) : s.outTarget;
    outFlits_ = s.outFlits.empty() ? std::vector<Counter*>(out_.size(), nullptr) : s.outFlits;
    if (outTarget_.size() != out_.size() || outFlits_.size() != out_.size())
        throw std::logic_error("router: output targets do not match the output ports");
    oneVc_ = !queued_;
    for (const OutPort& op : out_) oneVc_ = oneVc_ && op.vcs.size() == 1;
    for (InPort& ip : in_) ip.parkable = oneVc_ && ip.vcs.size() == 1;
}

void Router::unconnected(unsigned o) const {
    throw std::logic_error("router " + topo_.routers()[id_].name + ": flit routed to the unconnected port " +
                           topo_.portName(id_, o));
}

int Router::freeOutVc(const OutPort& o) const {
    for (unsigned v = 0; v < o.vcs.size(); ++v)
        if (!o.vcs[v].held && (queued_ || o.vcs[v].credits > 0)) return static_cast<int>(v);
    return -1;
}

inline int Router::wants(const InVc& v, uint64_t cycle) const {
    if (v.buf.empty()) return -1;
    const Flit& f = v.buf.front();
    if (f.ready > cycle) return -1;
    if (v.active) {
        const OutPort& o = out_[v.outPort];
        const bool room = queued_ ? !o.obuf.full() : o.vcs[v.outVc].credits > 0;
        return room ? static_cast<int>(v.outPort) : -1;
    }
    if (!f.head()) throw std::logic_error("router: a body flit at the front of an idle VC");
    const unsigned port = route_[f.dst];
    const OutPort& o = out_[port];
    if (oneVc_) {
        // Without speed-up the output buffer stays empty; the one VC decides (most head checks
        // are repeated ones, of a head waiting for another packet's tail).
        const OutVc& ov = o.vcs.front();
        return !ov.held && ov.credits > 0 ? static_cast<int>(port) : -1;
    }
    return !o.obuf.full() && freeOutVc(o) >= 0 ? static_cast<int>(port) : -1;
}

inline void Router::traverse(unsigned i, InPort& ip, InVc& v, uint64_t at, RingQueue<FlitEvent>& flights,
                             RingQueue<CreditEvent>& credits) {
    const unsigned o = v.outPort;
    OutPort& op = out_[o];
    Flit f = v.buf.front();
    v.buf.pop();
    if (--ip.flits == 0) inBusy_.clear(i);
    --buffered_;
    if (ip.credited) credits.push_back({at, ip.upstream.router, ip.upstream.port, f.vc, 1});
    f.vc = static_cast<uint16_t>(v.outVc);
    if (!queued_) {
        // Without speed-up the winner goes straight onto the channel. The order of the
        // departures of one cycle does not matter: each lands in a different input port or sink.
        --op.vcs[v.outVc].credits;
        depart(o, f, at, flights);
    } else {
        op.obuf.push(f);
        outBusy_.set(o);
        ++outBuffered_;
    }
    if (f.tail) {
        op.vcs[v.outVc].held = false;
        v.active = false;
        unparkIfFree(o, op.vcs[v.outVc]);
    }
}

void Router::tick(uint64_t cycle, uint64_t at, RingQueue<FlitEvent>& flights, RingQueue<CreditEvent>& credits) {
    for (unsigned round = 0; round < speedup_ && buffered_ > 0; ++round) {
        alloc_.clearRequests();
        unsigned nExpress = 0;
        inBusy_.forEachExcept(parked_, [&](unsigned i) {
            InPort& ip = in_[i];
            // Its own branch rather than a test after the general loop below: that shared form
            // cost 1.8 % of the divergent bench run (issue 19, measured).
            if (ip.parkable) {
                InVc& v = ip.vcs.front();
                if (v.active) {
                    // A body flit of the packet that holds its output's one VC: see express_.
                    if (v.buf.front().ready <= cycle && out_[v.outPort].vcs.front().credits > 0) {
                        express_.set(i);
                        ++nExpress;
                    }
                    return;
                }
                v.want = wants(v, cycle);
                if (v.want >= 0) {
                    alloc_.request(i, static_cast<unsigned>(v.want));
                } else if (!v.active && v.buf.front().ready <= cycle) {
                    // A ready head refused by its output (held, or no credit): see parked_.
                    const unsigned port = route_[v.buf.front().dst];
                    parked_.set(i);
                    waiters_[port].set(i);
                    out_[port].waiters = true;
                }
                return;
            }
            for (InVc& v : ip.vcs) {
                v.want = wants(v, cycle);
                if (v.want >= 0) alloc_.request(i, static_cast<unsigned>(v.want));
            }
        });
        const bool requests = alloc_.anyRequest();
        if (!requests && nExpress == 0) {
            // Nothing could request: each input's front waits for its delay, or for a credit or
            // an output VC that only a credit (this router holds no other packet that could
            // release one in the meantime) can give. Asleep until the first front is ready.
            if (round == 0 && outBuffered_ == 0) {
                uint64_t next = UINT64_MAX;
                inBusy_.forEach([&](unsigned i) {
                    for (const InVc& v : in_[i].vcs)
                        if (!v.buf.empty() && v.buf.front().ready > cycle && v.buf.front().ready < next)
                            next = v.buf.front().ready;
                });
                wakeAt_ = next;
            }
            break;
        }
        if (requests) alloc_.allocateMatched(match_);
        // The matched inputs (a subset of the busy ones not parked) and the express ones, in
        // ascending order as before; match_[i] is valid for the matched ones.
        const std::vector<uint64_t>& matchedWords = alloc_.matched().w_;
        for (size_t k = 0; k < express_.w_.size(); ++k) {
            const uint64_t express = express_.w_[k];
            express_.w_[k] = 0;
            for (uint64_t b = (requests ? matchedWords[k] : 0) | express; b; b &= b - 1) {
                const unsigned i = static_cast<unsigned>(k * 64 + unsigned(std::countr_zero(b)));
                InPort& ip = in_[i];
                if (express >> (i & 63) & 1) {
                    traverse(i, ip, ip.vcs.front(), at, flights, credits);
                    continue;
                }
                const unsigned o = static_cast<unsigned>(match_[i]);
                // With one VC, that VC (its arbiter's state cannot matter); otherwise the arbiter's
                // pick among the VCs that want the matched output.
                const int w = ip.nVcs == 1
                                  ? 0
                                  : ip.vcArb.pick([&](unsigned x) { return ip.vcs[x].want == static_cast<int>(o); });
                if (w < 0 || ip.vcs[static_cast<unsigned>(w)].want != static_cast<int>(o))
                    throw std::logic_error("router: matched input has no VC for the output");
                ip.vcArb.grant(static_cast<unsigned>(w));
                InVc& v = ip.vcs[static_cast<unsigned>(w)];
                if (!v.active) {
                    OutPort& op = out_[o];
                    v.active = true;
                    v.outPort = o;
                    v.outVc = static_cast<unsigned>(freeOutVc(op));
                    op.vcs[v.outVc].held = true;
                }
                traverse(i, ip, v, at, flights, credits);
            }
        }
    }
    // Output buffers hold flits only with speed-up: each output sends its head if its
    // downstream VC has a credit.
    if (outBuffered_ == 0) return;
    outBusy_.forEach([&](unsigned o) {
        OutPort& op = out_[o];
        Ring<Flit>& ob = op.obuf;
        unsigned& credits = op.vcs[ob.front().vc].credits;
        if (credits == 0) return;
        --credits;
        depart(o, ob.front(), at, flights);
        ob.pop();
        if (ob.empty()) outBusy_.clear(o);
        --outBuffered_;
    });
}

std::string Router::dump(const std::string& name, const std::function<std::string(const Flit&)>& describe) const {
    std::ostringstream os;
    for (unsigned i = 0; i < in_.size(); ++i)
        for (unsigned v = 0; v < in_[i].vcs.size(); ++v) {
            const InVc& vc = in_[i].vcs[v];
            if (vc.buf.empty()) continue;
            os << name << ".in" << i << ".vc" << v << " [" << vc.buf.size() << "/" << vc.buf.capacity() << "]";
            if (vc.active) os << " -> " << topo_.portName(id_, vc.outPort) << ".vc" << vc.outVc;
            os << ":";
            for (unsigned k = 0; k < vc.buf.size(); ++k) os << " " << describe(vc.buf.at(k));
            os << "\n";
        }
    for (unsigned o = 0; o < out_.size(); ++o) {
        const OutPort& op = out_[o];
        for (unsigned v = 0; v < op.vcs.size(); ++v)
            if (op.vcs[v].held) os << name << "." << topo_.portName(id_, o) << ".vc" << v << " held, " << op.vcs[v].credits << " credits\n";
        if (!op.obuf.empty()) os << name << "." << topo_.portName(id_, o) << " output buffer " << op.obuf.size() << " flits\n";
    }
    return os.str();
}

} // namespace gpusim
