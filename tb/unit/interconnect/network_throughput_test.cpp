// The classic throughput results, each from a bounded synthetic run (open loop, 1-flit
// packets, uniform random destinations, offered load 1 flit per node per cycle: saturation):
//  - an input-queued crossbar with FIFO inputs saturates at the head-of-line bound: for N
//    ports 1 - ... (Karol, Hluchyj, Morgan 1987): 0.6553 for N = 4, about 0.60 for N = 16,
//    2 - sqrt(2) = 0.586 as N grows;
//  - virtual output queues with iSLIP remove head-of-line blocking: above 0.9;
//  - an 8x8 mesh with XY routing cannot carry more than its bisection/channel-load bound
//    4 / k = 0.5 flits per node per cycle under uniform traffic, and a good router gets
//    within reach of it (here: at least 70%).
// Windows are a few thousand cycles: the 95% spread of a saturated window average is well
// under the tolerances used (measured values are in docs/interconnect.md).
#include <gtest/gtest.h>

#include <algorithm>

#include "common/Config.hpp"
#include "interconnect/SyntheticTraffic.hpp"

namespace network_throughput_test {

using namespace gpusim;

namespace {

NocParams params(const std::vector<std::string>& sets) {
    ParamSchema s;
    NocParams::declare(s);
    Config c(s);
    for (const auto& x : sets) c.setFromString(x);
    c.validate();
    return NocParams::from(c);
}

TrafficResult saturate(const std::vector<std::string>& sets, unsigned nodes, double rate = 1.0) {
    TrafficOptions o;
    o.rate = rate;
    o.warmupCycles = 1000;
    o.measureCycles = 4000;
    o.drainCycles = 0;  // accepted throughput only
    return runTraffic(params(sets), nodes, o);
}

} // namespace

TEST(NocThroughput, FifoCrossbarSaturatesAtTheHeadOfLineBound) {
    const TrafficResult r16 = saturate({"noc.crossbar.queues=fifo"}, 16);
    EXPECT_GT(r16.accepted, 0.57) << "N = 16: about 0.60";
    EXPECT_LT(r16.accepted, 0.63) << "N = 16: about 0.60";
    const TrafficResult r4 = saturate({"noc.crossbar.queues=fifo"}, 4);
    EXPECT_NEAR(r4.accepted, 0.6553, 0.03) << "N = 4";
    EXPECT_GT(r4.accepted, r16.accepted) << "the bound falls with N";
}

TEST(NocThroughput, VoqWithIslipExceedsNinetyPercent) {
    const TrafficResult r = saturate({"noc.crossbar.queues=voq", "noc.allocator=islip"}, 16);
    EXPECT_GT(r.accepted, 0.9);
    EXPECT_LE(r.accepted, 1.0);
}

TEST(NocThroughput, SpeedupTwoLiftsAFifoCrossbar) {
    const TrafficResult r = saturate({"noc.crossbar.queues=fifo", "noc.speedup=2"}, 16);
    EXPECT_GT(r.accepted, 0.8) << "two switch traversals per cycle: head-of-line blocking mostly hidden";
}

TEST(NocThroughput, MeshXyStaysUnderTheChannelLoadBoundAndNearIt) {
    double best = 0;
    for (double rate : {0.2, 0.45, 1.0}) {
        const TrafficResult r = saturate({"noc.topology=mesh"}, 64, rate);
        EXPECT_LE(r.accepted, 0.5) << "offered " << rate;
        EXPECT_LE(r.accepted, r.offered + 1e-9) << "offered " << rate;
        EXPECT_LE(r.maxChannelUtilisation, 1.0);
        if (rate == 0.2) {
            EXPECT_NEAR(r.accepted, r.offered, 0.01) << "below saturation all is accepted";
        }
        best = std::max(best, r.accepted);
    }
    EXPECT_GE(best, 0.7 * 0.5);
}

} // namespace network_throughput_test
