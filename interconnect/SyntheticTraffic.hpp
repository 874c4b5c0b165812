#pragma once
// The synthetic-traffic testbench of one subnet, BookSim-style and open-loop: every terminal
// is a source and a sink; each source creates packets by a Bernoulli process (probability
// rate / packet size per cycle, so `rate` is the offered load in flits per node per cycle)
// into an unbounded source queue, destinations by pattern:
//  - uniform: any terminal, itself included, with equal probability;
//  - hotspot: terminal `hotspotNode` with probability `hotspotFraction`, else uniform;
//  - transpose: terminal (a, b) of an m x m arrangement (id a*m + b; mesh row a, column b)
//    sends to (b, a); needs a square terminal count; diagonal terminals send to themselves.
// Measurement: warm-up, then a window in which created packets are measured (latency from
// creation to delivery of the tail, BookSim's definition) and delivered flits counted
// (accepted throughput); then the run continues, still injecting, until every measured packet
// is delivered or the drain bound is hit. Soak mode instead stops injecting after the window
// and runs until the network is empty, checking that every packet was delivered exactly once.
// Deterministic: a seeded splitmix64 generator, one stream per run.
#include <cstdint>
#include <string>
#include <vector>

#include "interconnect/NocParams.hpp"

namespace gpusim {

enum class TrafficPattern { Uniform, Hotspot, Transpose };

// "uniform" | "hotspot" | "transpose"; InputError naming `what` otherwise.
TrafficPattern parsePattern(const std::string& name, const std::string& what);
const char* patternName(TrafficPattern p);

struct TrafficOptions {
    TrafficPattern pattern = TrafficPattern::Uniform;
    double rate = 0.1;               // offered flits per node per cycle, (0, 1]
    unsigned packetFlits = 1;
    unsigned hotspotNode = 0;
    double hotspotFraction = 0.2;
    uint64_t warmupCycles = 1000;
    uint64_t measureCycles = 5000;
    uint64_t drainCycles = 20000;    // bound on the run after the window
    uint64_t stallCycles = 5000;     // no flit moved for this long with packets inside: deadlock
    uint64_t seed = 1;
    bool soak = false;
};

struct TrafficResult {
    std::string topology;            // Topology::describe()
    unsigned nodes = 0;
    double rate = 0;                 // the requested offered load (TrafficOptions::rate)
    double offered = 0;              // flits/node/cycle created in the window
    double accepted = 0;             // flits/node/cycle delivered in the window
    double latencyMean = 0, latencyP50 = 0, latencyP99 = 0, latencyMax = 0;  // measured packets
    double zeroLoadLatency = 0;      // hops * (R + L) + F - 1, averaged over the pattern
    uint64_t measuredPackets = 0, measuredDelivered = 0;
    uint64_t created = 0, delivered = 0, duplicates = 0;
    bool drained = false;            // every measured packet (soak: every packet) delivered
    bool deadlock = false;
    double maxChannelUtilisation = 0, meanChannelUtilisation = 0;  // router-to-router, window
    double meanBufferFlitsPerRouter = 0;                             // input buffers, window
    std::vector<uint64_t> sinkFlits;  // flits delivered to each terminal in the window
    uint64_t cycles = 0;             // simulated in total
};

TrafficResult runTraffic(const NocParams& p, unsigned nodes, const TrafficOptions& o);

// The first load of a sweep (in order) that is saturated: accepted throughput below 95% of
// the offered load, measured packets not all delivered within the drain bound, or mean
// latency above 10x the zero-load latency (queues growing without bound); -1 if none.
int saturationIndex(const std::vector<TrafficResult>& sweep);

} // namespace gpusim
