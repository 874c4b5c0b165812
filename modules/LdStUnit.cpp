#include "modules/LdStUnit.hpp"

#include <algorithm>
#include <bit>
#include <sstream>
#include <stdexcept>

#include "modules/ConstantCache.hpp"
#include "modules/TextureCache.hpp"
#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

namespace {
constexpr double kLatencyBucketCycles = 16;
constexpr unsigned kLatencyBuckets = 128;
// An L1D of at most this many sets counts a load's distinct sets in one word of set bits.
constexpr unsigned kSetsInAWord = 64;
} // namespace

LdStUnit::LdStUnit(const SmConfig& cfg, L1DCache& l1, StatRegistry& stats, const std::string& p)
    : cfg_(cfg), l1_(l1), coalescer_(cfg.l1Line, cfg.storeBytes, cfg.atomicSegmentBytes), banks_(cfg.sharedBanks, cfg.sharedBankBytes),
      loads_c(stats.counter(p + "loads", "Global/local load instructions")),
      stores_c(stats.counter(p + "stores", "Global/local store instructions")),
      sharedOps_(stats.counter(p + "shared_ops", "Shared-memory instructions")),
      lineAccesses_(stats.counter(p + "line_accesses", "Coalesced line accesses sent to L1D")),
      coalescingStalls_(stats.counter(p + "coalescing_stall_cycles",
                                      "Cycles the unit stayed busy with further accesses of one instruction")),
      fullyCached_(stats.counter(p + "fully_cached_loads", "Loads whose every access hit in L1D")),
      coherentLoads_(stats.counter(p + "coherent_loads", "Global/local loads coalesced into 1-2 lines (OAWS 2.2)")),
      divergentLoads_(stats.counter(p + "divergent_loads", "Global/local loads coalesced into more than 2 lines")),
      fullyCachedCoherent_(stats.counter(p + "fully_cached_coherent_loads", "Coherent loads whose every access hit")),
      fullyCachedDivergent_(stats.counter(p + "fully_cached_divergent_loads", "Divergent loads whose every access hit")),
      parked_(stats.counter(p + "reexec_parked", "L1D accesses parked in the re-execution queue (MASCAR)")),
      reexecStalls_(stats.counter(p + "reexec_stall_cycles",
                                  "Cycles the oldest parked access could not be sent (MASCAR_Replay)")),
      pipelineFull_(stats.counter(p + "pipeline_full_cycles",
                                  "Cycles an access could not enter the full pipeline in front of the L1D "
                                  "lookup (l1d.lookup_after_latency)")),
      atomics_c(stats.counter(p + "atomics", "Global atomic instructions (ATOM and RED), done at the L2")),
      atomicRequests_(stats.counter(p + "atomic_requests",
                                    "Line requests of global atomics sent toward the L2 (lanes on one "
                                    "address in separate requests)")),
      bankConflicts_(stats.counter(p + "shared_bank_conflicts",
                                   "Shared-memory instructions with a bank conflict (more than one pass)")),
      bankConflictCycles_(stats.counter(p + "shared_bank_conflict_cycles",
                                        "Extra cycles shared-memory instructions held the unit for bank conflicts "
                                        "(passes - 1 each)")),
      latency_(stats.histogram(p + "load_latency", "Load issue to the arrival of its last access's data, core cycles",
                               kLatencyBucketCycles, kLatencyBuckets)),
      occlusion_(stats.average(p + "occlusion_cycles",
                               "Per load: cycles replaying for want of an MSHR (OAWS occlusion time)")),
      occlusionCoherent_(stats.average(p + "occlusion_cycles_coherent", "Occlusion time of coherent loads")),
      occlusionDivergent_(stats.average(p + "occlusion_cycles_divergent", "Occlusion time of divergent loads")),
      accessCycles_(stats.average(p + "load_access_cycles",
                                  "Per load: first L1D access to its data (OAWS L1D access latency, occlusion included)")),
      accessCyclesCoherent_(stats.average(p + "load_access_cycles_coherent", "L1D access latency of coherent loads")),
      accessCyclesDivergent_(stats.average(p + "load_access_cycles_divergent", "L1D access latency of divergent loads")) {
    if (l1_.sets() > kSetsInAWord) setMark_.assign(l1_.sets(), 0);
    if (cfg_.l1LookupAfterLatency) pipeDepth_ = cfg_.l1HitLatency - 1;  // >= 1, checked by SmConfig
    queueCap_ = cfg_.memIssueQueue;
}

