// The synthetic-traffic testbench (interconnect/SyntheticTraffic.hpp): patterns, measurement
// and determinism, on small networks with short bounded runs.
#include <gtest/gtest.h>

#include "common/Config.hpp"
#include "common/SimError.hpp"
#include "interconnect/SyntheticTraffic.hpp"

namespace synthetic_traffic_test {

using namespace gpusim;

namespace {

NocParams params(const std::vector<std::string>& sets = {}) {
    ParamSchema s;
    NocParams::declare(s);
    Config c(s);
    for (const auto& x : sets) c.setFromString(x);
    c.validate();
    return NocParams::from(c);
}

TrafficOptions opts(double rate, TrafficPattern pat = TrafficPattern::Uniform) {
    TrafficOptions o;
    o.pattern = pat;
    o.rate = rate;
    o.warmupCycles = 500;
    o.measureCycles = 3000;
    o.drainCycles = 2000;
    return o;
}

} // namespace

TEST(SyntheticTraffic, AnalyticZeroLoadLatency) {
    // Crossbar: 1 router: R + L + F - 1 = 3 + 1 + 4 with 5-flit packets.
    TrafficOptions o = opts(0.01);
    o.packetFlits = 5;
    EXPECT_DOUBLE_EQ(runTraffic(params(), 16, o).zeroLoadLatency, 8.0);
    // 4x4 mesh, uniform: the mean |dx| over all pairs of 4 columns is 2 * (3*1 + 2*2 + 1*3) / 16
    // = 1.25, the same for |dy|; routers = 1.25 + 1.25 + 1 = 3.5, times R + L = 4: 14.
    EXPECT_DOUBLE_EQ(runTraffic(params({"noc.topology=mesh"}), 16, opts(0.01)).zeroLoadLatency, 14.0);
    // All traffic to node 0: mean routers = mean(row) + mean(col) + 1 = 1.5 + 1.5 + 1 = 4: 16.
    TrafficOptions h = opts(0.01, TrafficPattern::Hotspot);
    h.hotspotFraction = 1.0;
    EXPECT_DOUBLE_EQ(runTraffic(params({"noc.topology=mesh"}), 16, h).zeroLoadLatency, 16.0);
}

TEST(SyntheticTraffic, LowLoadLatencyIsTheZeroLoadLatency) {
    // At 1% load a 16-port crossbar rarely has two packets at one output: the median packet
    // sees no contention, and everything created is delivered.
    const TrafficResult r = runTraffic(params(), 16, opts(0.01));
    EXPECT_EQ(r.latencyP50, 4.0);
    EXPECT_GE(r.latencyMean, 4.0);
    EXPECT_LT(r.latencyMean, 4.2);
    EXPECT_GE(r.latencyMax, r.latencyP50);
    EXPECT_TRUE(r.drained);
    EXPECT_EQ(r.measuredDelivered, r.measuredPackets);
    // Accepted differs from offered only by the few packets in flight across the window's
    // edges (a handful of flits out of about 480).
    EXPECT_NEAR(r.accepted, r.offered, 0.0005);
    EXPECT_NEAR(r.offered, 0.01, 0.003);
}

TEST(SyntheticTraffic, TransposeIsAPermutationForACrossbar) {
    // Transpose on 16 = 4 x 4 terminals: (a, b) -> (b, a), each output has exactly one
    // source, so even a FIFO crossbar accepts (almost) the full offered load of 1, far above
    // its uniform-traffic saturation (about 0.6).
    const TrafficResult r = runTraffic(params(), 16, opts(1.0, TrafficPattern::Transpose));
    EXPECT_GT(r.accepted, 0.98);
    // Every terminal is the destination of exactly one source.
    for (unsigned j = 0; j < 16; ++j) EXPECT_GT(r.sinkFlits[j], 2800u) << j;
    EXPECT_THROW(runTraffic(params(), 12, opts(0.1, TrafficPattern::Transpose)), InputError);
}

TEST(SyntheticTraffic, HotspotSendsItsShareToTheHotNode) {
    TrafficOptions o = opts(0.05, TrafficPattern::Hotspot);
    o.hotspotNode = 3;
    o.hotspotFraction = 0.5;
    const TrafficResult r = runTraffic(params(), 16, o);
    uint64_t total = 0;
    for (auto f : r.sinkFlits) total += f;
    // Share of node 3: 0.5 + 0.5 / 16 = 0.53125; about 2400 packets, so within +-0.04.
    EXPECT_NEAR(double(r.sinkFlits[3]) / double(total), 0.53125, 0.04);
    EXPECT_NEAR(double(r.sinkFlits[4]) / double(total), 0.5 / 16, 0.015);
}

TEST(SyntheticTraffic, SameSeedSameResultOtherSeedOtherTraffic) {
    const TrafficResult a = runTraffic(params({"noc.topology=mesh"}), 16, opts(0.3));
    const TrafficResult b = runTraffic(params({"noc.topology=mesh"}), 16, opts(0.3));
    EXPECT_EQ(a.created, b.created);
    EXPECT_EQ(a.latencyMean, b.latencyMean);
    EXPECT_EQ(a.sinkFlits, b.sinkFlits);
    TrafficOptions o = opts(0.3);
    o.seed = 2;
    const TrafficResult c = runTraffic(params({"noc.topology=mesh"}), 16, o);
    EXPECT_NE(a.sinkFlits, c.sinkFlits);
}

TEST(SyntheticTraffic, BadOptionsAreInputErrors) {
    EXPECT_THROW(runTraffic(params(), 16, opts(0)), InputError);
    EXPECT_THROW(runTraffic(params(), 16, opts(1.5)), InputError);
    TrafficOptions o = opts(0.1, TrafficPattern::Hotspot);
    o.hotspotNode = 16;
    EXPECT_THROW(runTraffic(params(), 16, o), InputError);
    EXPECT_THROW(parsePattern("bitrev", "--pattern"), InputError);
    EXPECT_EQ(parsePattern("transpose", "--pattern"), TrafficPattern::Transpose);
}

TEST(SyntheticTraffic, SaturationIsTheFirstLoadThatFallsBehind) {
    std::vector<TrafficResult> s(4);
    for (auto& r : s) {
        r.zeroLoadLatency = 10;
        r.drained = true;
    }
    s[0].offered = s[0].accepted = 0.1;
    s[0].latencyMean = 11;
    s[1].offered = s[1].accepted = 0.2;
    s[1].latencyMean = 99;  // below 10x zero load
    s[2].offered = 0.3;
    s[2].accepted = 0.3;
    s[2].latencyMean = 101;  // above 10x zero load
    s[3].offered = 0.4;
    s[3].accepted = 0.37;  // just below 95% of 0.4 = 0.38
    EXPECT_EQ(saturationIndex(s), 2);
    s[2].latencyMean = 20;
    EXPECT_EQ(saturationIndex(s), 3);  // accepted < 95% of offered
    s[3].accepted = 0.4;
    s[3].latencyMean = 12;
    EXPECT_EQ(saturationIndex(s), -1);
    s[1].drained = false;
    EXPECT_EQ(saturationIndex(s), 1);
}

} // namespace synthetic_traffic_test
