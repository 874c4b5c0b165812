#pragma once
// The narrow view of an SM that scheduler policies read (DESIGN.md section 5). modules/
// implements it; policies never see the SM's classes, so a policy is testable against a fake.
#include <array>
#include <cstdint>

namespace gpusim {

// What a policy may know about one warp slot.
struct WarpView {
    bool valid = false;           // a warp occupies the slot
    uint64_t age = 0;             // launch order in this SM: smaller is older (GTO's "oldest")
    unsigned ctaSlot = 0;         // CTA slot in the SM
    uint64_t ctaId = 0;           // linear CTA id in the kernel
    bool hasInstruction = false;  // the instruction buffer holds the next instruction
    bool nextIsLoad = false;      // ... and it is a global/local load (not shared, constant, texture, atomic)
    bool nextIsStore = false;     // ... a global/local store
    uint64_t nextPc = 0;
    unsigned nextActiveLanes = 0;
    bool atBarrier = false;
    bool exited = false;          // has issued EXIT (resident until its loads are back)
    uint64_t issued = 0;          // instructions issued so far
    unsigned pendingLoads = 0;    // loads issued and not yet written back
    // iPAWS's issue-stall counter, kept only for a policy whose issueStallCount() asks for it
    // (0 otherwise). "Hazard-free": next instruction buffered, scoreboard clear, not at a barrier.
    // - OldestReady: cycles this warp was the oldest hazard-free warp of its scheduler and yet
    //   did not issue (a unit busy, the policy's gate, or the scheduler picked another warp).
    // - UnitBusy: cycles the scheduler, walking its priority order, reached this warp while it
    //   was hazard-free and could not issue it because its unit (ALU, SFU, tensor, LD/ST) was busy
    //   (GPGPU-Sim's "issue stall": ready but the pipeline full). A warp behind the first one
    //   that issued is not reached that cycle.
    uint64_t issueStalls = 0;
};

class SmView {
public:
    virtual ~SmView() = default;
    virtual unsigned smId() const = 0;
    virtual unsigned warpSlots() const = 0;
    virtual const WarpView& warp(unsigned slot) const = 0;
    // Issue schedulers; scheduler s owns the slots w with w % schedulers() == s.
    virtual unsigned schedulers() const = 0;
    // L1D geometry (the victim tag array and the divergent load classifier size themselves on it).
    virtual unsigned l1Sets() const = 0;
    virtual unsigned l1LineBytes() const = 0;
    // MSHR occupancy: entries, free entries; used = entries - free (= read misses in flight).
    virtual unsigned mshrEntries() const = 0;
    virtual unsigned mshrFree() const = 0;
    unsigned mshrUsed() const { return mshrEntries() - mshrFree(); }
    // The miss queue toward the NoC (the OAWS paper's "memory port").
    virtual unsigned missQueueEntries() const = 0;
    virtual unsigned missQueueFree() const = 0;
    // Loads issued and not yet written back (all warps, any memory space).
    virtual unsigned loadsInFlight() const = 0;
    // The LD/ST unit still holds an instruction with accesses left (a memory instruction cannot
    // issue this cycle).
    virtual bool ldstBusy() const = 0;
    virtual uint64_t cycle() const = 0;
    // Changes whenever a warp starts or ends in this SM (0: not kept by this implementation), so
    // a policy can cache what depends only on the warps' slots and ages (GTO's age order)
    // without reading every warp's view each cycle.
    uint64_t warpSetVersion() const { return warpSetVersion_; }
    // The same for the warps of scheduler `sched` alone (0: not kept): a policy caching per
    // scheduler is not invalidated by the other scheduler's warps.
    uint64_t schedulerSetVersion(unsigned sched) const {
        return sched < schedulerSetVersion_.size() ? schedulerSetVersion_[sched] : 0;
    }

protected:
    uint64_t warpSetVersion_ = 0;
    std::array<uint64_t, 2> schedulerSetVersion_{};  // sm.schedulers is 1 or 2
};

} // namespace gpusim