void LdStUnit::setObserver(SchedulerPolicy* p) {
    observer_ = p;
    sendGate_ = p && p->gatesSendBelowL1();
}

bool LdStUnit::askGate(const Parked& a) {
    return l1_.wouldSendBelow(a.lineAddr, a.write || a.atomic) && !observer_->maySendBelowL1(a.warp);
}

void LdStUnit::setReexecutionQueue(unsigned entries) {
    reexec_.assign(entries, Parked{});
    reexecHead_ = reexecCount_ = 0;
}

uint32_t LdStUnit::newLoad(unsigned warp, const WarpInstruction& inst, uint64_t cycle) {
    uint32_t t;
    if (freeTokens_.empty()) {
        t = static_cast<uint32_t>(loads_.size());
        loads_.emplace_back();
    } else {
        std::pop_heap(freeTokens_.begin(), freeTokens_.end(), std::greater<>());
        t = freeTokens_.back();
        freeTokens_.pop_back();
    }
    Load& l = loads_[t];
    l = Load{};
    l.live = true;
    l.warp = warp;
    l.dst[0] = inst.numDst > 0 ? inst.dst[0] : kNoReg;
    l.dst[1] = inst.numDst > 1 ? inst.dst[1] : kNoReg;
    l.pc = inst.pc;
    l.issueCycle = cycle;
    ++liveLoads_;
    return t;
}

void LdStUnit::accept(unsigned warp, const WarpInstruction& inst, uint64_t cycle) {
    if (queueCap_) {
        if (queue_.size() >= queueCap_) throw std::logic_error("LD/ST: instruction accepted with the queue full");
        queue_.push_back({warp, inst, cycle});
        return;
    }
    start(warp, inst, cycle, cycle);
}

