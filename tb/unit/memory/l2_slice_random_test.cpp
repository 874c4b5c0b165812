// Randomised traffic (fixed seeds) through a small, tightly queued L2 slice: no expectations on
// timing, only the invariants every run must keep: every request answered OK, no deadlock,
// counters consistent, every payload back in the pool, the slice quiescent.
#include <random>

#include <gtest/gtest.h>

#include "MemoryTestBench.hpp"

namespace l2_slice_random_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

constexpr uint64_t kP = 1000;
constexpr unsigned kRequests = 3000;
constexpr unsigned kLines = 24;  // over a 2-set x 2-way cache: constant evictions

void tightConfig(MemoryConfig& m) {
    m.set("mem.partitions", 1)
        .set("l2.tag_latency_cycles", 3)
        .set("mem.ideal_latency_cycles", 7)
        .set("l2.ways", 2)
        .set("l2.size_bytes", 128 * 2 * 2)
        .set("l2.mshr_entries", 2)
        .set("l2.mshr_max_merge", 2)
        .set("l2.input_queue", 2)
        .set("l2.response_queue", 2)
        .set("l2.miss_queue", 1);
}

void script(TestInitiator& init, unsigned seed) {
    std::mt19937_64 rng(seed);
    uint64_t t = 0;
    for (unsigned i = 0; i < kRequests; ++i) {
        t += rng() % 3 * (kP / 2);  // bursts of same-instant requests and gaps
        const uint64_t addr = (rng() % kLines) * 128 + (rng() % 4) * 32;
        const bool serial = rng() % 50 == 0;
        if (rng() % 3 == 0)
            init.write(addr, t, serial);
        else
            init.read(addr, t, serial);
    }
    // Stall the answer path for a while early on.
    init.holdResponsesUntilPs = 200 * kP + kP / 2;
}

void expectConsistentCounters(const StatRegistry& s) {
    EXPECT_EQ(s.get("l2.slice0.accesses"), double(kRequests));
    EXPECT_EQ(s.get("l2.slice0.read_hits") + s.get("l2.slice0.read_misses") +
                  s.get("l2.slice0.write_hits") + s.get("l2.slice0.write_misses"),
              double(kRequests));
    EXPECT_LE(s.get("l2.slice0.mshr_merges"),
              s.get("l2.slice0.read_misses") + s.get("l2.slice0.write_misses"));
    EXPECT_GT(s.get("l2.slice0.writebacks"), 0);
    EXPECT_GT(s.get("l2.slice0.mshr_stall_cycles"), 0);
    EXPECT_GT(s.get("l2.slice0.input_full_cycles"), 0);
}

} // namespace

TEST(L2SliceRandom, IdealMemoryBehind) {
    MemoryConfig m;
    tightConfig(m);
    L2Bench b(*m.cfg, ps(kP), ps(kP * 3 / 4));
    script(b.init, 1);
    sc_core::sc_start();
    expectConsistentCounters(b.stats);
    EXPECT_EQ(b.stat("mem0.writes"), b.stat("l2.slice0.writebacks"));
    b.expectDrained();
}

TEST(L2SliceRandom, BackPressuringMemoryBehind) {
    MemoryConfig m;
    tightConfig(m);
    StatRegistry stats;
    PayloadPool pool;
    AddressMap map(AddressMapParams::from(*m.cfg));
    ClockDomain clock("l2clk", ps(kP));
    L2Slice l2("l2", L2SliceParams::from(*m.cfg), stats, clock, pool, map, 0);
    TestTarget mem("mem");
    TestInitiator init("init", pool);
    init.socket.bind(l2.nocSide);
    l2.memSide.bind(mem.socket);
    mem.holdFromPs = 100 * kP;
    mem.holdUntilPs = 900 * kP + 300;
    mem.latencyPs = 5 * kP + 123;
    script(init, 2);
    sc_core::sc_start();

    expectConsistentCounters(stats);
    EXPECT_GT(stats.get("l2.slice0.pipe_stall_cycles"), 0);
    unsigned writes = 0;
    for (const auto& s : mem.seen) {
        EXPECT_EQ(s.addr % 128, 0u);
        EXPECT_EQ(s.smId, -1);
        writes += s.kind == AccessKind::Writeback;
    }
    EXPECT_EQ(double(writes), stats.get("l2.slice0.writebacks"));
    EXPECT_EQ(init.answered(), init.ops.size());
    EXPECT_TRUE(l2.quiescent()) << l2.dumpState();
    EXPECT_TRUE(mem.idle());
    EXPECT_EQ(pool.outstanding(), 0u);
}

} // namespace l2_slice_random_test
