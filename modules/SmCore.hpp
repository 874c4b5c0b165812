#pragma once
// One streaming multiprocessor. Per core cycle, stages run back to front so each sees last
// cycle's state: fill port (one NoC answer into L1D), writeback (ALU/SFU/tensor results,
// completed loads), memory (one L1D access of the LD/ST unit's instruction), NoC send (head of the
// miss queue), issue (two schedulers, one instruction each), fetch (instruction buffers), retire
// (exited warps, finished CTAs). The SM is a TLM-2.0 AT initiator toward the NoC; everything
// inside it is plain C++. With sm.collector.register_banks > 0 an issued ALU, SFU, tensor or
// memory instruction first waits in the operand collector (modules/OperandCollector.hpp) and an execute
// stage after the memory stage moves it into its unit; without, issue hands it to the unit.
// Beside the L1D, the SM has a constant cache and a texture cache (ConstantCache.hpp,
// TextureCache.hpp) for the constant and texture loads of traces; their line reads share the
// SM's port to the NoC (after instruction-line reads, before L1D requests) and their answers the
// fill port. Global atomics (WarpInstruction::atomic) bypass the L1D and are performed at the
// L2 slice; an ATOM's answer goes to the LD/ST unit by request id (atomicTokens_), not through
// the L1D's MSHRs. Not modelled: branch divergence (masks come from the workload), shared-memory bank
// conflicts.
// Speed (issue 10), without changing any result: a ready bit per warp kept by events replaces
// the scan of every warp every cycle, and an SM in which nothing can move until a memory answer
// or its own next timed result sleeps, counting its per-cycle statistics as if ticked. An SM
// whose memory side still moves but whose issue stage cannot (issue 19: the LD/ST unit working
// through a divergent access with the ready warps behind it) parks only the issue, fetch and
// retire stages, the same way.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/AddressMap.hpp"
#include "common/AtPorts.hpp"
#include "common/ClockDomain.hpp"
#include "common/PayloadPool.hpp"
#include "common/RingQueue.hpp"
#include "common/Stats.hpp"
#include "modules/BarrierUnit.hpp"
#include "modules/ConstantCache.hpp"
#include "modules/ExecPipeline.hpp"
#include "modules/IssueStage.hpp"
#include "modules/InstructionCache.hpp"
#include "modules/L1DCache.hpp"
#include "modules/LdStUnit.hpp"
#include "modules/OperandCollector.hpp"
#include "modules/Scoreboard.hpp"
#include "modules/SmConfig.hpp"
#include "modules/SmResources.hpp"
#include "modules/TextureCache.hpp"
#include "modules/Warp.hpp"
#include "modules/WarpTraceSink.hpp"
#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

// What an SM reports of one kernel's CTAs as they retire (the CTA dispatcher's per-kernel counts;
// the dispatcher owns it and hands it to launchCta).
struct KernelTally {
    uint64_t ctasDone = 0;
    uint64_t warpInstructions = 0;  // each warp's issued instructions, added when it retires
};

class SmCore : public sc_core::sc_module, public PhasedTickable, public SmView {
public:
    SmCore(sc_core::sc_module_name name, unsigned id, const SmConfig& cfg, StatRegistry& stats,
           ClockDomain& clock, PayloadPool& pool, const AddressMap& map,
           std::unique_ptr<SchedulerPolicy> policy);
    ~SmCore() override;

    tlm_utils::simple_initiator_socket<SmCore> noc;

    // CTA dispatch.
    bool canLaunch(const KernelInfo& info) const { return resources_.fits(info); }
    unsigned maxResident(const KernelInfo& info) const { return resources_.maxResident(info); }
    // `tally` (optional, not owned; must outlive the CTA) counts the CTA's end and its warps'
    // instructions.
    void launchCta(const Kernel& kernel, uint64_t ctaId, KernelTally* tally = nullptr);
    unsigned ctasResident() const { return resources_.ctasResident(); }
    // CTAs of `kernel` resident now.
    unsigned residentCtasOf(const Kernel& kernel) const;
    // Counts CTA starts and ends: canLaunch() cannot change between two equal values.
    uint64_t resourceChanges() const { return resourceChanges_; }
    void kernelStart() {
        policy_->onKernelStart();
        unstall();
        unpark();
    }
    // flushL1: invalidate the L1D first if l1d.flush_at_kernel_end (the dispatcher passes false
    // when another kernel's end ended this SM's policy epoch, docs/architecture.md).
    void kernelEnd(bool flushL1 = true) {
        if (flushL1 && cfg_.l1FlushAtKernelEnd) l1_.flush();
        policy_->onKernelEnd();
        unstall();
        unpark();
    }
    // A kernel that could use this SM ended while the policy's epoch goes on (concurrent kernels).
    void flushL1AtKernelEnd() {
        if (!cfg_.l1FlushAtKernelEnd) return;
        l1_.flush();
        unstall();
        unpark();
    }

