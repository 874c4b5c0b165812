#pragma once
// Cache-Conscious Wavefront Scheduling (the CCWS paper, Sections 3.1-3.3), as the authors' GPGPU-Sim
// release configures it (tgrogers/ccws-2012, configs/QuadroFX5800-CCWS/gpgpusim.config,
// `-point_scheduling_sys -1,0,0,0,-1,-1,100,-1,8,8,0`, read by
// src/gpgpu-sim/scheduling-point-system.cc), on top of GTO ordering:
// - Lost intra-warp locality detector: a per-warp victim tag array (VictimTagArray, 16 entries per
//   warp, 8-way, FIFO) takes the tag of every line the L1D evicts, under the warp that brought the
//   line in. A new L1D read miss of a warp (one that allocates an MSHR entry, not one merged into
//   an entry in flight) probes that warp's part; a hit is a "VTA hit" and leaves the tag in place.
//   A store removes the line's tag from every warp's part.
// - Locality scoring: every warp starts at the base score (100). A VTA hit adds
//   dLLS = K_THROTTLE x (VTA hits / instructions issued) x cutoff, both counts taken over the warps
//   resident in the SM (a warp's counts leave the totals when it ends). Every cycle a score above
//   the base falls by one point.
// - Per-warp cap (the release's dynamic cap, k_wsc = 8): whenever an update leaves a score above
//   the base, it is cut to (VTA hits / instructions) x k_wsc x cutoff. With k_wsc = K_THROTTLE a
//   VTA hit sets the score to dLLS, and a cap below the base puts the score below the base (it
//   then stays there until the next VTA hit): both as in the release.
// - Cutoff: warps sorted by score, largest first, take the cumulative cutoff (resident warps x
//   base score) in turn; the warps that come after the prefix sum has reached it have their
//   Can-Issue bit cleared for loads (other instructions still issue).
// Choices of ours where the release differs or is silent: ties in score go to the older warp (the
// release: the lower slot); a warp that takes a slot starts at the base score with an empty VTA
// part (the release leaves an ended warp's slot at 0 points, so the warps of a second kernel start
// at 0); "resident" is a valid slot, including a warp that has issued EXIT and waits for its loads
// (the release: not functionally done); the increment and the cap are rounded to the nearest point
// (the release truncates). Left out: the release's per-hit/miss point options, all 0 in its
// configuration.
#include <vector>

#include "scheduler/GtoPolicy.hpp"
#include "scheduler/VictimTagArray.hpp"

namespace gpusim {

class Counter;

class CcwsPolicy : public SchedulerPolicy {
public:
    struct Params {
        unsigned baseScore = 100;
        double kThrottle = 8;
        unsigned vtaEntries = 16;
        unsigned vtaWays = 8;
        unsigned decay = 1;          // points per cycle
        double scoreCap = 8;         // k_wsc of the per-warp cap; 0: no cap
        bool probeMerged = false;    // a miss merged into an MSHR entry probes the VTA too
        bool probeRemoves = false;   // a VTA hit removes the tag
        // Issue priority: false, GTO's (the CCWS paper's "CCWS with GTO wavefront prioritization
        // logic", section 4); true, the largest lost-locality score first, ties in GTO order (the
        // OAWS paper's CCWS, section 5: "the warp that has the largest locality loss is
        // exclusively prioritized").
        bool scoreFirst = false;
    };
    explicit CcwsPolicy(const Params& p) : p_(p) {}
    std::string name() const override { return "ccws"; }

    void attach(const SmView& sm) override;
    void registerStats(StatRegistry& stats, const std::string& prefix) override;
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    bool canIssue(unsigned warp, const SmView& sm) override;
    void onCycle(uint64_t cycle, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void onL1Access(const L1AccessEvent& e) override;
    void onL1Evict(uint64_t lineAddr, int ownerWarp) override;
    void onWarpStart(unsigned warp) override;
    void onWarpEnd(unsigned warp) override;
    void onKernelStart() override;

    // For tests and statistics.
    uint64_t score(unsigned warp) const { return warp < score_.size() ? score_[warp] : 0; }
    bool loadsAllowed(unsigned warp) const { return warp < allowed_.size() && allowed_[warp]; }
    uint64_t cutoff() const { return cutoff_; }
    uint64_t vtaHits() const { return vtaHits_; }  // every VTA hit since the policy was built
    // VTA hits and instructions of the resident warps (the ratio's inputs).
    uint64_t residentVtaHits() const { return residentHits_; }
    uint64_t residentInstructions() const { return residentIssued_; }
    // The per-warp cap now (0 when the cap is off).
    uint64_t scoreCap() const;
    const VictimTagArray& vta() const { return vta_; }

private:
    void resetWarp(unsigned warp);
    void recomputeCutoff(const SmView& sm);
    double hitsPerInstruction() const;
    uint64_t effectiveCutoff() const;
    // The release's increment_score: add, then hold at the base from below and apply the cap.
    void addPoints(unsigned warp, int64_t points);

    Params p_;
    GtoPolicy gto_;
    VictimTagArray vta_;
    std::vector<uint64_t> score_;
    std::vector<uint8_t> allowed_;
    std::vector<uint64_t> warpHits_, warpIssued_;  // per slot, for the resident totals
    std::vector<unsigned> sorted_;  // scratch, no allocation per cycle
    uint64_t cutoff_ = 0;
    uint64_t residentHits_ = 0, residentIssued_ = 0;
    uint64_t vtaHits_ = 0;
    Counter *vtaHitStat_ = nullptr, *blockedStat_ = nullptr, *throttledCycles_ = nullptr, *cappedStat_ = nullptr;
};

} // namespace gpusim
