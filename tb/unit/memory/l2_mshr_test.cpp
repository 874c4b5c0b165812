#include <gtest/gtest.h>

#include "memory/L2Mshr.hpp"

namespace l2_mshr_test {

using namespace gpusim;

namespace {
// The MSHR only stores payload pointers; distinct addresses are all a test needs.
tlm::tlm_generic_payload gp[8];
L2Mshr::Target target(unsigned i, bool write = false) { return {&gp[i], i * 1000u, write}; }
} // namespace

TEST(L2Mshr, AllocateMergeAndLimits) {
    L2Mshr m(2, 3);  // two lines in flight, three requests per line
    EXPECT_EQ(m.probe(0x100), L2Mshr::Probe::Allocate);
    m.allocate(0x100, target(0));
    EXPECT_TRUE(m.inFlight(0x100));
    EXPECT_EQ(m.probe(0x100), L2Mshr::Probe::Merge);
    m.merge(0x100, target(1));
    m.merge(0x100, target(2, true));
    // The allocating request counts toward the merge limit.
    EXPECT_EQ(m.probe(0x100), L2Mshr::Probe::MergeFull);
    m.allocate(0x200, target(3));
    EXPECT_EQ(m.probe(0x300), L2Mshr::Probe::Full);
    EXPECT_EQ(m.probe(0x200), L2Mshr::Probe::Merge);  // a full MSHR still merges
    EXPECT_EQ(m.size(), 2u);
    EXPECT_EQ(m.describe(), "0x100:3 0x200:1");
    EXPECT_THROW(m.allocate(0x300, target(4)), std::logic_error);
    EXPECT_THROW(m.merge(0x100, target(4)), std::logic_error);
}

TEST(L2Mshr, CompleteReturnsArrivalOrderAndFreesTheEntry) {
    L2Mshr m(1, 8);
    m.allocate(0x80, target(0));
    m.merge(0x80, target(1, true));
    m.merge(0x80, target(2));
    const auto t = m.complete(0x80);
    ASSERT_EQ(t.size(), 3u);
    EXPECT_EQ(t[0].payload, &gp[0]);
    EXPECT_EQ(t[1].payload, &gp[1]);
    EXPECT_TRUE(t[1].write);
    EXPECT_EQ(t[2].payload, &gp[2]);
    EXPECT_EQ(t[2].acceptPs, 2000u);
    EXPECT_TRUE(m.empty());
    EXPECT_EQ(m.probe(0x80), L2Mshr::Probe::Allocate);
    EXPECT_THROW(m.complete(0x80), std::logic_error);
}

} // namespace l2_mshr_test
