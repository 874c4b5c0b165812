#pragma once
// A warp-scheduling policy: one instance per SM, shared by the SM's two issue schedulers (so
// SM-wide state such as locality scores or in-flight miss counts lives in one place).
// The issue stage asks for an order over a scheduler's warps, checks its own qualification
// (instruction buffered, scoreboard, unit free, barrier) plus the policy's canIssue(), and
// issues the first that qualifies. Event hooks let policies observe the L1D, MSHRs, loads,
// barriers and warp/CTA/kernel life cycle. A policy that also changes the cache or the DRAM side
// (CWLP's replacement, OWL's prefetch) declares it as a typed capability below; the SM and the
// platform install what it declares without knowing the policy.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/UnitVariants.hpp"
#include "scheduler/SmView.hpp"

namespace gpusim {

class StatRegistry;

// State shared by the policies of all SMs of one GPU (iPAWS's GPU-wide decision): made once per
// GPU by PolicyChoice::makeGpuContext() and handed to every SM's policy. Policies without such
// state have none.
class PolicyGpuContext {
public:
    virtual ~PolicyGpuContext() = default;
};

struct L1AccessEvent {
    unsigned warp;
    uint64_t pc;
    uint64_t lineAddr;
    bool hit;        // tag hit on a valid line
    bool merged;     // miss merged into an in-flight MSHR entry
    bool isWrite;
    // The L1D replacement's locality prediction for this access (LPC's PCAU output: a read hit
    // whose line showed same-PC reuse on this and its previous access). Always false under LRU.
    bool reusePredicted = false;
};

// A global/local load whose line accesses have all been through the L1D port (hit, merged,
// new miss) or parked in the re-execution queue: the moment the OAWS paper's DLC and OCW logic
// run ("after the accesses of a divergent load are serviced by L1D"). Data of misses is still
// on its way; onLoadComplete follows when the last of it is back.
struct LoadServicedEvent {
    unsigned warp;
    uint64_t pc;
    unsigned activeLanes;
    unsigned accesses;     // line accesses after coalescing (0: no active lane)
    unsigned setsTouched;  // distinct L1D sets among them
    bool fullyCached;      // every access hit a valid line
};

class SchedulerPolicy {
public:
    virtual ~SchedulerPolicy() = default;
    virtual std::string name() const = 0;

    // Called once by the SM before its first cycle, with the SM it will schedule: size per-warp
    // state here (warp slots, L1D sets). Tests with a fake view call it themselves.
    virtual void attach(const SmView& sm) {}
    // Called once by the SM: register policy statistics under `prefix` ("sm3.sched.").
    virtual void registerStats(StatRegistry& stats, const std::string& prefix) {}
    // Capability: entries of a re-execution queue for L1D accesses refused for want of an MSHR
    // or a miss-queue slot (MASCAR). 0: refused accesses replay in place and hold the LD/ST unit.
    virtual unsigned reexecutionQueueEntries() const { return 0; }
    // Capability: the SM keeps WarpView::issueStalls up to date, by one of two rules (see
    // WarpView::issueStalls); paid only by policies that read it (iPAWS with stall_counter 1 or 2).
    enum class IssueStallCount { None, OldestReady, UnitBusy };
    virtual IssueStallCount issueStallCount() const { return IssueStallCount::None; }
    // Capability: the L1D replacement this policy needs (Lpc for CWLP), installed by the SM in
    // place of the configuration's l1d.replacement. nullopt: no preference (the key decides).
    virtual std::optional<L1ReplacementKind> l1Replacement() const { return std::nullopt; }
    // Capability: the DRAM controllers' prefetch this policy needs (Owl for OWL's opportunistic
    // row prefetch), turned on by the platform in every FR-FCFS controller in addition to the
    // configuration's dram.prefetch. None: no preference (the key decides).
    virtual DramPrefetchKind dramPrefetch() const { return DramPrefetchKind::None; }
    // Capability (speed only): onCycle() does nothing and order() has no effect beyond its
    // result (a cache is fine). The SM then (a) asks no order() of a scheduler none of whose
    // warps can issue this cycle for the SM's own reasons (empty buffer, scoreboard, barrier,
    // exited, its unit busy), (b) skips the cycles of an SM in which nothing can move until
    // a memory answer, a result or a new CTA arrives (DESIGN.md section 3, "sleep what is idle"),
    // and (c) skips its issue stage (no onCycle(), no order()) while no warp's readiness can
    // change and the only ready warps wait for a busy LD/ST unit.
    // Promise it only if skipping those calls cannot change any result; `gpusim regress` checks.
    virtual bool idleWhileStalled() const { return false; }

    // Reorders `warps` (slots of scheduler `sched`'s warps that are valid) in priority order,
    // highest first.
    virtual void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) = 0;
    // Policy-specific gate on top of the SM's own qualification (CCWS load throttling, ...).
    // The SM calls it last, so `true` means the warp's next instruction issues now.
    virtual bool canIssue(unsigned warp, const SmView& sm) { return true; }
    // Capability: maySendBelowL1() can say false (the LD/ST unit asks it only then).
    virtual bool gatesSendBelowL1() const { return false; }
    // Gate in the LD/ST unit: may warp `warp`'s L1D access that would send a request below the
    // L1D (a miss needing a new MSHR entry, a store, an atomic) go now? false: the unit parks it
    // in the re-execution queue (or replays it in place when that is full or absent) and asks
    // again at each retry. MASCAR with send_gate=1 refuses a non-owner warp's at saturation.
    virtual bool maySendBelowL1(unsigned warp) { return true; }

    // Event hooks. Defaults do nothing.
    virtual void onCycle(uint64_t cycle, const SmView& sm) {}
    // After the issue; the warp's view already shows its following instruction.
    virtual void onIssue(unsigned sched, unsigned warp, const SmView& sm) {}
    virtual void onL1Access(const L1AccessEvent& e) {}
    virtual void onL1Evict(uint64_t lineAddr, int ownerWarp) {}
    virtual void onMshrAlloc(uint64_t lineAddr) {}
    virtual void onMshrFree(uint64_t lineAddr) {}
    virtual void onLoadServiced(const LoadServicedEvent& e) {}
    // Every load when its registers are written back: global/local (fullyCached: every access hit
    // in the L1D; accesses: its line accesses), shared (0 accesses), constant and texture
    // (accesses in their cache; fullyCached false: an L1D fact).
    virtual void onLoadComplete(unsigned warp, uint64_t pc, bool fullyCached, unsigned accesses) {}
    virtual void onBarrierArrive(unsigned warp) {}
    virtual void onBarrierRelease(unsigned ctaSlot) {}
    virtual void onWarpStart(unsigned warp) {}
    virtual void onWarpEnd(unsigned warp) {}
    virtual void onCtaStart(unsigned ctaSlot) {}
    virtual void onCtaEnd(unsigned ctaSlot) {}
    virtual void onKernelStart() {}
    virtual void onKernelEnd() {}
};

} // namespace gpusim
