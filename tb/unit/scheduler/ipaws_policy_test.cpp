// iPAWS policy (scheduler/IpawsPolicy): Adapt under GTO with per-warp counters, the decision at
// the first warp's end, the Recover phase, the shared (first SM) and per-SM decisions, and the
// registry entries. A small driver plays the SM's issue stage on a FakeSmView: each cycle
// onCycle, then per scheduler order() and the first warp that is ready (its wait after its last
// issue is over, not at a barrier) and passes canIssue() issues. One scheduler, so the orders
// are easy to follow by hand.
#include <gtest/gtest.h>

#include "common/Stats.hpp"
#include "scheduler/CcwsPolicy.hpp"
#include "scheduler/GtoPolicy.hpp"
#include "scheduler/IpawsPolicy.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace ipaws_policy_test {

using namespace gpusim;
using gpusim::test::FakeSmView;

namespace {

class IdView : public FakeSmView {
public:
    IdView(unsigned n, unsigned id) : FakeSmView(n), id_(id) { schedulers_ = 1; }
    unsigned smId() const override { return id_; }

private:
    unsigned id_;
};

// One SM: `latency` cycles after an issue a warp is ready again (0: always ready).
struct Sm {
    IdView view;
    IpawsPolicy p;
    unsigned latency;
    std::vector<uint64_t> next;
    std::vector<unsigned> issuedAt;  // warp issued per cycle (or -1u)

    Sm(unsigned warps, unsigned lat, std::shared_ptr<IpawsDecisionBoard> board = nullptr, unsigned id = 0,
       IpawsPolicy::Params params = {})
        : view(warps, id), p(params, std::make_unique<GtoPolicy>(), std::move(board)), latency(lat), next(warps, 0) {
        p.attach(view);
    }
    void startKernel() {
        p.onKernelStart();
        for (unsigned w = 0; w < view.warpSlots(); ++w) {
            view.at(w) = WarpView{};
            view.at(w).valid = true;
            view.at(w).age = w;
            view.at(w).hasInstruction = true;
            next[w] = 0;
            p.onWarpStart(w);
        }
    }
    int cycle(uint64_t c) {
        view.cycle_ = c;
        p.onCycle(c, view);
        std::vector<unsigned> order;
        for (unsigned w = 0; w < view.warpSlots(); ++w)
            if (view.warp(w).valid) order.push_back(w);
        if (order.empty()) return -1;
        p.order(0, order, view);
        for (unsigned w : order) {
            if (c < next[w] || view.warp(w).atBarrier || !p.canIssue(w, view)) continue;
            ++view.at(w).issued;
            next[w] = c + latency;
            p.onIssue(0, w, view);
            return static_cast<int>(w);
        }
        return -1;
    }
    void end(unsigned w) {
        view.at(w).valid = false;
        p.onWarpEnd(w);
    }
};

// The concave run: warp 0 is always ready, so GTO issues it every cycle and nobody else.
// After cycles 0..9 and warp 0's end: inst = [10, 0, 0, 0], no head ever stalled -> WOI = 4,
// thr = 4 x 10 / 2 = 20, sum 10 -> concave, DoC 0.5.
void concaveRun(Sm& sm, uint64_t first = 0) {
    for (uint64_t c = first; c < first + 10; ++c) EXPECT_EQ(sm.cycle(c), 0) << c;
}

// The convex run, latency 6 with 4 warps (GTO rotates through the warps and the SM runs dry):
//   cycle:   0  1  2  3  4  5  6  7  8  9 10 11 12
//   head:    -  0  1  2  3  3  3  0  1  2  3  3  3   (GTO's greedy warp = last issuer)
//   issues:  0  1  2  3  -  -  0  1  2  3  -  -  0
// The head fails in cycles 1..12: stalls = [2, 2, 2, 6]; inst = [3, 2, 2, 2]. Warp 0 ends in
// cycle 12. WOI: warp 3 has the most stalls -> W = 4; max 3, thr = 4 x 3 / 2 = 6, sum 9 ->
// convex, DoC 1.5.
void convexRun(Sm& sm) {
    const int expect[] = {0, 1, 2, 3, -1, -1, 0, 1, 2, 3, -1, -1, 0};
    for (uint64_t c = 0; c <= 12; ++c) EXPECT_EQ(sm.cycle(c), expect[c]) << c;
}

} // namespace

