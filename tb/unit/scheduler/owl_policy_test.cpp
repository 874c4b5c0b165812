// OWL (owl-cta, owl-locality, owl-blp): the CTA grouping rule, the level-2 switch of CTA-Aware,
// the locality variant's resume of a group whose data returned, and the BLP rotation by SM id.
// Unless a test says otherwise the SM holds 6 CTAs of 4 warps (CTA c, id c, in CTA slot c, on
// warp slots 4c..4c+3) and min_warps = 8, so the groups are {CTA 0, 1} = warps 0-7 (G0),
// {2, 3} = warps 8-15 (G1), {4, 5} = warps 16-23 (G2). Scheduler 0 owns the even slots.
#include <gtest/gtest.h>

#include <vector>

#include "common/SimError.hpp"
#include "scheduler/OwlCtaGroups.hpp"
#include "scheduler/OwlPolicy.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace owl_policy_test {

using namespace gpusim;
using gpusim::test::FakeSmView;
using V = std::vector<unsigned>;

namespace {

std::vector<unsigned> sizes(const std::vector<std::vector<OwlCta>>& groups) {
    std::vector<unsigned> out;
    for (const auto& g : groups) out.push_back(static_cast<unsigned>(g.size()));
    return out;
}

std::vector<OwlCta> uniform(unsigned n, unsigned warps) {
    std::vector<OwlCta> c;
    for (unsigned i = 0; i < n; ++i) c.push_back({i, i, warps});
    return c;
}

class SmIdView : public FakeSmView {
public:
    SmIdView(unsigned n, unsigned id) : FakeSmView(n), id_(id) {}
    unsigned smId() const override { return id_; }

private:
    unsigned id_;
};

// `ctas` CTAs of 4 warps launched on `sm` as the SM does it: warps started, then the CTA.
void launch(OwlPolicy& p, FakeSmView& sm, unsigned ctas) {
    p.attach(sm);
    for (unsigned c = 0; c < ctas; ++c) {
        for (unsigned k = 0; k < 4; ++k) {
            WarpView& v = sm.at(4 * c + k);
            v.ctaSlot = c;
            v.ctaId = c;
            p.onWarpStart(4 * c + k);
        }
        p.onCtaStart(c);
    }
}

// Every warp of CTAs [first, last] has a load outstanding (n = 1) or none (n = 0).
void loads(FakeSmView& sm, unsigned firstCta, unsigned lastCta, unsigned n) {
    for (unsigned w = 4 * firstCta; w < 4 * (lastCta + 1); ++w) sm.at(w).pendingLoads = n;
}

V ordered(OwlPolicy& p, unsigned sched, const SmView& sm) {
    V warps;
    for (unsigned w = sched; w < sm.warpSlots(); w += 2)
        if (sm.warp(w).valid) warps.push_back(w);
    p.order(sched, warps, sm);
    return warps;
}

OwlPolicy make(OwlPolicy::Variant v, unsigned minWarps = 8) {
    OwlPolicy::Params p;
    p.variant = v;
    p.minWarps = minWarps;
    return OwlPolicy(p);
}

} // namespace

// The paper's example: N = 10 CTAs of k = 2 warps, at least 5 warps per group: 3 CTAs (6
// warps) per group, and the last 3 + 1 CTAs form one group of 4 because a fourth group of 1
// CTA would have 2 < 5 warps -> 3, 3, 4.
TEST(OwlCtaGroups, PaperExampleTenCtasOfTwoWarps) {
    const auto g = formOwlGroups(uniform(10, 2), 5);
    EXPECT_EQ(sizes(g), (V{3, 3, 4}));
    EXPECT_EQ(g[2].front().ctaId, 6u);
    EXPECT_EQ(g[2].back().ctaId, 9u);
}

