#include "modules/LdStUnit.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

namespace {
constexpr double kLatencyBucketCycles = 16;
constexpr unsigned kLatencyBuckets = 128;
} // namespace

LdStUnit::LdStUnit(const SmConfig& cfg, L1DCache& l1, StatRegistry& stats, const std::string& p)
    : cfg_(cfg), l1_(l1), coalescer_(cfg.l1Line),
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
      latency_(stats.histogram(p + "load_latency", "Load issue to writeback, core cycles",
                               kLatencyBucketCycles, kLatencyBuckets)),
      occlusion_(stats.average(p + "occlusion_cycles",
                               "Per load: cycles replaying for want of an MSHR (OAWS occlusion time)")),
      occlusionCoherent_(stats.average(p + "occlusion_cycles_coherent", "Occlusion time of coherent loads")),
      occlusionDivergent_(stats.average(p + "occlusion_cycles_divergent", "Occlusion time of divergent loads")) {
    setMark_.assign(l1_.sets(), 0);
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
    const bool load = inst.op == OpClass::Load;
    if (inst.space == MemSpace::Shared) {
        sharedOps_.inc();
        if (load) {
            uint32_t t = newLoad(warp, inst, cycle);
            loads_[t].remaining = 1;
            loads_[t].allHits = false;
            at(cycle + cfg_.smemLatency, t);
        }
        return;  // the unit is free again next cycle
    }
    busy_ = true;
    isLoad_ = load;
    warp_ = warp;
    pc_ = inst.pc;
    next_ = 0;
    coalescer_.coalesce(inst, accesses_);
    if (load) {
        loads_c.inc();
        token_ = newLoad(warp, inst, cycle);
        loads_[token_].remaining = static_cast<unsigned>(accesses_.size());
        loads_[token_].accesses = static_cast<unsigned>(accesses_.size());
        activeLanes_ = inst.activeLanes();
        setsTouched_ = 0;
        for (const auto& a : accesses_) {
            uint8_t& m = setMark_[l1_.setOf(a.lineAddr)];
            setsTouched_ += m == 0;
            m = 1;
        }
        for (const auto& a : accesses_) setMark_[l1_.setOf(a.lineAddr)] = 0;
        if (!accesses_.empty()) (accesses_.size() > kCoherentMaxLines ? divergentLoads_ : coherentLoads_).inc();
        if (accesses_.empty()) {  // no active lane: nothing to fetch, done next cycle
            loads_[token_].remaining = 1;
            at(cycle + 1, token_);
            loadServiced();
        }
    } else {
        stores_c.inc();
    }
    if (accesses_.empty()) busy_ = false;
}

void LdStUnit::step(uint64_t cycle) {
    if (reexecCount_ && retryParked(cycle)) return;  // the parked access took the L1D port
    if (!busy_) return;
    const LineAccess& a = accesses_[next_];
    L1Result r = isLoad_ ? l1_.read(a.lineAddr, warp_, pc_, token_)
                         : l1_.write(a.lineAddr, a.bytes, warp_, pc_, a.chunks);
    if (isStall(r)) {
        const bool parkable = r == L1Result::StallMshr || r == L1Result::StallMissQueue;
        if (!parkable || reexecCount_ >= reexec_.size()) {
            if (isLoad_ && r == L1Result::StallMshr) ++loads_[token_].occlusion;
            return;
        }
        reexec_[(reexecHead_ + reexecCount_++) % reexec_.size()] = {a.lineAddr, a.bytes, a.chunks, warp_, pc_, token_, !isLoad_};
        parked_.inc();
        if (isLoad_) loads_[token_].allHits = false;
    } else {
        lineAccesses_.inc();
        if (r == L1Result::Hit) at(cycle + cfg_.l1HitLatency, token_);
        if (isLoad_ && r != L1Result::Hit) loads_[token_].allHits = false;
    }
    if (++next_ == accesses_.size()) {
        busy_ = false;
        if (isLoad_) {
            const double occ = double(loads_[token_].occlusion);
            occlusion_.sample(occ);
            (accesses_.size() > kCoherentMaxLines ? occlusionDivergent_ : occlusionCoherent_).sample(occ);
            loadServiced();
        }
    } else {
        coalescingStalls_.inc();
    }
}

bool LdStUnit::retryParked(uint64_t cycle) {
    const Parked& p = reexec_[reexecHead_];
    if (l1_.wouldStall(p.lineAddr, p.write)) {
        reexecStalls_.inc();
        return false;
    }
    const L1Result r = p.write ? l1_.write(p.lineAddr, p.bytes, p.warp, p.pc, p.chunks) : l1_.read(p.lineAddr, p.warp, p.pc, p.token);
    if (isStall(r)) throw std::logic_error("re-execution: the L1D refused an access it said it would take");
    lineAccesses_.inc();
    if (r == L1Result::Hit) at(cycle + cfg_.l1HitLatency, p.token);
    reexecHead_ = (reexecHead_ + 1) % reexec_.size();
    --reexecCount_;
    return true;
}

void LdStUnit::loadServiced() {
    if (!observer_) return;
    const Load& l = loads_[token_];
    observer_->onLoadServiced({warp_, pc_, activeLanes_, l.accesses, setsTouched_, l.allHits && l.accesses > 0});
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
    if (l.allHits && l.accesses > 0) {
        fullyCached_.inc();
        (l.accesses > kCoherentMaxLines ? fullyCachedDivergent_ : fullyCachedCoherent_).inc();
    }
    done_.push_back({l.warp, {l.dst[0], l.dst[1]}, l.pc, l.allHits && l.accesses > 0, l.accesses, lat});
    l.live = false;
    --liveLoads_;
    freeTokens_.push_back(t);
    std::push_heap(freeTokens_.begin(), freeTokens_.end(), std::greater<>());
}

std::string LdStUnit::dumpState() const {
    std::ostringstream os;
    os << "ldst " << (busy_ ? "busy" : "free");
    if (busy_) os << " (warp " << warp_ << " pc 0x" << std::hex << pc_ << std::dec << " access " << next_
                  << "/" << accesses_.size() << ")";
    os << ", loads in flight " << liveLoads_ << ", timed returns " << timed_.size();
    if (reexecCount_) os << ", re-execution queue " << reexecCount_ << "/" << reexec_.size();
    return os.str();
}

} // namespace gpusim
