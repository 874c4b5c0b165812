// TextureCache on its own (accesses per distinct line, the in-order fragment FIFO, refusals when
// a FIFO or the reorder buffer is full, tags written at the miss), then in a one-SM bench
// (SmTestBench.hpp) with completion cycles worked out by hand from the SM's stage order
// (sm_core_test.cpp's header): tick(c): fill port, writeback (the FIFO's head leaves if it may:
// a hit 3 cycles after its lookup, a miss in the cycle its line arrives; loads done at c), LD/ST
// step (one texture lookup), send, issue, fetch, retire. First issue at c3. ALU latency 4.
// Texture cache defaults: 12 KB of 128-B lines, 24 ways, hit latency 3. The stub memory answers
// 10500 ps after the request: a line read sent at c returns at c + 11.
// Each SystemC case runs in its own process (ctest); run a single case by --gtest_filter.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "common/Stats.hpp"
#include "modules/TextureCache.hpp"
#include "scheduler/GtoPolicy.hpp"
#include "tb/unit/modules/ModuleTestHelpers.hpp"
#include "tb/unit/modules/SmTestBench.hpp"

namespace texture_cache_test {

using namespace gpusim;
using namespace gpusim::test;
using R = TextureCache::Result;
using U64 = std::vector<uint64_t>;
using CycleWarp = std::pair<uint64_t, unsigned>;

namespace {

constexpr uint16_t R1 = 1, R2 = 2, R3 = 3, R4 = 4, R5 = 5;
constexpr uint64_t kTexA = 0x90000, kTexB = 0xA0000;  // 128-aligned

// A texture load of the 32 lanes: lane l reads base + 4 l (one 128-B line), or base + stride l.
WarpInstruction tex(uint64_t pc, uint16_t dst, uint64_t base, uint64_t stride = 4) {
    WarpInstruction i = mem(OpClass::Load, pc, base, stride, 4, kAllLanes, MemSpace::Texture);
    i.numDst = 1;
    i.dst[0] = dst;
    return i;
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

TEST(TextureCache, OneAccessPerDistinctLine) {
    StatRegistry stats;
    TextureCache tc(SmConfig{}, stats, "tex.");
    std::vector<uint64_t> a;
    tc.accessesOf(tex(0, R1, kTexA + 16), a);  // 16 .. 140: two lines
    EXPECT_EQ(a, (U64{kTexA, kTexA + 128}));
    tc.accessesOf(tex(0, R1, kTexA, 0), a);  // one address
    EXPECT_EQ(a, (U64{kTexA}));
    tc.accessesOf(tex(0, R1, kTexA, 256), a);  // 32 lines
    EXPECT_EQ(a.size(), 32u);
}

TEST(TextureCache, AccessesLeaveInOrderAHitBehindAMissWaits) {
    StatRegistry stats;
    TextureCache tc(SmConfig{}, stats, "tex.");
    uint32_t t = 99;
    EXPECT_EQ(tc.access(kTexA, 1, 10), R::Miss);    // tag written now, data later
    EXPECT_EQ(tc.access(kTexA, 2, 11), R::Hit);     // the same line: a hit, behind the miss
    EXPECT_EQ(tc.access(kTexB, 3, 12), R::Miss);
    EXPECT_EQ(tc.nextReady(), UINT64_MAX);          // the head waits for its line
    EXPECT_FALSE(tc.pop(100, t));
    tc.fill(kTexB, 20);                             // B's data first: still behind A
    EXPECT_FALSE(tc.pop(20, t));
    tc.fill(kTexA, 30);
    EXPECT_EQ(tc.nextReady(), 30u);
    EXPECT_FALSE(tc.pop(29, t));
    ASSERT_TRUE(tc.pop(30, t));
    EXPECT_EQ(t, 1u);
    EXPECT_EQ(tc.nextReady(), 14u);  // the hit was ready at 11 + 3 long ago
    ASSERT_TRUE(tc.pop(31, t));
    EXPECT_EQ(t, 2u);
    ASSERT_TRUE(tc.pop(32, t));
    EXPECT_EQ(t, 3u);
    EXPECT_TRUE(tc.quiescent() == false);  // requests not taken by the NoC
    EXPECT_EQ(tc.frontOutgoing(), kTexA);
    tc.popOutgoing();
    EXPECT_EQ(tc.frontOutgoing(), kTexB);
    tc.popOutgoing();
    EXPECT_TRUE(tc.quiescent());
    EXPECT_EQ(stats.get("tex.accesses"), 3);
    EXPECT_EQ(stats.get("tex.hits"), 1);
    EXPECT_EQ(stats.get("tex.misses"), 2);
    EXPECT_EQ(stats.get("tex.fills"), 2);
}

TEST(TextureCache, FullFifosAndReorderBufferRefuse) {
    StatRegistry stats;
    SmConfig c;
    c.texFragmentFifo = 4;
    c.texRequestFifo = 2;
    c.texRobEntries = 3;
    TextureCache tc(c, stats, "tex.");
    const uint64_t kTexC = kTexA + 128;
    EXPECT_EQ(tc.access(kTexA, 0, 1), R::Miss);
    EXPECT_EQ(tc.access(kTexB, 1, 1), R::Miss);
    EXPECT_EQ(tc.access(kTexC, 2, 1), R::Fail);  // request FIFO full: 2 reads not yet sent
    tc.popOutgoing();
    tc.popOutgoing();
    EXPECT_EQ(tc.access(kTexC, 2, 2), R::Miss);
    EXPECT_EQ(tc.access(kTexA, 3, 2), R::Fail);  // reorder buffer full: 3 misses in the FIFO
    tc.fill(kTexA, 5);
    uint32_t t;
    ASSERT_TRUE(tc.pop(5, t));                   // A leaves and frees its entry
    EXPECT_EQ(t, 0u);
    EXPECT_EQ(tc.access(kTexA, 3, 6), R::Hit);
    EXPECT_EQ(tc.access(kTexB, 4, 6), R::Hit);   // B's tag was written at its miss
    EXPECT_EQ(tc.access(kTexA, 5, 7), R::Fail);  // fragment FIFO full: B, C, A, B
    EXPECT_EQ(stats.get("tex.reservation_fails"), 3);
    EXPECT_EQ(stats.get("tex.accesses"), 5);
}

TEST(TextureCache, SizeZeroEveryAccessHits) {
    StatRegistry stats;
    SmConfig c;
    c.texBytes = 0;
    TextureCache tc(c, stats, "tex.");
    EXPECT_EQ(tc.access(kTexA, 7, 5), R::Hit);
    EXPECT_FALSE(tc.hasOutgoing());
    uint32_t t;
    EXPECT_FALSE(tc.pop(7, t));
    ASSERT_TRUE(tc.pop(8, t));
    EXPECT_EQ(t, 7u);
}

// One warp: a texture miss, then a hit of the same line.
//  #0 TEX R1 <- line A  c3 issue; c4 lookup: miss, read sent at 4000 ps, answered at 14500 ps;
//                       c15 fill, the access leaves the FIFO at 15 -> R1 back at 15
//  #1 R2 <- R1          c15 (R2 due 19)
//  #2 TEX R3 <- line A  c16 issue; c17 lookup: hit, leaves at 17 + 3 = 20 -> R3 back at 20
//  #3 R4 <- R3          c20 (R4 due 24)   #4 EXIT c21   warp ends at 24.
TEST(TextureCacheSm, MissThenHit) {
    ScriptWorkload wl;
    wl.add(oneWarp({tex(0x00, R1, kTexA), alu(0x08, R2, {R1}), tex(0x10, R3, kTexA), alu(0x18, R4, {R3}),
                    exitInst(0x20)}));
    SmBench b(SmConfig{}, std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 15, 16, 20, 21}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{24, 0}}));
    ASSERT_EQ(b.mem.log.size(), 1u);
    EXPECT_EQ(b.mem.log[0].addr, kTexA);
    EXPECT_EQ(b.mem.log[0].arrivedPs, 4000u);
    ASSERT_EQ(b.rec->loads.size(), 2u);
    EXPECT_EQ(b.rec->loads[0].cycle, 15u);
    EXPECT_EQ(b.rec->loads[1].cycle, 20u);
    EXPECT_EQ(b.stat("sm0.tex.loads"), 2);
    EXPECT_EQ(b.stat("sm0.tex.accesses"), 2);
    EXPECT_EQ(b.stat("sm0.tex.misses"), 1);
    EXPECT_EQ(b.stat("sm0.tex.hits"), 1);
    EXPECT_EQ(b.stat("sm0.tex.fills"), 1);
    EXPECT_EQ(b.stat("sm0.noc.reads"), 1);
    expectCleanEnd(b, 24);
}