TEST(IpawsPolicy, ConcavePatternKeepsGto) {
    Sm sm(4, 0);
    StatRegistry stats;
    sm.p.registerStats(stats, "sm0.sched.");
    sm.startKernel();
    EXPECT_EQ(sm.p.phase(), IpawsPolicy::Phase::Adapt);
    concaveRun(sm);
    EXPECT_EQ(sm.p.instructions(0), 10u);
    sm.end(0);
    ASSERT_NE(sm.p.ownPattern(), nullptr);
    EXPECT_EQ(sm.p.ownPattern()->woi, 4u);
    EXPECT_DOUBLE_EQ(sm.p.ownPattern()->doc, 0.5);
    EXPECT_FALSE(sm.p.ownPattern()->convex);
    // Alone (no GPU board), the SM switches from the next cycle: Adapt = cycles 0..9 = 10.
    EXPECT_EQ(sm.p.phase(), IpawsPolicy::Phase::Execute);
    EXPECT_FALSE(sm.p.fair());
    EXPECT_EQ(sm.p.adaptCycles(), 10u);
    // Still GTO: the oldest of the remaining warps issues and keeps issuing.
    EXPECT_EQ(sm.cycle(10), 1);
    EXPECT_EQ(sm.cycle(11), 1);
    EXPECT_EQ(stats.get("sm0.sched.ipaws.kernel0.rr"), 0);
    EXPECT_EQ(stats.get("sm0.sched.ipaws.kernel0.adapt_cycles"), 10);
    EXPECT_EQ(stats.get("sm0.sched.ipaws.kernel0.woi"), 4);
    EXPECT_DOUBLE_EQ(stats.get("sm0.sched.ipaws.kernel0.doc"), 0.5);
    EXPECT_EQ(stats.get("sm0.sched.ipaws_greedy_kernels"), 1);
    EXPECT_EQ(stats.get("sm0.sched.ipaws_own_decisions"), 1);
    // A new kernel adapts again from zero.
    sm.p.onKernelEnd();
    sm.startKernel();
    EXPECT_EQ(sm.p.phase(), IpawsPolicy::Phase::Adapt);
    EXPECT_EQ(sm.p.instructions(0), 0u);
    EXPECT_EQ(sm.p.ownPattern(), nullptr);
}

TEST(IpawsPolicy, ConvexPatternRecoversThenRunsRoundRobin) {
    Sm sm(4, 6);
    StatRegistry stats;
    sm.p.registerStats(stats, "sm0.sched.");
    sm.startKernel();
    convexRun(sm);
    for (unsigned w = 0; w < 4; ++w) EXPECT_EQ(sm.p.issueStalls(w), w == 3 ? 5u : 2u) << w;  // cycle 12 not closed yet
    sm.end(0);
    EXPECT_EQ(sm.p.issueStalls(3), 6u);
    ASSERT_NE(sm.p.ownPattern(), nullptr);
    EXPECT_EQ(sm.p.ownPattern()->woi, 4u);
    EXPECT_EQ(sm.p.ownPattern()->scoreSum, 9u);
    EXPECT_DOUBLE_EQ(sm.p.ownPattern()->doc, 1.5);
    EXPECT_TRUE(sm.p.fair());
    EXPECT_EQ(sm.p.adaptCycles(), 13u);
    // Recover: warps 1, 2, 3 have issued 2 each; the target is the newest of them (warp 3), the
    // goal the most any warp issued (warp 0's 3). Least-issued first, older among equals:
    // cycle 13 warp 1 (ready at 7 + 6), 14 warp 2, 15 warp 3 -> 3 = goal: Recover ends,
    // round-robin from cycle 16. Recover = cycles 13..15 = 3.
    EXPECT_EQ(sm.p.phase(), IpawsPolicy::Phase::Recover);
    EXPECT_EQ(sm.p.recoverTarget(), 3);
    EXPECT_EQ(sm.p.recoverGoal(), 3u);
    EXPECT_EQ(sm.cycle(13), 1);
    EXPECT_EQ(sm.cycle(14), 2);
    EXPECT_EQ(sm.p.phase(), IpawsPolicy::Phase::Recover);
    EXPECT_EQ(sm.cycle(15), 3);
    EXPECT_EQ(sm.p.phase(), IpawsPolicy::Phase::Execute);
    EXPECT_EQ(sm.p.recoverCycles(), 3u);
    for (unsigned w = 1; w < 4; ++w) EXPECT_EQ(sm.view.warp(w).issued, 3u) << "balanced after Recover";
    EXPECT_EQ(stats.get("sm0.sched.ipaws.kernel0.rr"), 1);
    EXPECT_EQ(stats.get("sm0.sched.ipaws.kernel0.recover_cycles"), 3);
    EXPECT_EQ(stats.get("sm0.sched.ipaws_rr_kernels"), 1);
    // Round-robin from cycle 16: make every warp ready from now on; LRR starts after the last
    // issuer (3) and wraps: 1, 2, 3, 1.
    sm.next.assign(4, 0);
    sm.latency = 0;
    EXPECT_EQ(sm.cycle(16), 1);
    EXPECT_EQ(sm.cycle(17), 2);
    EXPECT_EQ(sm.cycle(18), 3);
    EXPECT_EQ(sm.cycle(19), 1);
}

