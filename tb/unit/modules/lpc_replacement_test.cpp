// L1D replacement plug-ins (modules/L1Replacement.hpp): LRU and CWLP's LPC, alone and inside
// L1DCache on a hand-built geometry: 2 ways x 4 sets, linear index, so lines 0x000, 0x200,
// 0x400 all fall in set 0.
//
// LPC per line (LpcReplacement.hpp): on a read hit by pc, r_use = (pc == W_PC), W_PC = pc,
// prediction = LPL AND r_use, LPL = r_use. A new line starts with W_PC = the missing load's PC and
// every bit 0. The victim is the least recently used line among those with prediction 0; if all
// are predicted, the LRU line.
#include <gtest/gtest.h>

#include <vector>

#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "modules/L1DCache.hpp"
#include "modules/LpcReplacement.hpp"
#include "modules/LruReplacement.hpp"
#include "scheduler/SchedulerPolicy.hpp"

namespace lpc_replacement_test {

using namespace gpusim;

namespace {

constexpr uint64_t A = 0x000, B = 0x200, C = 0x400;  // set 0 of 4
constexpr uint64_t P = 0x100, Q = 0x180, R = 0x200;  // load PCs

SmConfig cfgOf(L1ReplacementKind replacement, L1Allocation alloc = L1Allocation::OnMiss) {
    SmConfig c;
    c.l1Line = 128;
    c.l1Ways = 2;
    c.l1Bytes = 128 * 2 * 4;
    c.setIndexing = SetIndexing::Linear;
    c.allocation = alloc;
    c.mshrEntries = 8;
    c.mshrMaxMerge = 8;
    c.missQueue = 8;
    c.replacement = replacement;
    return c;
}

struct Predictions : SchedulerPolicy {
    std::string name() const override { return "predictions"; }
    void order(unsigned, std::vector<unsigned>&, const SmView&) override {}
    void onL1Access(const L1AccessEvent& e) override { seen.push_back(e.reusePredicted); }
    std::vector<bool> seen;
};

struct Bench {
    StatRegistry stats;
    SmConfig cfg;
    L1DCache l1;
    Predictions obs;
    explicit Bench(const SmConfig& c) : cfg(c), l1(cfg, stats, "l1.") { l1.setObserver(&obs); }
    uint64_t n(const std::string& s) const { return static_cast<uint64_t>(stats.get("l1." + s)); }
    void missAndFill(uint64_t line, uint64_t pc) {
        ASSERT_EQ(l1.read(line, 0, pc, 1), L1Result::MissNew);
        l1.popOutgoing();
        l1.fill(line);
    }
    void hit(uint64_t line, uint64_t pc) { ASSERT_EQ(l1.read(line, 0, pc, 1), L1Result::Hit); }
    // A in set 0, hit twice more by the PC that brought it in: the second hit has r_use 1 on this
    // and the previous access, so A is predicted reused (protected). Then B, never hit.
    // LRU stamps: A reserved 1, filled 2, hit 3, hit 4; B reserved 5, filled 6 -> A is the LRU line.
    void protectAThenAddB() {
        missAndFill(A, P);
        hit(A, P);  // r_use 1, prediction 0 AND 1 = 0, LPL 1
        hit(A, P);  // r_use 1, prediction 1 AND 1 = 1
        missAndFill(B, Q);
    }
};

} // namespace

TEST(LpcReplacement, EvictsTheNoReuseLineInsteadOfTheLruOne) {
    Bench b(cfgOf(L1ReplacementKind::Lpc));
    b.protectAThenAddB();
    // C misses in the full set 0: LRU would take A (stamp 4 < 6); A is protected, B is not -> B.
    ASSERT_EQ(b.l1.read(C, 0, R, 1), L1Result::MissNew);
    EXPECT_TRUE(b.l1.probe(A));
    EXPECT_FALSE(b.l1.probe(B));
    EXPECT_TRUE(b.l1.reserved(C));
    EXPECT_EQ(b.n("lpc.protected_victims"), 1u);
    EXPECT_EQ(b.n("lpc.all_protected_victims"), 0u);
    EXPECT_EQ(b.n("lpc.reuse_hits"), 2u);
    EXPECT_EQ(b.n("lpc.predicted_hits"), 1u);
    EXPECT_EQ(b.n("evictions"), 1u);
    // The events carry the prediction: miss A, hit, hit (predicted), miss B, miss C.
    EXPECT_EQ(b.obs.seen, (std::vector<bool>{false, false, true, false, false}));
}

TEST(LpcReplacement, LruOnTheSameSequenceEvictsTheLruLine) {
    Bench b(cfgOf(L1ReplacementKind::Lru));
    b.protectAThenAddB();
    ASSERT_EQ(b.l1.read(C, 0, R, 1), L1Result::MissNew);
    EXPECT_FALSE(b.l1.probe(A));  // stamp 4 < 6
    EXPECT_TRUE(b.l1.probe(B));
    EXPECT_EQ(b.l1.replacement().name(), "lru");
    EXPECT_EQ(b.stats.find("l1.lpc.protected_victims"), nullptr);  // LRU registers no LPC statistic
    EXPECT_EQ(b.obs.seen, (std::vector<bool>{false, false, false, false, false}));
}

TEST(LpcReplacement, AnotherPcClearsTheProtection) {
    Bench b(cfgOf(L1ReplacementKind::Lpc));
    b.protectAThenAddB();
    b.hit(A, Q);  // W_PC was P: r_use 0, prediction 1 AND 0 = 0, LPL 0; A stamp 7 > B's 6
    b.hit(B, Q);  // W_PC Q (its miss): r_use 1, prediction LPL 0 AND 1 = 0; B stamp 8
    // Neither is protected, so plain LRU: A (7 < 8).
    ASSERT_EQ(b.l1.read(C, 0, R, 1), L1Result::MissNew);
    EXPECT_FALSE(b.l1.probe(A));
    EXPECT_TRUE(b.l1.probe(B));
    EXPECT_EQ(b.n("lpc.protected_victims"), 0u);
}

TEST(LpcReplacement, EveryLineProtectedFallsBackToLru) {
    Bench b(cfgOf(L1ReplacementKind::Lpc));
    b.protectAThenAddB();
    b.hit(B, Q);  // prediction 0, LPL 1
    b.hit(B, Q);  // prediction 1; B stamp 8, A stamp 4
    ASSERT_EQ(b.l1.read(C, 0, R, 1), L1Result::MissNew);
    EXPECT_FALSE(b.l1.probe(A));  // both protected: LRU
    EXPECT_TRUE(b.l1.probe(B));
    EXPECT_EQ(b.n("lpc.all_protected_victims"), 1u);
    EXPECT_EQ(b.n("lpc.protected_victims"), 0u);
}

TEST(LpcReplacement, ANewLineStartsUnprotected) {
    // The way A left is taken by C; C inherits none of A's bits (Algorithm 1 line 3).
    Bench b(cfgOf(L1ReplacementKind::Lpc));
    b.protectAThenAddB();
    b.hit(B, Q);
    b.hit(B, Q);                     // B protected, stamp 8; A protected, stamp 4
    ASSERT_EQ(b.l1.read(C, 0, R, 1), L1Result::MissNew);  // evicts A (fallback), C in way 0
    b.l1.popOutgoing();
    b.l1.fill(C);                    // C stamp 10, unprotected
    // The next miss: B (8, protected) vs C (10, not): C goes although B is older.
    ASSERT_EQ(b.l1.read(A, 0, P, 1), L1Result::MissNew);
    EXPECT_TRUE(b.l1.probe(B));
    EXPECT_FALSE(b.l1.probe(C));
    EXPECT_EQ(b.n("lpc.protected_victims"), 1u);
}

TEST(LpcReplacement, AllocateOnFillTakesTheMissingPc) {
    // Under allocate-on-fill the line is installed at the fill, with the PC of the load that
    // missed: a hit by that PC is reuse.
    Bench b(cfgOf(L1ReplacementKind::Lpc, L1Allocation::OnFill));
    b.protectAThenAddB();
    ASSERT_EQ(b.l1.read(C, 0, R, 1), L1Result::MissNew);
    EXPECT_TRUE(b.l1.probe(A));
    EXPECT_TRUE(b.l1.probe(B));  // nothing chosen until the fill
    b.l1.popOutgoing();
    b.l1.fill(C);  // victim now: B (unprotected) rather than A (LRU)
    EXPECT_TRUE(b.l1.probe(A));
    EXPECT_FALSE(b.l1.probe(B));
    b.hit(C, R);
    EXPECT_EQ(b.n("lpc.reuse_hits"), 3u);  // A's two and C's
}

TEST(LpcReplacement, PluginAloneByWays) {
    // The plug-in without a cache: 1 set, 4 ways.
    StatRegistry stats;
    LpcReplacement lpc(1, 4, stats, "x.");
    for (unsigned w = 0; w < 4; ++w) lpc.onAllocate(0, w, 0x10 * w);  // stamps 1..4, W_PC 0x00..0x30
    EXPECT_EQ(lpc.victim(0, 0xF), 0u);                                   // nothing protected: LRU
    EXPECT_FALSE(lpc.onHit(0, 0, 0x00));  // r_use 1, LPL 0 -> prediction 0; stamp 5
    EXPECT_TRUE(lpc.reuse(0, 0));
    EXPECT_TRUE(lpc.lpl(0, 0));
    EXPECT_TRUE(lpc.onHit(0, 0, 0x00));   // prediction 1 AND 1; stamp 6
    EXPECT_TRUE(lpc.predicted(0, 0));
    for (unsigned w = 1; w < 4; ++w) EXPECT_FALSE(lpc.onHit(0, w, 0x99));  // other PC: stamps 7, 8, 9
    EXPECT_FALSE(lpc.reuse(0, 1));
    // Way 0 is the LRU line (6) but protected: the oldest unprotected, way 1 (7), goes.
    EXPECT_EQ(lpc.victim(0, 0xF), 1u);
    EXPECT_EQ(lpc.victim(0, 0x1), 0u);  // the only candidate is protected: LRU fallback
    EXPECT_EQ(lpc.victim(0, 0xC), 2u);  // ways 2 (8) and 3 (9), LRU agrees: not counted
    EXPECT_EQ(stats.get("x.lpc.protected_victims"), 1.0);
    EXPECT_EQ(stats.get("x.lpc.all_protected_victims"), 1.0);
}

TEST(LruReplacement, OldestStampAmongCandidates) {
    LruReplacement lru(2, 3);
    lru.onAllocate(1, 2, 0);  // 1
    lru.onAllocate(1, 0, 0);  // 2
    lru.onAllocate(1, 1, 0);  // 3
    EXPECT_EQ(lru.victim(1, 0x7), 2u);
    EXPECT_FALSE(lru.onHit(1, 2, 0));  // 4: LRU never predicts
    EXPECT_EQ(lru.victim(1, 0x7), 0u);
    lru.onFill(1, 0);  // 5
    EXPECT_EQ(lru.victim(1, 0x7), 1u);
    EXPECT_EQ(lru.victim(1, 0x5), 2u);  // way 1 not a candidate: 2 (4) before 0 (5)
}

TEST(L1Replacement, FactoryNamesAndUnknown) {
    StatRegistry stats;
    EXPECT_EQ(makeL1Replacement(parseL1Replacement("lru"), 4, 2, stats, "p.")->name(), "lru");
    EXPECT_EQ(makeL1Replacement(parseL1Replacement("lpc"), 4, 2, stats, "p.")->name(), "lpc");
    EXPECT_EQ(l1ReplacementNames(), (std::vector<std::string>{"lru", "lpc"}));
    EXPECT_THROW(parseL1Replacement("fifo"), ModelError);
}

} // namespace lpc_replacement_test
