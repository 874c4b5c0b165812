// One subnet at flit level (interconnect/Network.hpp, Router.hpp), cycle by cycle without a
// SystemC kernel. Expected cycles are derived by hand from the per-cycle rule:
//   a packet created at c (Packet::readyCycle) injects flit k at c + k into its router; a flit
//   written into a router's input buffer at t leaves it at t + R at the earliest and reaches
//   the next router (or the sink) at t + R + L; credits travel back in L cycles.
// Zero load over H routers: delivered at c + H * (R + L) + F - 1.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <numeric>
#include <vector>

#include "interconnect/ButterflyTopology.hpp"
#include "interconnect/CrossbarTopology.hpp"
#include "interconnect/MeshTopology.hpp"
#include "interconnect/Network.hpp"

namespace network_test {

using namespace gpusim;

namespace {

Network::Params params(unsigned r = 3, unsigned l = 1) {
    Network::Params p;
    p.routerCycles = r;
    p.linkCycles = l;
    p.bufferFlits = 8;
    p.ejectionVcFlits = 10;
    return p;
}

std::vector<unsigned> iota(unsigned n) {
    std::vector<unsigned> v(n);
    std::iota(v.begin(), v.end(), 0u);
    return v;
}

struct Rig {
    StatRegistry stats;
    std::map<uint64_t, uint64_t> delivered;  // id -> cycle
    std::vector<uint64_t> order;
    uint64_t now = 0;
    uint64_t blockUntil = 0;
    // What the consumer answers while blocked, and how often it was asked.
    Network::Delivery blocked = Network::Delivery::Refused;
    uint64_t asks = 0;
    std::unique_ptr<Network> net;

