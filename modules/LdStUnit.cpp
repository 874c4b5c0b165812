#include "modules/LdStUnit.hpp"

#include <algorithm>
#include <sstream>

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
      latency_(stats.histogram(p + "load_latency", "Load issue to writeback, core cycles",
                               kLatencyBucketCycles, kLatencyBuckets)),
      occlusion_(stats.average(p + "occlusion_cycles",
                               "Per load: cycles replaying for want of an MSHR (OAWS occlusion time)")) {}

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
        if (accesses_.empty()) {  // no active lane: nothing to fetch, done next cycle
            loads_[token_].remaining = 1;
            at(cycle + 1, token_);
        }
    } else {
        stores_c.inc();
    }
    if (accesses_.empty()) busy_ = false;
}

void LdStUnit::step(uint64_t cycle) {
    if (!busy_) return;
    const LineAccess& a = accesses_[next_];
    L1Result r = isLoad_ ? l1_.read(a.lineAddr, warp_, pc_, token_)
                         : l1_.write(a.lineAddr, a.bytes, warp_, pc_);
    if (isStall(r)) {
        if (isLoad_ && r == L1Result::StallMshr) ++loads_[token_].occlusion;
        return;
    }
    lineAccesses_.inc();
    if (r == L1Result::Hit) at(cycle + cfg_.l1HitLatency, token_);
    if (isLoad_ && r != L1Result::Hit) loads_[token_].allHits = false;
    if (++next_ == accesses_.size()) {
        busy_ = false;
        if (isLoad_) occlusion_.sample(double(loads_[token_].occlusion));
    } else {
        coalescingStalls_.inc();
    }
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
    if (l.allHits && l.accesses > 0) fullyCached_.inc();
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
    return os.str();
}

} // namespace gpusim
