// Topologies as descriptions: wiring, routing paths and terminal placement, checked against
// paths worked out by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/Config.hpp"
#include "common/SimError.hpp"
#include "interconnect/ButterflyTopology.hpp"
#include "interconnect/CrossbarTopology.hpp"
#include "interconnect/MeshTopology.hpp"
#include "interconnect/TopologyFactory.hpp"

namespace topology_test {

using namespace gpusim;

namespace {

using Names = std::vector<std::string>;

NocParams params(const std::vector<std::string>& sets = {}) {
    ParamSchema s;
    NocParams::declare(s);
    Config c(s);
    for (const auto& x : sets) c.setFromString(x);
    c.validate();
    return NocParams::from(c);
}

} // namespace

TEST(CrossbarTopology, OneRouterEveryPairOneHop) {
    CrossbarTopology t(3, 2, false);
    ASSERT_EQ(t.routers().size(), 1u);
    EXPECT_EQ(t.routers()[0].inPorts, 3u);
    EXPECT_EQ(t.routers()[0].outPorts, 2u);
    EXPECT_TRUE(t.channels().empty());
    for (unsigned s = 0; s < 3; ++s)
        for (unsigned d = 0; d < 2; ++d) {
            EXPECT_EQ(t.hops(s, d), 1u);
            EXPECT_EQ(t.route(0, d), d);
        }
    EXPECT_EQ(t.inputVcs({0, 1}, 1), 1u);
    EXPECT_EQ(t.injectionVc(1, 1), -1);
    CrossbarTopology v(3, 2, true);  // virtual output queues: a VC per output, chosen by destination
    EXPECT_EQ(v.inputVcs({0, 1}, 1), 2u);
    EXPECT_EQ(v.injectionVc(2, 1), 1);
}

// 2-ary 3-fly: 8 terminals, 3 stages of 4 routers. Source 5 enters s0r2 (5 / 2) at port 1.
// Sink 6 = 110b: stage 0 takes port 1 (digit 2), the channel replaces digit 1 of the router
// index 2 = 10b by 1: s1r2; stage 1 takes port 1 (digit 1) and replaces digit 0 of 10b by 1:
// s2r3; stage 2 takes port 0 (digit 0): terminal 3 * 2 + 0 = 6.
TEST(ButterflyTopology, DestinationTagRoutingByHand) {
    ButterflyTopology t(2, 3, 8, 8);
    EXPECT_EQ(t.stages(), 3u);
    EXPECT_EQ(t.routers().size(), 12u);
    EXPECT_EQ(t.channels().size(), 2u * 4 * 2);  // 2 inter-stage gaps x 4 routers x 2 ports
    EXPECT_EQ(t.path(5, 6), (Names{"s0r2", "s1r2", "s2r3"}));
    EXPECT_EQ(t.path(0, 7), (Names{"s0r0", "s1r2", "s2r3"}));
    // Every pair: n routers, and the path ends at the right sink (hops() throws otherwise).
    for (unsigned s = 0; s < 8; ++s)
        for (unsigned d = 0; d < 8; ++d) EXPECT_EQ(t.hops(s, d), 3u) << s << "->" << d;
}

TEST(ButterflyTopology, Fermi30ClustersAndPartitionsAreSpread) {
    // 15 clusters and 6 partitions: the fewest stages of radix 4 with 4^n >= 15 is 2.
    ButterflyTopology t(4, 0, 15, 6);
    EXPECT_EQ(t.stages(), 2u);
    EXPECT_EQ(t.ports(), 16u);
    EXPECT_EQ(t.routers().size(), 8u);
    // Sinks at floor(j * 16 / 6) = 0, 2, 5, 8, 10, 13: last-stage routers 0, 0, 1, 2, 2, 3.
    const std::vector<unsigned> ports = {0, 2, 5, 8, 10, 13};
    for (unsigned j = 0; j < 6; ++j) {
        EXPECT_EQ(t.sinkPort(j), ports[j]);
        EXPECT_EQ(t.sinks()[j].router, 4 + ports[j] / 4);
        EXPECT_EQ(t.sinks()[j].port, ports[j] % 4);
    }
    // Sources at floor(i * 16 / 15) = i: cluster 14 on s0r3 port 2.
    EXPECT_EQ(t.sources()[14].router, 3u);
    EXPECT_EQ(t.sources()[14].port, 2u);
    for (unsigned s = 0; s < 15; ++s)
        for (unsigned d = 0; d < 6; ++d) EXPECT_EQ(t.hops(s, d), 2u);
    EXPECT_THROW(ButterflyTopology(4, 1, 15, 6), InputError);  // a 4-ary 1-fly has 4 ports
}

TEST(MeshTopology, XyRoutingGoesAlongTheRowFirst) {
    std::vector<unsigned> all(16);
    for (unsigned i = 0; i < 16; ++i) all[i] = i;
    MeshTopology t(4, 4, all, all);
    EXPECT_EQ(t.channels().size(), 2u * (4 * 3 + 3 * 4));
    // Node 1 (row 0, col 1) to node 14 (row 3, col 2): east to col 2, then south 3 rows.
    EXPECT_EQ(t.path(1, 14), (Names{"n1", "n2", "n6", "n10", "n14"}));
    // Back: west first (col 1), then north.
    EXPECT_EQ(t.path(14, 1), (Names{"n14", "n13", "n9", "n5", "n1"}));
    EXPECT_EQ(t.hops(0, 15), 7u);
    EXPECT_EQ(t.hops(5, 5), 1u);  // to itself: in and out of its own router
    EXPECT_EQ(t.route(5, 5), MeshTopology::Local);
    EXPECT_EQ(t.route(5, 7), MeshTopology::East);
    EXPECT_EQ(t.route(5, 4), MeshTopology::West);
    EXPECT_EQ(t.route(5, 13), MeshTopology::South);
    EXPECT_EQ(t.route(5, 1), MeshTopology::North);
    EXPECT_EQ(t.portName(0, MeshTopology::North), "north");
}

TEST(MeshPlacement, AutomaticSpreadsPartitionsAndFillsTheRestWithSms) {
    // fermi15 on a mesh: 15 + 6 = 21 terminals -> 5x5. Partitions at floor((2j+1) * 25 / 12):
    // 2, 6, 10, 14, 18, 22; SMs on the first 15 other nodes.
    const MeshPlacement m = MeshPlacement::fromParams(params({"noc.topology=mesh"}), 15, 6);
    EXPECT_EQ(m.rows, 5u);
    EXPECT_EQ(m.cols, 5u);
    EXPECT_EQ(m.mcNodes, (std::vector<unsigned>{2, 6, 10, 14, 18, 22}));
    EXPECT_EQ(m.smNodes, (std::vector<unsigned>{0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 19}));
}

TEST(MeshPlacement, Owl28DiamondLayout) {
    // The placement docs/interconnect.md recommends for owl28: 6x6, memory controllers in a
    // diamond around the centre, the 28 SMs everywhere else.
    const NocParams p = params({"noc.topology=mesh", "noc.mesh.rows=6", "noc.mesh.cols=6",
                                "noc.mesh.mc_nodes=8,9,13,16,19,22,26,27"});
    auto req = makeGpuSubnet(p, 28, 8, Subnet::Request);
    const auto& mesh = dynamic_cast<const MeshTopology&>(*req);
    EXPECT_EQ(mesh.layout(),
              "S S S S S S\n"
              "S S M M S S\n"
              "S M S S M S\n"
              "S M S S M S\n"
              "S S M M S S\n"
              "S S S S S S\n");
    EXPECT_EQ(mesh.sourceNode(27), 35u);
    EXPECT_EQ(mesh.sinkNode(7), 27u);
    // The reply subnet mirrors it: partitions are the sources.
    auto reply = makeGpuSubnet(p, 28, 8, Subnet::Reply);
    EXPECT_EQ(reply->sources().size(), 8u);
    EXPECT_EQ(reply->sinks().size(), 28u);
    EXPECT_EQ(reply->sources()[0].router, 8u);
}

TEST(MeshPlacement, ErrorsNameTheKey) {
    auto expectError = [](const std::vector<std::string>& sets, unsigned clusters, unsigned parts, const char* key) {
        try {
            MeshPlacement::fromParams(params(sets), clusters, parts);
            ADD_FAILURE() << "no error for " << key;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
        }
    };
    expectError({"noc.mesh.rows=2", "noc.mesh.cols=2"}, 3, 2, "noc.mesh.rows");
    expectError({"noc.mesh.mc_nodes=1,2"}, 4, 3, "noc.mesh.mc_nodes");
    expectError({"noc.mesh.rows=3", "noc.mesh.cols=3", "noc.mesh.sm_nodes=0-3"}, 5, 1, "noc.mesh.sm_nodes");
    // A node may host an SM cluster and a partition (one injects, the other ejects there).
    const MeshPlacement m =
        MeshPlacement::fromParams(params({"noc.mesh.rows=1", "noc.mesh.cols=2", "noc.mesh.sm_nodes=0,1",
                                          "noc.mesh.mc_nodes=1"}),
                                  2, 1);
    MeshTopology t(m.rows, m.cols, m.smNodes, m.mcNodes);
    EXPECT_EQ(t.layout(), "S B\n");
}

TEST(SyntheticTopology, EveryTerminalSendsAndReceives) {
    auto x = makeSyntheticTopology(params(), 16);
    EXPECT_EQ(x->describe(), "crossbar 16x16, FIFO input queues");
    auto b = makeSyntheticTopology(params({"noc.topology=butterfly"}), 16);
    EXPECT_EQ(b->describe(), "4-ary 2-fly (8 routers of 4x4), 16 sources, 16 sinks");
    auto m = makeSyntheticTopology(params({"noc.topology=mesh"}), 64);
    EXPECT_EQ(m->describe(), "mesh 8x8, XY routing, 64 sources, 64 sinks");
    EXPECT_THROW(makeSyntheticTopology(params({"noc.topology=mesh"}), 12), InputError);
    auto r = makeSyntheticTopology(params({"noc.topology=mesh", "noc.mesh.rows=3", "noc.mesh.cols=4"}), 12);
    EXPECT_EQ(r->sources().size(), 12u);
}

} // namespace topology_test
