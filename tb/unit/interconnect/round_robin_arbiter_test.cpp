#include <gtest/gtest.h>

#include <vector>

#include "interconnect/RoundRobinArbiter.hpp"

namespace round_robin_arbiter_test {

using gpusim::RoundRobinArbiter;

namespace {
auto all() {
    return [](unsigned) { return true; };
}
} // namespace

TEST(RoundRobinArbiter, FirstGrantGoesToTheLowestRequester) {
    RoundRobinArbiter a(4);
    EXPECT_EQ(a.pick(all()), 0);
    EXPECT_EQ(a.pick([](unsigned i) { return i >= 2; }), 2);
}

TEST(RoundRobinArbiter, NoRequesterNoGrant) {
    RoundRobinArbiter a(3);
    EXPECT_EQ(a.pick([](unsigned) { return false; }), RoundRobinArbiter::kNone);
}

TEST(RoundRobinArbiter, PersistentContentionIsServedInRotation) {
    RoundRobinArbiter a(3);
    std::vector<int> order;
    for (int k = 0; k < 7; ++k) {
        const int w = a.pick(all());
        a.grant(static_cast<unsigned>(w));
        order.push_back(w);
    }
    EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 0, 1, 2, 0}));
}

TEST(RoundRobinArbiter, PriorityStartsAfterTheLastWinnerNotAfterTheLastPick) {
    RoundRobinArbiter a(4);
    a.grant(2);
    // 3 is next in line; 0 and 1 come after the wrap.
    EXPECT_EQ(a.pick([](unsigned i) { return i == 0 || i == 3; }), 3);
    EXPECT_EQ(a.pick([](unsigned i) { return i == 0 || i == 1; }), 0);
    // pick() alone does not move the pointer (an unused grant costs nobody its turn).
    EXPECT_EQ(a.lastWinner(), 2u);
    // The last winner is served again only when it is the sole requester.
    EXPECT_EQ(a.pick([](unsigned i) { return i == 2; }), 2);
}

TEST(RoundRobinArbiter, SingleRequesterArbiter) {
    RoundRobinArbiter a(1);
    EXPECT_EQ(a.pick(all()), 0);
    a.grant(0);
    EXPECT_EQ(a.pick(all()), 0);
}

} // namespace round_robin_arbiter_test