// min 8: 4-warp CTAs pair up (6 CTAs -> 2, 2, 2; 5 CTAs -> 2, 3 since the fifth alone has 4 < 8);
// 8-warp CTAs stand alone; 1 CTA of 4 warps (below the minimum) is still one group; no CTA, no
// group. Input order does not matter: groups follow CTA ids.
TEST(OwlCtaGroups, MinimumWarpsRule) {
    EXPECT_EQ(sizes(formOwlGroups(uniform(6, 4), 8)), (V{2, 2, 2}));
    EXPECT_EQ(sizes(formOwlGroups(uniform(5, 4), 8)), (V{2, 3}));
    EXPECT_EQ(sizes(formOwlGroups(uniform(3, 8), 8)), (V{1, 1, 1}));
    EXPECT_EQ(sizes(formOwlGroups(uniform(1, 4), 8)), (V{1}));
    EXPECT_TRUE(formOwlGroups({}, 8).empty());
    // CTA ids 7, 3, 5, 9 (slots 0..3), 4 warps each: sorted 3, 5 | 7, 9.
    const auto g = formOwlGroups({{7, 0, 4}, {3, 1, 4}, {5, 2, 4}, {9, 3, 4}}, 8);
    ASSERT_EQ(g.size(), 2u);
    EXPECT_EQ(g[0][0].ctaId, 3u);
    EXPECT_EQ(g[0][1].ctaId, 5u);
    EXPECT_EQ(g[1][0].slot, 0u);  // CTA 7
}

// CTA-Aware: G0 current; level 1 round-robin inside G0; G0 all blocked -> G1 (round-robin);
// G0's data returning does not pull the scheduler back; G1 blocked -> G2 (next in round-robin,
// not the ready G0).
TEST(OwlPolicy, CtaAwareSwitchesRoundRobinWhenEveryWarpOfTheGroupIsBlocked) {
    FakeSmView sm(24);
    OwlPolicy p = make(OwlPolicy::Variant::CtaAware);
    launch(p, sm, 6);
    sm.cycle_ = 1;
    p.onCycle(1, sm);
    EXPECT_EQ(sizes(p.groups()), (V{2, 2, 2}));
    EXPECT_EQ(p.currentGroup(), 0);
    // G0's even warps 0..6 first, then G1's, then G2's.
    EXPECT_EQ(ordered(p, 0, sm), (V{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}));
    // Warp 2 issues at cycle 1: round-robin inside G0 continues after it.
    p.onIssue(0, 2, sm);
    EXPECT_EQ(ordered(p, 0, sm), (V{4, 6, 0, 2, 8, 10, 12, 14, 16, 18, 20, 22}));
    // Every warp of G0 now waits for a load. Cycle 2: warp 2 issued in cycle 1, so G0 is not
    // yet blocked; cycle 3: blocked -> switch to G1.
    loads(sm, 0, 1, 1);
    sm.cycle_ = 2;
    p.onCycle(2, sm);
    EXPECT_EQ(p.currentGroup(), 0);
    sm.cycle_ = 3;
    p.onCycle(3, sm);
    EXPECT_EQ(p.currentGroup(), 1);
    EXPECT_EQ(p.groupSwitches(), 1u);
    EXPECT_EQ(ordered(p, 0, sm), (V{8, 10, 12, 14, 16, 18, 20, 22, 0, 2, 4, 6}));
    // One warp of G0 gets its data back: CTA-Aware stays on G1 (it is not blocked).
    sm.at(5).pendingLoads = 0;
    p.onCycle(4, sm);
    EXPECT_EQ(p.currentGroup(), 1);
    // G1 blocked: the next group in round-robin order is G2, although G0 is ready.
    loads(sm, 2, 3, 1);
    p.onCycle(5, sm);
    EXPECT_EQ(p.currentGroup(), 2);
    EXPECT_EQ(p.groupSwitches(), 2u);
    // Scheduler 1 shares the SM-wide current group: G2's odd warps first, then G0, then G1.
    EXPECT_EQ(ordered(p, 1, sm), (V{17, 19, 21, 23, 1, 3, 5, 7, 9, 11, 13, 15}));
    // Every group blocked: no switch.
    loads(sm, 0, 5, 1);
    p.onCycle(6, sm);
    EXPECT_EQ(p.currentGroup(), 2);
    EXPECT_EQ(p.groupSwitches(), 2u);
    EXPECT_EQ(p.resumes(), 0u);
}

