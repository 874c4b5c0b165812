#pragma once
// Where the SMs of one GPU meet for iPAWS's per-kernel decision (the paper's section 5.4: "we
// used the adaptive decision results from the first core that finishes" the Adapt phase). One
// board per GPU (a PolicyGpuContext); with the per-SM variant each SM has a private board.
// Determinism: the first SM is the one with the earliest proposal cycle, ties broken by the
// smaller SM id; a proposal becomes visible only from the next cycle on, so every SM sees the
// same winner whatever order the SMs are ticked in within a cycle.
// GPU statistics (shared board only): gpu.ipaws.kernel<k>.{rr, doc, woi, warps, sm, cycle}.
#include <cstdint>
#include <vector>

#include "scheduler/IssuePatternClassifier.hpp"
#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

struct IpawsDecision {
    bool valid = false;
    uint64_t cycle = 0;  // core cycle in which the deciding SM finished adapting
    unsigned sm = 0;
    IssuePattern pattern;
};

class IpawsDecisionBoard : public PolicyGpuContext {
public:
    // `kernel`: launch index (0 for the workload's first kernel).
    void propose(unsigned kernel, uint64_t cycle, unsigned sm, const IssuePattern& pattern);
    // The decision for `kernel` as seen by an SM at cycle `now` (proposals of earlier cycles
    // only), or null.
    const IpawsDecision* visible(unsigned kernel, uint64_t now) const;
    // The earliest proposal so far, visible or not (tests, statistics).
    const IpawsDecision* proposal(unsigned kernel) const;
    // GPU-level statistics: the first SM to call it gives the registry; publish() writes a
    // kernel's decision once, when an SM first applies it.
    void attachStats(StatRegistry& stats);
    void publish(unsigned kernel);

private:
    std::vector<IpawsDecision> decisions_;  // by kernel
    std::vector<uint8_t> published_;
    StatRegistry* stats_ = nullptr;
};

} // namespace gpusim
