// Switch allocation by hand (interconnect/SwitchAllocator.hpp): the pointer rules of
// round-robin separable allocation and iSLIP, traced cycle by cycle on small request matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "interconnect/SwitchAllocator.hpp"

namespace switch_allocator_test {

using namespace gpusim;

namespace {

std::vector<uint8_t> full(unsigned n) { return std::vector<uint8_t>(n * n, 1); }

std::vector<uint8_t> only(unsigned in, unsigned out, std::vector<std::pair<unsigned, unsigned>> pairs) {
    std::vector<uint8_t> r(in * out, 0);
    for (auto [i, o] : pairs) r[i * out + o] = 1;
    return r;
}

} // namespace

TEST(SwitchAllocator, OneOutputIsSharedRoundRobin) {
    for (AllocatorKind k : {AllocatorKind::RoundRobin, AllocatorKind::Islip}) {
        SwitchAllocator a(k, 3, 2, 1);
        const auto req = only(3, 2, {{0, 0}, {1, 0}, {2, 0}});
        std::vector<int> m;
        std::vector<int> winners;
        for (int c = 0; c < 4; ++c) {
            EXPECT_EQ(a.allocate(req, m), 1u);
            for (unsigned i = 0; i < 3; ++i)
                if (m[i] == 0) winners.push_back(static_cast<int>(i));
        }
        EXPECT_EQ(winners, (std::vector<int>{0, 1, 2, 0})) << "kind " << int(k);
    }
}

TEST(SwitchAllocator, NoRequestsNoMatchesAndNoPointerMove) {
    SwitchAllocator a(AllocatorKind::Islip, 2, 2, 2);
    std::vector<int> m;
    EXPECT_EQ(a.allocate(std::vector<uint8_t>(4, 0), m), 0u);
    EXPECT_EQ(m, (std::vector<int>{-1, -1}));
    // Pointers untouched: input 1 alone requesting output 1 wins, then input 0 (first ever
    // grant of output 0 goes to the lowest input).
    EXPECT_EQ(a.allocate(only(2, 2, {{0, 0}, {1, 0}}), m), 1u);
    EXPECT_EQ(m, (std::vector<int>{0, -1}));
}

// Full 4x4 load (virtual output queues, every input has a cell for every output). All
// pointers start at 0. One iteration:
//  cycle 1: every output grants input 0; input 0 accepts output 0.            1 match
//           pointers: g0 = 1, a0 = 1.
//  cycle 2: output 0 grants input 1, outputs 1-3 grant input 0; input 0 accepts output 1,
//           input 1 accepts output 0.                                          2 matches
//           g0 = 2, g1 = 1, a0 = 2, a1 = 1.
//  cycle 3: output 0 -> input 2, output 1 -> input 1, outputs 2, 3 -> input 0; input 0
//           accepts 2 (a0 = 2), inputs 1, 2 accept their only grant.           3 matches
//           g0 = 3, g1 = 2, g2 = 1, a0 = 3, a1 = 2, a2 = 1.
//  cycle 4: outputs 0..3 grant inputs 3, 2, 1, 0: all distinct, all accepted. 4 matches
// and from then on the pointers stay desynchronised: 4 matches every cycle.
TEST(SwitchAllocator, IslipDesynchronisesUnderFullLoad) {
    SwitchAllocator a(AllocatorKind::Islip, 4, 4, 1);
    std::vector<int> m;
    const std::vector<unsigned> expected = {1, 2, 3, 4, 4, 4, 4};
    for (size_t c = 0; c < expected.size(); ++c) EXPECT_EQ(a.allocate(full(4), m), expected[c]) << "cycle " << c + 1;
    a = SwitchAllocator(AllocatorKind::Islip, 4, 4, 1);
    a.allocate(full(4), m);
    a.allocate(full(4), m);
    a.allocate(full(4), m);
    a.allocate(full(4), m);
    EXPECT_EQ(m, (std::vector<int>{3, 2, 1, 0})) << "cycle 4: input i matched to output 3 - i";
}

// The same load, input-first separable round-robin: inputs pick (pointers all 0: everybody
// picks output 0), output 0 grants input 0; pointers move only on a grant. The picks spread
// one output per cycle the same way: 1, 2, 3, then 4 matches.
TEST(SwitchAllocator, SeparableRoundRobinUnderFullLoad) {
    SwitchAllocator a(AllocatorKind::RoundRobin, 4, 4, 1);
    std::vector<int> m;
    const std::vector<unsigned> expected = {1, 2, 3, 4, 4, 4};
    for (size_t c = 0; c < expected.size(); ++c) EXPECT_EQ(a.allocate(full(4), m), expected[c]) << "cycle " << c + 1;
}

// Four iterations find a maximal matching in the first cycle; pointers move only for the
// match of iteration 1 (input 0 - output 0):
//  cycle 1: it1 (0,0); it2 outputs 1-3 grant input 1 (first unmatched), it accepts output 1;
//           it3 outputs 2, 3 grant input 2, accepted 2; it4 output 3 -> input 3.
//  cycle 2: g0 = 1, a0 = 1, the rest 0. it1: output 0 grants input 1, outputs 1-3 grant input
//           0, which accepts output 1; input 1 accepts output 0. it2: outputs 2, 3 grant
//           input 2, which accepts 2. it3: output 3 -> input 3.
TEST(SwitchAllocator, IslipIterationsMoveOnlyFirstIterationPointers) {
    SwitchAllocator a(AllocatorKind::Islip, 4, 4, 4);
    std::vector<int> m;
    EXPECT_EQ(a.allocate(full(4), m), 4u);
    EXPECT_EQ(m, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(a.allocate(full(4), m), 4u);
    EXPECT_EQ(m, (std::vector<int>{1, 0, 2, 3}));
}

TEST(SwitchAllocator, RespectsTheRequestMatrix) {
    // Input 0 may only use output 2, input 1 outputs 0 and 2, input 2 nothing.
    SwitchAllocator a(AllocatorKind::Islip, 3, 3, 2);
    std::vector<int> m;
    const auto req = only(3, 3, {{0, 2}, {1, 0}, {1, 2}});
    EXPECT_EQ(a.allocate(req, m), 2u);
    EXPECT_EQ(m, (std::vector<int>{2, 0, -1}));
}

// A router of at most 64 ports allocates on one-word masks, and without a conflicting request
// (every input asking for one output nobody else asks for) sets the matching directly; a wider
// one runs the general algorithms. With requests among ports 0-7 only, an 8x8 and a 70x70
// allocator start from equivalent pointers (one past the last port wraps to port 0 in both) and
// must make the same matchings cycle after cycle: random patterns, a third of them
// conflict-free (a random partial permutation), the rest random matrices.
TEST(SwitchAllocator, NarrowAndUncontestedPathsMatchTheGeneralAlgorithms) {
    constexpr unsigned kPorts = 8, kWide = 70;
    for (AllocatorKind k : {AllocatorKind::RoundRobin, AllocatorKind::Islip}) {
        for (unsigned iterations : {1u, 2u}) {
            SwitchAllocator narrow(k, kPorts, kPorts, iterations), wide(k, kWide, kWide, iterations);
            std::mt19937 rng(7 + iterations);
            unsigned uncontested = 0;
            for (int c = 0; c < 3000; ++c) {
                std::vector<std::pair<unsigned, unsigned>> pairs;
                if (c % 3 == 0) {
                    std::vector<unsigned> outs(kPorts);
                    for (unsigned o = 0; o < kPorts; ++o) outs[o] = o;
                    std::shuffle(outs.begin(), outs.end(), rng);
                    for (unsigned i = 0; i < kPorts; ++i)
                        if (rng() % 2) pairs.push_back({i, outs[i]});
                    ++uncontested;
                } else {
                    for (unsigned i = 0; i < kPorts; ++i)
                        for (unsigned o = 0; o < kPorts; ++o)
                            if (rng() % 5 == 0) pairs.push_back({i, o});
                }
                std::vector<int> mn, mw;
                const unsigned nn = narrow.allocate(only(kPorts, kPorts, pairs), mn);
                const unsigned nw = wide.allocate(only(kWide, kWide, pairs), mw);
                ASSERT_EQ(nn, nw) << "kind " << int(k) << " cycle " << c;
                mw.resize(kPorts);
                ASSERT_EQ(mn, mw) << "kind " << int(k) << " cycle " << c;
            }
            EXPECT_EQ(uncontested, 1000u);
        }
    }
}

// allocateMatched() (the router's call) writes only the matched inputs' entries on at most 64
// ports and names them in matched(): fed the same requests as allocate() on a twin allocator, its
// matched inputs must be exactly those with an output in allocate()'s matching, with the same
// outputs, cycle after cycle (so the pointers move alike). The entries it leaves are poisoned
// (-7) before each call, which a reader of unmatched entries would see. The 70-port pair runs the
// wide algorithms, whose matched() must name the same inputs.
TEST(SwitchAllocator, AllocateMatchedNamesTheMatchedInputsOnly) {
    for (unsigned ports : {8u, 70u}) {
        for (AllocatorKind k : {AllocatorKind::RoundRobin, AllocatorKind::Islip}) {
            SwitchAllocator plain(k, ports, ports, 2), twin(k, ports, ports, 2);
            std::mt19937 rng(11 + ports);
            std::vector<int> mt(ports, -7);
            unsigned matchedSeen = 0;
            for (int c = 0; c < 2000; ++c) {
                std::vector<std::pair<unsigned, unsigned>> pairs;
                for (unsigned i = 0; i < ports; ++i)
                    for (unsigned o = 0; o < ports; ++o)
                        if (rng() % (c % 4 == 0 ? 50 : 4) == 0) pairs.push_back({i, o});
                const auto req = only(ports, ports, pairs);
                std::vector<int> mp;
                const unsigned np = plain.allocate(req, mp);
                twin.clearRequests();
                for (auto [i, o] : pairs) twin.request(i, o);
                std::fill(mt.begin(), mt.end(), -7);
                const unsigned nt = twin.allocateMatched(mt);
                ASSERT_EQ(np, nt) << "ports " << ports << " kind " << int(k) << " cycle " << c;
                std::vector<unsigned> names;
                twin.matched().forEach([&](unsigned i) { names.push_back(i); });
                std::vector<unsigned> expect;
                for (unsigned i = 0; i < ports; ++i)
                    if (mp[i] >= 0) expect.push_back(i);
                ASSERT_EQ(names, expect) << "ports " << ports << " kind " << int(k) << " cycle " << c;
                for (unsigned i : names) ASSERT_EQ(mt[i], mp[i]) << "cycle " << c << " input " << i;
                matchedSeen += static_cast<unsigned>(names.size());
            }
            EXPECT_GT(matchedSeen, 2000u);
        }
    }
}

} // namespace switch_allocator_test
