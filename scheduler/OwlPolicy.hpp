#pragma once
// OWL's warp schedulers (Jog et al., ASPLOS 2013; slides in shared/papers), one class for the
// three SM-side variants, which differ only in the level-2 rule:
//   owl-cta       CTA-Aware: the SM's resident CTAs are grouped (OwlCtaGroups: consecutive CTAs,
//                 at least `minWarps` warps per group). Level 1: round-robin among the current
//                 group's warps. Level 2: when every warp of the current group is blocked, the
//                 next group in round-robin order that is not blocked becomes current.
//   owl-locality  CTA-Aware-Locality: groups keep a fixed priority (oldest CTAs first); the
//                 current group is the highest-priority group that is not blocked, so a group
//                 keeps priority until it finishes, and a blocked group whose data has returned
//                 is picked up again before younger groups ("resume").
//   owl-blp       CTA-Aware-Locality-BLP: as owl-locality, but the priority order on SM s is
//                 rotated to start at group (s x blpShift) mod G, so neighbouring SMs (which the
//                 dispatcher fills round-robin with consecutive CTAs) prioritise non-consecutive
//                 CTAs and spread their accesses over DRAM rows and banks.
//   owl           owl-blp here; the platform also turns on the controllers' opportunistic
//                 prefetch (memory/OwlPrefetcher; capability dramPrefetch(), read by platforms/Gpu.cpp).
// The policy only orders warps: the current group's warps first (round-robin after the
// scheduler's last issuer), then the other groups in level-2 order (each in slot order). When
// the current group cannot issue, other groups' warps still issue in that order; the current
// group changes only by the switch rule. The current group is SM-wide (shared by both issue
// schedulers, like the paper's per-core group).
// Choices where the paper is silent (documented in docs/schedulers.md):
//  - "blocked": every valid warp of the group waits for data or cannot issue at all (a load
//    outstanding, at a barrier, or no instruction left), and no warp of the group issued in
//    the previous cycle (a warp with a load in flight may still issue independent work).
//  - Groups are re-formed from scratch whenever a CTA starts or ends; the current group is the
//    one that now holds the previous current group's first CTA (or the next younger CTA).
//  - CTA-Aware with every group blocked: no switch (nothing to gain).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/OwlCtaGroups.hpp"
#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

class Counter;

class OwlPolicy : public SchedulerPolicy {
public:
    enum class Variant { CtaAware, Locality, Blp };
    struct Params {
        std::string name = "owl-cta";
        Variant variant = Variant::CtaAware;
        unsigned minWarps = 8;   // the paper's best minimum group size
        unsigned blpShift = 1;   // Blp: SM s starts at group (s x blpShift) mod G
        bool dramPrefetch = false;  // `owl`: the platform turns on the controllers' prefetch
    };
    explicit OwlPolicy(Params p);

    std::string name() const override { return p_.name; }
    DramPrefetchKind dramPrefetch() const override {
        return p_.dramPrefetch ? DramPrefetchKind::Owl : DramPrefetchKind::None;
    }
    void attach(const SmView& sm) override;
    void registerStats(StatRegistry& stats, const std::string& prefix) override;
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    void onCycle(uint64_t cycle, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void onWarpStart(unsigned warp) override;
    void onCtaStart(unsigned ctaSlot) override;
    void onCtaEnd(unsigned ctaSlot) override;

    // For tests and state dumps.
    const std::vector<std::vector<OwlCta>>& groups() const { return groups_; }
    int currentGroup() const { return cur_; }
    uint64_t groupSwitches() const { return switches_; }
    uint64_t resumes() const { return resumes_; }
    // Level-2 order of the groups (indices into groups()), current group first.
    std::vector<unsigned> levelTwoOrder() const;

private:
    void regroup(const SmView& sm);
    bool blocked(unsigned group, const SmView& sm, uint64_t cycle) const;
    std::vector<unsigned> priorityOrder() const;  // Locality/Blp: the fixed (rotated) order
    void switchTo(unsigned group);
    void refreshRanks();  // rankOfGroup_ from levelTwoOrder(), after any change of it
    int groupOfWarp(unsigned warp, const SmView& sm) const;

    Params p_;
    unsigned smId_ = 0;
    static constexpr unsigned kSchedulers = 2;
    // Last issuer per scheduler, kept after it ends (a slot position, as LrrPolicy): with one
    // group the order is exactly lrr's.
    std::vector<int> last_ = std::vector<int>(kSchedulers, -1);
    std::vector<uint64_t> issuedAt_;       // per warp slot: cycle of its last issue + 1 (0: never)
    std::vector<unsigned> ctaWarps_;       // per CTA slot: warps it started with
    unsigned warpsSinceCtaStart_ = 0;
    bool dirty_ = false;                   // the resident CTA set changed: regroup
    std::vector<std::vector<OwlCta>> groups_;
    std::vector<std::vector<unsigned>> groupWarps_;  // warp slots of each group
    std::vector<int> groupOfCtaSlot_;
    std::vector<unsigned> rankOfGroup_;    // position of each group in the level-2 order
    std::vector<std::pair<unsigned, unsigned>> keyed_;  // scratch of order(): (rank, slot)
    int cur_ = -1;
    uint64_t curLead_ = 0;                 // first CTA id of the current group
    uint64_t switches_ = 0, resumes_ = 0, regroups_ = 0;
    Counter* switchStat_ = nullptr;
    Counter* resumeStat_ = nullptr;
    Counter* regroupStat_ = nullptr;
};

} // namespace gpusim
