#include "interconnect/SyntheticTraffic.hpp"

#include <algorithm>
#include <cmath>

#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "interconnect/Network.hpp"
#include "interconnect/TopologyFactory.hpp"

namespace gpusim {

namespace {

class SplitMix64 {
public:
    explicit SplitMix64(uint64_t seed) : s_(seed) {}
    uint64_t next() {
        uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }

private:
    uint64_t s_;
};

unsigned squareSide(unsigned nodes) {
    unsigned m = 1;
    while (m * m < nodes) ++m;
    if (m * m != nodes)
        throw InputError("--pattern transpose: needs a square number of terminals, got " + std::to_string(nodes));
    return m;
}

double percentileOf(std::vector<double>& v, double pct) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t k = static_cast<size_t>(std::ceil(pct / 100.0 * double(v.size())));
    return v[k == 0 ? 0 : k - 1];
}

} // namespace

TrafficPattern parsePattern(const std::string& name, const std::string& what) {
    if (name == "uniform") return TrafficPattern::Uniform;
    if (name == "hotspot") return TrafficPattern::Hotspot;
    if (name == "transpose") return TrafficPattern::Transpose;
    throw InputError(what + ": '" + name + "': expected uniform, hotspot or transpose");
}

const char* patternName(TrafficPattern p) {
    switch (p) {
    case TrafficPattern::Uniform: return "uniform";
    case TrafficPattern::Hotspot: return "hotspot";
    case TrafficPattern::Transpose: return "transpose";
    }
    return "?";
}

