// Every topology at overload for a bounded time, then drained: no deadlock (some flit moves
// every few thousand cycles while packets are inside), the network empties, and every packet
// created is delivered exactly once (checked by id in the testbench; the network itself checks
// every flit's packet, order and position at its sink and throws on a lost or duplicated one).
#include <gtest/gtest.h>

#include "common/Config.hpp"
#include "interconnect/SyntheticTraffic.hpp"

namespace network_soak_test {

using namespace gpusim;

namespace {

void soak(const std::vector<std::string>& sets, unsigned nodes, unsigned packetFlits,
          TrafficPattern pattern = TrafficPattern::Uniform) {
    ParamSchema s;
    NocParams::declare(s);
    Config c(s);
    for (const auto& x : sets) c.setFromString(x);
    c.validate();
    TrafficOptions o;
    o.pattern = pattern;
    o.rate = 1.0;  // far beyond saturation for every topology here
    o.packetFlits = packetFlits;
    o.warmupCycles = 0;
    o.measureCycles = 4000;
    o.drainCycles = 100000;
    o.stallCycles = 2000;
    o.soak = true;
    const TrafficResult r = runTraffic(NocParams::from(c), nodes, o);
    EXPECT_FALSE(r.deadlock) << r.topology;
    EXPECT_TRUE(r.drained) << r.topology << ": " << r.delivered << " of " << r.created;
    EXPECT_EQ(r.duplicates, 0u) << r.topology;
    EXPECT_EQ(r.delivered, r.created) << r.topology;
    EXPECT_GT(r.created, 4000u * nodes / packetFlits * 9 / 10) << r.topology << ": the overload was offered";
    EXPECT_LT(r.accepted, 0.99) << r.topology << ": the network really was overloaded";
}

} // namespace

TEST(NocSoak, FifoCrossbar) { soak({}, 16, 5); }
TEST(NocSoak, VoqCrossbarWithSpeedup) { soak({"noc.crossbar.queues=voq", "noc.speedup=2"}, 16, 1, TrafficPattern::Hotspot); }
TEST(NocSoak, Butterfly) { soak({"noc.topology=butterfly"}, 16, 5); }
TEST(NocSoak, DeepButterflyWithVcs) { soak({"noc.topology=butterfly", "noc.butterfly.radix=2", "noc.vcs=2"}, 16, 5); }
TEST(NocSoak, Mesh) { soak({"noc.topology=mesh"}, 64, 5); }
TEST(NocSoak, MeshWithVcsAndSmallBuffersHotspot) {
    soak({"noc.topology=mesh", "noc.vcs=4", "noc.buffer_flits=2", "noc.allocator=round-robin"}, 16, 5,
         TrafficPattern::Hotspot);
}
TEST(NocSoak, MeshTranspose) { soak({"noc.topology=mesh", "noc.vcs=2"}, 36, 1, TrafficPattern::Transpose); }

} // namespace network_soak_test