TEST(IpawsPolicy, HeadStallCounterSetsTheWarpsOfInterest) {
    // stall_counter = head: the convex run plus a fifth warp that never issues (held at a
    // barrier, barrier score off). Head stalls as in convexRun: [2, 2, 2, 6, 0] -> the limit is
    // warp 3, WOI = 4 of 5 warps; sum 9, thr = 4 x 3 / 2 = 6 -> convex, DoC 1.5. (All 5 warps:
    // thr 7.5, DoC 1.2.)
    IpawsPolicy::Params p;
    p.stalls = IpawsPolicy::StallCounter::Head;
    p.barrier = IpawsPolicy::BarrierScore::None;
    Sm sm(5, 6, nullptr, 0, p);
    sm.startKernel();
    sm.view.at(4).atBarrier = true;
    convexRun(sm);
    sm.end(0);
    ASSERT_NE(sm.p.ownPattern(), nullptr);
    EXPECT_EQ(sm.p.ownPattern()->warps, 5u);
    EXPECT_EQ(sm.p.ownPattern()->woi, 4u);
    EXPECT_DOUBLE_EQ(sm.p.ownPattern()->doc, 1.5);
}

TEST(IpawsPolicy, SmStallCountersAreReadFromTheView) {
    // stall_counter = 1 or 2 (default): the SM's WarpView::issueStalls decide. The concave run
    // with view counters [1, 7, 2, 0]: limit warp 1, WOI = 2; inst [10, 0]: thr = 2 x 10 / 2 = 10
    // = sum -> convex (DoC 1). The policy's own head counters (all 0 here) are not used; with
    // them (stall_counter=0) the same run is concave (WOI 4, DoC 0.5: ConcavePatternKeepsGto).
    // With [1, 7, 7, 0] the oldest of the equal maxima (warp 1) is still the limit.
    for (auto rule : {IpawsPolicy::StallCounter::OldestReady, IpawsPolicy::StallCounter::UnitBusy}) {
        for (uint64_t third : {2u, 7u}) {
            IpawsPolicy::Params p;
            p.stalls = rule;
            Sm sm(4, 0, nullptr, 0, p);
            sm.startKernel();
            const uint64_t stalls[] = {1, 7, third, 0};
            for (unsigned w = 0; w < 4; ++w) sm.view.at(w).issueStalls = stalls[w];
            concaveRun(sm);
            sm.end(0);
            ASSERT_NE(sm.p.ownPattern(), nullptr);
            EXPECT_EQ(sm.p.ownPattern()->woi, 2u) << int(rule) << " " << third;
            EXPECT_DOUBLE_EQ(sm.p.ownPattern()->doc, 1.0);
            EXPECT_TRUE(sm.p.fair());
        }
    }
    IpawsPolicy::Params p;
    p.stalls = IpawsPolicy::StallCounter::Head;
    Sm head(4, 0, nullptr, 0, p);
    head.startKernel();
    for (unsigned w = 0; w < 4; ++w) head.view.at(w).issueStalls = 7;
    concaveRun(head);
    head.end(0);
    ASSERT_NE(head.p.ownPattern(), nullptr);
    EXPECT_EQ(head.p.ownPattern()->woi, 4u);
    EXPECT_FALSE(head.p.fair());
}