TrafficResult runTraffic(const NocParams& p, unsigned nodes, const TrafficOptions& o) {
    if (!(o.rate > 0 && o.rate <= 1)) throw InputError("--rate: " + std::to_string(o.rate) + " is outside (0, 1] flits/node/cycle");
    if (o.packetFlits == 0) throw InputError("--packet-flits: at least 1");
    if (o.hotspotNode >= nodes) throw InputError("--hotspot-node: " + std::to_string(o.hotspotNode) + " is not a terminal");
    if (!(o.hotspotFraction >= 0 && o.hotspotFraction <= 1)) throw InputError("--hotspot-fraction: outside [0, 1]");
    if (o.measureCycles == 0) throw InputError("--cycles: at least 1");
    const unsigned side = o.pattern == TrafficPattern::Transpose ? squareSide(nodes) : 0;

    StatRegistry stats;  // the network's own counters; the result is computed here
    Network::Params np = Network::Params::from(p, o.packetFlits, /*unboundedSources=*/true);
    np.ejectionVcFlits = std::max(np.ejectionVcFlits, o.packetFlits);
    std::vector<uint8_t> seen;  // deliveries per packet id
    std::vector<double> latencies;
    TrafficResult r;
    r.sinkFlits.assign(nodes, 0);
    const uint64_t winStart = o.warmupCycles, winEnd = o.warmupCycles + o.measureCycles;
    uint64_t now = 0, windowFlits = 0, windowCreatedFlits = 0, measuredLeft = 0;

    Network net(
        "synthetic", makeSyntheticTopology(p, nodes), np, stats,
        [&](unsigned sink, const Packet& pk) {
            if (pk.id >= seen.size() || seen[pk.id]++ != 0) ++r.duplicates;
            ++r.delivered;
            if (now >= winStart && now < winEnd) {
                windowFlits += pk.flits;
                r.sinkFlits[sink] += pk.flits;
            }
            if (pk.readyCycle >= winStart && pk.readyCycle < winEnd) {
                latencies.push_back(double(now - pk.readyCycle));
                --measuredLeft;
            }
            return Network::Delivery::Taken;
        },
        nullptr);
    const Topology& topo = net.topology();
    r.topology = topo.describe();
    r.nodes = nodes;
    r.rate = o.rate;

    auto destination = [&](unsigned src, SplitMix64& g) -> unsigned {
        switch (o.pattern) {
        case TrafficPattern::Uniform: return g.below(nodes);
        case TrafficPattern::Hotspot: return g.uniform() < o.hotspotFraction ? o.hotspotNode : g.below(nodes);
        case TrafficPattern::Transpose: return (src % side) * side + src / side;
        }
        return 0;
    };

    // Zero-load latency of the pattern: the mean over its (source, destination) distribution.
    {
        const double perHop = double(p.routerCycles + p.linkCycles);
        double sum = 0;
        for (unsigned s = 0; s < nodes; ++s) {
            double h = 0;
            if (o.pattern == TrafficPattern::Transpose) {
                h = topo.hops(s, (s % side) * side + s / side);
            } else {
                double uni = 0;
                for (unsigned d = 0; d < nodes; ++d) uni += topo.hops(s, d);
                uni /= nodes;
                h = o.pattern == TrafficPattern::Hotspot
                        ? o.hotspotFraction * topo.hops(s, o.hotspotNode) + (1 - o.hotspotFraction) * uni
                        : uni;
            }
            sum += h * perHop + o.packetFlits - 1;
        }
        r.zeroLoadLatency = sum / nodes;
    }

    SplitMix64 gen(o.seed * 0x2545f4914f6cdd1dULL + 1);
    const double pPacket = o.rate / o.packetFlits;
    const size_t nChannels = topo.channels().size();
    std::vector<uint64_t> chanStart(nChannels, 0);
    double bufferSum = 0;
    uint64_t lastProgress = 0, lastProgressCycle = 0;
    const uint64_t hardEnd = winEnd + o.drainCycles;

    for (now = 0;; ++now) {
        const bool inWindow = now >= winStart && now < winEnd;
        if (now == winStart)
            for (size_t c = 0; c < nChannels; ++c) chanStart[c] = net.channelFlits(c);
        if (now == winEnd) {
            for (size_t c = 0; c < nChannels; ++c) {
                const double u = double(net.channelFlits(c) - chanStart[c]) / double(o.measureCycles);
                r.maxChannelUtilisation = std::max(r.maxChannelUtilisation, u);
                r.meanChannelUtilisation += u / double(nChannels);
            }
        }
        const bool generating = !o.soak || now < winEnd;
        if (generating) {
            for (unsigned s = 0; s < nodes; ++s) {
                if (gen.uniform() >= pPacket) continue;
                Packet pk;
                pk.id = r.created++;
                pk.src = s;
                pk.dst = destination(s, gen);
                pk.flits = o.packetFlits;
                pk.readyCycle = now;
                seen.push_back(0);
                if (inWindow) {
                    ++r.measuredPackets;
                    ++measuredLeft;
                    windowCreatedFlits += pk.flits;
                }
                net.inject(pk);
            }
        }
        net.tick(now);
        if (inWindow) bufferSum += double(net.bufferedFlits());
        if (net.progress() != lastProgress || net.empty()) {
            lastProgress = net.progress();
            lastProgressCycle = now;
        } else if (now - lastProgressCycle >= o.stallCycles) {
            r.deadlock = true;
            break;
        }
        if (now + 1 >= winEnd) {
            if (o.soak ? net.empty() : measuredLeft == 0) {
                r.drained = true;
                break;
            }
            if (now >= hardEnd) break;
        }
    }
    r.cycles = now + 1;
    r.offered = double(windowCreatedFlits) / (double(nodes) * double(o.measureCycles));
    r.accepted = double(windowFlits) / (double(nodes) * double(o.measureCycles));
    r.measuredDelivered = latencies.size();
    r.meanBufferFlitsPerRouter = bufferSum / (double(o.measureCycles) * double(topo.routers().size()));
    if (!latencies.empty()) {
        double sum = 0;
        for (double l : latencies) sum += l;
        r.latencyMean = sum / double(latencies.size());
        r.latencyP50 = percentileOf(latencies, 50);
        r.latencyP99 = percentileOf(latencies, 99);
        r.latencyMax = latencies.back();
    }
    return r;
}

int saturationIndex(const std::vector<TrafficResult>& sweep) {
    for (size_t i = 0; i < sweep.size(); ++i) {
        const TrafficResult& r = sweep[i];
        if (r.accepted < 0.95 * r.offered || !r.drained || r.latencyMean > 10 * r.zeroLoadLatency)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace gpusim
