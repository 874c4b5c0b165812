// Two L2 slices in front of one FR-FCFS controller (GPGPU-Sim's sub-partitions): initiator ->
// SliceRouter -> 2 x L2Slice -> SliceArbiter -> DramController, with a TLM protocol checker on
// every link. Hand-checked routing, then randomised traffic through tight queues: every request
// answered, protocol clean, traffic conserved between the slices and the DRAM.
#include <random>

#include <gtest/gtest.h>

#include "MemoryTestBench.hpp"
#include "memory/DramController.hpp"
#include "memory/SliceArbiter.hpp"
#include "memory/SliceRouter.hpp"
#include "tb/common/TlmProtocolChecker.hpp"

namespace l2_sub_partition_test {

using namespace gpusim;
using namespace gpusim::test;
using gpusim::tb::TlmProtocolChecker;

namespace {

constexpr uint64_t kP = 1000;

struct SubPartitionBench {
    StatRegistry stats;
    PayloadPool pool;
    AddressMap map;
    ClockDomain l2Clock, dramClock;
    TestInitiator init;
    SliceRouter router;
    L2Slice s0, s1;
    SliceArbiter arbiter;
    DramController dram;
    std::vector<std::unique_ptr<TlmProtocolChecker>> checkers;

    template <class I, class T>
    void link(const std::string& name, I& initiator, T& target) {
        checkers.push_back(std::make_unique<TlmProtocolChecker>(TlmProtocolChecker::moduleNameFor(name).c_str(), name));
        initiator.bind(checkers.back()->in());
        checkers.back()->out().bind(target);
    }