TEST(IpawsPolicy, RecoverPrioritisesTheLeastIssuedWarps) {
    // The concave run's skew ([10, 0, 0, 0]) judged with threshold_factor 0.2 (thr = 4 x 10 x 0.2
    // = 8 <= 10: convex). Goal 10, target warp 3 (the newest of the zeros). Everyone always
    // ready: least-issued first, older among equals, issues 1, 2, 3, 1, 2, 3, ...: after 30
    // cycles each has 10 and Recover ends exactly then.
    IpawsPolicy::Params p;
    p.classifier.thresholdFactor = 0.2;
    Sm sm(4, 0, nullptr, 0, p);
    sm.startKernel();
    concaveRun(sm);
    sm.end(0);
    ASSERT_TRUE(sm.p.fair());
    EXPECT_EQ(sm.p.recoverTarget(), 3);
    EXPECT_EQ(sm.p.recoverGoal(), 10u);
    for (uint64_t c = 10; c < 40; ++c) {
        EXPECT_EQ(sm.p.phase(), IpawsPolicy::Phase::Recover) << c;
        EXPECT_EQ(sm.cycle(c), int(1 + (c - 10) % 3)) << c;
    }
    EXPECT_EQ(sm.p.phase(), IpawsPolicy::Phase::Execute);
    EXPECT_EQ(sm.p.recoverCycles(), 30u);
    // Without Recover the SM goes straight to round-robin.
    p.recover = false;
    Sm direct(4, 0, nullptr, 0, p);
    direct.startKernel();
    concaveRun(direct);
    direct.end(0);
    EXPECT_TRUE(direct.p.fair());
    EXPECT_EQ(direct.p.phase(), IpawsPolicy::Phase::Execute);
}

TEST(IpawsPolicy, BarrierScoreCountsWaitWhileOthersIssue) {
    // Warp 1 sits at a barrier; warp 0 issues every other cycle (latency 2: cycles 0, 2, 4).
    // Cycles 0..5 closed by onCycle(6): mode 1 counts the 3 cycles with an issue, mode 2 all 6.
    for (auto mode : {IpawsPolicy::BarrierScore::WhileOthersIssue, IpawsPolicy::BarrierScore::EveryCycle,
                      IpawsPolicy::BarrierScore::None}) {
        IpawsPolicy::Params p;
        p.barrier = mode;
        Sm sm(2, 2, nullptr, 0, p);
        sm.startKernel();
        sm.view.at(1).atBarrier = true;
        for (uint64_t c = 0; c <= 6; ++c) sm.cycle(c);
        const uint64_t expect = mode == IpawsPolicy::BarrierScore::WhileOthersIssue ? 3
                                : mode == IpawsPolicy::BarrierScore::EveryCycle  ? 6
                                                                                  : 0;
        EXPECT_EQ(sm.p.barrierWait(1), expect) << int(mode);
        EXPECT_EQ(sm.p.barrierWait(0), 0u);
    }
}

TEST(IpawsPolicy, BarrierScoreCtaModeCountsOnlyIssuesOfTheWaitersCta) {
    // Warps 0 and 1 in CTA slot 0, warp 2 in CTA slot 1; warp 1 sits at its barrier. Latency 2
    // under GTO: c0 w0, c1 w2 (w0 waits), c2 w0 (w2 waits), c3 w2, c4 w0, c5 w2. Closed by
    // onCycle(6): mode 3 (the default) counts the cycles in which a warp of warp 1's CTA issued
    // (0, 2, 4) = 3; mode 1 (any warp) counts all 6.
    for (auto mode : {IpawsPolicy::BarrierScore::WhileCtaIssues, IpawsPolicy::BarrierScore::WhileOthersIssue}) {
        IpawsPolicy::Params p;
        p.barrier = mode;
        Sm sm(3, 2, nullptr, 0, p);
        sm.startKernel();
        sm.view.at(2).ctaSlot = 1;
        sm.view.at(1).atBarrier = true;
        const int expectIssue[] = {0, 2, 0, 2, 0, 2};
        for (uint64_t c = 0; c < 6; ++c) EXPECT_EQ(sm.cycle(c), expectIssue[c]) << c;
        sm.cycle(6);
        EXPECT_EQ(sm.p.barrierWait(1), mode == IpawsPolicy::BarrierScore::WhileCtaIssues ? 3u : 6u) << int(mode);
        EXPECT_EQ(sm.p.barrierWait(2), 0u);
    }
    EXPECT_EQ(IpawsPolicy::Params{}.barrier, IpawsPolicy::BarrierScore::WhileCtaIssues);
}

