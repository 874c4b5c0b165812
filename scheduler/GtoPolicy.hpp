#pragma once
// Greedy-then-oldest (the CCWS paper's GTO): keep issuing from the warp that issued last until
// it cannot issue, then the oldest ready warp (smallest launch age). Per scheduler.
//
// The age order of a scheduler's warps changes only when a warp starts or ends, so it is kept
// per scheduler and re-sorted only when the set of (slot, age) pairs it is asked about differs
// from the last one (checked in O(warps) each call, which stays correct when a composing policy
// does not forward onWarpStart/onWarpEnd; the ages are compared only when the SM's warp-set
// version moved). Ties in age fall back to the slot number.
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

class GtoPolicy : public SchedulerPolicy {
public:
    std::string name() const override { return "gto"; }
    // No onCycle, and order() is a function of the warps and the last issuer.
    bool idleWhileStalled() const override { return true; }
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    // order() without writing the order out: sets `first` to the greedy warp (if it is among
    // `warps`, else -1) and returns the age order; order() gives `first` followed by the list
    // without it. The issue stage walks that until a warp issues instead of having the whole
    // order written out every cycle (issue 19). Valid until the next call.
    // Inline, with the common case (the scheduler's warp set unchanged since the last call)
    // decided here: asked once per scheduler per issue cycle, and the calls with their bounds
    // checks were most of its cost (issue 19).
    const std::vector<unsigned>& orderView(unsigned sched, const std::vector<unsigned>& warps, const SmView& sm,
                                           int& first) {
        const AgeOrder* c = sched < kSchedulers ? &byAge_[sched] : nullptr;
        if (!c || !current(*c, sm.schedulerSetVersion(sched), warps.size())) c = &ages(sched, warps, sm);
        first = greedy(sched, *c);
        return c->oldestFirst;
    }
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void attach(const SmView& sm) override { sm_ = &sm; }
    // A warp's start and end keep the age order current when it was current just before (the
    // scheduler's set version one behind): the newcomer is the youngest, appended; the leaver is
    // taken out. Otherwise ages() compares the members again, as without these hooks
    // (issue 19: that comparison at every warp start and end was 2 % of a streaming run).
    void onWarpStart(unsigned warp) override;
    void onWarpEnd(unsigned warp) override;

private:
    static constexpr unsigned kSchedulers = 2;
    std::array<int, kSchedulers> last_{-1, -1};
    struct AgeOrder {
        std::vector<unsigned> oldestFirst;  // the members, by (age, slot)
        std::vector<uint64_t> ageOf;        // per slot: the member's age, kNotMember if none
        uint64_t version = 0;  // SmView::schedulerSetVersion() when the ages were last compared
    };
    static constexpr uint64_t kNotMember = UINT64_MAX;
    // Scratch of ages(): per slot the call that last asked about it (stamp_) and a newcomer's age
    // (kNotMember between calls); the newcomers, and the merged order.
    uint64_t stamp_ = 0;
    std::vector<uint64_t> seen_, addedAge_;
    std::vector<unsigned> added_, merged_;
    std::array<AgeOrder, kSchedulers> byAge_;
    const SmView* sm_ = nullptr;  // from attach()
    // The age order of `warp`'s scheduler if it was current before the set's last change (the
    // version one behind), else null; `version` gets the set's version now.
    AgeOrder* currentBefore(unsigned warp, uint64_t& version);
    // Brings scheduler `sched`'s age order up to date with `warps` and returns it.
    const AgeOrder& ages(unsigned sched, const std::vector<unsigned>& warps, const SmView& sm);
    // The order needs no update: the set's version (non-zero: an SmView that keeps one) is the
    // one it was built at, and the members are as many.
    static bool current(const AgeOrder& c, uint64_t version, size_t members) {
        return version != 0 && version == c.version && c.oldestFirst.size() == members;
    }
    // The scheduler's last issuer if it is among the members, else -1 (sched < kSchedulers).
    int greedy(unsigned sched, const AgeOrder& c) const {
        const int g = last_[sched];
        if (g < 0) return -1;
        const unsigned w = static_cast<unsigned>(g);
        return w < c.ageOf.size() && c.ageOf[w] != kNotMember ? g : -1;
    }
};

} // namespace gpusim
