#include "interconnect/CrossbarSubnet.hpp"

#include <sstream>
#include <stdexcept>

namespace gpusim {

namespace {
// Latency histogram: 1-cycle buckets resolve zero-load latencies exactly; loaded latencies
// beyond the range land in the overflow bin and still count in mean/max.
constexpr double kLatencyBucketCycles = 1.0;
constexpr unsigned kLatencyBuckets = 1024;
} // namespace

CrossbarSubnet::CrossbarSubnet(const std::string& statPrefix, const Geometry& g, uint64_t period,
                               StatRegistry& stats, DeliverFn deliver, FreedFn freed)
    : prefix_(statPrefix),
      geo_(g),
      period_(period),
      deliverFn_(std::move(deliver)),
      freedFn_(std::move(freed)),
      inputs_(g.inputs),
      packets_(stats.counter(statPrefix + ".packets", "packets that crossed the switch")),
      flits_(stats.counter(statPrefix + ".flits", "flits that crossed the switch")),
      latency_(stats.histogram(statPrefix + ".latency",
                               "NoC cycles from input-queue entry to delivery into the target socket",
                               kLatencyBucketCycles, kLatencyBuckets)) {
    if (g.inputs == 0 || g.outputs == 0) throw std::logic_error(statPrefix + ": subnet without ports");
    if (period == 0) throw std::logic_error(statPrefix + ": zero clock period");
    outputs_.reserve(g.outputs);
    for (unsigned j = 0; j < g.outputs; ++j) {
        outputs_.emplace_back(g.inputs);
        outputs_.back().busyCycles = &stats.counter(
            statPrefix + ".out" + std::to_string(j) + ".busy_cycles",
            "cycles output " + std::to_string(j) + " was serialising flits (utilisation = this / cycles)");
    }
}

void CrossbarSubnet::accept(unsigned in, const Packet& p) {
    if (p.dst >= geo_.outputs) throw std::logic_error(prefix_ + ": packet for a missing output");
    inputs_[in].q.push_back(p);
}

void CrossbarSubnet::tick(uint64_t cycle, uint64_t now) {
    deliver(cycle, now);
    arbitrate(cycle);
    release(cycle);
}

void CrossbarSubnet::deliver(uint64_t cycle, uint64_t now) {
    for (unsigned j = 0; j < geo_.outputs; ++j) {
        auto& q = outputs_[j].q;
        if (q.empty() || q.front().readyCycle > cycle) continue;
        const Packet p = q.front();
        if (!deliverFn_(j, p)) continue;
        q.pop_front();
        latency_.sample(double(now - p.entryTime) / double(period_));
    }
}

bool CrossbarSubnet::headWants(const Input& in, unsigned out, uint64_t cycle) const {
    return !in.q.empty() && !in.crossing && in.q.front().dst == out &&
           in.q.front().readyCycle <= cycle;
}

void CrossbarSubnet::arbitrate(uint64_t cycle) {
    for (unsigned j = 0; j < geo_.outputs; ++j) {
        Output& o = outputs_[j];
        if (o.freeFrom > cycle || o.q.size() >= geo_.outputQueuePackets) continue;
        const int w = o.arbiter.pick([&](unsigned i) { return headWants(inputs_[i], j, cycle); });
        if (w == RoundRobinArbiter::kNone) continue;
        o.arbiter.grant(static_cast<unsigned>(w));
        Input& in = inputs_[static_cast<unsigned>(w)];
        Packet p = in.q.front();
        const uint64_t lastFlit = cycle + p.flits - 1;
        in.crossing = true;
        in.lastFlitCycle = lastFlit;
        o.freeFrom = lastFlit + 1;
        p.readyCycle = lastFlit + geo_.latencyCycles;
        o.q.push_back(p);
        packets_.inc();
        flits_.inc(p.flits);
        o.busyCycles->inc(p.flits);
    }
}

void CrossbarSubnet::release(uint64_t cycle) {
    for (unsigned i = 0; i < geo_.inputs; ++i) {
        Input& in = inputs_[i];
        if (!in.crossing || in.lastFlitCycle > cycle) continue;
        in.crossing = false;
        in.q.pop_front();
        freedFn_(i);
    }
}

bool CrossbarSubnet::empty() const {
    for (const auto& in : inputs_)
        if (!in.q.empty()) return false;
    for (const auto& o : outputs_)
        if (!o.q.empty()) return false;
    return true;
}

std::string CrossbarSubnet::dump(uint64_t cycle) const {
    std::ostringstream os;
    auto packets = [&](const std::deque<Packet>& q) {
        for (const auto& p : q)
            os << " #" << p.id << "(" << p.src << "->" << p.dst << "," << p.flits << "f,ready@"
               << p.readyCycle << ")";
    };
    for (unsigned i = 0; i < geo_.inputs; ++i) {
        const Input& in = inputs_[i];
        if (in.q.empty()) continue;
        os << prefix_ << ".in" << i << " [" << in.q.size() << "/" << geo_.inputQueuePackets << "]";
        if (in.crossing) os << " head crossing until " << in.lastFlitCycle;
        os << ":";
        packets(in.q);
        os << "\n";
    }
    for (unsigned j = 0; j < geo_.outputs; ++j) {
        const Output& o = outputs_[j];
        if (o.q.empty()) continue;
        os << prefix_ << ".out" << j << " [" << o.q.size() << "/" << geo_.outputQueuePackets << "]";
        if (o.freeFrom > cycle) os << " serialising until " << o.freeFrom - 1;
        os << ":";
        packets(o.q);
        os << "\n";
    }
    return os.str();
}

} // namespace gpusim
