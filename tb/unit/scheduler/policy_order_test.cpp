// LRR and GTO as the CCWS paper defines them ("Loose round-robin ... if a wavefront cannot issue
// during its turn, the next wavefront in round-robin order is given the chance"; "GTO runs a single
// wavefront until it stalls then picks the oldest ready wavefront"), checked on order() alone with
// a fake SmView. Every expected order below is worked out by hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "scheduler/GtoPolicy.hpp"
#include "scheduler/LrrPolicy.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace policy_order_test {

using namespace gpusim;
using gpusim::test::FakeSmView;
using V = std::vector<unsigned>;

namespace {
V ordered(SchedulerPolicy& p, unsigned sched, V warps, const SmView& sm) {
    p.order(sched, warps, sm);
    return warps;
}
} // namespace

TEST(LrrOrder, StartsAtLowestSlotThenRotatesAfterLastIssuer) {
    FakeSmView sm(4);
    LrrPolicy p;
    // Nothing issued yet: slot order.
    EXPECT_EQ(ordered(p, 0, {0, 1, 2, 3}, sm), (V{0, 1, 2, 3}));
    // Warp 1 issued last: 2 gets the next turn, then 3, then wrap to 0, 1.
    p.onIssue(0, 1, sm);
    EXPECT_EQ(ordered(p, 0, {0, 1, 2, 3}, sm), (V{2, 3, 0, 1}));
    // Warp 3 last: wrap to 0.
    p.onIssue(0, 3, sm);
    EXPECT_EQ(ordered(p, 0, {0, 1, 2, 3}, sm), (V{0, 1, 2, 3}));
    // The input order does not matter (the issue stage passes slots, the policy sorts them).
    p.onIssue(0, 0, sm);
    EXPECT_EQ(ordered(p, 0, {3, 1, 2, 0}, sm), (V{1, 2, 3, 0}));
}

TEST(LrrOrder, LastIssuerNoLongerValidStillRotatesBySlot) {
    FakeSmView sm(6);
    LrrPolicy p;
    // Scheduler 1 owns odd slots 1, 3, 5. Warp 3 issued last and then left: the order passed
    // in no longer holds 3; the turn goes to the first slot after 3, i.e. 5, then 1.
    p.onIssue(1, 3, sm);
    EXPECT_EQ(ordered(p, 1, {1, 5}, sm), (V{5, 1}));
}

TEST(LrrOrder, SchedulersKeepSeparateTurns) {
    FakeSmView sm(4);
    LrrPolicy p;
    p.onIssue(0, 2, sm);  // scheduler 0 (even slots) last issued 2 -> next 0
    p.onIssue(1, 1, sm);  // scheduler 1 (odd slots) last issued 1 -> next 3
    EXPECT_EQ(ordered(p, 0, {0, 2}, sm), (V{0, 2}));
    EXPECT_EQ(ordered(p, 1, {1, 3}, sm), (V{3, 1}));
}

TEST(GtoOrder, GreedyWarpFirstThenByAgeNotSlot) {
    // Ages (smaller = older): slot 0 -> 7, slot 1 -> 2, slot 2 -> 9, slot 3 -> 1.
    // Oldest-first order is therefore 3 (1), 1 (2), 0 (7), 2 (9).
    FakeSmView sm(4, {7, 2, 9, 1});
    GtoPolicy p;
    EXPECT_EQ(ordered(p, 0, {0, 1, 2, 3}, sm), (V{3, 1, 0, 2}));
    // Warp 2 (the youngest) issued last: it goes first, the rest stay oldest-first.
    p.onIssue(0, 2, sm);
    EXPECT_EQ(ordered(p, 0, {0, 1, 2, 3}, sm), (V{2, 3, 1, 0}));
}

TEST(GtoOrder, EqualAgesFallBackToSlot) {
    FakeSmView sm(3, {5, 5, 5});
    GtoPolicy p;
    EXPECT_EQ(ordered(p, 0, {2, 0, 1}, sm), (V{0, 1, 2}));
}

TEST(GtoOrder, EndedWarpLosesGreedyPosition) {
    FakeSmView sm(4, {0, 1, 2, 3});
    GtoPolicy p;
    p.onIssue(0, 2, sm);
    EXPECT_EQ(ordered(p, 0, {0, 1, 2, 3}, sm), (V{2, 0, 1, 3}));
    // Warp 2 ends; a new warp takes slot 2 with the youngest age 10: it must not be greedy.
    p.onWarpEnd(2);
    sm.at(2).age = 10;
    EXPECT_EQ(ordered(p, 0, {0, 1, 2, 3}, sm), (V{0, 1, 3, 2}));
}

TEST(GtoOrder, SchedulersKeepSeparateGreedyWarps) {
    FakeSmView sm(4, {3, 2, 1, 0});
    GtoPolicy p;
    p.onIssue(0, 0, sm);
    p.onIssue(1, 1, sm);
    // Scheduler 0: greedy 0 first, then 2. Scheduler 1: greedy 1 first, then 3.
    EXPECT_EQ(ordered(p, 0, {0, 2}, sm), (V{0, 2}));
    EXPECT_EQ(ordered(p, 1, {1, 3}, sm), (V{1, 3}));
    // Scheduler 1 issues 3: now 3 leads there, scheduler 0 unchanged.
    p.onIssue(1, 3, sm);
    EXPECT_EQ(ordered(p, 1, {1, 3}, sm), (V{3, 1}));
    EXPECT_EQ(ordered(p, 0, {0, 2}, sm), (V{0, 2}));
}

