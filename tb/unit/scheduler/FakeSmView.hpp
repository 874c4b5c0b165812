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
    unsigned mshrEntries() const override { return 32; }
    unsigned mshrFree() const override { return 32; }
    unsigned missQueueFree() const override { return 8; }
    uint64_t cycle() const override { return cycle_; }

    WarpView& at(unsigned slot) { return warps_.at(slot); }
    uint64_t cycle_ = 0;

private:
    std::vector<WarpView> warps_;
};

} // namespace gpusim::test