// A hit waits behind an older miss (the FIFO is in order):
//  #0 TEX R1 <- B       c3; c4 miss (sent c4, back c15) -> R1 at 15
//  #1 R5 <- R1          c15
//  #2 TEX R2 <- A       c16; c17 miss (sent c17, answered 27500) -> leaves at c28: R2 at 28
//  #3 TEX R3 <- B       c17 (the unit took #2's only access at c17's step); c18 lookup: hit,
//                       ready at 21 but behind #2's miss: leaves at c29 -> R3 at 29
//  #4 R4 <- R2, R3      c29 (R4 due 33)   #5 EXIT c30   warp ends at 33.
//  (Without the FIFO's order R3 would be back at 21.)
TEST(TextureCacheSm, AHitWaitsBehindAnOlderMiss) {
    ScriptWorkload wl;
    wl.add(oneWarp({tex(0x00, R1, kTexB), alu(0x08, R5, {R1}), tex(0x10, R2, kTexA), tex(0x18, R3, kTexB),
                    alu(0x20, R4, {R2, R3}), exitInst(0x28)}));
    SmBench b(SmConfig{}, std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 15, 16, 17, 29, 30}));
    EXPECT_EQ(b.rec->warpEnds, (std::vector<CycleWarp>{{33, 0}}));
    ASSERT_EQ(b.rec->loads.size(), 3u);
    EXPECT_EQ(b.rec->loads[1].cycle, 28u);
    EXPECT_EQ(b.rec->loads[2].cycle, 29u);
    EXPECT_EQ(b.stat("sm0.tex.hits"), 1);
    EXPECT_EQ(b.stat("sm0.tex.misses"), 2);
    expectCleanEnd(b, 33);
}

