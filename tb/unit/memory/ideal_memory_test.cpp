// IdealMemory driven directly by the scripted initiator (no L2 in between).
#include <gtest/gtest.h>

#include "MemoryTestBench.hpp"

namespace ideal_memory_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

struct MemBench {
    StatRegistry stats;
    PayloadPool pool;
    ClockDomain clock;
    IdealMemory mem;
    TestInitiator init;
    MemBench(const Config& cfg, sc_core::sc_time period, unsigned index = 0)
        : clock("dramclk", period), mem("mem", IdealMemoryParams::from(cfg), stats, clock, index), init("init", pool) {
        init.socket.bind(mem.socket);
    }
    void expectDrained() const {
        EXPECT_EQ(init.answered(), init.ops.size());
        EXPECT_TRUE(mem.quiescent()) << mem.dumpState();
        EXPECT_EQ(pool.outstanding(), 0u);
    }
};

const Histogram& histogram(const StatRegistry& s, const std::string& name) {
    return dynamic_cast<const Histogram&>(*s.find(name));
}

} // namespace

TEST(IdealMemory, ExactLatencyOnAndBetweenEdges) {
    MemoryConfig m;  // defaults: 100 DRAM cycles at 924 MHz
    const sc_core::sc_time period = periodOfMhz(924);
    ASSERT_EQ(period.value(), 1082u);
    MemBench b(*m.cfg, period, 2);
    b.init.read(0x0, 0);
    // Half a cycle after edge 5: counted from edge 5, so answered at edge 105.
    b.init.write(0x80, 5 * 1082 + 500);
    sc_core::sc_start();

    EXPECT_EQ(b.init.records[0].endReqPs, 0u);            // never back-pressures
    EXPECT_EQ(b.init.records[0].answeredPs, 100u * 1082);  // 108200 ps: exactly 100 cycles
    EXPECT_EQ(b.init.records[1].endReqPs, 5910u);
    EXPECT_EQ(b.init.records[1].answeredPs, 105u * 1082);  // 113610 ps
    EXPECT_EQ(b.stats.get("mem2.reads"), 1.0);
    EXPECT_EQ(b.stats.get("mem2.writes"), 1.0);
    const Histogram& lat = histogram(b.stats, "mem2.latency");
    EXPECT_EQ(lat.count(), 2u);
    // 100 cycles, and (113610 - 5910) / 1082 = 99.54 cycles.
    EXPECT_NEAR(lat.mean(), (100.0 + 107700.0 / 1082.0) / 2, 1e-9);
    b.expectDrained();
}

TEST(IdealMemory, InfiniteBandwidthConsecutiveAndSameCycle) {
    MemoryConfig m;
    m.set("mem.ideal_latency_cycles", 10);
    constexpr uint64_t kPeriod = 1000;
    MemBench b(*m.cfg, ps(kPeriod));
    constexpr unsigned kConsecutive = 16;
    constexpr unsigned kSameCycle = 4;  // extra requests in cycle 3, all in the same instant
    for (unsigned k = 0; k < kConsecutive; ++k) {
        b.init.read(0x80 * k, k * kPeriod);
        if (k == 3)
            for (unsigned j = 0; j < kSameCycle; ++j) b.init.write(0x10000 + 0x80 * j, k * kPeriod);
    }
    sc_core::sc_start();

    for (size_t i = 0; i < b.init.records.size(); ++i) {
        const auto& r = b.init.records[i];
        EXPECT_EQ(r.endReqPs, r.sentPs) << i;                  // accepted at once
        EXPECT_EQ(r.sentPs % kPeriod, 0u) << i;                // sent on DRAM edges
        EXPECT_EQ(r.answeredPs, r.sentPs + 10 * kPeriod) << i; // each exactly 10 cycles later
    }
    // The five requests of cycle 3 all arrived at 3000 ps and were all answered at 13000 ps.
    EXPECT_EQ(b.init.records[3].answeredPs, 13000u);
    EXPECT_EQ(b.init.records[3 + kSameCycle].answeredPs, 13000u);
    EXPECT_EQ(b.stats.get("mem0.reads"), double(kConsecutive));
    EXPECT_EQ(b.stats.get("mem0.writes"), double(kSameCycle));
    EXPECT_DOUBLE_EQ(b.stats.get("mem0.latency"), 10.0);
    b.expectDrained();
}

TEST(IdealMemory, AnswersWaitForEndResp) {
    MemoryConfig m;
    m.set("mem.ideal_latency_cycles", 10);
    MemBench b(*m.cfg, ps(1000));
    b.init.read(0x000, 0);
    b.init.read(0x080, 1000);
    b.init.read(0x100, 2000);
    // The first answer (due at 10000) is refused until 12500; the second and third (due at
    // 11000 and 12000) must wait for its END_RESP, then both go at the next edge, 13000.
    b.init.holdResponsesUntilPs = 12500;
    sc_core::sc_start();

    EXPECT_EQ(b.init.records[0].answeredPs, 12500u);
    EXPECT_EQ(b.init.records[1].answeredPs, 13000u);
    EXPECT_EQ(b.init.records[2].answeredPs, 13000u);
    b.expectDrained();
}

} // namespace ideal_memory_test
