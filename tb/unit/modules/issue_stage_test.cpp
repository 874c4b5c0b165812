// IssueStage with the real LRR and GTO policies, a fake SmView and a scripted tryIssue:
// readiness per (cycle, warp) is chosen by the test, and the expected issue sequences are worked
// out by hand from the CCWS paper's definitions.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "modules/IssueStage.hpp"
#include "scheduler/GtoPolicy.hpp"
#include "scheduler/LrrPolicy.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace issue_stage_test {

using namespace gpusim;
using gpusim::test::FakeSmView;
using V = std::vector<unsigned>;

namespace {
constexpr unsigned kNone = ~0u;

// Runs `cycles` cycles with one scheduler; returns the warp issued each cycle (kNone if none).
V run(SchedulerPolicy& p, FakeSmView& sm, unsigned cycles, std::function<bool(uint64_t, unsigned)> ready,
      unsigned schedulers = 1) {
    IssueStage st(schedulers, p);
    V out;
    for (uint64_t c = 0; c < cycles; ++c) {
        sm.cycle_ = c;
        unsigned got = kNone;
        const unsigned n = st.cycle(sm, [&](unsigned w) {
            if (!ready(c, w)) return false;
            got = w;
            out.push_back(w);
            return true;
        });
        if (schedulers == 1) {
            EXPECT_EQ(n, got == kNone ? 0u : 1u);
            if (got == kNone) out.push_back(kNone);
        }
    }
    return out;
}

bool always(uint64_t, unsigned) { return true; }
} // namespace

TEST(IssueStage, LrrAllReadyRotates) {
    FakeSmView sm(4);
    LrrPolicy p;
    EXPECT_EQ(run(p, sm, 8, always), (V{0, 1, 2, 3, 0, 1, 2, 3}));
}

TEST(IssueStage, GtoAllReadyStaysOnOldest) {
    FakeSmView sm(4);  // ages = slots: warp 0 oldest
    GtoPolicy p;
    EXPECT_EQ(run(p, sm, 6, always), (V{0, 0, 0, 0, 0, 0}));
}

TEST(IssueStage, LrrSkipsWarpThatCannotIssueOnItsTurn) {
    FakeSmView sm(4);
    LrrPolicy p;
    // Warp 1 is not ready at cycle 1 (its turn): warp 2 issues instead; the turn then continues
    // after 2 (3, 0, 1, ...). Warp 3 is not ready at cycles 5-6:
    //  c0: 0   c1: [1x] 2   c2: 3   c3: 0   c4: 1   c5: [2? yes] 2   c6: [3x] 0   c7: 1
    auto ready = [](uint64_t c, unsigned w) {
        if (w == 1 && c == 1) return false;
        if (w == 3 && (c == 5 || c == 6)) return false;
        return true;
    };
    EXPECT_EQ(run(p, sm, 8, ready), (V{0, 2, 3, 0, 1, 2, 0, 1}));
}

TEST(IssueStage, GtoSwitchesToOldestReadyByAgeThenStaysGreedy) {
    // Ages differ from slot order: slot 0 -> 0 (oldest), 1 -> 3, 2 -> 1, 3 -> 2.
    // Oldest-first: 0, 2, 3, 1.
    FakeSmView sm(4, {0, 3, 1, 2});
    GtoPolicy p;
    // Warp 0 stalls from cycle 3 to 5 (ready again at 6); warp 2 stalls at 8 and 9.
    auto ready = [](uint64_t c, unsigned w) {
        if (w == 0 && c >= 3 && c <= 5) return false;
        if (w == 2 && (c == 8 || c == 9)) return false;
        return true;
    };
    //  c0-2: 0 (greedy on the oldest)
    //  c3: 0 stalls -> oldest ready is 2 (age 1), not 1 (slot order) -> 2
    //  c4-7: greedy stays on 2, even after 0 is ready again at 6
    //  c8: 2 stalls -> oldest ready is 0 -> 0;  c9: greedy on 0
    EXPECT_EQ(run(p, sm, 10, ready), (V{0, 0, 0, 2, 2, 2, 2, 2, 0, 0}));
}

TEST(IssueStage, GtoFallsThroughTheAgeOrder) {
    FakeSmView sm(4, {0, 3, 1, 2});
    GtoPolicy p;
    // Warps 0 and 2 (the two oldest) never ready: 3 (age 2) before 1 (age 3).
    auto ready = [](uint64_t, unsigned w) { return w == 1 || w == 3; };
    EXPECT_EQ(run(p, sm, 3, ready), (V{3, 3, 3}));
    // Nobody ready: nothing issued, the greedy warp is unchanged.
    EXPECT_EQ(run(p, sm, 1, [](uint64_t, unsigned) { return false; }), (V{kNone}));
    EXPECT_EQ(run(p, sm, 1, always), (V{3}));
}

TEST(IssueStage, InvalidSlotsAreNeverTried) {
    FakeSmView sm(4);
    sm.at(1).valid = false;
    LrrPolicy p;
    std::vector<unsigned> tried;
    IssueStage st(1, p);
    for (int c = 0; c < 3; ++c)
        st.cycle(sm, [&](unsigned w) {
            tried.push_back(w);
            return true;
        });
    EXPECT_EQ(tried, (V{0, 2, 3}));
}

TEST(IssueStage, TwoSchedulersSplitEvenOdd) {
    FakeSmView sm(4);
    // LRR: scheduler 0 rotates over {0, 2}, scheduler 1 over {1, 3}; two issues per cycle,
    // scheduler 0 first: c0: 0,1  c1: 2,3  c2: 0,1
    {
        LrrPolicy p;
        EXPECT_EQ(run(p, sm, 3, always, 2), (V{0, 1, 2, 3, 0, 1}));
    }
    // GTO: each scheduler greedy on its own oldest: 0 and 1 every cycle.
    {
        GtoPolicy p;
        EXPECT_EQ(run(p, sm, 3, always, 2), (V{0, 1, 0, 1, 0, 1}));
    }
    // Each scheduler only ever offers its own parity to tryIssue, and issues at most one.
    {
        LrrPolicy p;
        IssueStage st(2, p);
        std::vector<unsigned> tried;
        const unsigned n = st.cycle(sm, [&](unsigned w) {
            tried.push_back(w);
            return w >= 2;  // only 2 and 3 qualify
        });
        EXPECT_EQ(n, 2u);
        EXPECT_EQ(tried, (V{0, 2, 1, 3}));
    }
}

} // namespace issue_stage_test