// A load of two lines (lanes 16 .. 140 bytes past A): two lookups, one per cycle.
//  c3 issue; c4 line A misses (sent c4, back c15); c5 line A + 128 misses (sent c5, back c16).
//  They leave at 15 and 16: R1 back at 16. #1 R2 <- R1 c16 (due 20), EXIT c17, ends at 20.
TEST(TextureCacheSm, TwoLinesAreTwoLookupsOnePerCycle) {
    ScriptWorkload wl;
    wl.add(oneWarp({tex(0x00, R1, kTexA + 16), alu(0x08, R2, {R1}), exitInst(0x10)}));
    SmBench b(SmConfig{}, std::make_unique<GtoPolicy>(), wl, 10500);
    b.run();
    EXPECT_EQ(b.rec->issueCycles(0), (U64{3, 16, 17}));
    ASSERT_EQ(b.mem.log.size(), 2u);
    EXPECT_EQ(b.mem.log[0].arrivedPs, 4000u);
    EXPECT_EQ(b.mem.log[1].addr, kTexA + 128);
    EXPECT_EQ(b.mem.log[1].arrivedPs, 5000u);
    EXPECT_EQ(b.stat("sm0.tex.serialised_cycles"), 1);
    expectCleanEnd(b, 20);
}

} // namespace texture_cache_test