    Rig(std::unique_ptr<Topology> t, const Network::Params& p) {
        net = std::make_unique<Network>(
            "t", std::move(t), p, stats,
            [this](unsigned sink, const Packet& pk) {
                ++asks;
                if (now < blockUntil) return blocked;
                EXPECT_EQ(pk.dst, sink);
                EXPECT_EQ(delivered.count(pk.id), 0u) << "delivered twice: " << pk.id;
                delivered[pk.id] = now;
                order.push_back(pk.id);
                return Network::Delivery::Taken;
            },
            nullptr);
    }
    void send(uint64_t id, unsigned src, unsigned dst, unsigned flits, uint64_t at) {
        Packet p;
        p.id = id;
        p.src = src;
        p.dst = dst;
        p.flits = flits;
        p.readyCycle = at;
        net->inject(p);
    }
    void run(uint64_t to) {
        for (; now <= to; ++now) net->tick(now);
    }
    uint64_t when(uint64_t id) const {
        auto it = delivered.find(id);
        return it == delivered.end() ? 0 : it->second;
    }
};

} // namespace

TEST(Network, ZeroLoadCrossbar) {
    Rig x(std::make_unique<CrossbarTopology>(2, 2, false), params());
    x.send(1, 0, 1, 1, 10);  // H = 1: 10 + (3 + 1) + 0
    x.send(2, 1, 0, 5, 30);  // 30 + 4 + 4
    x.run(60);
    EXPECT_EQ(x.when(1), 14u);
    EXPECT_EQ(x.when(2), 38u);
    EXPECT_TRUE(x.net->empty());
    EXPECT_DOUBLE_EQ(x.stats.get("t.latency"), (4.0 + 8.0) / 2);
    EXPECT_EQ(x.stats.get("t.flits"), 6);
    EXPECT_EQ(x.stats.get("t.eject1.flits"), 1);
    EXPECT_EQ(x.stats.get("t.inject1.flits"), 5);
    // Other delays: R = 2, L = 3: 10 + 5 + 4.
    Rig y(std::make_unique<CrossbarTopology>(1, 1, false), params(2, 3));
    y.send(1, 0, 0, 5, 10);
    y.run(40);
    EXPECT_EQ(y.when(1), 19u);
}

TEST(Network, ZeroLoadButterfly) {
    // 2-ary 3-fly: H = 3 routers.
    Rig b(std::make_unique<ButterflyTopology>(2, 3, 8, 8), params());
    b.send(1, 5, 6, 1, 10);  // 10 + 3 * 4
    b.send(2, 0, 7, 5, 40);  // 40 + 12 + 4
    b.run(80);
    EXPECT_EQ(b.when(1), 22u);
    EXPECT_EQ(b.when(2), 56u);
    EXPECT_EQ(b.stats.get("t.link.s0r2.p1.flits"), 1) << "the path of 5 -> 6 starts s0r2 port 1";
}

TEST(Network, ZeroLoadMesh) {
    // 4x4 mesh, node 0 to node 15: 3 east, 3 south, 7 routers.
    Rig m(std::make_unique<MeshTopology>(4, 4, iota(16), iota(16)), params());
    m.send(1, 0, 15, 1, 10);  // 10 + 7 * 4
    m.send(2, 0, 15, 5, 60);  // 60 + 28 + 4
    m.send(3, 6, 6, 1, 100);  // to itself: 1 router, 100 + 4
    m.run(140);
    EXPECT_EQ(m.when(1), 38u);
    EXPECT_EQ(m.when(2), 92u);
    EXPECT_EQ(m.when(3), 104u);
    Rig f(std::make_unique<MeshTopology>(4, 4, iota(16), iota(16)), params(1, 2));
    f.send(1, 0, 15, 1, 10);  // 10 + 7 * (1 + 2)
    f.run(40);
    EXPECT_EQ(f.when(1), 31u);
}

TEST(Network, FlitsOfBackToBackPacketsPipeline) {
    Rig x(std::make_unique<CrossbarTopology>(1, 1, false), params());
    x.send(1, 0, 0, 5, 10);
    x.send(2, 0, 0, 5, 10);
    x.run(40);
    // First: 10 + 4 + 4 = 18. The second's flits are injected right behind, 15..19: its tail
    // leaves at 22 and is delivered at 23.
    EXPECT_EQ(x.when(1), 18u);
    EXPECT_EQ(x.when(2), 23u);
}

// Two sources, one sink, 5-flit packets A (source 0) and B (source 1) created at 0: both heads
// are ready at 3 and request the sink; iSLIP grants input 0 first. A leaves 3..7 and is
// delivered at 8. From 4 B's head finds the output held by A: its input is parked (not asked
// again) until A's tail passes at 7, which unparks it in the same cycle; B leaves 8..12 and is
// delivered at 13, as without parking.
TEST(Network, AHeadBehindAnotherPacketIsParkedUntilItsTailPasses) {
    Rig x(std::make_unique<CrossbarTopology>(2, 1, false), params());
    x.send(1, 0, 0, 5, 0);
    x.send(2, 1, 0, 5, 0);
    const Router& r = x.net->router(0);
    x.run(3);
    EXPECT_FALSE(r.parked(1)) << "at 3 B's head requested (and lost): not parked";
    for (uint64_t c = 4; c <= 6; ++c) {
        x.run(c);
        EXPECT_TRUE(r.parked(1)) << "cycle " << c;
        EXPECT_TRUE(r.outputVcHeld(0, 0)) << "cycle " << c;
    }
    x.run(7);
    EXPECT_FALSE(r.parked(1)) << "A's tail left at 7";
    EXPECT_FALSE(r.parked(0));
    x.run(30);
    EXPECT_EQ(x.when(1), 8u);
    EXPECT_EQ(x.when(2), 13u);
}

// A head refused for want of a credit is parked until one comes. Source 0's ten 1-flit packets
// (created at 0, leaving the router 3..12) fill the sink's 10-flit buffer; the consumer refuses
// until 100. Source 1's packet X, created at 20, is ready at 23 and parked there (no credit),
// and the router sleeps. At 100 packet 0 is taken; its credit arrives at 101 and unparks X,
// which leaves at 101 and completes at 102, behind packets 1..9 (taken 101..109): X at 110.
TEST(Network, AHeadWithoutACreditIsParkedUntilACreditComes) {
    Rig x(std::make_unique<CrossbarTopology>(2, 1, false), params());
    x.blockUntil = 100;
    for (unsigned n = 0; n < 10; ++n) x.send(n, 0, 0, 1, 0);
    x.send(50, 1, 0, 1, 20);
    const Router& r = x.net->router(0);
    x.run(22);
    EXPECT_FALSE(r.parked(1));
    x.run(23);
    EXPECT_TRUE(r.parked(1));
    EXPECT_EQ(r.outputCredits(0, 0), 0u);
    EXPECT_EQ(r.wakeAt(), UINT64_MAX);
    x.run(100);
    EXPECT_TRUE(r.parked(1));
    x.run(101);
    EXPECT_FALSE(r.parked(1));
    x.run(200);
    for (unsigned n = 0; n < 10; ++n) EXPECT_EQ(x.when(n), 100u + n) << "packet " << n;
    EXPECT_EQ(x.when(50), 110u);
}

// A body flit of a packet that holds its output crosses without the switch allocator (the
// router's express inputs) but still only with a credit. One source, one sink with a 7-flit
// reassembly buffer, two 5-flit packets created at 0, the consumer refusing until 50. Packet 1
// leaves the router 3..7 and is complete at 8. Packet 2's flits are injected 5..9 and ready
// 8..12: its head and first body flit leave at 8 and 9 with the last two credits; its second
// body flit, ready at 10, waits with the output held. At 50 packet 1 is taken; its five
// credits arrive at 51, and packet 2's last three flits leave 51..53: complete and taken at 54.
TEST(Network, ABodyFlitWaitsForACreditWithItsOutputHeld) {
    Network::Params p = params();
    p.ejectionVcFlits = 7;
    Rig x(std::make_unique<CrossbarTopology>(1, 1, false), p);
    x.blockUntil = 50;
    x.send(1, 0, 0, 5, 0);
    x.send(2, 0, 0, 5, 0);
    const Router& r = x.net->router(0);
    x.run(9);
    EXPECT_EQ(r.outputCredits(0, 0), 0u);
    for (uint64_t c = 10; c <= 50; ++c) {
        x.run(c);
        ASSERT_TRUE(r.outputVcHeld(0, 0)) << "cycle " << c;
        ASSERT_EQ(r.buffered(), 3u) << "cycle " << c;
    }
    x.run(51);
    EXPECT_EQ(r.buffered(), 2u) << "the second body flit left at 51";
    x.run(100);
    EXPECT_EQ(x.when(1), 50u);
    EXPECT_EQ(x.when(2), 54u);
    EXPECT_FALSE(r.outputVcHeld(0, 0));
}

// FreedFn is called for a source only after its owner asked (notifyWhenFreed), once per ask,
// when the next packet's tail is in. Source 0 injects three 2-flit packets created at 0 (tails
// in at 1, 3, 5); the owner asks before the run and again from the first call.
TEST(Network, FreedIsToldOnlyWhenAskedAndOncePerAsk) {
    StatRegistry stats;
    std::vector<std::pair<unsigned, uint64_t>> freed;  // (source, cycle)
    uint64_t now = 0;
    std::unique_ptr<Network> net;
    net = std::make_unique<Network>(
        "t", std::make_unique<CrossbarTopology>(2, 1, false), params(), stats,
        [](unsigned, const Packet&) { return Network::Delivery::Taken; },
        [&](unsigned src) {
            freed.emplace_back(src, now);
            if (freed.size() == 1) net->notifyWhenFreed(src);
        });
    for (uint64_t id = 0; id < 3; ++id) {
        Packet p;
        p.id = id;
        p.src = 0;
        p.dst = 0;
        p.flits = 2;
        p.readyCycle = 0;
        net->inject(p);
    }
    net->notifyWhenFreed(0);
    for (; now <= 40; ++now) net->tick(now);
    EXPECT_EQ(freed, (std::vector<std::pair<unsigned, uint64_t>>{{0, 1}, {0, 3}}));
}

// A 1x2 mesh, source on node 0, sink on node 1, 2-flit buffers, R = 3, L = 1, a long stream
// of 1-flit packets. A buffer slot of the n0 -> n1 channel serves one flit per credit loop:
// leave n0 at t, arrive n1 at t+1, leave n1 at t+4, credit back at n0 at t+5. So n0 sends two
// flits every 5 cycles: at 3, 4, then 8, 9, 13, 14, ... (the injection buffer, whose slots come
// back after R + 1 = 4 cycles, keeps up). Each reaches the sink R + 2L = 5 cycles after
// leaving n0: packet n is delivered at 8 + 5 * (n / 2) + n % 2: 0.4 flits per cycle.
TEST(Network, CreditLoopLimitsAStreamToBufferOverRoundTrip) {
    Network::Params p = params();
    p.bufferFlits = 2;
    Rig m(std::make_unique<MeshTopology>(1, 2, std::vector<unsigned>{0}, std::vector<unsigned>{1}), p);
    constexpr unsigned kPackets = 40;
    for (unsigned n = 0; n < kPackets; ++n) m.send(n, 0, 0, 1, 0);
    m.run(200);
    for (unsigned n = 0; n < kPackets; ++n) EXPECT_EQ(m.when(n), 8u + 5 * (n / 2) + n % 2) << "packet " << n;
}

// Flits in router input buffers, counted after each cycle, whether the input is a source
// interface's (a crossbar's: no credits go back) or a channel's (a mesh's second router: each
// freed slot is credited upstream).
TEST(Network, BufferedFlitsCountEveryInputBuffer) {
    // Crossbar: flit k of a 5-flit packet created at 10 enters at 10 + k and leaves at 13 + k.
    Rig x(std::make_unique<CrossbarTopology>(1, 1, false), params());
    x.send(1, 0, 0, 5, 10);
    std::vector<uint64_t> seen;
    for (; x.now <= 18; ++x.now) {
        x.net->tick(x.now);
        if (x.now >= 10) seen.push_back(x.net->bufferedFlits());
    }
    EXPECT_EQ(seen, (std::vector<uint64_t>{1, 2, 3, 3, 3, 2, 1, 0, 0}));  // cycles 10..18
    // 5 injected, 5 through the switch, 1 packet delivered (at 18).
    EXPECT_EQ(x.net->progress(), 11u);
    // 1x2 mesh: a 1-flit packet created at 10 is in n0's buffer over 10..12, on the channel at
    // 13, in n1's buffer over 14..16, delivered at 18.
    Rig m(std::make_unique<MeshTopology>(1, 2, std::vector<unsigned>{0}, std::vector<unsigned>{1}), params());
    m.send(1, 0, 0, 1, 10);
    seen.clear();
    for (; m.now <= 18; ++m.now) {
        m.net->tick(m.now);
        if (m.now >= 10) seen.push_back(m.net->bufferedFlits());
    }
    EXPECT_EQ(seen, (std::vector<uint64_t>{1, 1, 1, 0, 1, 1, 1, 0, 0}));
    EXPECT_EQ(m.when(1), 18u);
    EXPECT_EQ(m.net->progress(), 4u);  // injected, two switches, delivered
    EXPECT_EQ(m.net->router(0).outputCredits(1, 0), 8u) << "n1's freed slot came back to n0";
}

TEST(Network, BlockedSinkFillsBuffersThenDrainsInOrder) {
    Rig x(std::make_unique<CrossbarTopology>(1, 1, false), params());
    x.blockUntil = 100;
    constexpr unsigned kPackets = 30;
    for (unsigned n = 0; n < kPackets; ++n) x.send(n, 0, 0, 1, 0);
    x.run(99);
    // Held: 10 flits in the sink (its credits), 8 in the router input buffer; nothing
    // delivered, the other 12 still queued at the source.
    EXPECT_TRUE(x.delivered.empty());
    EXPECT_EQ(x.stats.get("t.inject0.flits"), 18);
    EXPECT_EQ(x.net->router(0).buffered(), 8u);
    EXPECT_EQ(x.net->router(0).outputCredits(0, 0), 0u);
    EXPECT_EQ(x.net->router(0).wakeAt(), UINT64_MAX) << "every front blocked on a credit: asleep until one comes";
    EXPECT_EQ(x.net->sourceOccupancy(0), 12u);
    const std::string dump = x.net->dump(99);
    EXPECT_NE(dump.find("t.sink0.vc0 [10/10]"), std::string::npos) << dump;
    EXPECT_NE(dump.find("t.xbar.in0.vc0 [8/8]"), std::string::npos) << dump;
    EXPECT_NE(dump.find("t.src0 [12]"), std::string::npos) << dump;
    // Released at 100: one delivery per cycle (a freed slot is credited back in L = 1 cycle
    // and refilled from the router at once), all in order.
    x.run(200);
    ASSERT_EQ(x.order.size(), kPackets);
    for (unsigned n = 0; n < kPackets; ++n) {
        EXPECT_EQ(x.order[n], n);
        EXPECT_EQ(x.when(n), 100u + n);
    }
    EXPECT_TRUE(x.net->empty());
}

// A router none of whose inputs can request skips its ticks until the first front's delay ends
// (R = 3): a flit injected at 0 is ready at 3; one injected at 1 behind it does not wake it
// earlier. Zero-load timing unchanged: delivered at 0 + (3 + 1) = 4 and 5.
TEST(Network, ARouterWithNothingToRequestSleepsUntilAFrontIsReady) {
    Rig x(std::make_unique<CrossbarTopology>(1, 1, false), params());
    x.send(0, 0, 0, 1, 0);
    x.send(1, 0, 0, 1, 0);
    x.run(0);
    EXPECT_EQ(x.net->router(0).wakeAt(), 3u);
    x.run(2);
    EXPECT_EQ(x.net->router(0).wakeAt(), 3u);
    EXPECT_EQ(x.net->router(0).buffered(), 2u);
    x.run(10);
    EXPECT_EQ(x.when(0), 4u);
    EXPECT_EQ(x.when(1), 5u);
}

// 1x3 mesh: B on node 1 and A on node 0 both send 5 flits to the sink on node 2 at cycle 10;
// both cross n1 -> n2.
//  1 VC: B holds n1's east VC from its head (13) to its tail (17); B is delivered at
//        10 + 2 * 4 + 4 = 22. A reaches n1 at 14..18, ready 17..21, but takes the VC only
//        after B's tail: leaves n1 18..22, n2 22..26, delivered 27.
//  2 VCs: A's head takes the second VC at 17 and wins the switch (round-robin after B's
//        local input), B's tail goes at 18: n1 east carries B0-B3, A0, B4, A1-A4 at 13..22.
//        At n2, B4 (ready 22) leaves at 22: B delivered 23; A's tail still 27.
TEST(Network, VirtualChannelsInterleavePacketsOnALink) {
    for (unsigned vcs : {1u, 2u}) {
        Network::Params p = params();
        p.vcs = vcs;
        Rig m(std::make_unique<MeshTopology>(1, 3, std::vector<unsigned>{0, 1}, std::vector<unsigned>{2}), p);
        m.send(1, 0, 0, 5, 10);  // A
        m.send(2, 1, 0, 5, 10);  // B
        m.run(60);
        EXPECT_EQ(m.when(2), vcs == 1 ? 22u : 23u) << vcs << " VCs";
        EXPECT_EQ(m.when(1), 27u) << vcs << " VCs";
        EXPECT_EQ(m.stats.get("t.link.n1.east.flits"), 10);
    }
}

// Internal speed-up relieves head-of-line blocking. Crossbar 2x2: input 0 sends p0 to output
// 0 at 10; input 1 sends p1 to output 0 at 10 and p2 to output 1 at 11.
//  S = 1: at 13 output 0 takes p0 and p1 waits, holding p2 behind it; p1 goes at 14, p2 at 15:
//         delivered 14, 15, 16.
//  S = 2: at 13 both p0 and p1 cross (two rounds) into output 0's buffer, which sends one per
//         cycle (13, 14); p2 is free to go at 14: delivered 14, 15, 15.
TEST(Network, SpeedupRelievesHeadOfLineBlocking) {
    for (unsigned s : {1u, 2u}) {
        Network::Params p = params();
        p.speedup = s;
        Rig x(std::make_unique<CrossbarTopology>(2, 2, false), p);
        x.send(0, 0, 0, 1, 10);
        x.send(1, 1, 0, 1, 10);
        x.send(2, 1, 1, 1, 11);
        x.run(40);
        EXPECT_EQ(x.when(0), 14u) << "S=" << s;
        EXPECT_EQ(x.when(1), 15u) << "S=" << s;
        EXPECT_EQ(x.when(2), s == 1 ? 16u : 15u) << "S=" << s;
    }
}

// Input 0 sends 5 flits to output 0 at 10 (they leave 13..17, delivered 18); input 1 sends p1
// to output 0 at 10 and p2 to output 1 at 11.
//  FIFO: p1 waits for output 0's VC until input 0's tail has gone (17), leaves at 18, and p2
//        behind it at 19: delivered 19, 20.
//  VOQ:  p2 sits in its own VC and leaves at 14 (injected 11, ready 14) while p1 cannot
//        request the held output: p2 delivered 15, p1 still 19.
TEST(Network, VirtualOutputQueuesAvoidHeadOfLineBlocking) {
    for (bool voq : {false, true}) {
        Rig x(std::make_unique<CrossbarTopology>(2, 2, voq), params());
        x.send(0, 0, 0, 5, 10);
        x.send(1, 1, 0, 1, 10);
        x.send(2, 1, 1, 1, 11);
        x.run(40);
        EXPECT_EQ(x.when(0), 18u) << "voq " << voq;
        EXPECT_EQ(x.when(1), 19u) << "voq " << voq;
        EXPECT_EQ(x.when(2), voq ? 15u : 20u) << "voq " << voq;
    }
}

TEST(Network, RejectsPacketsLargerThanTheReassemblyBuffer) {
    Rig x(std::make_unique<CrossbarTopology>(1, 1, false), params());
    EXPECT_THROW(x.send(1, 0, 0, 11, 0), std::logic_error);
    EXPECT_THROW(x.send(1, 0, 1, 1, 0), std::logic_error);  // no sink 1
}

// The same blocked sink, its consumer answering SinkBusy instead of Refused: ejection asks once
// per cycle instead of once per complete packet, and nothing else changes. The flits reach the
// sink at 4..13 (one-flit packets back to back), so before the release at 100 a Refused
// consumer is asked 1 + 2 + ... + 10 = 55 times in 4..13 and 10 times in each of 14..99 (860):
// 915; a SinkBusy one once in each of 4..99: 96.
TEST(Network, ASinkBusyConsumerIsAskedOncePerCycle) {
    Rig refused(std::make_unique<CrossbarTopology>(1, 1, false), params());
    Rig busy(std::make_unique<CrossbarTopology>(1, 1, false), params());
    busy.blocked = Network::Delivery::SinkBusy;
    constexpr unsigned kPackets = 30;
    for (Rig* x : {&refused, &busy}) {
        x->blockUntil = 100;
        for (unsigned n = 0; n < kPackets; ++n) x->send(n, 0, 0, 1, 0);
        x->run(99);
    }
    EXPECT_EQ(refused.asks, 915u);
    EXPECT_EQ(busy.asks, 96u);
    refused.run(200);
    busy.run(200);
    ASSERT_EQ(busy.order.size(), kPackets);
    for (unsigned n = 0; n < kPackets; ++n) {
        EXPECT_EQ(busy.order[n], n);
        EXPECT_EQ(busy.when(n), 100u + n);
        EXPECT_EQ(refused.when(n), busy.when(n));
    }
}

} // namespace network_test