TEST(IpawsPolicy, SharedBoardAppliesTheFirstSmsDecisionEverywhere) {
    // SM 1 runs the convex pattern and decides in cycle 12 (convex). SM 0 runs the concave
    // pattern, still adapting (its warp 0 never ends). In cycle 13 the proposal of cycle 12 is
    // visible: SM 0 adopts round-robin without a pattern of its own, and SM 1 applies its own.
    auto board = std::make_shared<IpawsDecisionBoard>();
    Sm sm0(4, 0, board, 0), sm1(4, 6, board, 1);
    sm0.startKernel();
    sm1.startKernel();
    const int expect1[] = {0, 1, 2, 3, -1, -1, 0, 1, 2, 3, -1, -1, 0};
    for (uint64_t c = 0; c <= 12; ++c) {
        EXPECT_EQ(sm0.cycle(c), 0);
        EXPECT_EQ(sm1.cycle(c), expect1[c]);
    }
    sm1.end(0);
    // Shared: SM 1 waits for the board (one cycle) like everyone else.
    EXPECT_EQ(sm1.p.phase(), IpawsPolicy::Phase::Decided);
    ASSERT_NE(board->proposal(0), nullptr);
    EXPECT_EQ(board->visible(0, 12), nullptr);
    sm0.cycle(13);
    sm1.cycle(13);
    EXPECT_TRUE(sm0.p.fair());
    EXPECT_EQ(sm0.p.ownPattern(), nullptr);
    EXPECT_EQ(sm0.p.phase(), IpawsPolicy::Phase::Recover);
    EXPECT_EQ(sm0.p.adaptCycles(), 13u);
    EXPECT_TRUE(sm1.p.fair());
    EXPECT_EQ(sm1.p.adaptCycles(), 13u);
    // Per SM (private boards), SM 0 keeps adapting and later judges its own, concave, pattern.
    Sm alone(4, 0, nullptr, 0);
    alone.startKernel();
    for (uint64_t c = 0; c <= 13; ++c) alone.cycle(c);
    EXPECT_EQ(alone.p.phase(), IpawsPolicy::Phase::Adapt);
    alone.end(0);
    EXPECT_FALSE(alone.p.fair());
}

TEST(IpawsPolicy, SameCycleDecisionsGoToTheSmallerSmIdWhateverTheTickOrder) {
    // SMs 2 (concave) and 1 (convex) finish adapting in the same cycle, SM 2 proposing first.
    // The board keeps SM 1's; both apply it (round-robin) in the next cycle.
    auto board = std::make_shared<IpawsDecisionBoard>();
    Sm sm2(4, 0, board, 2), sm1(4, 6, board, 1);
    sm2.startKernel();
    sm1.startKernel();
    for (uint64_t c = 0; c <= 12; ++c) {
        sm2.cycle(c);
        sm1.cycle(c);
    }
    sm2.end(0);
    sm1.end(0);
    ASSERT_NE(sm2.p.ownPattern(), nullptr);
    EXPECT_FALSE(sm2.p.ownPattern()->convex);
    EXPECT_EQ(board->proposal(0)->sm, 1u);
    sm2.cycle(13);
    sm1.cycle(13);
    EXPECT_TRUE(sm2.p.fair());
    EXPECT_TRUE(sm1.p.fair());
    // A later proposal for the same kernel changes nothing.
    board->propose(0, 13, 0, IssuePattern{});
    EXPECT_EQ(board->proposal(0)->sm, 1u);
}