// A warp at a barrier or without instructions counts as blocked; one that can still issue
// (no load outstanding) keeps its group current.
TEST(OwlPolicy, BarrierAndFinishedWarpsCountAsBlocked) {
    FakeSmView sm(24);
    OwlPolicy p = make(OwlPolicy::Variant::CtaAware);
    launch(p, sm, 6);
    p.onCycle(1, sm);
    loads(sm, 0, 1, 1);
    sm.at(3).pendingLoads = 0;  // warp 3 could issue
    p.onCycle(2, sm);
    EXPECT_EQ(p.currentGroup(), 0);
    sm.at(3).atBarrier = true;
    sm.at(6).pendingLoads = 0;
    sm.at(6).hasInstruction = false;
    p.onCycle(3, sm);
    EXPECT_EQ(p.currentGroup(), 1);
}

// Locality: same script as above up to G1 current; G0's data returning makes G0 current again
// at once (a resume), and G0 keeps priority while it can issue.
TEST(OwlPolicy, LocalityResumesTheOlderGroupWhoseDataReturned) {
    FakeSmView sm(24);
    OwlPolicy p = make(OwlPolicy::Variant::Locality);
    launch(p, sm, 6);
    p.onCycle(1, sm);
    EXPECT_EQ(p.currentGroup(), 0);
    loads(sm, 0, 1, 1);
    p.onCycle(2, sm);
    EXPECT_EQ(p.currentGroup(), 1);
    EXPECT_EQ(p.groupSwitches(), 1u);
    EXPECT_EQ(p.resumes(), 0u);
    // G1 issues (cycle 2), G2 is ready too, but G0 gets warp 5's data back: G0 again.
    sm.cycle_ = 2;
    p.onIssue(0, 8, sm);
    sm.at(5).pendingLoads = 0;
    p.onCycle(3, sm);
    EXPECT_EQ(p.currentGroup(), 0);
    EXPECT_EQ(p.groupSwitches(), 2u);
    EXPECT_EQ(p.resumes(), 1u);
    EXPECT_EQ(ordered(p, 1, sm), (V{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23}));
    // G0 and G1 blocked: the next by priority is G2 (not a resume); then G1's data returns
    // while G0 is still blocked: G1 resumes.
    loads(sm, 0, 3, 1);
    p.onCycle(10, sm);
    EXPECT_EQ(p.currentGroup(), 2);
    sm.at(12).pendingLoads = 0;
    p.onCycle(11, sm);
    EXPECT_EQ(p.currentGroup(), 1);
    EXPECT_EQ(p.groupSwitches(), 4u);
    EXPECT_EQ(p.resumes(), 2u);
}

// Regrouping when a CTA ends: CTA 0 leaves, 5 CTAs remain -> {1, 2}, {3, 4, 5} (CTA 5 alone
// would be 4 < 8 warps). The current group (led by CTA 2, G1 before) is the group now holding
// CTA 2, the new G0; re-forming is not a switch.
TEST(OwlPolicy, RegroupsOnCtaEndKeepingTheCurrentGroup) {
    FakeSmView sm(24);
    OwlPolicy p = make(OwlPolicy::Variant::CtaAware);
    launch(p, sm, 6);
    p.onCycle(1, sm);
    loads(sm, 0, 1, 1);
    p.onCycle(2, sm);
    ASSERT_EQ(p.currentGroup(), 1);
    for (unsigned w = 0; w < 4; ++w) {
        sm.at(w).valid = false;
        p.onWarpEnd(w);
    }
    p.onCtaEnd(0);
    p.onCycle(3, sm);
    EXPECT_EQ(sizes(p.groups()), (V{2, 3}));
    EXPECT_EQ(p.groups()[0][0].ctaId, 1u);
    EXPECT_EQ(p.currentGroup(), 0);
    EXPECT_EQ(p.groupSwitches(), 1u);
}