void LdStUnit::start(unsigned warp, const WarpInstruction& inst, uint64_t issued, uint64_t now) {
    const uint64_t cycle = now;
    refusedValid_ = false;
    const bool load = inst.op == OpClass::Load;
    if (inst.space == MemSpace::Shared) {
        sharedOps_.inc();
        const unsigned passes = banks_.passes(inst);
        if (passes > 1) {
            bankConflicts_.inc();
            bankConflictCycles_.inc(passes - 1);
        }
        // The unit is taken from now to the last pass, the first made next cycle like a line
        // access: one memory instruction per cycle enters the unit, shared or not.
        sharedPasses_ = passes;
        if (load) {
            uint32_t t = newLoad(warp, inst, issued);
            loads_[t].remaining = 1;
            loads_[t].allHits = false;
            loads_[t].l1d = false;
            at(cycle + cfg_.smemLatency + (passes - 1), t);
        }
        return;
    }
    if (inst.space == MemSpace::Constant || inst.space == MemSpace::Texture) {
        const bool constant = inst.space == MemSpace::Constant;
        if (!load) throw std::logic_error("LD/ST: a store to the constant or texture space");
        if (constant ? !const_ : !tex_) throw std::logic_error("LD/ST: no constant or texture cache attached");
        if (constant) {
            const_->countLoad();
            const_->accessesOf(inst, roAccesses_);
        } else {
            tex_->countLoad();
            tex_->accessesOf(inst, roAccesses_);
        }
        const uint32_t t = newLoad(warp, inst, issued);
        Load& l = loads_[t];
        l.l1d = false;
        l.accesses = static_cast<unsigned>(roAccesses_.size());
        l.remaining = l.accesses;
        l.activeLanes = inst.activeLanes();
        if (roAccesses_.empty()) {  // no active lane: done next cycle
            l.remaining = 1;
            at(cycle + 1, t);
            return;
        }
        roBusy_ = true;
        roSpace_ = inst.space;
        roNext_ = 0;
        token_ = t;
        warp_ = warp;
        pc_ = inst.pc;
        return;
    }
    busy_ = true;
    isLoad_ = load;
    isAtomic_ = inst.atomic && inst.space == MemSpace::Global;
    warp_ = warp;
    pc_ = inst.pc;
    next_ = 0;
    if (isAtomic_) {
        coalescer_.coalesceAtomic(inst, accesses_);
        atomics_c.inc();
        if (load) {
            // Its facts are not L1D ones: no coherent/divergent or fully-cached class, no
            // onLoadServiced; it completes when the L2 has answered every request.
            token_ = newLoad(warp, inst, issued);
            Load& l = loads_[token_];
            l.l1d = false;
            l.allHits = false;
            l.accesses = static_cast<unsigned>(accesses_.size());
            l.remaining = l.accesses;
            l.unlooked = l.accesses;
            l.activeLanes = inst.activeLanes();
            if (accesses_.empty()) {  // no active lane: done next cycle
                l.remaining = 1;
                at(cycle + 1, token_);
            }
        }
    } else if (load) {
        coalescer_.coalesce(inst, accesses_);
        loads_c.inc();
        token_ = newLoad(warp, inst, issued);
        loads_[token_].remaining = static_cast<unsigned>(accesses_.size());
        loads_[token_].accesses = static_cast<unsigned>(accesses_.size());
        unsigned sets = 0;
        if (l1_.sets() <= kSetsInAWord) {
            // One word of set bits: each set index computed once and nothing to clear after
            // (the byte marks below cost two index computations per line; issue 19).
            uint64_t touched = 0;
            for (const auto& a : accesses_) touched |= uint64_t(1) << l1_.setOf(a.lineAddr);
            sets = static_cast<unsigned>(std::popcount(touched));
        } else {
            for (const auto& a : accesses_) {
                uint8_t& m = setMark_[l1_.setOf(a.lineAddr)];
                sets += m == 0;
                m = 1;
            }
            for (const auto& a : accesses_) setMark_[l1_.setOf(a.lineAddr)] = 0;
        }
        loads_[token_].unlooked = static_cast<unsigned>(accesses_.size());
        loads_[token_].activeLanes = inst.activeLanes();
        loads_[token_].setsTouched = sets;
        if (!accesses_.empty()) (accesses_.size() > kCoherentMaxLines ? divergentLoads_ : coherentLoads_).inc();
        if (accesses_.empty()) {  // no active lane: nothing to fetch, done next cycle
            loads_[token_].remaining = 1;
            at(cycle + 1, token_);
            loadServiced();
        }
    } else {
        coalescer_.coalesce(inst, accesses_);
        stores_c.inc();
    }
    if (accesses_.empty()) busy_ = false;
}

