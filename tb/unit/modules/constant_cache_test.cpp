// ConstantCache on its own (accesses of a load: broadcast and serialisation by address or by
// line; hits, misses, merges, refusals, LRU), then in a one-SM bench (SmTestBench.hpp) with
// completion cycles worked out by hand from the SM's stage order (sm_core_test.cpp's header):
//   tick(c): fill port, writeback (loads done at c), LD/ST step (one constant access), send the
//   miss-queue head, issue, fetch, retire. First issue at c3. ALU latency 4, interval 2.
//   Constant cache defaults: 8 KB of 64-B lines, 2 ways, 2 MSHRs of 32, miss queue 4, hit
//   latency 1 (a hit at c completes at c + 1), const.serialise = address.
//   The stub memory answers 10500 ps after the request: a line read sent at c returns at c + 11.
// Each SystemC case runs in its own process (ctest); run a single case by --gtest_filter.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "common/Stats.hpp"
#include "modules/ConstantCache.hpp"
#include "scheduler/GtoPolicy.hpp"
#include "tb/unit/modules/ModuleTestHelpers.hpp"
#include "tb/unit/modules/SmTestBench.hpp"

namespace constant_cache_test {

using namespace gpusim;
using namespace gpusim::test;
using R = ConstantCache::Result;
using U64 = std::vector<uint64_t>;
using CycleWarp = std::pair<uint64_t, unsigned>;

namespace {

constexpr uint16_t R1 = 1, R2 = 2, R3 = 3, R4 = 4;
constexpr uint64_t kConst = 0x80000;  // 64-aligned (and 128-aligned)

// A constant load of the 32 lanes: lane l reads base + (l % distinct) * step.
WarpInstruction ldc(uint64_t pc, uint16_t dst, uint64_t base, unsigned distinct, uint64_t step) {
    WarpInstruction i = mem(OpClass::Load, pc, base, 0, 4, kAllLanes, MemSpace::Constant);
    for (unsigned l = 0; l < kWarpSize; ++l) i.addr[l] = base + (l % distinct) * step;
    i.numDst = 1;
    i.dst[0] = dst;
    return i;
}

SmConfig smallCache() {
    SmConfig c;
    c.constBytes = 256;  // 2 sets x 64 B x 2 ways: set = address / 64 mod 2
    c.constLine = 64;
    c.constWays = 2;
    c.constMshrEntries = 2;
    c.constMshrMaxMerge = 3;
    c.constMissQueue = 2;
    return c;
}

std::unique_ptr<Kernel> oneWarp(Program p) {
    return std::make_unique<ScriptKernel>("k", 1, 32, [p](uint64_t, unsigned) { return p; });
}

void expectCleanEnd(SmBench& b, uint64_t endCycle) {
    EXPECT_TRUE(b.disp.done());
    EXPECT_EQ(b.stop.stopCycle, endCycle);
    EXPECT_TRUE(b.sm.quiescent()) << b.sm.dumpState();
    EXPECT_EQ(b.pool.outstanding(), 0u);
}

} // namespace

TEST(ConstantCache, LanesWithOneAddressShareOneAccess) {
    StatRegistry stats;
    SmConfig c;
    ConstantCache cc(c, stats, "const.");
    std::vector<uint64_t> a;
    cc.accessesOf(ldc(0, R1, kConst + 8, 1, 0), a);
    EXPECT_EQ(a, (U64{kConst + 8}));  // broadcast: 32 lanes, one access
    cc.accessesOf(ldc(0, R1, kConst, 4, 4), a);
    EXPECT_EQ(a, (U64{kConst, kConst + 4, kConst + 8, kConst + 12}));  // 4 addresses of one line
    cc.accessesOf(ldc(0, R1, kConst, 4, 64), a);
    EXPECT_EQ(a, (U64{kConst, kConst + 64, kConst + 128, kConst + 192}));  // 4 lines
    // Inactive lanes do not count; no active lane, no access.
    WarpInstruction i = ldc(0, R1, kConst, 32, 4);
    i.activeMask = 0x00000005u;  // lanes 0 and 2
    cc.accessesOf(i, a);
    EXPECT_EQ(a, (U64{kConst, kConst + 8}));
    i.activeMask = 0;
    cc.accessesOf(i, a);
    EXPECT_TRUE(a.empty());
}

TEST(ConstantCache, ByLineTheLanesOfOneLineShareOneAccess) {
    StatRegistry stats;
    SmConfig c;
    c.constSerialise = ConstSerialise::Line;
    ConstantCache cc(c, stats, "const.");
    std::vector<uint64_t> a;
    cc.accessesOf(ldc(0, R1, kConst, 4, 4), a);
    EXPECT_EQ(a, (U64{kConst}));
    cc.accessesOf(ldc(0, R1, kConst + 32, 4, 16), a);  // 32, 48, 64, 80: two lines
    EXPECT_EQ(a, (U64{kConst, kConst + 64}));
    cc.accessesOf(ldc(0, R1, kConst, 4, 64), a);
    EXPECT_EQ(a, (U64{kConst, kConst + 64, kConst + 128, kConst + 192}));
}

TEST(ConstantCache, MissesMergeAndRefuseWhenTheMshrsAreTaken) {
    StatRegistry stats;
    ConstantCache cc(smallCache(), stats, "const.");
    EXPECT_EQ(cc.access(kConst + 4, 0), R::Miss);     // line kConst
    EXPECT_EQ(cc.access(kConst + 8, 1), R::Merged);   // same line
    EXPECT_EQ(cc.access(kConst + 12, 2), R::Merged);  // 3 accesses: the entry is full
    EXPECT_EQ(cc.access(kConst + 16, 3), R::Fail);    // no merge room
    EXPECT_EQ(cc.access(kConst + 64, 4), R::Miss);    // line kConst + 64: both MSHRs taken
    EXPECT_EQ(cc.access(kConst + 128, 5), R::Fail);   // a third line: no MSHR
    ASSERT_TRUE(cc.hasOutgoing());
    EXPECT_EQ(cc.frontOutgoing(), kConst);
    cc.popOutgoing();
    EXPECT_EQ(cc.frontOutgoing(), kConst + 64);
    cc.popOutgoing();
    EXPECT_FALSE(cc.quiescent());  // reads in flight
    EXPECT_EQ(cc.fill(kConst), (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(cc.access(kConst + 60, 6), R::Hit);
    EXPECT_EQ(cc.fill(kConst + 64), (std::vector<uint32_t>{4}));
    EXPECT_TRUE(cc.quiescent());
    EXPECT_EQ(stats.get("const.accesses"), 5);  // refusals are not accesses
    EXPECT_EQ(stats.get("const.misses"), 2);
    EXPECT_EQ(stats.get("const.mshr_merges"), 2);
    EXPECT_EQ(stats.get("const.reservation_fails"), 2);
    EXPECT_EQ(stats.get("const.hits"), 1);
    EXPECT_EQ(stats.get("const.fills"), 2);
}

TEST(ConstantCache, MissQueueFullRefusesAndLruEvicts) {
    StatRegistry stats;
    SmConfig c = smallCache();
    c.constMissQueue = 1;
    ConstantCache cc(c, stats, "const.");
    EXPECT_EQ(cc.access(kConst, 0), R::Miss);
    EXPECT_EQ(cc.access(kConst + 128, 1), R::Fail);  // an MSHR is free, the miss queue is not
    cc.popOutgoing();
    cc.fill(kConst);
    // Set 0 holds kConst; kConst + 128 and + 256 map there too (2 ways, LRU).
    EXPECT_EQ(cc.access(kConst + 128, 2), R::Miss);
    cc.popOutgoing();
    cc.fill(kConst + 128);
    EXPECT_EQ(cc.access(kConst, 3), R::Hit);  // kConst + 128 is now the LRU way
    EXPECT_EQ(cc.access(kConst + 256, 4), R::Miss);
    cc.popOutgoing();
    cc.fill(kConst + 256);  // evicts kConst + 128
    EXPECT_TRUE(cc.probe(kConst));
    EXPECT_TRUE(cc.probe(kConst + 256));
    EXPECT_FALSE(cc.probe(kConst + 128));
}

TEST(ConstantCache, SizeZeroEveryAccessHits) {
    StatRegistry stats;
    SmConfig c;
    c.constBytes = 0;
    ConstantCache cc(c, stats, "const.");
    EXPECT_EQ(cc.access(kConst, 0), R::Hit);
    EXPECT_FALSE(cc.hasOutgoing());
    EXPECT_EQ(stats.get("const.hits"), 1);
}

// One warp: a broadcast miss, then a broadcast hit of the same address.
//  #0 LDC R1 <- [kConst] (32 lanes)  c3 issue; c4 one access: miss, line read sent at 4000 ps,
//                                    answered at 14500 ps; c15 fill -> R1 back at 15
//  #1 R2 <- R1                        c15 (R2 due 19)
//  #2 LDC R3 <- [kConst] (32 lanes)   c16 issue; c17 one access: hit -> R3 back at 18
//  #3 R4 <- R3                        c18 (R4 due 22)    #4 EXIT c19    warp ends at 22.
TEST(ConstantCacheSm, BroadcastMissThenBroadcastHit) {
    ScriptWorkload wl;
    wl.add(oneWarp({ldc(0x00, R1, kConst, 1, 0), alu(0x08, R2, {R1}), ldc(0x10, R3, kConst, 1, 0),
                    alu(0x18, R4, {R3}), exitInst(0x20)}));
    SmBench b(SmConfig{}, std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 15, 16, 18, 19}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{22, 0}}));
    ASSERT_EQ(b.mem.log.size(), 1u);
    EXPECT_EQ(b.mem.log[0].addr, kConst);
    EXPECT_FALSE(b.mem.log[0].write);
    EXPECT_EQ(b.mem.log[0].arrivedPs, 4000u);
    ASSERT_EQ(b.rec->loads.size(), 2u);
    EXPECT_EQ(b.rec->loads[0].cycle, 15u);
    EXPECT_EQ(b.rec->loads[1].cycle, 18u);
    EXPECT_EQ(b.rec->loads[1].accesses, 1u);
    EXPECT_FALSE(b.rec->loads[1].fullyCached);  // an L1D fact: constant loads never are
    EXPECT_TRUE(b.rec->serviced.empty());       // onLoadServiced is about L1D accesses
    EXPECT_EQ(b.stat("sm0.const.loads"), 2);
    EXPECT_EQ(b.stat("sm0.const.accesses"), 2);
    EXPECT_EQ(b.stat("sm0.const.misses"), 1);
    EXPECT_EQ(b.stat("sm0.const.hits"), 1);
    EXPECT_EQ(b.stat("sm0.const.fills"), 1);
    EXPECT_EQ(b.stat("sm0.const.serialised_cycles"), 0);
    EXPECT_EQ(b.stat("sm0.noc.reads"), 1);
    EXPECT_EQ(b.stat("sm0.l1d.read_misses"), 0);
    EXPECT_EQ(b.stat("sm0.ldst.loads"), 0);  // global/local only
    // Load latencies 15 - 3 = 12 and 18 - 16 = 2.
    EXPECT_DOUBLE_EQ(b.stat("sm0.ldst.load_latency"), 7.0);
    expectCleanEnd(b, 22);
}

