#pragma once
// The LD/ST unit: one memory instruction at a time. A global/local instruction is coalesced into
// line accesses that go to the L1D one per cycle (its single port); while accesses remain the
// unit is busy (coalescing stall), and an access the L1D refuses replays next cycle (MSHR,
// miss-queue or reservation stall, counted by the L1D). A load completes when its last access
// has returned (hit after the hit latency, or fill), and is handed back to the SM for writeback.
// A shared-memory access takes no L1D port: it makes P passes through the banks (SharedBanks.hpp;
// P = 1 without bank conflicts), one per cycle, and holds the unit until its last, as GPGPU-Sim's
// ldst_unit::shared_cycle holds its dispatch register for the extra cycles (its "bank conflicts
// as a larger initiation interval"). Its data returns sm.smem_latency_cycles after the issue
// plus P - 1: the latency counts from the first pass, and the warp needs the last.
// With l1d.lookup_after_latency (GPGPU-Sim's l1_latency queue) the accesses instead enter a
// pipeline of hit latency - 1 one-entry stages, one per cycle, and are looked up at its head: the
// unit is free once its last access is in the pipeline, a miss leaves only after the latency, and
// an access the L1D refuses stays at the head while the ones behind it close up; a full pipeline
// stops the unit (pipeline_full_cycles). A load counts as serviced once all its accesses are
// looked up. Approximation: GPGPU-Sim sends a miss from its miss queue one cycle after the
// lookup and answers a hit at the lookup; we look up one cycle earlier and answer the hit a
// cycle later, so hits take the same time and misses leave a cycle sooner.
// Per-load "occlusion time" (cycles replaying for want of an MSHR; OAWS Fig. 3) is recorded,
// overall and for coherent (1-2 lines) and divergent (more) loads, the OAWS paper's Section 2.2
// classes; so are the loads of each class that were fully cached (OAWS Figs. 10-11).
// Beside it, per class, the load's "L1D access latency" (load_access_cycles; OAWS 3.2: "L1D
// access latency can be divided into memory occlusion time and L1D hit/miss time"): from the
// cycle the unit first presents the load's first access to the L1D (its first lookup; with
// l1d.lookup_after_latency, the cycle it enters the pipeline, whose stages are the hit latency)
// to the cycle the data of its last outstanding access is there (a hit's latency elapsed, or
// the fill processed), so occlusion time is a part of it. It includes, besides the occlusion:
// one cycle per further access (the coalescing serialisation), replays refused for other
// reasons (miss queue, line reservation), time parked in the re-execution queue, and the hit
// latency or the miss's round trip. It leaves out what comes before the first access (the
// hand-over from issue, a wait in sm.mem_issue_queue, a full lookup pipeline) and the writeback
// after the data; load_latency (issue to data) covers those. Only global/local loads with at
// least one access count: the same loads as occlusion_cycles.
// With sm.mem_issue_queue > 0 the issue stage does not wait for the unit: a memory instruction
// waits in a FIFO of that many (GPGPU-Sim's ID_OC_MEM register, MEM operand collectors and
// OC_EX_MEM register, without the operand reads' latency) and enters the unit in its first cycle
// free; its shared-memory latency starts then, its load latency at issue.
// Optional (MASCAR): a re-execution queue takes an access the L1D refuses for want of an MSHR or a
// miss-queue slot, so the unit goes on with the next access; the oldest parked access retries
// whenever the L1D could take it, before the current instruction's access (one L1D port).
// Constant and texture loads (issue 18) go to the SM's constant and texture caches
// (ConstantCache.hpp, TextureCache.hpp; attachReadOnlyCaches), not the L1D: one access per
// distinct address or line, one per cycle through the cache's own port, the unit busy until the
// last is made (as GPGPU-Sim's ldst_unit::constant_cycle and texture_cycle); a refused access is
// retried the next cycle. A constant hit completes after const.hit_latency_cycles, a miss at the
// fill; a texture access when it leaves the texture cache's in-order FIFO (collect()). Their
// loads count in load_latency but in no other ldst.* statistic (those are about the L1D), and
// they are not reported to onLoadServiced (whose facts are L1D ones).
// Global atomics (issue 18; WarpInstruction::atomic) are coalesced per line with lanes on one
// address split into separate requests (Coalescer::coalesceAtomic), one request per cycle through
// the L1D's port, which passes them to the L2 without a lookup (L1DCache::atomic): only a
// miss-queue slot can refuse one. The L2 performs them. An ATOM completes like a load when the
// L2 has answered all its requests (wakeAtomic) and its register is then released; a RED, like a
// store, has nothing to wait for. They count in ldst.atomics and atomic_requests, not in loads,
// stores, line_accesses or the L1D-facing statistics, and are not reported to onLoadServiced.
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "common/Stats.hpp"
#include "modules/Coalescer.hpp"
#include "modules/L1DCache.hpp"
#include "modules/SharedBanks.hpp"
#include "modules/SmConfig.hpp"
#include "modules/TextureCache.hpp"
#include "modules/TimedReturns.hpp"