void LdStUnit::step(uint64_t cycle) {
    blocked_ = Refusal::None;
    // This cycle's pass of a shared-memory instruction; its last frees the unit.
    if (sharedPasses_) --sharedPasses_;
    // A queued instruction enters the unit in its first free cycle and makes its first access now.
    // A shared-memory one takes no L1D port: once its last pass is made (now, without a bank
    // conflict) the next may follow in the same cycle.
    while (!busy_ && !roBusy_ && !sharedPasses_ && !queue_.empty()) {
        const Queued& q = queue_.front();
        start(q.warp, q.inst, q.issued, cycle - 1);
        queue_.pop_front();
        if (sharedPasses_) --sharedPasses_;
    }
    // A constant or texture load uses its cache's port; the L1D's pipeline and parked accesses
    // go on beside it.
    if (roBusy_) stepReadOnly(cycle);
    if (pipeDepth_) return stepPipeline(cycle);
    if (reexecCount_ && retryParked(cycle)) return;  // the parked access took the L1D port
    if (!busy_) return;
    if (isLoad_) tried(token_, cycle);
    if (refusedValid_ && refusedVersion_ == l1_.version()) {
        // What the L1D would answer and count, and what the refusal below would do.
        blocked_ = refused_;
        repeatRefusal(refused_, 1);
        return;
    }
    // A held-back access (the policy's send gate) is refused like one that finds the miss queue
    // full: parked if there is room, else replayed in place, and no L1D stall counted. The
    // record is built only for a gating policy.
    const bool gated = sendGate_ && askGate(current());
    L1Result r = gated ? L1Result::StallMissQueue : sendCurrent();
    refusedValid_ = false;
    if (isStall(r)) {
        const bool parkable = r == L1Result::StallMshr || r == L1Result::StallMissQueue;
        if (!parkable || reexecCount_ >= reexec_.size()) {
            if (isLoad_ && r == L1Result::StallMshr) ++loads_[token_].occlusion;
            // A gated access (the send gate) is refused by the policy, not by the miss queue.
            if (r == L1Result::StallMshr)
                blocked_ = Refusal::Mshr;
            else if (r == L1Result::StallMissQueue && !gated)
                blocked_ = Refusal::MissQueue;
            if (parkable && !gated && !sendGate_ && !isAtomic_ && reexec_.empty()) {
                refusedValid_ = true;
                refusedVersion_ = l1_.version();
                refused_ = blocked_;
            }
            return;
        }
        reexec_[(reexecHead_ + reexecCount_++) % reexec_.size()] = current();
        parked_.inc();
        if (isLoad_) loads_[token_].allHits = false;
    } else {
        (isAtomic_ ? atomicRequests_ : lineAccesses_).inc();
        if (r == L1Result::Hit) at(cycle + cfg_.l1HitLatency, token_);
        if (isLoad_ && r != L1Result::Hit) loads_[token_].allHits = false;
    }
    if (++next_ == accesses_.size()) {
        busy_ = false;
        if (isLoad_ && !isAtomic_) {
            const double occ = double(loads_[token_].occlusion);
            occlusion_.sample(occ);
            (accesses_.size() > kCoherentMaxLines ? occlusionDivergent_ : occlusionCoherent_).sample(occ);
            loadServiced();
        }
    } else {
        coalescingStalls_.inc();
    }
}

void LdStUnit::stepReadOnly(uint64_t cycle) {
    const uint64_t a = roAccesses_[roNext_];
    Load& l = loads_[token_];
    if (roSpace_ == MemSpace::Constant) {
        const ConstantCache::Result r = const_->access(a, token_);
        if (r == ConstantCache::Result::Fail) return;  // retried next cycle
        if (r == ConstantCache::Result::Hit)
            at(cycle + cfg_.constHitLatency, token_);
        else
            l.allHits = false;
    } else {
        const TextureCache::Result r = tex_->access(a, token_, cycle);
        if (r == TextureCache::Result::Fail) return;
        if (r == TextureCache::Result::Miss) l.allHits = false;
    }
    if (++roNext_ < roAccesses_.size()) {
        (roSpace_ == MemSpace::Constant ? const_->countSerialisedCycle() : tex_->countSerialisedCycle());
        return;
    }
    roBusy_ = false;
}

void LdStUnit::texturePop(uint64_t cycle) {
    uint32_t t;
    if (tex_->pop(cycle, t)) accessDone(t, cycle);
}

uint64_t LdStUnit::nextTimedReturn() const {
    const uint64_t timed = timed_.nextReady();
    return std::min(timed, tex_ ? tex_->nextReady() : UINT64_MAX);
}