// BLP: with G = 3 groups, SM s starts its priority order at group s mod 3: SM 0 at G0 (CTAs
// 0, 1), SM 1 at G1 (CTAs 2, 3), SM 2 at G2, SM 3 at G0 again. owl-locality ignores the SM id.
TEST(OwlPolicy, BlpPrioritisesADifferentGroupOnEachSm) {
    std::vector<int> blpFirst, locFirst;
    std::vector<V> blpOrder;
    for (unsigned s = 0; s < 4; ++s) {
        SmIdView sm(24, s);
        OwlPolicy blp = make(OwlPolicy::Variant::Blp);
        launch(blp, sm, 6);
        blp.onCycle(1, sm);
        blpFirst.push_back(blp.currentGroup());
        blpOrder.push_back(blp.levelTwoOrder());
        if (s == 1) {
            EXPECT_EQ(ordered(blp, 0, sm), (V{8, 10, 12, 14, 16, 18, 20, 22, 0, 2, 4, 6}));
        }
        SmIdView sm2(24, s);
        OwlPolicy loc = make(OwlPolicy::Variant::Locality);
        launch(loc, sm2, 6);
        loc.onCycle(1, sm2);
        locFirst.push_back(loc.currentGroup());
    }
    EXPECT_EQ(blpFirst, (std::vector<int>{0, 1, 2, 0}));
    EXPECT_EQ(locFirst, (std::vector<int>{0, 0, 0, 0}));
    EXPECT_EQ(blpOrder[1], (V{1, 2, 0}));
    EXPECT_EQ(blpOrder[2], (V{2, 0, 1}));
    // SM 1 with its first group blocked moves on to G2, then wraps to G0: locality within its
    // rotated order, and a return to G1 is a resume.
    SmIdView sm(24, 1);
    OwlPolicy blp = make(OwlPolicy::Variant::Blp);
    launch(blp, sm, 6);
    blp.onCycle(1, sm);
    loads(sm, 2, 3, 1);
    blp.onCycle(2, sm);
    EXPECT_EQ(blp.currentGroup(), 2);
    loads(sm, 2, 3, 0);
    blp.onCycle(3, sm);
    EXPECT_EQ(blp.currentGroup(), 1);
    EXPECT_EQ(blp.resumes(), 1u);
}

TEST(OwlPolicy, RegistryNamesParametersAndPrefetchCapability) {
    const auto& reg = PolicyRegistry::builtin();
    for (const char* n : {"owl-cta", "owl-locality", "owl-blp", "owl"}) {
        const PolicyChoice c = reg.parse(n);
        EXPECT_EQ(c.params.at("min_warps"), 8.0) << n;
        const auto pol = c.make();
        EXPECT_EQ(pol->name(), n);
        EXPECT_EQ(pol->dramPrefetch(), std::string(n) == "owl" ? DramPrefetchKind::Owl : DramPrefetchKind::None) << n;
    }
    EXPECT_EQ(reg.parse("owl-blp").params.at("blp_shift"), 1.0);
    EXPECT_EQ(reg.parse("owl-cta:4").params.at("min_warps"), 4.0);
    EXPECT_THROW(reg.parse("owl-cta:min_warps=0"), InputError);
    EXPECT_THROW(reg.parse("owl-cta:blp_shift=1"), InputError);
    EXPECT_EQ(reg.parse("lrr").make()->dramPrefetch(), DramPrefetchKind::None);
}

} // namespace owl_policy_test
