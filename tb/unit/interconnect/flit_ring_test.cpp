// Ring: the fixed-capacity FIFO of a router's virtual channel. It wraps with a comparison
// instead of a modulo; the expected contents below are worked out by hand.
#include <gtest/gtest.h>

#include <stdexcept>

#include "interconnect/Flit.hpp"

namespace flit_ring_test {

using namespace gpusim;

TEST(FlitRing, FillsToCapacityAndRefusesMore) {
    Ring<int> r(3);
    EXPECT_EQ(r.capacity(), 3u);
    EXPECT_TRUE(r.empty());
    r.push(1);
    r.push(2);
    r.push(3);
    EXPECT_TRUE(r.full());
    EXPECT_EQ(r.size(), 3u);
    EXPECT_THROW(r.push(4), std::logic_error);
    EXPECT_EQ(r.front(), 1);
}

TEST(FlitRing, WrapsAroundInFifoOrder) {
    // Capacity 3; push 1 2 3, pop 1 2 (head at slot 2), push 4 5 (slots 0 and 1):
    // the ring holds 3 4 5 in that order, and at(i) reads across the wrap.
    Ring<int> r(3);
    r.push(1);
    r.push(2);
    r.push(3);
    r.pop();
    r.pop();
    r.push(4);
    r.push(5);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r.at(0), 3);
    EXPECT_EQ(r.at(1), 4);
    EXPECT_EQ(r.at(2), 5);
    EXPECT_EQ(r.front(), 3);
    r.pop();  // head wraps from slot 2 to slot 0
    EXPECT_EQ(r.front(), 4);
    r.pop();
    EXPECT_EQ(r.front(), 5);
    r.pop();
    EXPECT_TRUE(r.empty());
    // Seven more rounds of one push and one pop through the three slots.
    for (int v = 10; v < 17; ++v) {
        r.push(v);
        EXPECT_EQ(r.front(), v);
        r.pop();
    }
    EXPECT_TRUE(r.empty());
}

TEST(FlitRing, CapacityOneAlternates) {
    Ring<Flit> r(1);
    Flit a;
    a.seq = 7;
    r.push(a);
    EXPECT_TRUE(r.full());
    EXPECT_EQ(r.front().seq, 7);
    r.pop();
    a.seq = 8;
    r.push(a);
    EXPECT_EQ(r.front().seq, 8);
    EXPECT_EQ(r.at(0).seq, 8);
}

} // namespace flit_ring_test