// As above, but the second load's lanes read 4 distinct addresses of the line (lane l at
// kConst + 4 (l % 4)). By address (default): 4 accesses, all hits, at c17, 18, 19, 20 -> R3 back
// at 21, #3 at 21 (R4 due 25), EXIT at 22, the warp ends at 25. By line: one access at c17 ->
// R3 back at 18, as for the broadcast: the warp ends at 22.
void fourAddressesInOneLine(ConstSerialise how) {
    ScriptWorkload wl;
    wl.add(oneWarp({ldc(0x00, R1, kConst, 1, 0), alu(0x08, R2, {R1}), ldc(0x10, R3, kConst, 4, 4),
                    alu(0x18, R4, {R3}), exitInst(0x20)}));
    SmConfig c;
    c.constSerialise = how;
    SmBench b(c, std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    const bool byAddress = how == ConstSerialise::Address;
    const uint64_t back = byAddress ? 21 : 18;
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 15, 16, back, back + 1}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{back + 4, 0}}));
    EXPECT_EQ(b.stat("sm0.const.accesses"), byAddress ? 5 : 2);
    EXPECT_EQ(b.stat("sm0.const.hits"), byAddress ? 4 : 1);
    EXPECT_EQ(b.stat("sm0.const.misses"), 1);
    EXPECT_EQ(b.stat("sm0.const.serialised_cycles"), byAddress ? 3 : 0);
    EXPECT_EQ(b.mem.log.size(), 1u);
    expectCleanEnd(b, back + 4);
}

