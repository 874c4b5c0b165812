#pragma once
// The iPAWS paper's instruction-issue pattern test (its Algorithm 1 with the warps-of-interest of
// section 3.2 and the barrier score of section 3.3), as a pure function of per-warp counters
// collected during the Adapt phase:
// - score_i = instructions issued + barrier wait (iscore_i = inst_i + btime_i);
// - warps-of-interest (WOI): warps taken oldest first up to the limit warp, the OLDEST warp with
//   the highest issue-stall count (warps younger than it "do not receive a fair opportunity to
//   issue"); W = their number;
// - iscore_thr = W x iscore_max x threshold_factor (the paper: W x max / 2, the triangle of
//   Fig. 7), iscore_sum = sum of the WOI's scores, iscore_max = the largest WOI score;
// - concave (sum < thr): stay greedy; convex (sum >= thr): switch to the fair scheduler;
// - degree of convexity (Fig. 14) DoC = iscore_sum / iscore_thr (> 1 convex).
// Choices where the paper is silent: the limit warp itself belongs to the WOI (parameter); with
// every stall count 0 (no warp was ever held up at the head of its scheduler) the WOI is every
// warp; an all-zero score (nothing issued) is concave (nothing argues for switching).
#include <cstdint>
#include <vector>

namespace gpusim {

struct IssuePatternWarp {
    uint64_t age = 0;          // launch order, smaller is older
    uint64_t instructions = 0; // inst_i
    uint64_t barrierWait = 0;  // btime_i
    uint64_t issueStalls = 0;  // the issue-stall counter
};

struct IssuePatternParams {
    bool woiFromStalls = true;    // false: every warp is of interest (the paper's Fig. 8(a))
    bool woiIncludesLimit = true; // the limit warp is part of the WOI
    bool barrierScore = true;     // false: iscore = inst (barrier wait ignored)
    double thresholdFactor = 0.5; // iscore_thr = W x iscore_max x factor
};

struct IssuePattern {
    unsigned warps = 0;  // warps considered (resident during the Adapt phase)
    unsigned woi = 0;    // W
    uint64_t scoreMax = 0, scoreSum = 0;
    double threshold = 0;
    double doc = 0;      // scoreSum / threshold (0 when threshold is 0)
    bool convex = false;
};

IssuePattern classifyIssuePattern(std::vector<IssuePatternWarp> warps, const IssuePatternParams& p);

} // namespace gpusim