void LdStUnit::stepPipeline(uint64_t cycle) {
    // One tag lookup per cycle (the L1D's single port): a parked access's retry (MASCAR), else
    // the head's. An entry behind a refused head waits at the next stage, so it is looked up
    // the cycle after the head leaves at the earliest, as in GPGPU-Sim's shifting queue.
    const bool portUsed = reexecCount_ && retryParked(cycle);
    if (!portUsed && !pipe_.empty() && pipe_.front().lookupCycle <= cycle && lookup(pipe_.front().access, cycle + 1))
        pipe_.pop_front();
    if (!busy_) return;
    // The last stage is free unless every stage is taken: entries close up behind a refused head.
    if (pipe_.size() >= pipeDepth_) {
        pipelineFull_.inc();
        return;
    }
    if (isLoad_) tried(token_, cycle);
    pipe_.push_back({current(), cycle + pipeDepth_});
    if (++next_ == accesses_.size())
        busy_ = false;
    else
        coalescingStalls_.inc();
}

void LdStUnit::repeatRefusal(Refusal r, uint64_t n) {
    if (r == Refusal::MissQueue) return l1_.countMissQueueStalls(n);
    l1_.countMshrStalls(n);
    if (isLoad_) loads_[token_].occlusion += n;
}

LdStUnit::Parked LdStUnit::current() const {
    const LineAccess& a = accesses_[next_];
    // Only an atomic reads its lane count; counting it for every replayed access cost a libgcc
    // call each (no -mpopcnt), about 1 % of a streaming run (issue 19).
    const uint32_t lanes = isAtomic_ ? static_cast<uint32_t>(__builtin_popcount(a.laneMask)) : 0;
    return {a.lineAddr, a.bytes, a.chunks, warp_, pc_, token_, !isLoad_, isAtomic_, lanes, a.laneMask};
}

// send(current()) without building the record: an access is tried every cycle until the L1D
// takes it, and only a parked one needs the record (about 1 % of a streaming run; issue 19).
L1Result LdStUnit::sendCurrent() {
    const LineAccess& a = accesses_[next_];
    if (isAtomic_)
        return l1_.atomic(a.lineAddr, a.bytes, a.chunks, static_cast<uint32_t>(__builtin_popcount(a.laneMask)), warp_,
                          pc_, token_, isLoad_);
    return isLoad_ ? l1_.read(a.lineAddr, warp_, pc_, token_, a.laneMask)
                   : l1_.write(a.lineAddr, a.bytes, warp_, pc_, a.chunks);
}

L1Result LdStUnit::send(const Parked& a) {
    if (a.atomic) return l1_.atomic(a.lineAddr, a.bytes, a.chunks, a.lanes, a.warp, a.pc, a.token, !a.write);
    return a.write ? l1_.write(a.lineAddr, a.bytes, a.warp, a.pc, a.chunks) : l1_.read(a.lineAddr, a.warp, a.pc, a.token, a.laneMask);
}

bool LdStUnit::lookup(const Parked& a, uint64_t hitReady) {
    const L1Result r = heldBack(a) ? L1Result::StallMissQueue : send(a);
    // An L1D load's lookup ends its servicing (lookedUp); an atomic has no lookup.
    const bool l1Load = !a.write && !a.atomic;
    if (isStall(r)) {
        const bool parkable = r == L1Result::StallMshr || r == L1Result::StallMissQueue;
        if (!parkable || reexecCount_ >= reexec_.size()) {
            if (l1Load && r == L1Result::StallMshr) ++loads_[a.token].occlusion;
            return false;
        }
        reexec_[(reexecHead_ + reexecCount_++) % reexec_.size()] = a;
        parked_.inc();
        if (l1Load) lookedUp(a.token, false);
        return true;
    }
    (a.atomic ? atomicRequests_ : lineAccesses_).inc();
    if (r == L1Result::Hit) at(hitReady, a.token);
    if (l1Load) lookedUp(a.token, r == L1Result::Hit);
    return true;
}

void LdStUnit::lookedUp(uint32_t token, bool hit) {
    Load& l = loads_[token];
    if (!hit) l.allHits = false;
    if (--l.unlooked) return;
    const double occ = double(l.occlusion);
    occlusion_.sample(occ);
    (l.accesses > kCoherentMaxLines ? occlusionDivergent_ : occlusionCoherent_).sample(occ);
    loadServiced(l);
}

