// CWLP's scheduler part (CwlpPolicy, LocalityInfoScore) and `lpc` against hand-computed orders.
// Scheduler 0 owns the even slots {0, 2, 4, 6} of a FakeSmView with 8 warps. Warps 0 and 2 have
// a global load next (long latency class), 4 and 6 an ALU instruction (short). Ages (launch
// order, smaller = older): slot 0: 0, slot 2: 2, slot 4: 9, slot 6: 4, so among the short
// warps 6 is older than 4.
#include <gtest/gtest.h>

#include <vector>

#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "scheduler/CwlpPolicy.hpp"
#include "scheduler/LocalityInfoScore.hpp"
#include "scheduler/LpcPolicy.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace cwlp_policy_test {

using namespace gpusim;
using gpusim::test::FakeSmView;

namespace {

using Order = std::vector<unsigned>;

L1AccessEvent hit(bool predicted) { return {1, 0x40, 0x1000, true, false, false, predicted}; }
L1AccessEvent miss() { return {1, 0x40, 0x2000, false, false, false, false}; }

struct Bench {
    FakeSmView sm{8, {0, 1, 2, 3, 9, 5, 4, 7}};
    StatRegistry stats;
    CwlpPolicy p;
    explicit Bench(CwlpPolicy::Params params = {}) : p(params) {
        sm.nextLoad(0, 0x80);
        sm.nextLoad(2, 0x80);
        sm.nextAlu(4);
        sm.nextAlu(6);
        p.attach(sm);
        p.registerStats(stats, "sm0.sched.");
    }
    // A full window of 10 accesses: `predicted` predicted hits, the rest misses.
    void window(unsigned predicted) {
        for (unsigned i = 0; i < 10; ++i) p.onL1Access(i < predicted ? hit(true) : miss());
    }
    Order order() {
        Order w{0, 2, 4, 6};
        p.order(0, w, sm);
        return w;
    }
    uint64_t n(const std::string& s) const { return static_cast<uint64_t>(stats.get("sm0.sched.cwlp." + s)); }
};

} // namespace

TEST(LocalityInfoScore, LocalityOnlyAboveFiveOfTen) {
    LocalityInfoScore lis({});
    EXPECT_FALSE(lis.decided());
    EXPECT_FALSE(lis.reorder());  // no complete window yet: base order
    // 6 predicted of 10: 6 > 5 -> locality, no reordering.
    for (unsigned i = 0; i < 9; ++i) EXPECT_FALSE(lis.onAccess(true, i < 6));
    EXPECT_FALSE(lis.decided());
    EXPECT_TRUE(lis.onAccess(false, false));
    EXPECT_TRUE(lis.locality());
    EXPECT_FALSE(lis.reorder());
    EXPECT_EQ(lis.count(), 0u);  // cleared for the next window
    EXPECT_EQ(lis.ones(), 0u);
    // 5 of 10: not more than five -> no locality -> reorder. Were the window not cleared, the
    // count would be 11 and show locality.
    for (unsigned i = 0; i < 10; ++i) lis.onAccess(i < 5, i < 5);
    EXPECT_FALSE(lis.locality());
    EXPECT_TRUE(lis.reorder());
}

TEST(LocalityInfoScore, HitsOnlyWindowIgnoresMisses) {
    LocalityInfoScore lis({10, 5, /*countMisses=*/false});
    // 6 predicted hits, 4 unpredicted hits, with 20 misses in between: the misses do not count,
    // the 10 hits make the window, 6 > 5 -> locality.
    for (unsigned i = 0; i < 10; ++i) {
        lis.onAccess(false, false);
        lis.onAccess(false, false);
        lis.onAccess(true, i < 6);
    }
    EXPECT_TRUE(lis.decided());
    EXPECT_TRUE(lis.locality());
    // The same with misses counted: three windows of 10 accesses (miss, miss, hit, ...) with 3, 3
    // and 0 predicted hits; the last one decides: no locality.
    LocalityInfoScore all({});
    for (unsigned i = 0; i < 10; ++i) {
        all.onAccess(false, false);
        all.onAccess(false, false);
        all.onAccess(true, i < 6);
    }
    EXPECT_TRUE(all.reorder());
}

TEST(CwlpPolicy, ReordersWhenTheScoreShowsNoLocality) {
    Bench b;
    b.window(5);  // 5 of 10 predicted: no locality
    ASSERT_TRUE(b.p.lis().reorder());
    // No issue yet: no class to differ from, oldest first: ages 0 (slot 0), 2 (2), 4 (6), 9 (4).
    EXPECT_EQ(b.order(), (Order{0, 2, 6, 4}));
    b.p.onIssue(0, 0, b.sm);  // a long warp issued
    // Short warps first (XOR with long = 1), oldest first: 6 (age 4), 4 (age 9); then the long
    // ones by age. LRR would give 2, 4, 6, 0.
    EXPECT_EQ(b.order(), (Order{6, 4, 0, 2}));
    b.p.onIssue(0, 6, b.sm);  // a short warp issued: long ones first again
    EXPECT_EQ(b.order(), (Order{0, 2, 6, 4}));
    b.p.onIssue(0, 2, b.sm);
    EXPECT_EQ(b.n("lis_windows"), 1u);
    EXPECT_EQ(b.n("lis_locality_windows"), 0u);
    EXPECT_EQ(b.n("reordered_cycles"), 3u);
    EXPECT_EQ(b.n("reordered_issues"), 3u);
    EXPECT_EQ(b.n("alternating_issues"), 2u);  // 6 after 0, 2 after 6; the first had no previous
}