    // PhasedTickable: step() is the cycle of every stage and touches only this SM (and its policy,
    // when the policy keeps no state shared between SMs); commit() makes its effects outside it:
    // the answer's payload back to the GPU's pool, a held answer taken, the request chosen by
    // the NoC send stage built and sent. So SMs may step at the same time (--threads).
    void step(uint64_t cycle) override;
    void commit() override;
    bool busy() const override;

    // SmView
    unsigned smId() const override { return id_; }
    unsigned warpSlots() const override { return cfg_.warpSlots; }
    const WarpView& warp(unsigned slot) const override { return warps_[slot].view; }
    unsigned schedulers() const override { return cfg_.schedulers; }
    unsigned l1Sets() const override { return l1_.sets(); }
    unsigned l1LineBytes() const override { return cfg_.l1Line; }
    unsigned mshrEntries() const override { return l1_.mshrCapacity(); }
    unsigned mshrFree() const override { return l1_.mshrFree(); }
    unsigned missQueueEntries() const override { return cfg_.missQueue; }
    unsigned missQueueFree() const override { return l1_.missQueueFree(); }
    unsigned loadsInFlight() const override { return ldst_.liveLoads(); }
    bool ldstBusy() const override { return !ldst_.free(); }
    uint64_t cycle() const override { return cycle_; }

    // Nothing resident, queued or outstanding (end-of-run invariant).
    bool quiescent() const;
    // How the SM finishes the NoC's answers (tlm.response_completion; Gpu sets it per link).
    void setResponseCompletion(ResponseCompletion c) { port_.setResponseCompletion(c); }
    // The last core cycle this SM made progress, the watchdog's notion of it: a warp instruction
    // issued or an answer taken (0: never). The supervisor reads it only when its deadline
    // comes, instead of summing progress counts every cycle (issue 19).
    uint64_t lastProgressCycle() const { return lastProgressCycle_; }
    // Ticks that only counted a stalled cycle (host-side, not a statistic: for tests and tuning).
    uint64_t sleptTicks() const { return sleptTicks_ + skipped_; }
    // Ticks whose issue, fetch and retire stages were skipped as parked (host-side, as sleptTicks).
    uint64_t parkedTicks() const { return parkedTicks_; }
    uint64_t issued() const { return issued_.get(); }
    std::string dumpState() const;
    const SchedulerPolicy& policy() const { return *policy_; }
    L1DCache& l1() { return l1_; }
    // Optional warp-activity observer (--trace-warps); null: no tracing.
    void setTraceSink(WarpTraceSink* sink) { trace_ = sink; }

private:
    struct CtaState {
        const Kernel* kernel = nullptr;
        unsigned warpsLeft = 0;
        KernelTally* tally = nullptr;
    };

