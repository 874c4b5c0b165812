#pragma once
// An observer of one SM's warp activity, for `gpusim run --trace-warps` (platforms/
// WarpTraceWriter). SmCore holds an optional pointer to one: null (the default) costs one
// predictable branch per event point and changes nothing; a sink only reads, so tracing never
// changes the model. Cycles are core-clock cycle indices (ClockDomain::cycle()).
// Reported: every issued instruction, every load from issue to write-back (global and shared;
// stores have no write-back in the model, the warp never waits for them, so they appear as their
// issue only), and per warp the intervals it waited at a barrier or on the scoreboard. Not
// reported: waits for an empty instruction buffer or a busy execution unit.
#include <cstdint>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

class WarpTraceSink {
public:
    virtual ~WarpTraceSink() = default;
    // `inst` issued from warp slot `warp` of SM `sm` at `cycle`.
    virtual void issue(unsigned sm, unsigned warp, uint64_t cycle, const WarpInstruction& inst) = 0;
    // A load of `warp` wrote back at `cycle`, `latency` cycles after it issued.
    virtual void loadDone(unsigned sm, unsigned warp, uint64_t cycle, uint64_t latency, uint64_t pc,
                          unsigned accesses, bool fullyCached) = 0;
    // The warp reached a barrier (it issued the barrier instruction at `cycle`).
    virtual void barrierArrive(unsigned sm, unsigned warp, uint64_t cycle) = 0;
    // The barrier the warp waited at released at `cycle` (also called for warps of the CTA that
    // were not waiting; a sink ignores those).
    virtual void barrierRelease(unsigned sm, unsigned warp, uint64_t cycle) = 0;
    // Sampled each issue cycle for every resident warp with a buffered instruction that is not at
    // a barrier: whether that instruction waits on the scoreboard.
    virtual void scoreboard(unsigned sm, unsigned warp, uint64_t cycle, bool hazard) = 0;
    // The warp slot retired its warp at `cycle`.
    virtual void warpEnd(unsigned sm, unsigned warp, uint64_t cycle) = 0;
};

} // namespace gpusim
