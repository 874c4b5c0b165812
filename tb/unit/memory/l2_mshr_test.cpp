#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>

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

// The table against a reference model (a map of lists, which the MSHR was before issue 19):
// 20,000 random allocations, merges and fills over 40 lines with 16 entries, so that the index
// fills to its half and removals shift entries back in every pattern; every probe, waiting list,
// size and dump agrees. Lines 128 bytes apart and 4 KiB apart (two strides of real traffic).
TEST(L2Mshr, AgreesWithAMapOfListsOverRandomTraffic) {
    L2Mshr m(16, 4);
    std::map<uint64_t, std::vector<L2Mshr::Target>> ref;
    std::mt19937_64 rng(7);
    std::vector<uint64_t> lines;
    for (uint64_t k = 0; k < 20; ++k) lines.push_back(0x10000 + k * 128);
    for (uint64_t k = 0; k < 20; ++k) lines.push_back(0x800000 + k * 4096);
    std::vector<L2Mshr::Target> out;
    for (unsigned step = 0; step < 20000; ++step) {
        const uint64_t line = lines[rng() % lines.size()];
        const auto it = ref.find(line);
        const L2Mshr::Probe expect = it != ref.end() ? (it->second.size() < 4 ? L2Mshr::Probe::Merge : L2Mshr::Probe::MergeFull)
                                                     : (ref.size() < 16 ? L2Mshr::Probe::Allocate : L2Mshr::Probe::Full);
        ASSERT_EQ(m.probe(line), expect) << "step " << step;
        const L2Mshr::Target t = target(step % 8, step % 3 == 0);
        if (it != ref.end() && rng() % 3 == 0) {  // the line arrives
            m.complete(line, out);
            ASSERT_EQ(out.size(), it->second.size());
            for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i].payload, it->second[i].payload);
            ref.erase(it);
        } else if (expect == L2Mshr::Probe::Allocate) {
            m.allocate(line, t);
            ref[line].push_back(t);
        } else if (expect == L2Mshr::Probe::Merge) {
            m.merge(line, t);
            ref[line].push_back(t);
        }
        ASSERT_EQ(m.size(), ref.size());
        ASSERT_EQ(m.waiting(line).size(), ref.count(line) ? ref[line].size() : 0u);
        ASSERT_EQ(m.inFlight(line), ref.count(line) != 0);
    }
    std::string dump;
    for (const auto& [line, ts] : ref) {
        std::ostringstream os;
        os << (dump.empty() ? "" : " ") << "0x" << std::hex << line << std::dec << ":" << ts.size();
        dump += os.str();
    }
    EXPECT_EQ(m.describe(), dump);
}

} // namespace l2_mshr_test