TEST(GtoOrder, OrderViewIsTheGreedyWarpThenTheAgeOrder) {
    // Ages: slot 0 -> 7, 1 -> 2, 2 -> 9, 3 -> 1: oldest first 3, 1, 0, 2 (as above). The issue
    // stage walks `first`, then the list without it: the same sequence as order().
    FakeSmView sm(4, {7, 2, 9, 1});
    GtoPolicy p;
    const V all{0, 1, 2, 3};
    int first = 7;
    EXPECT_EQ(p.orderView(0, all, sm, first), (V{3, 1, 0, 2}));
    EXPECT_EQ(first, -1) << "nothing issued yet";
    // Warp 2 issued last: first 2, then 3, 1, 0 (the list's 2 is skipped) = order()'s 2, 3, 1, 0.
    p.onIssue(0, 2, sm);
    EXPECT_EQ(p.orderView(0, all, sm, first), (V{3, 1, 0, 2}));
    EXPECT_EQ(first, 2);
    EXPECT_EQ(ordered(p, 0, all, sm), (V{2, 3, 1, 0}));
    // A last issuer that is not among the warps asked about is no greedy warp.
    p.onIssue(0, 4, sm);
    p.orderView(0, all, sm, first);
    EXPECT_EQ(first, -1);
    // Nor is one that ended.
    p.onIssue(0, 1, sm);
    p.onWarpEnd(1);
    p.orderView(0, all, sm, first);
    EXPECT_EQ(first, -1);
}

// Each scheduler's order of its valid warps (slot parity) must be the members sorted by
// (age, slot); then a random member issues, so the greedy warp keeps moving (the last issuer
// while it is a member).
void checkAgeOrders(GtoPolicy& p, const FakeSmView& sm, const std::vector<bool>& valid, std::mt19937& rng,
                    int step) {
    for (unsigned sched = 0; sched < 2; ++sched) {
        V members;
        for (unsigned s = sched; s < valid.size(); s += 2)
            if (valid[s]) members.push_back(s);
        V expected = members;
        std::sort(expected.begin(), expected.end(), [&](unsigned a, unsigned b) {
            return sm.warp(a).age != sm.warp(b).age ? sm.warp(a).age < sm.warp(b).age : a < b;
        });
        int first = 0;
        ASSERT_EQ(p.orderView(sched, members, sm, first), expected) << "step " << step;
        if (!members.empty()) p.onIssue(sched, members[rng() % members.size()], sm);
    }
}

// GTO keeps its age order from one call to the next and, when a scheduler's warps change, merges
// the newcomers into what stays instead of sorting again. Under random churn (warps ending,
// slots refilled with an age drawn at random, so a newcomer may be older than warps that stay,
// and ages may tie), every order must be the members sorted by (age, slot), with the SM's
// per-scheduler versions kept and without them (a view that reports 0 is compared every call).
TEST(GtoOrder, AgeOrderKeptAcrossWarpChurnEqualsAFreshSort) {
    for (bool versions : {true, false}) {
        constexpr unsigned kSlots = 48;
        FakeSmView sm(kSlots);
        GtoPolicy p;
        std::mt19937 rng(versions ? 11 : 12);
        std::vector<bool> valid(kSlots, true);
        unsigned merges = 0;
        for (int step = 0; step < 4000; ++step) {
            const unsigned w = rng() % kSlots;
            if (valid[w] && rng() % 2) {
                valid[w] = false;  // the warp ends
            } else {
                valid[w] = true;  // a new warp in the slot (or the same slot refilled)
                sm.at(w).age = rng() % 64;
                merges += sm.at(w).age < 32;
            }
            if (versions) sm.warpSetChanged(w % 2);
            ASSERT_NO_FATAL_FAILURE(checkAgeOrders(p, sm, valid, rng, step));
        }
        EXPECT_GT(merges, 500u);
    }
}

// The same with the start and end hooks an SM calls (attach, then onWarpStart / onWarpEnd right
// after the scheduler's set version moves), which keep the order without comparing the members
// again: newcomers are normally the youngest (an SM's ages grow), but some here are not, some
// changes come without their hook, and several changes may pass between two orders. Every order
// must still be the members sorted by (age, slot).
TEST(GtoOrder, StartAndEndHooksKeepTheAgeOrder) {
    constexpr unsigned kSlots = 48;
    FakeSmView sm(kSlots);
    GtoPolicy p;
    p.attach(sm);
    std::mt19937 rng(5);
    std::vector<bool> valid(kSlots, true);
    uint64_t nextAge = kSlots;
    unsigned hooked = 0;
    for (int step = 0; step < 6000; ++step) {
        const unsigned w = rng() % kSlots;
        const bool end = valid[w] && rng() % 2;
        if (end) {
            valid[w] = false;
        } else {
            if (valid[w]) {  // the slot's warp ends first, then a new one starts there
                valid[w] = false;
                sm.warpSetChanged(w % 2);
                p.onWarpEnd(w);
            }
            valid[w] = true;
            sm.at(w).age = rng() % 16 == 0 ? rng() % nextAge : nextAge;  // now and then not the youngest
            ++nextAge;
        }
        sm.warpSetChanged(w % 2);
        if (rng() % 8 != 0) {  // now and then a change without its hook
            ++hooked;
            if (end)
                p.onWarpEnd(w);
            else
                p.onWarpStart(w);
        }
        if (rng() % 3 == 0) continue;  // several changes before the next order
        ASSERT_NO_FATAL_FAILURE(checkAgeOrders(p, sm, valid, rng, step));
    }
    EXPECT_GT(hooked, 4000u);
}

} // namespace policy_order_test
