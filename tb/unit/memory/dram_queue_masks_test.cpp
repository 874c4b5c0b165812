// DramQueueMasks (the positions of the controller's queue by bank, kind, row hit and
// eligibility) and DramScheduler's masked pick, which must decide exactly what the scan decides.
#include <gtest/gtest.h>

#include <random>

#include "bench/DramTraffic.hpp"

namespace dram_queue_masks_test {

using namespace gpusim;

using dramtest::queuedRequest;

// Bank 1 has row 6 open. Queue: A (bank 1 row 5), B (bank 2 row 0, write), C (bank 1 row 6: a
// hit). Erasing A moves B and C down one; ACT of row 5 in bank 1 would make A a hit, PRE clears
// bank 1's hits.
TEST(DramQueueMasks, PositionsFollowTheQueue) {
    std::vector<DramBank> banks(4);
    banks[1].activate(6, 0);
    DramQueueMasks m(4, 32);
    ASSERT_TRUE(m.enabled());
    std::vector<DramRequest> q = {queuedRequest(0, 1, 5, false, 3), queuedRequest(1, 2, 0, true, 4),
                                  queuedRequest(2, 1, 6, false, 9)};
    for (size_t i = 0; i < q.size(); ++i) m.pushed(i, q[i], banks[q[i].coord.bank]);
    EXPECT_EQ(m.bank(1), 0b101u);
    EXPECT_EQ(m.bank(2), 0b010u);
    EXPECT_EQ(m.writes(), 0b010u);
    EXPECT_EQ(m.hits(), 0b100u);
    uint64_t quiet = UINT64_MAX;
    EXPECT_EQ(m.eligible(q, 2, quiet), 0u);
    EXPECT_EQ(quiet, 3u);
    quiet = UINT64_MAX;
    EXPECT_EQ(m.eligible(q, 4, quiet), 0b011u);
    EXPECT_EQ(quiet, 9u);

    q.erase(q.begin());
    m.erased(0);
    EXPECT_EQ(m.bank(1), 0b10u);
    EXPECT_EQ(m.bank(2), 0b01u);
    EXPECT_EQ(m.writes(), 0b01u);
    EXPECT_EQ(m.hits(), 0b10u);
    EXPECT_EQ(m.all(), 0b11u);
    quiet = UINT64_MAX;
    EXPECT_EQ(m.eligible(q, 9, quiet), 0b11u);
    EXPECT_EQ(quiet, UINT64_MAX);

    m.precharged(1);
    EXPECT_EQ(m.hits(), 0u);
    q.push_back(queuedRequest(3, 1, 7, false, 10));
    m.pushed(2, q[2], banks[1]);
    m.activated(1, 7, q);
    EXPECT_EQ(m.hits(), 0b100u) << "only bank 1's request for row 7";
    EXPECT_FALSE(DramQueueMasks(4, 65).enabled()) << "more than 64 entries: the scan";
}

// A random controller run (arrivals, eligibility out of order, reads and writes over a few rows
// of a few banks, two bursts per request), deciding every cycle with the scan and with the
// masks: the same command for the same position, and the same quiet cycle when nothing goes.
void compareWithScan(DramScheduler::Policy policy, size_t capacity, uint64_t seed, unsigned nBanks) {
    const DramTiming t = DramTiming::preset("gddr5");
    DramTimingChecker chk(t, nBanks);
    std::vector<DramBank> banks(nBanks);
    DramQueueMasks m(nBanks, capacity);
    ASSERT_TRUE(m.enabled());
    const DramScheduler s(policy);
    std::vector<DramRequest> q;
    std::mt19937_64 rng(seed);
    unsigned counts[4] = {0, 0, 0, 0};
    unsigned quietPicks = 0;
    uint64_t seq = 0;
    for (uint64_t cycle = 0; cycle < 20000; ++cycle) {
        if (q.size() < capacity && rng() % 3 == 0) {
            q.push_back(
                queuedRequest(seq++, unsigned(rng() % nBanks), rng() % 3, rng() % 4 == 0, cycle + 1 + rng() % 4));
            m.pushed(q.size() - 1, q.back(), banks[q.back().coord.bank]);
        }
        uint64_t quietScan = 0, quietMask = 0;
        const auto a = s.pick(q, banks, chk, cycle, &quietScan);
        const auto b = s.pick(q, m, banks, chk, cycle, &quietMask);
        ASSERT_EQ(a.has_value(), b.has_value()) << "cycle " << cycle;
        if (!a) {
            ASSERT_EQ(quietScan, quietMask) << "cycle " << cycle;
            ++quietPicks;
            continue;
        }
        ASSERT_EQ(a->index, b->index) << "cycle " << cycle;
        ASSERT_EQ(a->cmd, b->cmd) << "cycle " << cycle;
        DramRequest& r = q[a->index];
        chk.record(a->cmd, r.coord.bank, cycle);
        ++counts[static_cast<unsigned>(a->cmd)];
        switch (a->cmd) {
        case DramCmd::Act:
            banks[r.coord.bank].activate(r.coord.row, cycle);
            m.activated(r.coord.bank, r.coord.row, q);
            break;
        case DramCmd::Pre:
            banks[r.coord.bank].precharge(cycle);
            m.precharged(r.coord.bank);
            break;
        default:
            if (--r.burstsLeft == 0) {
                q.erase(q.begin() + static_cast<std::ptrdiff_t>(a->index));
                m.erased(a->index);
            }
        }
    }
    for (unsigned c = 0; c < 4; ++c) EXPECT_GT(counts[c], 100u) << "command " << c << " too rare to test";
    EXPECT_GT(quietPicks, 100u);
}

// 8 and 16 banks take erased()'s constant-bound loops, 4 its general one.
TEST(DramQueueMasks, FrFcfsDecidesAsTheScan) {
    for (unsigned nBanks : {4u, 8u, 16u})
        for (uint64_t seed = 1; seed <= 4; ++seed)
            compareWithScan(DramScheduler::Policy::FrFcfs, seed % 2 ? 32 : 64, seed, nBanks);
}

TEST(DramQueueMasks, FcfsDecidesAsTheScan) {
    for (unsigned nBanks : {4u, 8u, 16u})
        for (uint64_t seed = 1; seed <= 4; ++seed)
            compareWithScan(DramScheduler::Policy::Fcfs, seed % 2 ? 32 : 64, seed, nBanks);
}

} // namespace dram_queue_masks_test
