// RingQueue (common/RingQueue.hpp): first in, first out across wrap-around and growth, reads by
// position from the front, iteration in queue order (checked against std::deque over a long
// random sequence of pushes and pops).
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

#include "common/RingQueue.hpp"

namespace ring_queue_test {

using namespace gpusim;

TEST(RingQueue, KeepsOrderAcrossWrapAndGrowth) {
    RingQueue<int> q;
    EXPECT_TRUE(q.empty());
    // Fill 6 of the first 8 slots, take 5: the head is at slot 5; 10 more pushes wrap past the
    // end (slots 6, 7, 0, ...) and then grow the buffer from 8 to 16 with 11 inside.
    for (int i = 0; i < 6; ++i) q.push_back(i);
    for (int i = 0; i < 5; ++i) {
        EXPECT_EQ(q.front(), i);
        q.pop_front();
    }
    for (int i = 6; i < 16; ++i) q.push_back(i);
    EXPECT_EQ(q.size(), 11u);
    EXPECT_EQ(q.front(), 5);
    EXPECT_EQ(q[10], 15);
    std::vector<int> seen;
    for (int v : q) seen.push_back(v);
    EXPECT_EQ(seen, (std::vector<int>{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
    q.clear();
    EXPECT_TRUE(q.empty());
    q.push_back(42);
    EXPECT_EQ(q.front(), 42);
}

TEST(RingQueue, RandomPushesAndPopsAgreeWithStdDeque) {
    RingQueue<unsigned> q;
    std::deque<unsigned> ref;
    std::mt19937 rng(19);
    for (unsigned step = 0; step < 20000; ++step) {
        // Pushes a little more often than pops: the queue grows through several sizes. Every
        // other push fills its slot in place (pushSlot).
        if (ref.empty() || rng() % 5 < 3) {
            if (step % 2)
                q.pushSlot() = step;
            else
                q.push_back(step);
            ref.push_back(step);
        } else {
            ASSERT_EQ(q.front(), ref.front());
            q.pop_front();
            ref.pop_front();
        }
        ASSERT_EQ(q.size(), ref.size());
        if (!ref.empty()) {
            ASSERT_EQ(q.front(), ref.front());
            ASSERT_EQ(q[ref.size() - 1], ref.back());
        }
    }
}

} // namespace ring_queue_test
