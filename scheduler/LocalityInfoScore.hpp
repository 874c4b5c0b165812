#pragma once
// CWLP's locality information score (LIS, Zhang et al., FITEE 2018, sections 5.2.1 and 6): the
// reuse predictions of the latest L1D accesses, summed over a window of 10 accesses; "if the
// addition of the 10 bits is larger than five ... there is locality in the L1 data cache" and the
// warp queue is left alone, otherwise it is reordered. The window is cleared every 10 accesses.
// Choices where the paper is silent or contradicts itself (docs/schedulers.md, "lpc and cwlp"):
// - The decision is taken when a window is complete (Algorithm 2 tests dist0 + dist1 == 10) and
//   holds until the next window completes; before the first complete window there is no
//   reordering (the base LRR order).
// - Direction: section 5.2.1's text (locality -> no reordering) is followed; Algorithm 2 line 17
//   and the first sentence of section 6 state the opposite.
// - Which accesses enter the window: every L1D read access that reached the tags (hit, merge,
//   new miss) with the PCAU's prediction bit, which is 0 for misses and merges
//   (count_misses = 1); or, with count_misses = 0, only read hits. Stores never enter (they
//   write-evict and never reach the predictor).
#include <cstdint>

namespace gpusim {

class LocalityInfoScore {
public:
    struct Params {
        unsigned window = 10;    // accesses per window
        unsigned threshold = 5;  // locality when more than this many were predicted reused
        bool countMisses = true;
    };
    explicit LocalityInfoScore(const Params& p) : p_(p) {}

    // One L1D read access. Returns true when it completed a window (the decision was updated).
    bool onAccess(bool hit, bool predicted);
    // The latched decision of the last complete window.
    bool locality() const { return locality_; }
    bool decided() const { return decided_; }
    bool reorder() const { return decided_ && !locality_; }
    unsigned ones() const { return ones_; }
    unsigned count() const { return count_; }
    void reset() { *this = LocalityInfoScore(p_); }

private:
    Params p_;
    unsigned ones_ = 0, count_ = 0;
    bool decided_ = false, locality_ = false;
};

} // namespace gpusim