namespace gpusim {

class SchedulerPolicy;
class ConstantCache;

class LdStUnit {
public:
    struct Completion {
        unsigned warp;
        uint16_t dst[2];
        uint64_t pc;
        bool fullyCached;   // every access hit in L1D
        unsigned accesses;
        uint64_t latency;   // cycles from issue to completion
    };

    LdStUnit(const SmConfig& cfg, L1DCache& l1, StatRegistry& stats, const std::string& prefix);
    // OAWS section 2.2: a load coalesced into at most this many lines is coherent.
    static constexpr unsigned kCoherentMaxLines = 2;

    // Receives onLoadServiced.
    void setObserver(SchedulerPolicy* p);
    // Entries of the re-execution queue (0: off, refused accesses replay in place).
    void setReexecutionQueue(unsigned entries);
    unsigned reexecutionQueued() const { return static_cast<unsigned>(reexecCount_); }

    // The SM's constant and texture caches (SmCore owns them); without, a constant or texture
    // load is a logic error.
    void attachReadOnlyCaches(ConstantCache* constant, TextureCache* texture) {
        const_ = constant;
        tex_ = texture;
    }

    // The issue stage may hand over a memory instruction.
    bool free() const { return queueCap_ ? queue_.size() < queueCap_ : !busy_ && !roBusy_ && sharedPasses_ == 0; }
    // Called by the issue stage; the instruction's first access goes to L1D next cycle (or, with
    // a queue, in the first cycle the unit is free).
    void accept(unsigned warp, const WarpInstruction& inst, uint64_t cycle);
    // Memory stage: one L1D access of the current instruction.
    void step(uint64_t cycle);
    // A fill woke these tokens (from L1DCache::fill).
    void wake(const std::vector<uint32_t>& tokens, uint64_t cycle);
    // The L2 answered one line request of a returning atomic (ATOM) with this token.
    void wakeAtomic(uint32_t token, uint64_t cycle) { accessDone(token, cycle); }
    // Hit returns due by `cycle`; then completed loads are handed to `f` (oldest first).
    template <class F>
    void collect(uint64_t cycle, F&& f) {
        // The check inline: most SMs never load a texture, and the call was made every cycle.
        if (tex_ && tex_->fragmentsWaiting()) texturePop(cycle);
        for (uint32_t t; timed_.popDue(cycle, t);) accessDone(t, cycle);
        for (const auto& c : done_) f(c);
        done_.clear();
    }
    bool idle() const {
        return !busy_ && !roBusy_ && sharedPasses_ == 0 && timed_.empty() && liveLoads_ == 0 && done_.empty() &&
               reexecCount_ == 0 && pipe_.empty() && queue_.empty();
    }
    unsigned liveLoads() const { return liveLoads_; }
    // Nothing to do at the next edges but wait: no instruction with accesses left, nothing
    // parked or collected; what is in flight comes back by a fill or at nextTimedReturn().
    bool onlyWaiting() const {
        return !busy_ && !roBusy_ && sharedPasses_ == 0 && reexecCount_ == 0 && done_.empty() && pipe_.empty() &&
               queue_.empty();
    }
    // An instruction with accesses left whose last step was not refused: the next step has work
    // (blockedOn() is None and onlyWaiting() false, so the SM cannot sleep). Two loads, where the
    // SM's full sleep check costs about sixty instructions; in a divergent run most cycles
    // without issue are of this kind (issue 19).
    bool working() const { return busy_ && blocked_ == Refusal::None; }
    // The current access was refused and nothing else in the unit moves, so every cycle repeats
    // the same refusal until something outside the unit changes: for want of an MSHR entry or
    // merge room, a fill (an answer); for a full miss queue, the NoC taking a request (END_REQ)
    // while the SM's port is blocked. The SM sleeps through such cycles (SmCore::stalled).
    enum class Refusal : uint8_t { None, Mshr, MissQueue };
    Refusal blockedOn() const {
        if (blocked_ == Refusal::None) return Refusal::None;
        const bool still = busy_ && !roBusy_ && sharedPasses_ == 0 && reexecCount_ == 0 && done_.empty() &&
                           pipe_.empty() && queue_.empty();
        return still ? blocked_ : Refusal::None;
    }
    // What `n` cycles of that refusal count (the L1D's MSHR or miss-queue stalls, a load's
    // occlusion time behind an MSHR refusal), for an SM that sleeps through them.
    void repeatRefusal(Refusal r, uint64_t n);
    // The cycle of the earliest hit, shared-memory return or texture access leaving its FIFO
    // (UINT64_MAX: none).
    uint64_t nextTimedReturn() const;
    std::string dumpState() const;

private:
    static constexpr uint64_t kNotTried = UINT64_MAX;
    // A load's first access is being presented to the L1D now (the access latency's start).
    void tried(uint32_t token, uint64_t cycle) {
        if (loads_[token].firstTry == kNotTried) loads_[token].firstTry = cycle;
    }
    struct Load {
        bool live = false;
        unsigned warp = 0;
        uint16_t dst[2]{};
        uint64_t pc = 0;
        uint64_t issueCycle = 0;
        unsigned remaining = 0;
        unsigned accesses = 0;
        bool allHits = true;
        uint64_t occlusion = 0;
        // The cycle its first access was presented to the L1D (kNotTried: not yet).
        uint64_t firstTry = kNotTried;
        // For the lookup-after-latency pipeline, which services a load after the unit moved on.
        unsigned unlooked = 0;
        unsigned activeLanes = 0;
        unsigned setsTouched = 0;
        bool l1d = true;  // a global/local load (false: shared, constant, texture)
    };
    struct Parked {
        uint64_t lineAddr;
        uint32_t bytes;
        uint32_t chunks;
        unsigned warp;
        uint64_t pc;
        uint32_t token;
        bool write;           // a store, or a RED (an atomic without result)
        bool atomic = false;  // a global atomic's line request (to the L2, not the L1D)
        uint32_t lanes = 0;   // an atomic's lanes
        uint32_t laneMask = 0;  // the lanes this line serves
    };
    // The L1D's answer to an access (an atomic passes it to the L2).
    L1Result send(const Parked& a);
    L1Result sendCurrent();  // send(current())
    Parked current() const;  // the current instruction's next access
    // An access on its way through the lookup-after-latency pipeline.
    struct Piped {
        Parked access;
        uint64_t lookupCycle;  // the earliest cycle of its tag lookup
    };
    uint32_t newLoad(unsigned warp, const WarpInstruction& inst, uint64_t cycle);
    // Takes the instruction into the unit at `now` (issued at `issued`).
    void start(unsigned warp, const WarpInstruction& inst, uint64_t issued, uint64_t now);
    struct Queued {
        unsigned warp;
        WarpInstruction inst;
        uint64_t issued;
    };
    // The lookup-after-latency pipeline's cycle: the head's lookup, then the next access in.
    void stepPipeline(uint64_t cycle);
    // A constant or texture load's next access, through its cache's port.
    void stepReadOnly(uint64_t cycle);
    // The texture cache's FIFO head, if it may leave now, completes its access.
    void texturePop(uint64_t cycle);
    // Sends an access to the L1D; false if refused (and neither parked nor taken).
    bool lookup(const Parked& a, uint64_t hitReady);
    void lookedUp(uint32_t token, bool hit);
    void accessDone(uint32_t token, uint64_t cycle);
    // Sends the oldest parked access if the L1D would take it; true if it used the port.
    bool retryParked(uint64_t cycle);
    void loadServiced();
    void loadServiced(const Load& l);

