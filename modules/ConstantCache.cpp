#include "modules/ConstantCache.hpp"

#include <algorithm>
#include <sstream>

namespace gpusim {

ConstantCache::ConstantCache(const SmConfig& cfg, StatRegistry& stats, const std::string& p)
    : tags_(cfg.constBytes, cfg.constLine, cfg.constWays), serialise_(cfg.constSerialise),
      missQueueCap_(cfg.constMissQueue), mshr_(cfg.constMshrEntries, cfg.constMshrMaxMerge),
      loads_(stats.counter(p + "loads", "Constant load instructions (LDC, ULDC with addresses)")),
      accesses_(stats.counter(p + "accesses", "Constant cache lookups: one per distinct address (or line) of a load")),
      hits_(stats.counter(p + "hits", "Lookups that found their line")),
      misses_(stats.counter(p + "misses", "Lookups that sent a line read to the L2")),
      merges_(stats.counter(p + "mshr_merges", "Lookups that joined a line read in flight")),
      fails_(stats.counter(p + "reservation_fails",
                           "Lookups refused for want of an MSHR, merge room or a miss-queue slot (retried)")),
      fills_(stats.counter(p + "fills", "Lines installed")),
      serialised_(stats.counter(p + "serialised_cycles",
                                "Cycles the LD/ST unit stayed busy with further accesses of one constant load")) {}

void ConstantCache::accessesOf(const WarpInstruction& inst, std::vector<uint64_t>& out) const {
    out.clear();
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!(inst.activeMask >> lane & 1u)) continue;
        out.push_back(serialise_ == ConstSerialise::Line ? lineOf(inst.addr[lane]) : inst.addr[lane]);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

ConstantCache::Result ConstantCache::access(uint64_t addr, uint32_t token) {
    const uint64_t line = lineOf(addr);
    if (tags_.lookup(line)) {
        accesses_.inc();
        hits_.inc();
        return Result::Hit;
    }
    if (mshr_.has(line)) {
        if (!mshr_.canMerge(line)) {
            fails_.inc();
            return Result::Fail;
        }
        accesses_.inc();
        merges_.inc();
        mshr_.merge(line, token);
        return Result::Merged;
    }
    if (mshr_.full() || missQueue_.size() >= missQueueCap_) {
        fails_.inc();
        return Result::Fail;
    }
    accesses_.inc();
    misses_.inc();
    mshr_.allocate(line, token);
    missQueue_.push_back(line);
    return Result::Miss;
}

std::vector<uint32_t> ConstantCache::fill(uint64_t line) {
    fills_.inc();
    tags_.insert(line);
    const auto& tokens = mshr_.release(line);
    return std::vector<uint32_t>(tokens.begin(), tokens.end());
}

std::string ConstantCache::dumpState() const {
    std::ostringstream os;
    os << "const mshr " << mshr_.used() << "/" << mshr_.capacity() << " miss_queue " << missQueue_.size() << "/"
       << missQueueCap_;
    return os.str();
}

} // namespace gpusim
