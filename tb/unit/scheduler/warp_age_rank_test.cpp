// WarpAgeRank: ranks by age across the SM and within each scheduler (slot parity), rebuilt only
// when marked dirty.
#include <gtest/gtest.h>

#include "scheduler/WarpAgeRank.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace warp_age_rank_test {

using namespace gpusim;
using gpusim::test::FakeSmView;

TEST(WarpAgeRank, SmAndSchedulerRanks) {
    // Ages by slot: 0->5, 1->0, 2->4, 3->1, 4->3, 5->2.
    // SM order: 1, 3, 5, 4, 2, 0. Scheduler 0 (even): 4, 2, 0; scheduler 1 (odd): 1, 3, 5.
    FakeSmView sm(6, {5, 0, 4, 1, 3, 2});
    WarpAgeRank r;
    r.refresh(sm);
    EXPECT_EQ(r.resident(), 6u);
    const unsigned smRank[] = {5, 0, 4, 1, 3, 2};
    const unsigned schedRank[] = {2, 0, 1, 1, 0, 2};
    for (unsigned w = 0; w < 6; ++w) {
        EXPECT_EQ(r.smRank(w), smRank[w]) << w;
        EXPECT_EQ(r.schedulerRank(w), schedRank[w]) << w;
    }
    // Not rebuilt until marked dirty.
    sm.at(1).valid = false;
    r.refresh(sm);
    EXPECT_EQ(r.smRank(1), 0u);
    r.markDirty();
    r.refresh(sm);
    EXPECT_EQ(r.smRank(1), WarpAgeRank::kNone);
    EXPECT_EQ(r.smRank(3), 0u);
    EXPECT_EQ(r.schedulerRank(3), 0u);
    EXPECT_EQ(r.smRank(99), WarpAgeRank::kNone);
    // One scheduler: scheduler rank = SM rank.
    sm.schedulers_ = 1;
    r.markDirty();
    r.refresh(sm);
    EXPECT_EQ(r.schedulerRank(0), r.smRank(0));
}

} // namespace warp_age_rank_test
