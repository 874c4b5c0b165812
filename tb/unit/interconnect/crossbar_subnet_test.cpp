// The switch alone, cycle by cycle (no SystemC kernel): the timing rule of
// interconnect/CrossbarSubnet.hpp. A packet entering at edge c0 is ready for arbitration at
// c0+1; granted at c, it crosses during c .. c+F-1 and is delivered at c+F-1+L.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "interconnect/CrossbarSubnet.hpp"

using namespace gpusim;

namespace {

constexpr uint64_t kPeriod = 1000;  // kernel time units per cycle; only latency stats use it
constexpr unsigned kL = 4;

struct Delivery {
    uint64_t id;
    unsigned out;
    uint64_t cycle;
};

// A subnet whose consumers can be blocked per output, recording what it delivers and frees.
struct Rig {
    StatRegistry stats;
    std::vector<bool> blocked;
    std::vector<Delivery> delivered;
    std::vector<std::pair<unsigned, uint64_t>> freed;  // (input, cycle)
    uint64_t now = 0;
    CrossbarSubnet net;

    Rig(unsigned in, unsigned out, unsigned inQ, unsigned outQ)
        : blocked(out, false),
          net("t", {in, out, inQ, outQ, kL}, kPeriod, stats,
              [this](unsigned o, const Packet& p) {
                  if (blocked[o]) return false;
                  delivered.push_back({p.id, o, now});
                  return true;
              },
              [this](unsigned i) { freed.emplace_back(i, now); }) {}

    void add(uint64_t id, unsigned in, unsigned out, unsigned flits, uint64_t enteredAt) {
        Packet p;
        p.id = id;
        p.src = in;
        p.dst = out;
        p.flits = flits;
        p.entryTime = enteredAt * kPeriod;
        p.readyCycle = enteredAt + 1;
        net.accept(in, p);
    }
    void run(uint64_t from, uint64_t to) {
        for (now = from; now <= to; ++now) net.tick(now, now * kPeriod);
    }
    uint64_t when(uint64_t id) const {
        for (const auto& d : delivered)
            if (d.id == id) return d.cycle;
        return 0;
    }
};

} // namespace

TEST(CrossbarSubnet, ZeroLoadLatencyIsFlitsPlusLatency) {
    Rig r(2, 2, 8, 8);
    r.add(1, 0, 1, 1, 0);
    r.add(2, 1, 0, 5, 0);
    r.run(0, 20);
    EXPECT_EQ(r.when(1), 1u + kL);      // granted 1, last flit 1
    EXPECT_EQ(r.when(2), 5u + kL);      // granted 1, last flit 5
    EXPECT_DOUBLE_EQ(r.stats.get("t.latency"), (5.0 + 9.0) / 2);
    EXPECT_EQ(r.stats.get("t.flits"), 6);
    EXPECT_EQ(r.stats.get("t.out0.busy_cycles"), 5);
    EXPECT_TRUE(r.net.empty());
}

TEST(CrossbarSubnet, InputSlotIsFreedWhenTheLastFlitCrossed) {
    Rig r(1, 1, 1, 8);
    r.add(1, 0, 0, 3, 0);
    EXPECT_FALSE(r.net.canAccept(0));
    r.run(0, 2);
    EXPECT_TRUE(r.freed.empty());
    EXPECT_FALSE(r.net.canAccept(0));
    r.run(3, 3);  // granted 1, flits 1..3
    ASSERT_EQ(r.freed.size(), 1u);
    EXPECT_EQ(r.freed[0], std::make_pair(0u, uint64_t{3}));
    EXPECT_TRUE(r.net.canAccept(0));
}

TEST(CrossbarSubnet, BackToBackPacketsFromOneInputLeaveNoBubble) {
    Rig r(1, 2, 8, 8);
    r.add(1, 0, 0, 5, 0);
    r.add(2, 0, 1, 1, 0);
    r.run(0, 20);
    EXPECT_EQ(r.when(1), 5u + kL);
    EXPECT_EQ(r.when(2), 6u + kL);  // granted at 6, right after packet 1's last flit
}

TEST(CrossbarSubnet, HeadOfLineBlocking) {
    Rig r(1, 2, 8, 1);
    r.blocked[0] = true;
    r.add(1, 0, 0, 1, 0);  // crosses, then sits in output 0's single slot
    r.add(2, 0, 0, 1, 0);  // head: output 0 has no room
    r.add(3, 0, 1, 1, 0);  // for the idle output 1, but behind packet 2
    r.run(0, 30);
    EXPECT_TRUE(r.delivered.empty());
    EXPECT_EQ(r.net.outputOccupancy(0), 1u);
    EXPECT_EQ(r.net.inputOccupancy(0), 2u);
    r.blocked[0] = false;
    r.run(31, 50);
    // 31: packet 1 delivered, packet 2 granted into the freed slot; 32: packet 3 granted.
    EXPECT_EQ(r.when(1), 31u);
    EXPECT_EQ(r.when(2), 31u + kL);
    EXPECT_EQ(r.when(3), 32u + kL);
}

TEST(CrossbarSubnet, OutputRoomCountsPacketsInFlight) {
    Rig r(2, 1, 8, 1);
    r.add(1, 0, 0, 1, 0);
    r.add(2, 1, 0, 1, 0);
    r.run(0, 20);
    // Packet 1 granted at 1, in flight until 5; packet 2 may cross only once that slot is
    // empty: delivery at 5 comes before arbitration in the same cycle, so granted at 5.
    EXPECT_EQ(r.when(1), 1u + kL);
    EXPECT_EQ(r.when(2), 5u + kL);
}

TEST(CrossbarSubnet, OneDeliveryPerOutputPerCycle) {
    Rig r(2, 1, 8, 8);
    r.blocked[0] = true;
    for (uint64_t k = 0; k < 3; ++k) {
        r.add(10 + k, 0, 0, 1, 0);
        r.add(20 + k, 1, 0, 1, 0);
    }
    r.run(0, 20);
    EXPECT_EQ(r.net.outputOccupancy(0), 6u);
    r.blocked[0] = false;
    r.run(21, 40);
    ASSERT_EQ(r.delivered.size(), 6u);
    const std::vector<uint64_t> order{10, 20, 11, 21, 12, 22};
    for (unsigned n = 0; n < 6; ++n) {
        EXPECT_EQ(r.delivered[n].id, order[n]);
        EXPECT_EQ(r.delivered[n].cycle, 21u + n);
    }
}

TEST(CrossbarSubnet, DumpNamesQueuedPackets) {
    Rig r(2, 2, 4, 4);
    r.add(42, 1, 0, 5, 0);
    const std::string d = r.net.dump(0);
    EXPECT_NE(d.find("t.in1 [1/4]"), std::string::npos) << d;
    EXPECT_NE(d.find("#42(1->0,5f"), std::string::npos) << d;
    EXPECT_EQ(r.net.dump(0).find("t.in0"), std::string::npos);
}