bool LdStUnit::retryParked(uint64_t cycle) {
    const Parked& p = reexec_[reexecHead_];
    // An atomic, like a store, needs only a miss-queue slot.
    if (l1_.wouldStall(p.lineAddr, p.write || p.atomic) || heldBack(p)) {
        reexecStalls_.inc();
        return false;
    }
    const L1Result r = send(p);
    if (isStall(r)) throw std::logic_error("re-execution: the L1D refused an access it said it would take");
    (p.atomic ? atomicRequests_ : lineAccesses_).inc();
    // Through the pipeline the latency was paid before the lookup that parked the access.
    if (r == L1Result::Hit) at(cycle + (pipeDepth_ ? 1 : cfg_.l1HitLatency), p.token);
    reexecHead_ = (reexecHead_ + 1) % reexec_.size();
    --reexecCount_;
    return true;
}

void LdStUnit::loadServiced() { loadServiced(loads_[token_]); }

void LdStUnit::loadServiced(const Load& l) {
    if (!observer_) return;
    observer_->onLoadServiced({l.warp, l.pc, l.activeLanes, l.accesses, l.setsTouched, l.allHits && l.accesses > 0});
}

void LdStUnit::wake(const std::vector<uint32_t>& tokens, uint64_t cycle) {
    for (uint32_t t : tokens) accessDone(t, cycle);
}

void LdStUnit::accessDone(uint32_t t, uint64_t cycle) {
    Load& l = loads_.at(t);
    if (!l.live || l.remaining == 0) throw std::logic_error("load access completed twice");
    if (--l.remaining) return;
    const uint64_t lat = cycle - l.issueCycle;
    latency_.sample(double(lat));
    if (l.l1d && l.accesses > 0) {
        if (l.firstTry == kNotTried) throw std::logic_error("LD/ST: a load's data returned before its first access");
        const double access = double(cycle - l.firstTry);
        accessCycles_.sample(access);
        (l.accesses > kCoherentMaxLines ? accessCyclesDivergent_ : accessCyclesCoherent_).sample(access);
    }
    const bool fullyCached = l.l1d && l.allHits && l.accesses > 0;
    if (fullyCached) {
        fullyCached_.inc();
        (l.accesses > kCoherentMaxLines ? fullyCachedDivergent_ : fullyCachedCoherent_).inc();
    }
    done_.push_back({l.warp, {l.dst[0], l.dst[1]}, l.pc, fullyCached, l.accesses, lat});
    l.live = false;
    --liveLoads_;
    freeTokens_.push_back(t);
    std::push_heap(freeTokens_.begin(), freeTokens_.end(), std::greater<>());
}

std::string LdStUnit::dumpState() const {
    std::ostringstream os;
    os << "ldst " << (busy_ || roBusy_ || sharedPasses_ ? "busy" : "free");
    if (sharedPasses_) os << " (shared, " << sharedPasses_ << " bank passes left)";
    if (busy_) os << " (warp " << warp_ << " pc 0x" << std::hex << pc_ << std::dec << " access " << next_
                  << "/" << accesses_.size() << ")";
    if (roBusy_) os << " (" << (roSpace_ == MemSpace::Constant ? "constant" : "texture") << " load, warp " << warp_
                    << " pc 0x" << std::hex << pc_ << std::dec << " access " << roNext_ << "/" << roAccesses_.size()
                    << ")";
    os << ", loads in flight " << liveLoads_ << ", timed returns " << timed_.size();
    if (pipeDepth_) os << ", L1D pipeline " << pipe_.size() << "/" << pipeDepth_;
    if (queueCap_) os << ", queued " << queue_.size() << "/" << queueCap_;
    if (reexecCount_) os << ", re-execution queue " << reexecCount_ << "/" << reexec_.size();
    return os.str();
}

} // namespace gpusim
