#include "modules/InstructionCache.hpp"

#include <sstream>

#include "modules/SmConfig.hpp"

namespace gpusim {

InstructionCache::InstructionCache(const SmConfig& cfg, StatRegistry& stats, const std::string& p)
    : codeBase_(cfg.l1iCodeBase), lineBytes_(cfg.l1iLine), sets_(cfg.l1iBytes / (cfg.l1iLine * cfg.l1iWays)),
      ways_(cfg.l1iWays), missQueueCap_(cfg.l1iMissQueue), lines_(size_t(sets_) * ways_),
      mshr_(cfg.l1iMshrEntries, cfg.l1iMshrMaxMerge),
      accesses_(stats.counter(p + "accesses", "Instruction fetches looked up (one per instruction)")),
      hits_(stats.counter(p + "hits", "Fetches that found their line")),
      misses_(stats.counter(p + "misses", "Fetches that sent a line read")),
      merges_(stats.counter(p + "mshr_merges", "Fetches that joined a line read in flight")),
      fails_(stats.counter(p + "reservation_fails", "Fetches refused for want of an MSHR or a miss-queue slot")),
      fills_(stats.counter(p + "fills", "Lines installed")) {}

InstructionCache::Way* InstructionCache::find(uint64_t line) {
    Way* set = &lines_[size_t(setOf(line)) * ways_];
    for (unsigned w = 0; w < ways_; ++w)
        if (set[w].valid && set[w].line == line) return &set[w];
    return nullptr;
}

bool InstructionCache::probe(uint64_t pc) const {
    return const_cast<InstructionCache*>(this)->find(lineOf(pc)) != nullptr;
}

InstructionCache::Result InstructionCache::fetch(uint64_t pc, unsigned warp) {
    const uint64_t line = lineOf(pc);
    if (Way* w = find(line)) {
        accesses_.inc();
        hits_.inc();
        w->stamp = ++clock_;
        return Result::Hit;
    }
    if (mshr_.has(line)) {
        if (!mshr_.canMerge(line)) {
            fails_.inc();
            return Result::Fail;
        }
        accesses_.inc();
        merges_.inc();
        mshr_.merge(line, warp);
        return Result::Merged;
    }
    if (mshr_.full() || missQueue_.size() >= missQueueCap_) {
        fails_.inc();
        return Result::Fail;
    }
    accesses_.inc();
    misses_.inc();
    mshr_.allocate(line, warp);
    missQueue_.push_back(line);
    return Result::Miss;
}

std::vector<unsigned> InstructionCache::fill(uint64_t line) {
    fills_.inc();
    if (!find(line)) {
        Way* set = &lines_[size_t(setOf(line)) * ways_];
        Way* victim = &set[0];
        for (unsigned w = 0; w < ways_; ++w) {
            if (!set[w].valid) {
                victim = &set[w];
                break;
            }
            if (set[w].stamp < victim->stamp) victim = &set[w];
        }
        *victim = {line, true, ++clock_};
    }
    const auto tokens = mshr_.release(line);
    return std::vector<unsigned>(tokens.begin(), tokens.end());
}

std::string InstructionCache::dumpState() const {
    std::ostringstream os;
    os << "l1i mshr " << mshr_.used() << "/" << mshr_.capacity() << " miss_queue " << missQueue_.size() << "/"
       << missQueueCap_;
    return os.str();
}

} // namespace gpusim
