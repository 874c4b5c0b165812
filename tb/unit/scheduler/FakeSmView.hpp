#pragma once
// A hand-driven SmView for policy and issue-stage tests: warp slots, ages and MSHR numbers are
// set directly by the test, so no SM is needed.
#include <cstdint>
#include <vector>

#include "scheduler/SmView.hpp"

namespace gpusim::test {

class FakeSmView : public SmView {
public:
    // `n` valid warp slots whose ages are given (ages[i] for slot i); empty = age equals slot.
    explicit FakeSmView(unsigned n, std::vector<uint64_t> ages = {}) : warps_(n) {
        for (unsigned i = 0; i < n; ++i) {
            warps_[i].valid = true;
            warps_[i].age = ages.empty() ? i : ages.at(i);
            warps_[i].hasInstruction = true;
        }
    }
    unsigned smId() const override { return 0; }
    unsigned warpSlots() const override { return static_cast<unsigned>(warps_.size()); }
    const WarpView& warp(unsigned slot) const override { return warps_.at(slot); }
    unsigned schedulers() const override { return schedulers_; }
    unsigned l1Sets() const override { return 32; }
    unsigned l1LineBytes() const override { return 128; }
    unsigned mshrEntries() const override { return mshrEntries_; }
    unsigned mshrFree() const override { return mshrFree_; }
    unsigned missQueueEntries() const override { return missQueueEntries_; }
    unsigned missQueueFree() const override { return missQueueFree_; }
    unsigned loadsInFlight() const override { return loadsInFlight_; }
    bool ldstBusy() const override { return ldstBusy_; }
    uint64_t cycle() const override { return cycle_; }

    WarpView& at(unsigned slot) { return warps_.at(slot); }
    // Keep SmView::schedulerSetVersion() as an SM does: call after each warp start or end in
    // scheduler `sched` (a fake that never calls it reports 0, "not kept").
    void warpSetChanged(unsigned sched) { ++schedulerSetVersion_.at(sched); }
    // The warp's next instruction is a global load of `lanes` active lanes at `pc`.
    void nextLoad(unsigned slot, uint64_t pc, unsigned lanes = 32) {
        WarpView& v = warps_.at(slot);
        v.hasInstruction = true;
        v.nextIsLoad = true;
        v.nextIsStore = false;
        v.nextPc = pc;
        v.nextActiveLanes = lanes;
    }
    // ... a non-memory instruction.
    void nextAlu(unsigned slot, uint64_t pc = 0) {
        WarpView& v = warps_.at(slot);
        v.hasInstruction = true;
        v.nextIsLoad = v.nextIsStore = false;
        v.nextPc = pc;
        v.nextActiveLanes = 32;
    }
    uint64_t cycle_ = 0;
    unsigned schedulers_ = 2;
    unsigned mshrEntries_ = 32, mshrFree_ = 32;
    unsigned missQueueEntries_ = 8, missQueueFree_ = 8;
    unsigned loadsInFlight_ = 0;
    bool ldstBusy_ = false;

private:
    std::vector<WarpView> warps_;
};

} // namespace gpusim::test