    // Partition `part` of the configuration, slices 2*part and 2*part + 1.
    SubPartitionBench(const Config& cfg, unsigned part)
        : map(AddressMapParams::from(cfg)), l2Clock("l2clk", ps(kP)), dramClock("dramclk", ps(kP)), init("init", pool),
          router("router", map, 2), s0("s0", L2SliceParams::from(cfg), stats, l2Clock, pool, map, 2 * part),
          s1("s1", L2SliceParams::from(cfg), stats, l2Clock, pool, map, 2 * part + 1), arbiter("arbiter", 2, part),
          dram("dram", DramControllerParams::from(cfg), stats, dramClock, map, part) {
        cfg.validate();
        link("init->router", init.socket, router.nocSide);
        link("router->s0", *router.sliceSide[0], s0.nocSide);
        link("router->s1", *router.sliceSide[1], s1.nocSide);
        link("s0->arbiter", s0.memSide, *arbiter.sliceSide[0]);
        link("s1->arbiter", s1.memSide, *arbiter.sliceSide[1]);
        link("arbiter->dram", arbiter.memSide, dram.socket);
    }
    double stat(const std::string& n) const { return stats.get(n); }
    void expectClean() const {
        EXPECT_EQ(init.answered(), init.ops.size());
        for (size_t i = 0; i < init.records.size(); ++i)
            EXPECT_EQ(init.records[i].status, tlm::TLM_OK_RESPONSE) << "request " << i;
        for (const auto& c : checkers) {
            EXPECT_EQ(c->violationCount(), 0u) << c->link() << ": " << (c->violations().empty() ? "" : c->violations()[0]);
            EXPECT_EQ(c->openTransactions(), 0u) << c->link();
        }
        EXPECT_TRUE(router.quiescent()) << router.dumpState();
        EXPECT_TRUE(arbiter.quiescent()) << arbiter.dumpState();
        EXPECT_TRUE(s0.quiescent()) << s0.dumpState();
        EXPECT_TRUE(s1.quiescent()) << s1.dumpState();
        EXPECT_TRUE(dram.quiescent()) << dram.dumpState();
        EXPECT_EQ(pool.outstanding(), 0u);
    }
};

uint64_t checkerCount(const SubPartitionBench& b, const std::string& link) {
    for (const auto& c : b.checkers)
        if (c->link() == link) return c->transactions();
    return ~uint64_t(0);
}

} // namespace

// Six partitions, 256-byte chunks. Partition 1's chunks: global 0x100, 0x700, 0xd00, 0x1300
// (local chunks 0, 1, 2, 3) alternate slices 2, 3, 2, 3 (global slice index 2 * 1 + sub).
// Four reads: each misses in its slice, goes to the shared controller, and is answered.
TEST(L2SubPartitions, RequestsAlternateBetweenTheTwoSlices) {
    MemoryConfig m;
    m.set("l2.slices_per_partition", 2).set("l2.tag_latency_cycles", 2);
    SubPartitionBench b(*m.cfg, 1);
    b.init.read(0x100);
    b.init.read(0x700);
    b.init.read(0xd00);
    b.init.read(0x1380);
    sc_core::sc_start();
    EXPECT_EQ(b.stat("l2.slice2.read_misses"), 2.0);
    EXPECT_EQ(b.stat("l2.slice3.read_misses"), 2.0);
    EXPECT_EQ(b.stat("mem1.reads"), 4.0);
    EXPECT_EQ(checkerCount(b, "router->s0"), 2u);
    EXPECT_EQ(checkerCount(b, "router->s1"), 2u);
    EXPECT_EQ(checkerCount(b, "arbiter->dram"), 4u);
    // Slice-local set index: 0xd00 is local chunk 2, slice-local chunk 1: set (0x100 / 128) = 2.
    EXPECT_EQ(b.s0.setOf(0xd00), 2u);
    EXPECT_EQ(b.s1.setOf(0x700), 0u);
    b.expectClean();
}

TEST(L2SubPartitions, ASliceRejectsTheOtherSlicesAddress) {
    MemoryConfig m;
    m.set("l2.slices_per_partition", 2).set("mem.partitions", 1);
    StatRegistry stats;
    PayloadPool pool;
    AddressMap map(AddressMapParams::from(*m.cfg));
    ClockDomain clk("clk", ps(kP));
    L2Slice s1("s1", L2SliceParams::from(*m.cfg), stats, clk, pool, map, 1);
    TestInitiator init("init", pool);
    TestTarget mem("mem");
    init.socket.bind(s1.nocSide);
    s1.memSide.bind(mem.socket);
    init.read(0x000);  // local chunk 0: slice 0
    std::string what;
    try {
        sc_core::sc_start();
    } catch (const std::exception& e) {
        what = e.what();
    }
    EXPECT_NE(what.find("belongs to partition 0 slice 0"), std::string::npos) << what;
}

// 3000 random reads and writes over 48 lines of one partition through two 2-set x 2-way
// slices with queues of one or two, a controller queue of 2, and answers held by the initiator
// for a while: every late END_REQ and held-answer path of the router and arbiter is taken.
TEST(L2SubPartitions, RandomTrafficThroughTightQueuesConservesTraffic) {
    MemoryConfig m;
    m.set("mem.partitions", 1)
        .set("l2.slices_per_partition", 2)
        .set("l2.tag_latency_cycles", 3)
        .set("l2.ways", 2)
        .set("l2.size_bytes", 128 * 2 * 2)
        .set("l2.mshr_entries", 2)
        .set("l2.mshr_max_merge", 2)
        .set("l2.input_queue", 1)
        .set("l2.response_queue", 1)
        .set("l2.miss_queue", 1)
        .set("dram.queue_size", 2);
    SubPartitionBench b(*m.cfg, 0);
    b.init.holdResponsesUntilPs = 20000 * kP / 1000;
    std::mt19937_64 rng(7);
    uint64_t t = 0;
    for (unsigned i = 0; i < 3000; ++i) {
        t += rng() % 3 * (kP / 2);
        const uint64_t addr = (rng() % 48) * 128;
        if (rng() % 3 == 0)
            b.init.write(addr, t);
        else
            b.init.read(addr, t);
    }
    sc_core::sc_start();
    b.expectClean();
    double readMisses = 0, merges = 0, writeMerges = 0, writebacks = 0;
    for (const char* s : {"l2.slice0.", "l2.slice1."}) {
        EXPECT_GT(b.stat(std::string(s) + "accesses"), 1000.0) << s;
        readMisses += b.stat(std::string(s) + "read_misses");
        merges += b.stat(std::string(s) + "mshr_merges");
        writeMerges += b.stat(std::string(s) + "write_merges");
        writebacks += b.stat(std::string(s) + "writebacks");
    }
    // Conservation: every read miss either merged or became exactly one DRAM read; every
    // write-back is one DRAM write.
    EXPECT_EQ(readMisses - (merges - writeMerges), b.stat("mem0.reads"));
    EXPECT_EQ(writebacks, b.stat("mem0.writes"));
    EXPECT_GT(merges, 0.0);
    EXPECT_GT(writebacks, 0.0);
    // The paths were taken: late END_REQ from the controller to the arbiter and from a slice to
    // the router, and answers held on the router's NoC side.
    for (const auto& c : b.checkers) {
        if (c->link() == "arbiter->dram") {
            EXPECT_GT(c->monitor().paths().endReqLate, 0u);
        }
        if (c->link() == "init->router") {
            EXPECT_GT(c->monitor().paths().endReqLate, 0u);
            EXPECT_GT(c->monitor().paths().endRespLate, 0u);
        }
        if (c->link() == "s0->arbiter") {
            EXPECT_GT(c->monitor().paths().endReqLate, 0u);
        }
    }
}

} // namespace l2_sub_partition_test