    const SmConfig& cfg_;
    L1DCache& l1_;
    Coalescer coalescer_;
    // The instruction being processed.
    bool busy_ = false;
    bool isLoad_ = false;
    bool isAtomic_ = false;  // a global atomic: its requests bypass the L1D (ATOM: isLoad_ too)
    unsigned warp_ = 0;
    uint64_t pc_ = 0;
    uint32_t token_ = 0;
    std::vector<LineAccess> accesses_;
    size_t next_ = 0;
    Refusal blocked_ = Refusal::None;  // how the last step() ended (see blockedOn)
    // The current access's last refusal (an MSHR or miss-queue stall that left it in place) and
    // the L1D's version then: while the version stays, the next try would be refused the same
    // way, so step() counts it without asking the L1D (issue 19). Not kept for atomics, gated
    // accesses or with a re-execution queue. Reset when the current access changes.
    bool refusedValid_ = false;
    uint64_t refusedVersion_ = 0;
    Refusal refused_ = Refusal::None;
    // The constant or texture load being processed (exclusive with busy_): its accesses, the
    // next one to make, its cache.
    bool roBusy_ = false;
    MemSpace roSpace_ = MemSpace::Constant;
    std::vector<uint64_t> roAccesses_;
    size_t roNext_ = 0;
    ConstantCache* const_ = nullptr;
    TextureCache* tex_ = nullptr;
    // Passes through the shared-memory banks still to make, one per step(); the unit is busy
    // until the last is made (exclusive with busy_ and roBusy_).
    unsigned sharedPasses_ = 0;
    SharedBanks banks_;
    std::vector<uint8_t> setMark_;  // scratch for counting distinct sets of an L1D of over 64, a byte per set
    SchedulerPolicy* observer_ = nullptr;
    bool sendGate_ = false;  // observer_->gatesSendBelowL1()
    // The policy holds this access back: it would send a request below the L1D and the policy
    // says not now (MASCAR's send gate). Treated as a parkable refusal that counts no L1D stall.
    bool heldBack(const Parked& a) { return sendGate_ && askGate(a); }
    bool askGate(const Parked& a);
    // Re-execution queue: a ring of parked accesses, oldest at reexecHead_.
    std::vector<Parked> reexec_;
    size_t reexecHead_ = 0, reexecCount_ = 0;
    // The lookup-after-latency pipeline, oldest first; at most pipeDepth_ entries.
    std::deque<Piped> pipe_;
    unsigned pipeDepth_ = 0;
    // sm.mem_issue_queue: issued memory instructions not yet in the unit, oldest first.
    std::deque<Queued> queue_;
    unsigned queueCap_ = 0;
    // Loads in flight, by token; free tokens reused lowest-first for determinism.
    std::vector<Load> loads_;
    std::vector<uint32_t> freeTokens_;
    unsigned liveLoads_ = 0;
    // (ready cycle, sequence, token) of hits and shared-memory returns; latencies differ, so a
    // min-heap, with the sequence number as a deterministic tie-break.
    TimedReturns timed_;
    void at(uint64_t ready, uint32_t token) { timed_.push(ready, token); }
    std::vector<Completion> done_;

    Counter &loads_c, &stores_c, &sharedOps_, &lineAccesses_, &coalescingStalls_, &fullyCached_;
    Counter &coherentLoads_, &divergentLoads_, &fullyCachedCoherent_, &fullyCachedDivergent_;
    Counter &parked_, &reexecStalls_, &pipelineFull_, &atomics_c, &atomicRequests_, &bankConflicts_,
        &bankConflictCycles_;
    Histogram& latency_;
    Average &occlusion_, &occlusionCoherent_, &occlusionDivergent_;
    Average &accessCycles_, &accessCyclesCoherent_, &accessCyclesDivergent_;
};

} // namespace gpusim