    tlm::tlm_sync_enum nbTransportBw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    bool takeAnswer(Payload& p);
    void fillPort(uint64_t cycle);
    void writeback(uint64_t cycle);
    void sendToNoc(uint64_t cycle);
    void sendRequest(const MissRequest& req);
    void execute(uint64_t cycle);  // operand collector only: its execute registers into the units
    unsigned issue(uint64_t cycle);
    // Why tryIssue did or did not issue: UnitBusy is a hazard-free warp whose unit could not take
    // it this cycle (iPAWS's UnitBusy stall rule counts these).
    enum class IssueOutcome : uint8_t { Issued, NotReady, UnitBusy, PolicyRefused };
    IssueOutcome tryIssue(unsigned w, uint64_t cycle);
    void fetch();
    void fetchWarp(unsigned w);
    void retire();
    void retireIfDone(unsigned w);  // an exited warp whose last loads and writes are done
    // Recomputes warps_[w].ready (see Warp.hpp) after any of its inputs changed.
    void refreshReady(unsigned w);
    // sm.atomic_blocks_warp: an atomic request's answer (ATOM's values or RED's acknowledgement)
    // for `lanes` of warp w's lanes; the warp may issue again once all are back.
    void atomicAnswered(unsigned w, unsigned lanes);
    void markFetch(unsigned w) {
        ++issueVersion_;
        fetchPending_[w / 64] |= uint64_t(1) << (w % 64);
    }
    const std::vector<unsigned>& members(unsigned sched) const { return members_[sched]; }
    void addMember(unsigned w);
    void removeMember(unsigned w);
    void releaseBarrier(unsigned cta, uint64_t cycle);
    void traceScoreboard(uint64_t cycle);
    // After a cycle without issue: true if nothing can happen in this SM before an answer from
    // the NoC, a new CTA or its own next timed result (returned in `until`).
    bool stalled(uint64_t& until);
    // Cold (once per sleep): its call in the part of step() that g++ inlines into the virtual
    // call's thunk had that part save and restore registers at every step (issue 19).
    [[gnu::cold]] void settleSleep();
    void unstall() {
        stalled_ = false;
        idle_ = false;
        sleepUntil_ = 0;
    }
    // After a cycle without issue in which the SM cannot sleep (its memory side still moves):
    // true if the issue, fetch and retire stages can do nothing until a warp's readiness or
    // instruction buffer changes (issueVersion_ moves) or, with a warp ready for it, the LD/ST
    // unit frees up. Those stages are then skipped (parkedCycle) while the rest of the SM ticks.
    bool parkable();
    bool stillParked() const { return issueVersion_ == parkVersion_ && !(parkLdstReady_ && ldst_.free()); }
    void parkedCycle() {
        ++parkedTicks_;
        countIdleIssue(parkLdstReady_, 1);
    }
    void unpark() { parked_ = false; }
    // True if every ready warp needs the LD/ST unit (or none is ready); `ldstReady`: some does.
    bool onlyLdstReady(bool& ldstReady) const;
    // n cycles in which the issue stage passes every scheduler over: what issue() counts
    // (schedulerBlocked marks the LD/ST unit busy for a ready memory instruction).
    void countIdleIssue(bool ldstReady, uint64_t n) {
        idleIssueCycles_.inc(n);
        if (ldstReady) {
            ldstBusyStalls_.inc(n);
            schedLdstStalls_.inc(n);
        }
    }
    // busy() without the idle_ shortcut.
    // Inline for its usual answer (warps resident), asked at every step and busy() (issue 19).
    bool busyNow() const { return residentWarps_ > 0 || busyWithoutWarps(); }
    bool busyWithoutWarps() const;

    unsigned id_;
    SmConfig cfg_;
    StatRegistry& stats_;
    ClockDomain& clock_;
    PayloadPool& pool_;
    const AddressMap& map_;
    std::unique_ptr<SchedulerPolicy> policy_;
    WarpTraceSink* trace_ = nullptr;
    AtInitiatorPort port_;

    std::vector<Warp> warps_;
    std::vector<CtaState> ctas_;
    SmResources resources_;
    BarrierUnit barriers_;
    Scoreboard scoreboard_;
    ExecPipeline alu_, sfu_;
    // Its own pipeline, not the ALU's: a tensor instruction's long occupancy (sm.tensor.*) must
    // not hold back ALU work, as on hardware with tensor cores.
    ExecPipeline tensor_;
    L1DCache l1_;
    ConstantCache constCache_;
    TextureCache texCache_;
    LdStUnit ldst_;
    std::unique_ptr<InstructionCache> l1i_;  // null: l1i.size_bytes 0, every fetch hits
    std::unique_ptr<OperandCollector> collector_;  // null: sm.collector.register_banks 0
    IssueStage issueStage_;