TEST(CwlpPolicy, KeepsLrrWhenTheScoreShowsLocality) {
    Bench b;
    b.window(6);  // 6 of 10 predicted: locality
    ASSERT_FALSE(b.p.lis().reorder());
    EXPECT_EQ(b.order(), (Order{0, 2, 4, 6}));  // LRR from the start
    b.p.onIssue(0, 0, b.sm);
    EXPECT_EQ(b.order(), (Order{2, 4, 6, 0}));  // LRR: the warp after the last issuer first
    b.p.onIssue(0, 2, b.sm);
    EXPECT_EQ(b.order(), (Order{4, 6, 0, 2}));
    EXPECT_EQ(b.n("lis_locality_windows"), 1u);
    EXPECT_EQ(b.n("reordered_cycles"), 0u);
    EXPECT_EQ(b.n("reordered_issues"), 0u);
}

TEST(CwlpPolicy, DecisionChangesOnlyAtTheEndOfAWindow) {
    Bench b;
    b.window(6);  // locality
    b.p.onIssue(0, 0, b.sm);
    for (unsigned i = 0; i < 9; ++i) b.p.onL1Access(miss());
    EXPECT_EQ(b.order(), (Order{2, 4, 6, 0}));  // 9 misses: the window is open, LRR holds
    b.p.onIssue(0, 0, b.sm);                     // long (class recorded by the order above)
    b.p.onL1Access(miss());                      // 10th: 0 of 10 -> reorder
    EXPECT_EQ(b.order(), (Order{6, 4, 0, 2}));
    // Stores do not enter the window: 10 stores leave the decision as it is.
    for (unsigned i = 0; i < 10; ++i) b.p.onL1Access({1, 0x40, 0x3000, false, false, true, false});
    EXPECT_EQ(b.n("lis_windows"), 2u);
}

TEST(CwlpPolicy, LongClassFromLoadsInFlight) {
    CwlpPolicy::Params params;
    params.longClass = 1;
    Bench b(params);
    // With long_class 1 the next instruction does not matter: warp 4 has loads in flight.
    b.sm.at(4).pendingLoads = 1;
    EXPECT_TRUE(b.p.isLong(b.sm.warp(4)));
    EXPECT_FALSE(b.p.isLong(b.sm.warp(0)));  // next is a load, none in flight
    b.window(0);
    b.order();
    b.p.onIssue(0, 0, b.sm);  // short
    // Only 4 is long: 4 first, then 0, 2, 6 by age (0, 2, 4).
    EXPECT_EQ(b.order(), (Order{4, 0, 2, 6}));
}

TEST(CwlpPolicy, AsksForLpc) {
    EXPECT_EQ(CwlpPolicy({}).l1Replacement(), L1ReplacementKind::Lpc);
    EXPECT_EQ(LpcPolicy().l1Replacement(), L1ReplacementKind::Lpc);
    EXPECT_FALSE(LrrPolicy().l1Replacement().has_value());
}

TEST(LpcPolicy, OrderIsLrr) {
    FakeSmView sm(8, {0, 1, 2, 3, 9, 5, 4, 7});
    LpcPolicy p;
    LrrPolicy lrr;
    for (unsigned last : {0u, 2u, 6u}) {
        p.onIssue(0, last, sm);
        lrr.onIssue(0, last, sm);
        Order a{0, 2, 4, 6}, b{0, 2, 4, 6};
        p.order(0, a, sm);
        lrr.order(0, b, sm);
        EXPECT_EQ(a, b) << last;
    }
    EXPECT_EQ(p.name(), "lpc");
}

TEST(CwlpPolicy, RegistryEntries) {
    const auto& r = PolicyRegistry::builtin();
    auto c = r.parse("cwlp");
    EXPECT_EQ(c.toJson().dump(),
              R"({"name":"cwlp","params":{"count_misses":1.0,"long_class":0.0,"threshold":5.0,"window":10.0}})");
    EXPECT_EQ(c.make()->name(), "cwlp");
    EXPECT_EQ(r.parse("lpc").make()->l1Replacement(), L1ReplacementKind::Lpc);
    auto custom = r.parse("cwlp:window=20,threshold=10");
    EXPECT_EQ(custom.params.at("window"), 20.0);
    try {
        r.parse("cwlp:threshold=10");
        ADD_FAILURE() << "threshold 10 with window 10 accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "--scheduler: cwlp: threshold: 10 must be below window (10), or no window could ever show locality");
    }
}

} // namespace cwlp_policy_test