TEST(ConstantCacheSm, FourAddressesOfOneLineAreSerialisedByAddress) { fourAddressesInOneLine(ConstSerialise::Address); }
TEST(ConstantCacheSm, FourAddressesOfOneLineShareOneAccessByLine) { fourAddressesInOneLine(ConstSerialise::Line); }

// One load whose lanes read 4 lines (lane l at kConst + 64 (l % 4)), all cold, with the default
// 2 MSHRs:
//  c3 issue; c4 line 0 misses (sent c4, back c15); c5 line 64 misses (sent c5, back c16)
//  c6..c14 line 128 refused (no MSHR: 9 reservation fails); c15 line 0's fill frees an MSHR
//  before the LD/ST step: line 128 misses (sent c15, back c26); c16 line 192 takes the MSHR
//  line 64's fill freed (sent c16, back c27). The load completes with its last fill: R1 at 27.
//  #1 R2 <- R1 c27 (R2 due 31)   #2 EXIT c28   warp ends at 31.
TEST(ConstantCacheSm, FourLinesMissOneAfterTheOtherThroughTwoMshrs) {
    ScriptWorkload wl;
    wl.add(oneWarp({ldc(0x00, R1, kConst, 4, 64), alu(0x08, R2, {R1}), exitInst(0x10)}));
    SmBench b(SmConfig{}, std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 27, 28}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{31, 0}}));
    ASSERT_EQ(b.mem.log.size(), 4u);
    const U64 sent{4000, 5000, 15000, 16000};
    for (size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(b.mem.log[i].addr, kConst + 64 * i) << i;
        EXPECT_EQ(b.mem.log[i].arrivedPs, sent[i]) << i;
    }
    EXPECT_EQ(b.stat("sm0.const.accesses"), 4);
    EXPECT_EQ(b.stat("sm0.const.misses"), 4);
    EXPECT_EQ(b.stat("sm0.const.reservation_fails"), 9);
    EXPECT_EQ(b.stat("sm0.const.serialised_cycles"), 3);
    EXPECT_EQ(b.stat("sm0.const.fills"), 4);
    expectCleanEnd(b, 31);
}

} // namespace constant_cache_test