TEST(IpawsPolicy, RegistryEntriesAndGpuContext) {
    const auto& reg = PolicyRegistry::builtin();
    const PolicyChoice shared = reg.parse("ipaws");
    const auto ctx = shared.makeGpuContext();
    ASSERT_NE(ctx, nullptr);
    EXPECT_NE(dynamic_cast<IpawsDecisionBoard*>(ctx.get()), nullptr);
    auto a = shared.make(ctx), b = shared.make(ctx);
    EXPECT_EQ(a->name(), "ipaws");
    EXPECT_EQ(&static_cast<IpawsPolicy&>(*a).board(), &static_cast<IpawsPolicy&>(*b).board());
    // per_sm: no GPU context, each policy its own board.
    const PolicyChoice perSm = reg.parse("ipaws:per_sm=1");
    EXPECT_EQ(perSm.makeGpuContext(), nullptr);
    auto c = perSm.make(perSm.makeGpuContext()), d = perSm.make(nullptr);
    EXPECT_NE(&static_cast<IpawsPolicy&>(*c).board(), &static_cast<IpawsPolicy&>(*d).board());
    // ipaws-ccws: iPAWS's parameters plus CCWS's, CCWS's check included.
    const PolicyChoice cc = reg.parse("ipaws-ccws:k_throttle=4,recover=0");
    EXPECT_EQ(cc.make()->name(), "ipaws-ccws");
    EXPECT_EQ(static_cast<IpawsPolicy&>(*cc.make()).greedy().name(), "ccws");
    EXPECT_EQ(cc.params.at("k_throttle"), 4);
    EXPECT_THROW(reg.parse("ipaws-ccws:vta_entries=12"), std::exception);
    EXPECT_THROW(reg.parse("ipaws:barrier_score=4"), std::exception);
    EXPECT_THROW(reg.parse("ipaws:stall_counter=3"), std::exception);
    EXPECT_THROW(reg.parse("ipaws:woi=0.5"), std::exception);
    // The SM keeps WarpView::issueStalls for stall_counter 1 and 2 (the default), by their rules;
    // the head counter (0) is the policy's own.
    using Rule = SchedulerPolicy::IssueStallCount;
    EXPECT_EQ(shared.make()->issueStallCount(), Rule::UnitBusy);
    EXPECT_EQ(reg.parse("ipaws:stall_counter=1").make()->issueStallCount(), Rule::OldestReady);
    EXPECT_EQ(reg.parse("ipaws:stall_counter=0").make()->issueStallCount(), Rule::None);
    EXPECT_EQ(reg.parse("gto").make()->issueStallCount(), Rule::None);
    // A policy without GPU-wide state has no context and make(null) is make().
    EXPECT_EQ(reg.parse("gto").makeGpuContext(), nullptr);
    EXPECT_EQ(reg.parse("gto").make(nullptr)->name(), "gto");
}

TEST(IpawsPolicy, CcwsGatesLoadsOnlyWhileItSchedules) {
    // ipaws-ccws: CCWS's load cutoff applies in Adapt and is lifted once RR takes over. Setup as
    // in ccws_policy_test: 4 warps, base 100, cutoff 400; 20 instructions, then warp 2 loses
    // line A and misses on it: dLLS = 8 x 1/20 x 400 = 160, score 260, and from the next cycle
    // warp 3 (past the cutoff) may not load. Warp 0 then ends having issued all 20: inst
    // [20, 0, 0, 0], WOI 4; with threshold_factor 0.2, thr = 4 x 20 x 0.2 = 16 <= 20: convex.
    // The fake view's issue counts stay 0, so Recover has nothing to balance: straight to RR.
    // CCWS without its per-warp cap (which would hold the score at dLLS = 160, not enough to
    // throttle anyone among 4 warps; the cap has its own tests in ccws_policy_test).
    FakeSmView sm(4);
    IpawsPolicy::Params params;
    params.classifier.thresholdFactor = 0.2;
    CcwsPolicy::Params uncapped;
    uncapped.scoreCap = 0;
    IpawsPolicy p(params, std::make_unique<CcwsPolicy>(uncapped), nullptr);
    EXPECT_EQ(p.name(), "ipaws-ccws");
    p.attach(sm);
    p.onKernelStart();
    for (unsigned w = 0; w < 4; ++w) {
        p.onWarpStart(w);
        sm.nextLoad(w, 0x50);
    }
    p.onCycle(0, sm);
    for (int i = 0; i < 20; ++i) p.onIssue(0, 0, sm);
    p.onL1Evict(0x1000, 2);
    p.onL1Access({2, 0x50, 0x1000, false, false, false});
    p.onCycle(1, sm);
    EXPECT_FALSE(p.canIssue(3, sm)) << "CCWS throttles warp 3's load during Adapt";
    EXPECT_TRUE(p.canIssue(2, sm));
    sm.at(0).valid = false;
    p.onWarpEnd(0);
    ASSERT_NE(p.ownPattern(), nullptr);
    EXPECT_DOUBLE_EQ(p.ownPattern()->doc, 20.0 / 16.0);
    EXPECT_TRUE(p.fair());
    EXPECT_EQ(p.phase(), IpawsPolicy::Phase::Execute);
    EXPECT_TRUE(p.canIssue(3, sm)) << "RR does not gate loads";
}

} // namespace ipaws_policy_test
