#include "modules/SmCore.hpp"

#include <algorithm>
#include <bit>
#include <sstream>

#include "common/SimError.hpp"

namespace gpusim {

namespace {
// Every SM statistic lives under "sm<id>.".
std::string statName(unsigned id, const char* suffix) { return "sm" + std::to_string(id) + suffix; }

CollectorSet collectorSet(OpClass op) {
    switch (op) {
    case OpClass::Sfu: return CollectorSet::Sfu;
    case OpClass::Tensor: return CollectorSet::Tensor;
    case OpClass::Load:
    case OpClass::Store: return CollectorSet::Mem;
    default: return CollectorSet::Alu;
    }
}

// The L1D replacement: the policy's own (CWLP's LPC) wins over l1d.replacement, so that
// `--scheduler lpc` means LPC whatever the platform file says; a policy without a preference
// leaves the key in charge (l1d.replacement=lpc with lrr is LPC alone under LRR).
SmConfig withPolicyReplacement(SmConfig cfg, const SchedulerPolicy& policy) {
    if (const auto wanted = policy.l1Replacement()) cfg.replacement = *wanted;
    return cfg;
}
} // namespace

SmCore::SmCore(sc_core::sc_module_name name, unsigned id, const SmConfig& cfg, StatRegistry& stats,
               ClockDomain& clock, PayloadPool& pool, const AddressMap& map,
               std::unique_ptr<SchedulerPolicy> policy)
    : sc_module(name), noc("noc"), id_(id), cfg_(withPolicyReplacement(cfg, *policy)), stats_(stats), clock_(clock),
      pool_(pool), map_(map),
      policy_(std::move(policy)), warps_(cfg.warpSlots), ctas_(cfg.maxCtas),
      resources_({cfg.warpSlots, cfg.maxThreads, cfg.maxCtas, cfg.registers, cfg.sharedMemBytes}),
      barriers_(cfg.maxCtas), scoreboard_(cfg.warpSlots),
      alu_(cfg.aluUnits, cfg.aluLatency, cfg.aluInterval),
      sfu_(cfg.sfuUnits, cfg.sfuLatency, cfg.sfuInterval),
      tensor_(cfg.tensorUnits, cfg.tensorLatency, cfg.tensorInterval),
      l1_(cfg_, stats, statName(id, ".l1d.")),
      constCache_(cfg_, stats, statName(id, ".const.")),
      texCache_(cfg_, stats, statName(id, ".tex.")),
      ldst_(cfg_, l1_, stats, statName(id, ".ldst.")),
      issueStage_(cfg.schedulers, *policy_),
      issued_(stats.counter(statName(id, ".issued"), "Warp instructions issued")),
      activeCycles_(stats.counter(statName(id, ".active_cycles"),
                                  "Core cycles with at least one resident warp")),
      ldstBusyStalls_(stats.counter(statName(id, ".issue.ldst_busy_cycles"),
                                    "Cycles a warp with a ready memory instruction waited for the LD/ST unit")),
      tensorIssued_(stats.counter(statName(id, ".tensor.issued"),
                                  "Tensor instructions issued (to the tensor pipeline or its operand collectors)")),
      tensorBusyStalls_(stats.counter(statName(id, ".issue.tensor_busy_cycles"),
                                      "Cycles a warp with a ready tensor instruction waited for the tensor pipeline "
                                      "(or its collector's issue register)")),
      idleIssueCycles_(stats.counter(statName(id, ".issue.idle_cycles"),
                                     "Cycles with resident warps in which no scheduler issued")),
      ctasDone_(stats.counter(statName(id, ".ctas"), "CTAs completed")),
      warpsDone_(stats.counter(statName(id, ".warps"), "Warps completed")),
      readsSent_(stats.counter(statName(id, ".noc.reads"), "Read requests sent to the NoC")),
      writesSent_(stats.counter(statName(id, ".noc.writes"), "Write requests sent to the NoC")),
      atomicsSent_(stats.counter(statName(id, ".noc.atomics"),
                                 "Global atomic line requests sent to the NoC (in neither reads nor writes)")),
      answersFull_(stats.counter(statName(id, ".noc.answer_full_cycles"),
                                 "NoC answers refused because the response queue was full")),
      schedLdstStalls_(stats.counter(statName(id, ".issue.ldst_stall_cycles"),
                                     "Cycles no scheduler issued while a ready memory instruction waited "
                                     "for the LD/ST unit (OAWS Fig. 2, right bar)")),
      mshrOccupancy_(stats.average(statName(id, ".l1d.mshr_occupancy"),
                                   "L1D MSHR entries in use, sampled every cycle with resident warps")) {
    noc.register_nb_transport_bw(this, &SmCore::nbTransportBw);
    port_.bind("sm" + std::to_string(id) + "->noc", FwPeerFn([this] { return noc.operator->(); }),
               [this](Payload& p) { return takeAnswer(p); }, [this] {
                   unstall();
                   clock_.wake();
               });
    l1_.setObserver(policy_.get());
    ldst_.setObserver(policy_.get());
    ldst_.attachReadOnlyCaches(&constCache_, &texCache_);
    ldst_.setReexecutionQueue(policy_->reexecutionQueueEntries());
    policy_->attach(*this);
    policy_->registerStats(stats, statName(id, ".sched."));
    stallRule_ = policy_->issueStallCount();
    // The issue-stall counters watch every walk, so a policy that reads them is never skipped.
    mayStall_ = policy_->idleWhileStalled() && stallRule_ == SchedulerPolicy::IssueStallCount::None;
    warpSetVersion_ = 1;
    schedulerSetVersion_.fill(1);
    for (Warp& wp : warps_) wp.ibuffer.setCapacity(cfg_.ibufferEntries);
    readyCount_.assign(cfg_.schedulers, {});
    readyUnits_.assign(cfg_.schedulers, 0);
    members_.resize(cfg_.schedulers);
    fetchPending_.assign((cfg_.warpSlots + 63) / 64, 0);
    fetchRetry_.assign(fetchPending_.size(), 0);
    exited_.assign(fetchPending_.size(), 0);
    if (cfg_.l1iBytes) l1i_ = std::make_unique<InstructionCache>(cfg_, stats, statName(id, ".l1i."));
    if (cfg_.collector.enabled())
        collector_ = std::make_unique<OperandCollector>(cfg_.collector, stats, statName(id, ".collector."));
    settler_ = stats.addSettler([this] { settleSleep(); });
    clock.add(this);
}

SmCore::~SmCore() { stats_.removeSettler(settler_); }

unsigned SmCore::residentCtasOf(const Kernel& kernel) const {
    unsigned n = 0;
    for (const CtaState& c : ctas_) n += c.kernel == &kernel;
    return n;
}

void SmCore::launchCta(const Kernel& kernel, uint64_t ctaId, KernelTally* tally) {
    const KernelInfo& info = kernel.info();
    const unsigned slot = resources_.allocate(info);
    ++resourceChanges_;
    ctas_[slot] = {&kernel, info.warpsPerCta(), tally};
    barriers_.ctaStart(slot, info.warpsPerCta());
    unsigned w = 0;
    for (unsigned k = 0; k < info.warpsPerCta(); ++k) {
        while (warps_[w].view.valid) ++w;  // resources_ guaranteed enough free slots
        Warp& wp = warps_[w];
        wp.stream = kernel.warp(ctaId, k);
        wp.ibuffer.clear();
        wp.streamDone = false;
        wp.exitIssued = false;
        wp.fetchHeld = wp.imissPending = false;
        wp.warpInCta = k;
        wp.view = WarpView{};
        wp.view.valid = true;
        wp.view.age = nextAge_++;
        wp.view.ctaSlot = slot;
        wp.view.ctaId = ctaId;
        scoreboard_.clear(w);
        refreshReady(w);
        markFetch(w);
        addMember(w);
        ++warpSetVersion_;
        ++residentWarps_;
        policy_->onWarpStart(w);
    }
    policy_->onCtaStart(slot);
    unstall();
    clock_.wake();
}

void SmCore::step(uint64_t cycle) {
    cycle_ = cycle;
    // commit() only hands on what this step leaves: nothing on the early returns below.
    commitDue_ = false;
    // Slept cycles (skipped by the domain or below) are counted when the sleep ends: by time or
    // by an event (unstall).
    if (skipped_ && !(stalled_ && cycle < stalledUntil_)) settleSleep();
    // An SM with nothing resident, queued or in flight has nothing any stage could do (no
    // statistic counts such a cycle); most SMs of a small kernel on a large GPU are like this.
    if (idle_) return;
    if (!busyNow()) {
        idle_ = true;
        return;
    }
    if (stalled_) {
        if (cycle < stalledUntil_) {
            ++skipped_;  // a domain that does not skip (ClockDomain without setPhased)
            return;
        }
        stalled_ = false;
    }
    if (residentWarps_) {
        activeCycles_.inc();
        mshrOccupancy_.sampleLevel(l1_.mshrUsed());
    }
    fillPort(cycle);
    writeback(cycle);
    ldst_.step(cycle);
    sendToNoc(cycle);
    if (collector_) {
        execute(cycle);
        collector_->step();
    }
    unsigned n = 0;
    if (parked_ && stillParked()) {
        parkedCycle();
    } else {
        parked_ = false;
        n = issue(cycle);
        fetch();
        retire();
    }
    if (n == 0 && mayStall_ && !trace_) {
        stalled_ = !ldst_.working() && stalled(stalledUntil_);
        if (stalled_) {
            // What a cycle without issue counts is fixed for the whole sleep (nothing that moves
            // the MSHRs or the resident warps can happen without ending it, and commit() moves
            // neither): noted now, added once at its end (settleSleep). The domain skips the
            // steps until then.
            sleepMshr_ = l1_.mshrUsed();
            sleepResident_ = residentWarps_ != 0;
            sleepUntil_ = stalledUntil_;
        } else if (!parked_) {
            parked_ = parkable();
        }
    }
    commitDue_ = releasePending_ || sendPending_ || !tallyPending_.empty();
}

void SmCore::writeback(uint64_t cycle) {
    // A result written to the register file takes its bank from the collector's reads this cycle.
    auto toBanks = [this](unsigned warp, const uint16_t (&dst)[2]) {
        if (!collector_) return;
        collector_->write(warp, dst[0]);
        collector_->write(warp, dst[1]);
    };
    auto release = [this, &toBanks](const ExecPipeline::Result& r) {
        scoreboard_.release(r.warp, r.dst[0]);
        scoreboard_.release(r.warp, r.dst[1]);
        toBanks(r.warp, r.dst);
        refreshReady(r.warp);
    };
    alu_.drain(cycle, release);
    sfu_.drain(cycle, release);
    tensor_.drain(cycle, release);
    ldst_.collect(cycle, [this, cycle, &toBanks](const LdStUnit::Completion& c) {
        scoreboard_.release(c.warp, c.dst[0]);
        scoreboard_.release(c.warp, c.dst[1]);
        toBanks(c.warp, c.dst);
        --warps_[c.warp].view.pendingLoads;
        refreshReady(c.warp);
        policy_->onLoadComplete(c.warp, c.pc, c.fullyCached, c.accesses);
        if (trace_) [[unlikely]]
            trace_->loadDone(id_, c.warp, cycle, c.latency, c.pc, c.accesses, c.fullyCached);
    });
}

// GPGPU-Sim's execute(): each unit takes the oldest instruction of its execute register when it
// can accept one (the ALU pool one per free pipeline). Runs after the memory stage, so a memory
// instruction's first access is made next cycle, as when issue hands it over.
void SmCore::execute(uint64_t cycle) {
    for (const auto* e = collector_->ready(CollectorSet::Alu); e && alu_.canAccept(cycle);
         e = collector_->ready(CollectorSet::Alu)) {
        alu_.issue(cycle, e->warp, e->inst.numDst > 0 ? e->inst.dst[0] : kNoReg,
                   e->inst.numDst > 1 ? e->inst.dst[1] : kNoReg);
        collector_->pop(CollectorSet::Alu);
    }
    for (const auto* e = collector_->ready(CollectorSet::Sfu); e && sfu_.canAccept(cycle);
         e = collector_->ready(CollectorSet::Sfu)) {
        sfu_.issue(cycle, e->warp, e->inst.numDst > 0 ? e->inst.dst[0] : kNoReg,
                   e->inst.numDst > 1 ? e->inst.dst[1] : kNoReg);
        collector_->pop(CollectorSet::Sfu);
    }
    for (const auto* e = collector_->ready(CollectorSet::Tensor); e && tensor_.canAccept(cycle);
         e = collector_->ready(CollectorSet::Tensor)) {
        tensor_.issue(cycle, e->warp, e->inst.numDst > 0 ? e->inst.dst[0] : kNoReg,
                      e->inst.numDst > 1 ? e->inst.dst[1] : kNoReg);
        collector_->pop(CollectorSet::Tensor);
    }
    if (const auto* e = collector_->ready(CollectorSet::Mem); e && ldst_.free()) {
        ldst_.accept(e->warp, e->inst, cycle);
        collector_->pop(CollectorSet::Mem);
    }
}

bool SmCore::anyFetchPending() const {
    for (uint64_t bits : fetchPending_)
        if (bits) return true;
    return false;
}

bool SmCore::anyFetchRetry() const { return fetchRetrying_; }

unsigned SmCore::issue(uint64_t cycle) {
    if (!residentWarps_) return 0;
    policy_->onCycle(cycle, *this);
    ldstBlockedThisCycle_ = false;
    tensorBlockedThisCycle_ = false;
    // iPAWS's issue-stall counter (WarpView::issueStalls), only for policies that read it.
    // OldestReady: per scheduler, the oldest warp free of hazards is charged a stall if it does
    // not issue this cycle. UnitBusy: every hazard-free warp the walk reaches and a busy unit
    // refuses is charged.
    const bool countOldestReady = stallRule_ == SchedulerPolicy::IssueStallCount::OldestReady;
    const bool countUnitBusy = stallRule_ == SchedulerPolicy::IssueStallCount::UnitBusy;
    if (trace_) [[unlikely]]
        traceScoreboard(cycle);
    if (countOldestReady) {
        oldestReady_.assign(cfg_.schedulers, -1);
        issuedNow_.assign(cfg_.schedulers, -1);
        for (unsigned w = 0; w < warps_.size(); ++w) {
            const Warp& wp = warps_[w];
            int& best = oldestReady_[w % cfg_.schedulers];
            if (!wp.ready) continue;
            if (best >= 0 && warps_[best].view.age <= wp.view.age) continue;
            best = static_cast<int>(w);
        }
    }
    auto idle = [this, cycle](unsigned s) { return mayStall_ && schedulerBlocked(s, cycle); };
    auto members = [this](unsigned s) -> const std::vector<unsigned>& { return this->members(s); };
    const unsigned n = issueStage_.cycle(*this, members, idle, [&](unsigned w) {
        if (!warps_[w].ready) return false;  // the common case, without the call
        const IssueOutcome r = tryIssue(w, cycle);
        if (r == IssueOutcome::Issued && countOldestReady) issuedNow_[w % cfg_.schedulers] = static_cast<int>(w);
        if (r == IssueOutcome::UnitBusy && countUnitBusy) ++warps_[w].view.issueStalls;
        return r == IssueOutcome::Issued;
    });
    for (unsigned s = 0; countOldestReady && s < cfg_.schedulers; ++s)
        if (oldestReady_[s] >= 0 && issuedNow_[s] != oldestReady_[s]) ++warps_[oldestReady_[s]].view.issueStalls;
    if (n == 0) idleIssueCycles_.inc();
    if (ldstBlockedThisCycle_) ldstBusyStalls_.inc();
    if (tensorBlockedThisCycle_) tensorBusyStalls_.inc();
    if (n == 0 && ldstBlockedThisCycle_) schedLdstStalls_.inc();
    return n;
}

SmCore::IssueOutcome SmCore::tryIssue(unsigned w, uint64_t cycle) {
    Warp& wp = warps_[w];
    // Invalid, exited, at a barrier, nothing buffered or a hazard.
    if (!wp.ready) return IssueOutcome::NotReady;
    if (!unitHasRoom(wp.readyUnit, cycle)) {
        if (wp.readyUnit == kUnitLdSt) ldstBlockedThisCycle_ = true;
        if (wp.readyUnit == kUnitTensor) tensorBlockedThisCycle_ = true;
        return IssueOutcome::UnitBusy;
    }
    const WarpInstruction& inst = wp.ibuffer.front();
    if (!policy_->canIssue(w, *this)) return IssueOutcome::PolicyRefused;

    const uint16_t d0 = inst.numDst > 0 ? inst.dst[0] : kNoReg;
    const uint16_t d1 = inst.numDst > 1 ? inst.dst[1] : kNoReg;
    if (collector_ && inst.op != OpClass::Barrier && inst.op != OpClass::Exit) {
        // Registers are reserved and a load counted at issue, as without the collector; the unit
        // receives the instruction from the collector's execute register (execute()).
        scoreboard_.reserve(w, d0);
        scoreboard_.reserve(w, d1);
        if (inst.op == OpClass::Load) ++wp.view.pendingLoads;
        collector_->issue(collectorSet(inst.op), w, inst);
    } else switch (inst.op) {
    case OpClass::Alu:
        alu_.issue(cycle, w, d0, d1);
        scoreboard_.reserve(w, d0);
        scoreboard_.reserve(w, d1);
        break;
    case OpClass::Sfu:
        sfu_.issue(cycle, w, d0, d1);
        scoreboard_.reserve(w, d0);
        scoreboard_.reserve(w, d1);
        break;
    case OpClass::Tensor:
        tensor_.issue(cycle, w, d0, d1);
        scoreboard_.reserve(w, d0);
        scoreboard_.reserve(w, d1);
        break;
    case OpClass::Load:
        scoreboard_.reserve(w, d0);
        scoreboard_.reserve(w, d1);
        ++wp.view.pendingLoads;
        ldst_.accept(w, inst, cycle);
        break;
    case OpClass::Store:
        ldst_.accept(w, inst, cycle);
        break;
    case OpClass::Barrier: {
        wp.view.atBarrier = true;
        if (trace_) [[unlikely]]
            trace_->barrierArrive(id_, w, cycle);
        policy_->onBarrierArrive(w);
        const unsigned cta = wp.view.ctaSlot;
        if (barriers_.arrive(cta)) releaseBarrier(cta, cycle);
        break;
    }
    case OpClass::Exit:
        wp.exitIssued = true;
        wp.view.exited = true;
        ++exitedWarps_;
        exited_[w / 64] |= uint64_t(1) << (w % 64);
        break;
    }
    if (inst.op == OpClass::Tensor) tensorIssued_.inc();
    if (cfg_.atomicBlocksWarp && inst.atomic && inst.space == MemSpace::Global) [[unlikely]]
        wp.atomicLanesPending += inst.activeLanes();
    if (trace_) [[unlikely]]
        trace_->issue(id_, w, cycle, inst);  // before pop_front: inst refers into the buffer
    wp.ibuffer.pop_front();
    wp.refreshHead();
    refreshReady(w);
    markFetch(w);
    ++wp.view.issued;
    issued_.inc();
    lastProgressCycle_ = cycle;
    return IssueOutcome::Issued;
}

// Only warps marked since (a start or an issue): every other one has a full buffer, a finished
// stream or has exited. Ascending slot order, as a full scan would visit them.
void SmCore::fetch() {
    // Retries exist only with an instruction cache that refused a fetch: a flag spares every
    // other cycle the merge (issue 19).
    if (fetchRetrying_) {
        for (size_t word = 0; word < fetchRetry_.size(); ++word) {
            fetchPending_[word] |= fetchRetry_[word];
            fetchRetry_[word] = 0;
        }
        fetchRetrying_ = false;
    }
    if (cfg_.fetchOneWarp) {
        if (const int w = nextFetchWarp(); w >= 0) {
            fetchPending_[unsigned(w) / 64] &= ~(uint64_t(1) << (unsigned(w) % 64));
            fetchWarp(unsigned(w));
            lastFetched_ = unsigned(w);
        }
        return;
    }
    for (size_t word = 0; word < fetchPending_.size(); ++word) {
        for (uint64_t bits = fetchPending_[word]; bits; bits &= bits - 1) {
            const unsigned w = static_cast<unsigned>(word * 64 + unsigned(__builtin_ctzll(bits)));
            fetchWarp(w);
        }
        fetchPending_[word] = 0;
    }
}

// GPGPU-Sim's shader_core_ctx::fetch: the first warp after the last one served whose buffer is
// empty (and that waits for no instruction line). Warps with room but instructions left keep
// their mark for later.
int SmCore::nextFetchWarp() const {
    const unsigned n = static_cast<unsigned>(warps_.size());
    for (unsigned i = 1; i <= n; ++i) {
        const unsigned w = (lastFetched_ + i) % n;
        if (!(fetchPending_[w / 64] >> (w % 64) & 1u)) continue;
        const Warp& wp = warps_[w];
        if (wp.ibuffer.empty() && !wp.imissPending && wp.view.valid && !wp.streamDone && !wp.exitIssued)
            return int(w);
    }
    return -1;
}

void SmCore::fetchWarp(unsigned w) {
    Warp& wp = warps_[w];
    if (!wp.view.valid || wp.streamDone || wp.exitIssued || wp.imissPending) return;
    bool changed = false;
    while (!wp.ibuffer.full()) {
        if (!wp.fetchHeld && !wp.stream->next(wp.ibuffer.next())) {
            wp.streamDone = true;
            break;
        }
        if (l1i_) {
            // One L1I lookup per instruction; until it hits, the instruction waits in the slot.
            const auto r = l1i_->fetch(wp.ibuffer.tail().pc, w);
            if (r != InstructionCache::Result::Hit) {
                wp.fetchHeld = true;
                if (r == InstructionCache::Result::Fail) {
                    fetchRetry_[w / 64] |= uint64_t(1) << (w % 64);
                    fetchRetrying_ = true;
                } else {
                    wp.imissPending = true;
                }
                break;
            }
            wp.fetchHeld = false;
        }
        wp.ibuffer.push();
        changed = true;
    }
    if (changed) {
        wp.refreshHead();
        refreshReady(w);
    }
}

void SmCore::retire() {
    // Only the exited warps, in ascending slot order as a scan of every slot would visit them: a
    // warp that exits waits here for its last loads, and a scan of all 48 slots every cycle
    // until then was most of this stage (issue 19).
    for (size_t word = 0; exitedWarps_ && word < exited_.size(); ++word)
        for (uint64_t bits = exited_[word]; bits; bits &= bits - 1)
            retireIfDone(static_cast<unsigned>(word * 64 + unsigned(std::countr_zero(bits))));
}

void SmCore::retireIfDone(unsigned w) {
    Warp& wp = warps_[w];
    if (wp.view.pendingLoads || !scoreboard_.empty(w)) return;
    exited_[w / 64] &= ~(uint64_t(1) << (w % 64));
    const unsigned cta = wp.view.ctaSlot;
    wp.view.valid = false;
    wp.stream.reset();
    wp.ibuffer.clear();
    --exitedWarps_;
    refreshReady(w);
    removeMember(w);
    ++warpSetVersion_;
    --residentWarps_;
    warpsDone_.inc();
    policy_->onWarpEnd(w);
    if (trace_) [[unlikely]]
        trace_->warpEnd(id_, w, cycle_);
    if (barriers_.warpExit(cta)) releaseBarrier(cta, cycle_);
    KernelTally* tally = ctas_[cta].tally;
    const bool lastWarp = --ctas_[cta].warpsLeft == 0;
    if (tally) tallyPending_.push_back({tally, wp.view.issued, lastWarp});
    if (lastWarp) {
        resources_.release(cta, ctas_[cta].kernel->info());
        ++resourceChanges_;
        ctas_[cta].kernel = nullptr;
        ctas_[cta].tally = nullptr;
        ctasDone_.inc();
        policy_->onCtaEnd(cta);
    }
}

void SmCore::releaseBarrier(unsigned cta, uint64_t cycle) {
    for (unsigned w = 0; w < warps_.size(); ++w) {
        Warp& o = warps_[w];
        if (!o.view.valid || o.view.ctaSlot != cta) continue;
        if (trace_) [[unlikely]]
            trace_->barrierRelease(id_, w, cycle);
        o.view.atBarrier = false;
        refreshReady(w);
    }
    policy_->onBarrierRelease(cta);
}

void SmCore::refreshReady(unsigned w) {
    ++issueVersion_;
    Warp& wp = warps_[w];
    const bool r = wp.view.valid && !wp.exitIssued && !wp.view.atBarrier && !wp.ibuffer.empty() &&
                   wp.atomicLanesPending == 0 && !scoreboard_.hazard(w, wp.ibuffer.front());
    uint8_t unit = kUnitNone;
    if (r) {
        switch (wp.ibuffer.front().op) {
        case OpClass::Alu: unit = kUnitAlu; break;
        case OpClass::Sfu: unit = kUnitSfu; break;
        case OpClass::Tensor: unit = kUnitTensor; break;
        case OpClass::Load:
        case OpClass::Store: unit = kUnitLdSt; break;
        case OpClass::Barrier:
        case OpClass::Exit: unit = kUnitOther; break;
        }
    }
    wp.ready = r;
    if (unit == wp.readyUnit) return;
    const unsigned sched = w % cfg_.schedulers;
    auto& c = readyCount_[sched];
    uint32_t& units = readyUnits_[sched];
    if (wp.readyUnit != kUnitNone && --c[wp.readyUnit] == 0) units &= ~(1u << wp.readyUnit);
    if (unit != kUnitNone && c[unit]++ == 0) units |= 1u << unit;
    wp.readyUnit = unit;
}

// True if no warp of the scheduler can issue this cycle for the SM's own reasons: none ready, or
// each ready one needs a unit that cannot take it now. tryIssue would refuse every warp, its only
// effect being the LD/ST-busy mark, set here the same way. (Units are read live: the other
// scheduler may have just taken one.)
inline bool SmCore::schedulerBlocked(unsigned sched, uint64_t cycle) {
    const uint32_t units = readyUnits_[sched];
    for (uint32_t m = units; m; m &= m - 1)
        if (unitHasRoom(static_cast<uint8_t>(__builtin_ctz(m)), cycle)) return false;
    if (units & (1u << kUnitLdSt)) ldstBlockedThisCycle_ = true;
    if (units & (1u << kUnitTensor)) tensorBlockedThisCycle_ = true;
    return true;
}

// The one room check for both tryIssue (a warp's own unit) and schedulerBlocked (every unit
// some ready warp needs). Barrier and exit need no unit.
inline bool SmCore::unitHasRoom(uint8_t unit, uint64_t cycle) const {
    if (collector_) {
        switch (unit) {
        case kUnitAlu: return collector_->canIssue(CollectorSet::Alu);
        case kUnitSfu: return collector_->canIssue(CollectorSet::Sfu);
        case kUnitTensor: return collector_->canIssue(CollectorSet::Tensor);
        case kUnitLdSt: return collector_->canIssue(CollectorSet::Mem);
        default: return true;
        }
    }
    switch (unit) {
    case kUnitAlu: return alu_.canAccept(cycle);
    case kUnitSfu: return sfu_.canAccept(cycle);
    case kUnitTensor: return tensor_.canAccept(cycle);
    case kUnitLdSt: return ldst_.free();
    default: return true;
    }
}

// Kept in slot order by insertion and removal at each warp start and end: with short warps
// (a streaming kernel's nine instructions) a rebuild from every slot at each change was 1 % of a
// run (issue 19).
void SmCore::addMember(unsigned w) {
    auto& m = members_[w % cfg_.schedulers];
    m.insert(std::lower_bound(m.begin(), m.end(), w), w);
    ++schedulerSetVersion_[w % cfg_.schedulers];
}

void SmCore::removeMember(unsigned w) {
    auto& m = members_[w % cfg_.schedulers];
    m.erase(std::lower_bound(m.begin(), m.end(), w));
    ++schedulerSetVersion_[w % cfg_.schedulers];
}

// The stall sampling --trace-warps adds: only runs with a sink, and only reads.
void SmCore::traceScoreboard(uint64_t cycle) {
    for (unsigned w = 0; w < warps_.size(); ++w) {
        const Warp& wp = warps_[w];
        if (!wp.view.valid || wp.exitIssued || wp.view.atBarrier || wp.ibuffer.empty()) continue;
        trace_->scoreboard(id_, w, cycle, scoreboard_.hazard(w, wp.ibuffer.front()));
    }
}

bool SmCore::busy() const { return !idle_ && busyNow(); }

bool SmCore::busyWithoutWarps() const {
    return !answers_q_.empty() || !l1_.quiescent() || !ldst_.idle() ||
           !constCache_.quiescent() || !texCache_.quiescent() ||
           (collector_ && !collector_->empty()) || !alu_.empty() || !sfu_.empty() || !tensor_.empty() ||
           port_.hasHeldResponse() || (l1i_ && !l1i_->quiescent());
}

bool SmCore::quiescent() const {
    return residentWarps_ == 0 && answers_q_.empty() && port_.outstanding() == 0 && l1_.quiescent() &&
           atomicTokens_.empty() &&
           constCache_.quiescent() && texCache_.quiescent() &&
           (!l1i_ || l1i_->quiescent()) && (!collector_ || collector_->empty()) &&
           ldst_.idle() && alu_.empty() && sfu_.empty() && tensor_.empty() && !port_.hasHeldResponse() &&
           port_.canSend();
}

std::string SmCore::dumpState() const {
    std::ostringstream os;
    os << name() << ": " << residentWarps_ << " warps resident, " << port_.outstanding()
       << " requests outstanding, " << answers_q_.size() << " answers queued; " << l1_.dumpState() << "; "
       << ldst_.dumpState() << "; " << constCache_.dumpState() << "; " << texCache_.dumpState()
       << (l1i_ ? "; " + l1i_->dumpState() : std::string())
       << (collector_ ? "; " + collector_->dumpState() : std::string()) << "\n";
    for (unsigned w = 0; w < warps_.size(); ++w) {
        const Warp& wp = warps_[w];
        if (!wp.view.valid) continue;
        os << "  warp " << w << " cta " << wp.view.ctaId << " issued " << wp.view.issued;
        if (wp.view.hasInstruction) os << " next pc 0x" << std::hex << wp.view.nextPc << std::dec;
        if (wp.view.atBarrier) os << " at-barrier";
        if (wp.imissPending) os << " l1i-miss";
        if (wp.exitIssued) os << " exited";
        if (wp.view.pendingLoads) os << " pending-loads " << wp.view.pendingLoads;
        if (!scoreboard_.empty(w)) os << " scoreboard-busy";
        os << "\n";
    }
    return os.str();
}

} // namespace gpusim
