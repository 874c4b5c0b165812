// TimedReturns: returns taken in (ready cycle, start order) order, whichever of its FIFO and heap
// holds them.
#include <gtest/gtest.h>

#include <queue>
#include <random>
#include <tuple>
#include <vector>

#include "modules/TimedReturns.hpp"

namespace timed_returns_test {

using namespace gpusim;

namespace {
std::vector<uint32_t> drain(TimedReturns& r, uint64_t cycle) {
    std::vector<uint32_t> out;
    for (uint32_t t; r.popDue(cycle, t);) out.push_back(t);
    return out;
}
} // namespace

TEST(TimedReturns, EarliestReadyFirstAndStartOrderBetweenEqualCycles) {
    TimedReturns r;
    EXPECT_TRUE(r.empty());
    EXPECT_EQ(r.nextReady(), UINT64_MAX);
    r.push(10, 1);  // in order: the FIFO
    r.push(12, 2);  // in order
    r.push(10, 3);  // before the FIFO's last: the heap; after token 1 (same cycle, later start)
    r.push(5, 4);   // the heap
    r.push(12, 5);  // in order again: after token 2
    EXPECT_EQ(r.size(), 5u);
    EXPECT_EQ(r.nextReady(), 5u);
    EXPECT_TRUE(drain(r, 4).empty());
    EXPECT_EQ(drain(r, 5), (std::vector<uint32_t>{4}));
    EXPECT_EQ(r.nextReady(), 10u);
    EXPECT_EQ(drain(r, 11), (std::vector<uint32_t>{1, 3}));
    EXPECT_EQ(drain(r, 12), (std::vector<uint32_t>{2, 5}));
    EXPECT_TRUE(r.empty());
}

TEST(TimedReturns, TheSameSequenceAsOnePriorityQueue) {
    // Pushes and pops interleaved as the LD/ST unit makes them (a few latencies, pops of what is
    // due each cycle), against the heap of (ready, start) it replaces.
    using Ref = std::tuple<uint64_t, uint64_t, uint32_t>;
    std::priority_queue<Ref, std::vector<Ref>, std::greater<Ref>> ref;
    TimedReturns r;
    std::mt19937 rng(7);
    const uint64_t latencies[] = {1, 1, 20, 20, 20, 24, 3};
    uint64_t seq = 0;
    uint32_t token = 0;
    for (uint64_t cycle = 0; cycle < 5000; ++cycle) {
        for (unsigned k = rng() % 3; k > 0; --k) {
            const uint64_t ready = cycle + latencies[rng() % std::size(latencies)];
            ref.emplace(ready, seq++, token);
            r.push(ready, token++);
        }
        std::vector<uint32_t> want;
        while (!ref.empty() && std::get<0>(ref.top()) <= cycle) {
            want.push_back(std::get<2>(ref.top()));
            ref.pop();
        }
        ASSERT_EQ(drain(r, cycle), want) << "cycle " << cycle;
        ASSERT_EQ(r.size(), ref.size());
        ASSERT_EQ(r.nextReady(), ref.empty() ? UINT64_MAX : std::get<0>(ref.top()));
    }
    EXPECT_GT(token, 4000u);
}

} // namespace timed_returns_test