    RingQueue<Payload*> answers_q_;  // NoC answers waiting for the fill port
    // ATOM line requests in flight: request id -> the LD/ST unit's load token (never iterated).
    std::unordered_map<uint64_t, uint32_t> atomicTokens_;
    uint64_t nextRequest_ = 0;
    uint64_t nextAge_ = 0;
    uint64_t cycle_ = 0;
    uint64_t lastProgressCycle_ = 0;
    unsigned residentWarps_ = 0;
    bool ldstBlockedThisCycle_ = false;
    bool tensorBlockedThisCycle_ = false;  // sm<N>.issue.tensor_busy_cycles, as ldstBlockedThisCycle_
    // Issue-stage bookkeeping kept by events instead of rescanned every cycle.
    // readyCount_[s][u]: ready warps (Warp::ready) of scheduler s whose next instruction needs
    // unit u; lets a scheduler that cannot issue be passed over (schedulerBlocked).
    enum : uint8_t { kUnitNone, kUnitAlu, kUnitSfu, kUnitLdSt, kUnitOther, kUnitTensor, kUnits };
    std::vector<std::array<unsigned, kUnits>> readyCount_;
    // readyUnits_[s]: bit u set while readyCount_[s][u] > 0, so that the per-cycle checks
    // (schedulerBlocked, stalled) visit only the units some ready warp needs (issue 19).
    // 32-bit words: byte stores would alias every other member the loops read.
    std::vector<uint32_t> readyUnits_;
    [[gnu::always_inline]] inline bool schedulerBlocked(unsigned sched, uint64_t cycle);
    // unit: kUnit*, a ready warp's readyUnit. Always inline (defined in SmCore.cpp, its only
    // user): asked for every ready warp tried and every unit a blocked scheduler needs (issue 19).
    [[gnu::always_inline]] inline bool unitHasRoom(uint8_t unit, uint64_t cycle) const;
    std::vector<std::vector<unsigned>> members_;  // per scheduler, its valid slots in slot order
    std::vector<uint64_t> fetchPending_;  // a bit per slot whose instruction buffer may have room
    std::vector<uint64_t> fetchRetry_;    // slots whose fetch the L1I refused: tried again each cycle
    bool fetchRetrying_ = false;          // some bit of fetchRetry_ is set
    unsigned lastFetched_ = 0;            // sm.fetch = one-warp: the warp served last
    int nextFetchWarp() const;            // sm.fetch = one-warp: the warp to serve now, -1 none
    bool anyFetchRetry() const;
    bool anyFetchPending() const;
    Payload& newRequest(tlm::tlm_command command, uint64_t line, unsigned length);
    Payload& newLineRead(uint64_t line, unsigned bytes);
    void sendInstructionRead(uint64_t line);
    // A constant- or texture-cache miss: a line read like an instruction-line read.
    void sendReadOnlyLine(uint64_t line, unsigned bytes, ReadOnlyCache cache);
    unsigned exitedWarps_ = 0;            // exited, not yet retired
    std::vector<uint64_t> exited_;        // a bit per slot of those warps
    uint64_t resourceChanges_ = 0;
    // Sleep of a stalled SM (DESIGN.md section 3): while stalled_, cycles before stalledUntil_
    // only count what a cycle without issue counts (the domain still ticks for the other SMs).
    // mayStall_: the policy's idleWhileStalled() (and no issue-stall counter asked for), which
    // also allows passing schedulers over.
    bool mayStall_ = false;
    bool stalled_ = false;
    // Nothing resident, queued or in flight at the start of a tick (busyNow() false): every tick
    // returns at once until an event that could bring work (unstall(): a CTA, an answer, a
    // kernel start or end, a retried answer) clears it. Only those events can end idleness.
    bool idle_ = false;
    uint64_t stalledUntil_ = 0;
    // While stalled_: the LD/ST unit repeats a refusal each cycle (LdStUnit::blockedOn), and
    // some warp is ready for it; settleSleep() counts what those cycles would.
    LdStUnit::Refusal sleepRefusal_ = LdStUnit::Refusal::None;
    bool sleepLdstReady_ = false;
    uint64_t sleptTicks_ = 0;
    // What each slept tick counts (settleSleep, for the ticks in PhasedTickable::skipped_; also
    // run before any read of the registry, which is why it is registered there as a settler).
    unsigned sleepMshr_ = 0;
    bool sleepResident_ = false;
    size_t settler_ = 0;
    // The parked issue stage (parkable()): what can end it is counted in issueVersion_ (every
    // refreshReady and markFetch) and compared with its value when parked.
    bool parked_ = false;
    bool parkLdstReady_ = false;
    uint64_t issueVersion_ = 0, parkVersion_ = 0;
    uint64_t parkedTicks_ = 0;
    // Effects step() leaves to commit(): the payload of the answer taken this cycle; the request
    // the NoC send stage took from the L1D's miss queue (or the L1I's line).
    Payload* releasePending_ = nullptr;
    bool sendPending_ = false;
    enum class SendKind : uint8_t { Data, Instruction, Constant, Texture };
    SendKind sendKind_ = SendKind::Data;
    // A retired warp's counts for its kernel's tally, which every SM shares: added in commit() so
    // SMs stepping on several threads never write it at once.
    struct TallyDelta {
        KernelTally* tally;
        uint64_t warpInstructions;
        bool ctaDone;
    };
    std::vector<TallyDelta> tallyPending_;
    MissRequest sendReq_{};
    uint64_t sendLine_ = 0;
    // Per scheduler, this cycle: the oldest hazard-free warp before issue, the warp issued (-1
    // none); feeds WarpView::issueStalls (OldestReady rule).
    std::vector<int> oldestReady_, issuedNow_;
    // The policy's issueStallCount(), fixed at construction.
    SchedulerPolicy::IssueStallCount stallRule_ = SchedulerPolicy::IssueStallCount::None;

    Counter &issued_, &activeCycles_, &ldstBusyStalls_, &tensorIssued_, &tensorBusyStalls_, &idleIssueCycles_,
        &ctasDone_, &warpsDone_, &readsSent_, &writesSent_, &atomicsSent_, &answersFull_, &schedLdstStalls_;
    Average& mshrOccupancy_;
};

} // namespace gpusim
