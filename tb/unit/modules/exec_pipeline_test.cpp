// ExecPipeline: 2 units, initiation interval 2, latency 4 (the default ALU).
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "modules/ExecPipeline.hpp"

namespace exec_pipeline_test {

using namespace gpusim;

TEST(ExecPipeline, IssuePatternTwoUnitsIntervalTwo) {
    ExecPipeline p(2, 4, 2);
    // Greedy issue every cycle it can, 0..7. Unit next-free times:
    //  c0: u0 free(0) -> issue A, u0=2;  u1 free -> issue B, u1=2 (two in one cycle)
    //  c1: both busy (2) -> no
    //  c2: C on u0 (=4), D on u1 (=4); c3: no; c4: E, F; ...
    std::vector<uint64_t> issueCycles;
    unsigned warp = 0;
    for (uint64_t c = 0; c < 8; ++c)
        while (p.canAccept(c)) {
            p.issue(c, warp++, 1, 0xffff);
            issueCycles.push_back(c);
        }
    EXPECT_EQ(issueCycles, (std::vector<uint64_t>{0, 0, 2, 2, 4, 4, 6, 6}));
    EXPECT_EQ(p.inflight(), 8u);
}

TEST(ExecPipeline, OneIssuePerCycleAlternatesUnits) {
    // The SM's steady state with one ALU instruction per cycle: c0 -> u0 (free 2), c1 -> u1
    // (free 3), c2 -> u0, ... never refused.
    ExecPipeline p(2, 4, 2);
    for (uint64_t c = 0; c < 10; ++c) {
        ASSERT_TRUE(p.canAccept(c)) << c;
        p.issue(c, 0, 1, 0xffff);
    }
    // A single unit with interval 2 refuses every other cycle.
    ExecPipeline one(1, 4, 2);
    EXPECT_TRUE(one.canAccept(0));
    one.issue(0, 0, 1, 0xffff);
    EXPECT_FALSE(one.canAccept(1));
    EXPECT_TRUE(one.canAccept(2));
}

TEST(ExecPipeline, DrainAtIssuePlusLatencyInIssueOrder) {
    ExecPipeline p(2, 4, 2);
    p.issue(0, 10, 1, 2);   // ready 4
    p.issue(0, 11, 3, 0xffff);  // ready 4
    p.issue(2, 12, 5, 0xffff);  // ready 6
    std::vector<std::pair<uint64_t, unsigned>> out;  // (drain cycle, warp)
    for (uint64_t c = 0; c <= 7; ++c)
        p.drain(c, [&](const ExecPipeline::Result& r) {
            out.push_back({c, r.warp});
            EXPECT_EQ(r.readyCycle, c);
        });
    EXPECT_EQ(out, (std::vector<std::pair<uint64_t, unsigned>>{{4, 10}, {4, 11}, {6, 12}}));
    EXPECT_TRUE(p.empty());
}

TEST(ExecPipeline, ResultCarriesDestinations) {
    ExecPipeline p(1, 20, 8);  // the SFU
    p.issue(5, 3, 7, 9);
    EXPECT_FALSE(p.canAccept(12));  // 5 + 8 = 13
    EXPECT_TRUE(p.canAccept(13));
    int seen = 0;
    p.drain(24, [&](const ExecPipeline::Result&) { ++seen; });
    EXPECT_EQ(seen, 0);  // 5 + 20 = 25
    p.drain(25, [&](const ExecPipeline::Result& r) {
        ++seen;
        EXPECT_EQ(r.warp, 3u);
        EXPECT_EQ(r.dst[0], 7);
        EXPECT_EQ(r.dst[1], 9);
    });
    EXPECT_EQ(seen, 1);
}

} // namespace exec_pipeline_test
